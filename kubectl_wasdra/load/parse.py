"""Text to plain data, fast: json.loads for JSON, yaml-rs for YAML that reads the same under YAML 1.1 and 1.2, and
the libyaml loader with Kubernetes' scalar rules (load/yaml11.py) for everything else and for every error.

yaml-rs (Rust) follows YAML 1.2, so a plain `yes` or `0644` would come back as "yes" or 644 where Kubernetes reads
true and 420. A conservative scan sends any text containing such a scalar (or a merge key, a tag, a complex or
non-string key) to the libyaml loader, which also finds duplicate keys and excessive aliasing with their positions.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from sys import intern
from typing import TYPE_CHECKING, Any, Final

from kubectl_wasdra.lazy_regex import lazy
from kubectl_wasdra.load.depth import too_deep_documents
from kubectl_wasdra.load.document import ProblemKind
from kubectl_wasdra.load.stream import SEPARATOR_RE, TOO_DEEP, document_span, document_starts, error_line, walk

if TYPE_CHECKING:
    import yaml

try:
    import yaml_rs
except ImportError:  # pragma: no cover - optional accelerator
    yaml_rs = None

# Plain scalars YAML 1.1 (go-yaml v2) reads differently from YAML 1.2 (booleans, leading-zero octals), merge keys,
# tags, complex keys, keys that are not strings.
# One branch per place a plain scalar can start (after ": ", at a line start as key or sequence item, in flow or after
# a bare CR), each beginning with a literal (the engine then skips to those characters) and using possessive
# quantifiers: a pattern starting with `\s`, tried at every space, took 7 s on a 72 MiB snapshot. As six separate
# patterns searching took 25% less time, but compiling them 1.5 ms more, a sixtieth of a one-file run.
_YAML11_WORD: Final = (r"(?=[yYnNoO0-9+_-])(?:[yYnN]|[yY]es|YES|[nN]o|NO|[oO]n|ON|[oO]ff|OFF"  # YAML 1.1 booleans
                       r"|[-+]?0[0-9_]+|[-+]?_[0-9_]+|[-+]?[0-9_]{19,}"  # octal, leading underscore, beyond 64 bits
                       r"|[-+]?[0-9][0-9_]*_[0-9_]*(?:\.[0-9_]*)?"  # digits with underscores (go-yaml drops them)
                       r"|[-+]?0[bo][0-7_]+|[-+]?0x[0-9a-fA-F]*_[0-9a-fA-F_]*)"  # 0b/0o, hex with underscores
                       r"(?=[ \t\r]*(?:$|#|,|\]|\}|:(?:\s|$)))")
_YAML11_SCALAR: Final = re.compile("(?:" + "|".join((
    r":[ \t]++", r"\n[ \t]*+(?:-[ \t]++)*+", r"\[[ \t]*+", r"\{[ \t]*+", r",[ \t]*+", r"\r[ \t]*+")) + ")" + _YAML11_WORD,
    re.MULTILINE)
_SPECIAL_SYNTAX: Final = lazy(r"<<|\s!|^!|^[ \t]*\?(?:\s|$)", re.MULTILINE)
_NON_STRING_KEY_WORD: Final = (r"(?=[-+.0-9~tTfFnN])(?:[-+]?\.?[0-9][^:\n,{}\[\]]*|~|(?:[tT]rue|TRUE|[fF]alse|FALSE"
                                r"|[nN]ull|NULL)[ \t]*):(?:\s|$)")
_NON_STRING_KEYS: Final = tuple(re.compile(start + _NON_STRING_KEY_WORD) for start in (  # searched in "\n" + text
    r"\n[ \t-]*+", r"\{[ \t]*+", r",[ \t]*+"))  # block keys, flow keys
# a flow-mapping key without a value (`{0}`, `{a: 1, 2}`): no ":" follows it (a flow-sequence item matches too: speed only)
_NON_STRING_FLOW_KEY: Final = re.compile(r"[{,][ \t]*+(?=[-+.0-9~tTfFnN])(?:[-+]?\.?[0-9][^:\n,{}\[\]]*|~|(?:[tT]rue|TRUE"
                                         r"|[fF]alse|FALSE|[nN]ull|NULL))[ \t]*[,}]")


def needs_yaml11(text: str) -> bool:
    """True when `text` may read differently under YAML 1.1 than under 1.2, or uses syntax yaml-rs does not resolve
    like Kubernetes (merge keys, tags, complex or non-string keys). A superset: a false positive only costs speed."""
    lines = "\n" + text
    if _YAML11_SCALAR.search(lines):
        return True
    if ("<<" in text or "!" in text or "?" in text) and _SPECIAL_SYNTAX.search(text):
        return True
    if any(pattern.search(lines) for pattern in _COLLECTION_KEYS):
        return True  # a mapping, list or nothing used as a key (`name: {{ x }}`, `: x`): yaml-rs makes it a frozenset
        # or None, go-yaml and sigs.k8s.io/yaml refuse it
    if "\\" in text and _SURROGATE_ESCAPE.search(text):
        return True  # go-yaml, like libyaml, rejects "\ud800": "found invalid Unicode character escape code"
    return any(pattern.search(lines) for pattern in _NON_STRING_KEYS) or bool(_NON_STRING_FLOW_KEY.search(text))


# a mapping, list or nothing used as a key (`name: {{ x }}`, `{a: 1}: x`, `: x`, `[: x]`): one pattern per form, each
# starting with a literal or a character class, searched in "\n" + text (as one alternation it took 2.5x as long)
_COLLECTION_KEYS: Final = tuple(re.compile(pattern, re.MULTILINE) for pattern in (
    r"\{\{(?![{}])", r"[{\[][^\n]*[}\]][ \t]*:(?:\s|$)", r"\n[ \t]*+:(?:\s|$|[,}\]])", r"[{\[,?-][ \t]*+:(?:\s|$|[,}\]])"))

# Deeper documents are refused before any rule or the simulator walks them (recursive code would exhaust the stack).
# Kubernetes objects are rarely 30 levels deep; go-yaml's own limit is 10,000.
MAX_DEPTH: Final = 200
DEEP_HINT: Final = "flatten the document; no Kubernetes object needs this much nesting"
TOO_DEEP_LEVELS: Final = f"{TOO_DEEP} (more than {MAX_DEPTH} levels)"  # the message for a document past MAX_DEPTH

# go-yaml v2 decode.go allowedAliasRatio: up to 400,000 decoded nodes 99% may come from aliases, falling to 10% at
# 4,000,000; the check applies once more than 100 alias-driven nodes and 1,000 nodes have been decoded.
_ALIAS_LOW: Final = 400_000
_ALIAS_HIGH: Final = 4_000_000
_FAST_PATH_ALIAS_EVENTS: Final = 10_000


@dataclass(frozen=True)
class Issue:
    """A load problem before it is tied to a file: kind, 1-based position, message and hint."""

    kind: ProblemKind
    line: int
    column: int
    message: str
    hint: str | None = None


@dataclass
class Parsed:
    """Documents of one text as (stream index, value) in order, and what went wrong."""

    documents: list[tuple[int, Any]] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)
    within_depth: bool = False  # every document is known to nest at most MAX_DEPTH levels


def looks_like_json(text: str) -> bool:
    """kubectl's rule of thumb: a stream whose first non-space character is `{` is JSON."""
    return text.lstrip()[:1] == "{"


def parse_text(text: str, *, is_json: bool) -> Parsed:
    """Documents of `text` (JSON when `is_json`, else a YAML stream) and the issues that stopped any of them.
    Documents nested deeper than MAX_DEPTH by their brackets are refused before any parser or pattern runs."""
    deep = too_deep_documents(text, MAX_DEPTH)
    if not deep:
        return _parse_text(text, is_json=is_json)
    issues = [Issue(ProblemKind.SYNTAX, document_span(text, index)[0] + 1, 1, TOO_DEEP_LEVELS, DEEP_HINT) for index in deep]
    if is_json or len(document_starts(text)) <= 1:
        return Parsed(issues=issues[:1])
    parsed = _parse_text(_without_documents(text, deep), is_json=False)
    documents = [(index, value) for index, value in parsed.documents if index not in deep]
    return Parsed(documents, sorted([*parsed.issues, *issues], key=lambda issue: (issue.line, issue.column)))


def _without_documents(text: str, indexes: list[int]) -> str:
    """`text` with each listed document replaced by an empty one (`~`) of the same number of lines, so that document
    numbers and the other documents' lines stay as they were."""
    starts = document_starts(text)
    ends = [*starts[1:], len(text)]
    parts, last = [], 0
    for index in indexes:
        start, end = starts[index], ends[index]
        head = text[start:end].split("\n", 1)[0] if SEPARATOR_RE.match(text, start) else ""
        body = text[start + len(head):end]
        parts += [text[last:start], head, " ~" if head else "~", "\n" * body.count("\n")]
        last = end
    return "".join([*parts, text[last:]])


def _parse_text(text: str, *, is_json: bool) -> Parsed:
    if is_json:
        return _screened(_parse_json(text), text, is_json=True)
    if yaml_rs is not None and not needs_yaml11(text):
        fast = _parse_fast(text)
        if fast is not None:
            return _screened(fast, text, is_json=False)
    return _screened(_parse_yaml11(text), text, is_json=False)


_SURROGATE_ESCAPE: Final = lazy(r"\\(?:u|U000)[dD][89a-fA-F]")
_SURROGATES: Final = lazy("[\ud800-\udfff]")


def without_surrogates(value: Any) -> Any:
    """`value` with every lone UTF-16 surrogate (only an escape such as "\\ud800" makes one) replaced by U+FFFD, as
    Go's JSON decoder does. Called on documents of at most MAX_DEPTH levels."""
    if isinstance(value, str):
        return _SURROGATES.sub("\ufffd", value)
    if isinstance(value, dict):
        return {without_surrogates(k): without_surrogates(v) for k, v in value.items()}
    if isinstance(value, list):
        return [without_surrogates(item) for item in value]
    return value


def _has_surrogates(value: Any) -> bool:
    if isinstance(value, str):
        return bool(_SURROGATES.search(value))
    if isinstance(value, dict):
        return any(_has_surrogates(k) or _has_surrogates(v) for k, v in value.items())
    return isinstance(value, list) and any(_has_surrogates(item) for item in value)


def _screened(parsed: Parsed, text: str, *, is_json: bool) -> Parsed:
    """Documents nested more than MAX_DEPTH levels become a syntax issue at their first line. Lone surrogates (which
    no UTF-8 output or validator takes) become U+FFFD in JSON, as Go's decoder does; in YAML they are a syntax
    error, as go-yaml says: "found invalid Unicode character escape code"."""
    issues = list(parsed.issues)
    documents = []
    surrogates = "\\" in text and _SURROGATE_ESCAPE.search(text) is not None
    for index, value in parsed.documents:
        start = None
        if not parsed.within_depth and _deeper_than(value, MAX_DEPTH):
            start = document_span(text, index)[0]
            issues.append(Issue(ProblemKind.SYNTAX, start + 1, 1, TOO_DEEP_LEVELS, DEEP_HINT))
        elif surrogates and _has_surrogates(value):
            if is_json:
                documents.append((index, without_surrogates(value)))
                continue
            issues.append(_surrogate_issue(text, document_span(text, index)[0]))
        else:
            documents.append((index, value))
    if len(issues) == len(parsed.issues):
        return Parsed(documents, issues) if surrogates else parsed
    return Parsed(documents, sorted(issues, key=lambda issue: (issue.line, issue.column)))


def _surrogate_issue(text: str, start_line: int) -> Issue:
    offset = 0
    for _ in range(start_line):
        offset = text.find("\n", offset) + 1
    match = _SURROGATE_ESCAPE.search(text, offset) or _SURROGATE_ESCAPE.search(text)
    line = text.count("\n", 0, match.start()) + 1 if match else start_line + 1
    column = match.start() - text.rfind("\n", 0, match.start()) if match else 1
    return Issue(ProblemKind.SYNTAX, line, column, "invalid YAML: found invalid Unicode character escape code (a lone "
                 "UTF-16 surrogate)", "write the character itself, or a valid \\U escape for characters beyond U+FFFF")


_NON_STRING_KEY: Final = object()
_TOO_DEEP: Final = object()


def _interned_keys(value: Any, level: int = 1) -> Any:
    """`value` (at nesting `level`, a document's root is 1) with every mapping key interned; _NON_STRING_KEY when a key
    is not a string, _TOO_DEEP when a mapping or list sits deeper than MAX_DEPTH (as _deeper_than finds; the recursion
    stops there). yaml-rs makes a new string for each key of each object: on 20,000 documents interning saves a
    quarter of the loaded data's memory."""
    if level > MAX_DEPTH:
        return _TOO_DEEP
    if type(value) is dict:
        copy = {}
        for key, item in value.items():
            if type(key) is not str:
                return _NON_STRING_KEY
            if type(item) is dict or type(item) is list:
                item = _interned_keys(item, level + 1)
                if item is _NON_STRING_KEY or item is _TOO_DEEP:
                    return item
            copy[intern(key)] = item
        return copy
    items = []
    for item in value:
        if type(item) is dict or type(item) is list:
            item = _interned_keys(item, level + 1)
            if item is _NON_STRING_KEY or item is _TOO_DEEP:
                return item
        items.append(item)
    return items


def _deeper_than(value: Any, limit: int) -> bool:
    """True when `value` nests mappings/lists more than `limit` levels (iterative: safe on any depth)."""
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        for child in children:
            if isinstance(child, dict | list):
                if depth >= limit:
                    return True
                stack.append((child, depth + 1))
    return False


def _parse_json(text: str) -> Parsed:
    duplicates: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        result = dict(items)
        if len(result) != len(items):
            duplicates.append(next(k for i, (k, _) in enumerate(items) if any(k == o for o, _ in items[:i])))
        return result

    try:
        value = json.loads(text, object_pairs_hook=pairs)
    except json.JSONDecodeError as exc:
        if text.lstrip()[:1] in "{[" and not looks_like_concatenated(text):
            return Parsed(issues=[Issue(ProblemKind.SYNTAX, exc.lineno, exc.colno, f"invalid JSON: {exc.msg}",
                                        "fix the JSON syntax at this place")])
        return _parse_yaml11(text)
    except RecursionError:
        return Parsed(issues=[Issue(ProblemKind.SYNTAX, 1, 1, TOO_DEEP_LEVELS, DEEP_HINT)])
    except ValueError:  # an integer of more than 4,300 digits (Python's int conversion limit)
        line, column = long_number_position(text)
        return Parsed(issues=[Issue(ProblemKind.SYNTAX, line, column, LONG_NUMBER, LONG_NUMBER_HINT)])
    if duplicates:
        return _parse_yaml11(text)  # reports each duplicate key with its position
    return Parsed(documents=[(0, value)])


LONG_NUMBER: Final = "invalid JSON: a number of more than 4,300 digits"
LONG_NUMBER_HINT: Final = "write the value as a string or a quantity such as 1e5000; no Kubernetes field holds such a number"
_LONG_DIGITS: Final = lazy(r"[0-9]{4300}")


def long_number_position(text: str) -> tuple[int, int]:
    """1-based (line, column) of the first run of more than 4,300 digits in `text` ((1, 1) when there is none)."""
    match = _LONG_DIGITS.search(text)
    if match is None:
        return 1, 1
    return text.count("\n", 0, match.start()) + 1, match.start() - text.rfind("\n", 0, match.start())


def looks_like_concatenated(text: str) -> bool:
    """True for a stream of several JSON objects (kubectl accepts them); YAML reads it when separated by `---`."""
    return bool(SEPARATOR_RE.search(text))


def _parse_fast(text: str) -> Parsed | None:
    """yaml-rs over the whole text, or None when its answer is ambiguous or it failed (the slow path reports why)."""
    try:
        value = yaml_rs.loads(text, parse_datetime=False, alias_limits=_fast_alias_limits())
    except (yaml_rs.YAMLDecodeError, ValueError, TypeError, OverflowError, RecursionError):
        return None
    separators = len(SEPARATOR_RE.findall(text))
    if isinstance(value, list) and separators:
        # yaml-rs returns a list both for a stream and for one document that is a list: only trust it when
        # the number of `---` lines explains the number of documents and every document is a mapping or empty
        if len(value) < 2 or separators < len(value) - 1 or not all(d is None or isinstance(d, dict) for d in value):
            return None
        documents = value
    elif isinstance(value, list):
        return None  # a single document that is a list: the slow path words the problem
    else:
        documents = [value]
    interned = [_interned_keys(d) if isinstance(d, dict) else d for d in documents]
    if any(d is _NON_STRING_KEY for d in interned):
        return None  # a key the patterns of needs_yaml11 missed (`{0}`: a flow key without a colon)
    within_depth = not any(d is _TOO_DEEP for d in interned)
    documents = [d if i is _TOO_DEEP else i for d, i in zip(documents, interned, strict=True)]  # _screened words it
    return Parsed(documents=list(enumerate(documents)), within_depth=within_depth)


@functools.cache
def _fast_alias_limits() -> object:
    """Heavy alias use leaves the fast path, so go-yaml's exact ratio rule (_excessive_aliasing) decides."""
    return yaml_rs.AliasLimits(max_total_replayed_events=_FAST_PATH_ALIAS_EVENTS)


def _parse_yaml11(text: str) -> Parsed:
    parsed = Parsed()
    has_aliases = "*" in text
    for segment in walk(text, lambda part: _documents(part, has_aliases)):
        offset = segment.line_offset
        if segment.error is not None:
            parsed.issues.append(_syntax_issue(segment.error, offset, text))
            continue
        value, duplicates, alias_mark = segment.value
        if alias_mark is not None:
            parsed.issues.append(Issue(ProblemKind.ALIAS_LIMIT, offset + alias_mark.line + 1, alias_mark.column + 1,
                                       "document contains excessive aliasing (a YAML alias bomb?)",
                                       "expand the aliases or split the document; Kubernetes rejects it too"))
            continue
        for key, mark in duplicates:
            parsed.issues.append(Issue(ProblemKind.DUPLICATE_KEY, offset + mark.line + 1, mark.column + 1,
                                       f'mapping key "{key}" already defined', "remove or rename one of the keys"))
        parsed.documents.append((segment.index, value))
    return parsed


def _documents(text: str, has_aliases: bool) -> Iterator[tuple[Any, list[tuple[str, Any]], Any]]:
    """(value, duplicate keys, alias-bomb mark or None) per document, parsed by libyaml with Kubernetes' rules."""
    from kubectl_wasdra.load.yaml11 import KubeLoader

    loader = KubeLoader(text)
    try:
        while loader.check_node():
            node = loader.get_node()
            if has_aliases and _excessive_aliasing(node):
                yield None, [], node.start_mark
                continue
            loader.duplicate_keys.clear()
            value = loader.construct_document(node)
            yield value, list(loader.duplicate_keys), None
    finally:
        loader.dispose()


def _excessive_aliasing(root: Any) -> bool:
    """go-yaml v2's alias ratio rule, computed on the composed graph without expanding it."""
    import yaml

    sizes: dict[int, int] = {}

    def size(node: Any) -> int:
        key = id(node)
        if key not in sizes:
            sizes[key] = 0  # a cycle counts as nothing more
            children = node.value if isinstance(node, yaml.SequenceNode) else (
                [n for pair in node.value for n in pair] if isinstance(node, yaml.MappingNode) else [])
            sizes[key] = 1 + sum(size(child) for child in children)
        return sizes[key]

    seen: set[int] = set()
    alias_count = 0
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            alias_count += size(node)
            continue
        seen.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            stack.extend(n for pair in node.value for n in pair)
    total = len(seen) + alias_count
    return alias_count > 100 and total > 1000 and alias_count / total > _allowed_alias_ratio(total)


def _allowed_alias_ratio(decoded: int) -> float:
    if decoded <= _ALIAS_LOW:
        return 0.99
    if decoded >= _ALIAS_HIGH:
        return 0.10
    return 0.99 - 0.89 * (decoded - _ALIAS_LOW) / (_ALIAS_HIGH - _ALIAS_LOW)


def _syntax_issue(error: yaml.YAMLError, offset: int, text: str) -> Issue:
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    line = offset + error_line(error) + 1
    column = mark.column + 1 if mark is not None else 1
    problem = getattr(error, "problem", None) or str(error).splitlines()[0]
    context = getattr(error, "context", None)
    message = f"invalid YAML: {problem}" + (f" ({context})" if context else "")
    hint = "fix the YAML syntax at this place"
    if problem == TOO_DEEP:
        return Issue(ProblemKind.SYNTAX, line, 1, TOO_DEEP_LEVELS, DEEP_HINT)
    if _has_tab_near(text, line):
        hint = "indent with spaces: YAML does not allow tabs for indentation"
    elif "could not determine a constructor" in message:
        hint = "remove the YAML tag; Kubernetes manifests use plain values"
    return Issue(ProblemKind.SYNTAX, line, column, message, hint)


def _has_tab_near(text: str, line: int) -> bool:
    lines = text.splitlines()
    return any("\t" in lines[i] for i in range(max(0, line - 2), min(len(lines), line)))
