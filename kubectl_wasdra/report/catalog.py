"""`kubectl wasdra rules`: the rule catalogue rendered from the registry (IDs from lint/codes.py, docs from the
implementing functions), as text or JSON."""

from __future__ import annotations

import json
from typing import Any

from kubectl_wasdra.errors import UsageError
from kubectl_wasdra.lint.codes import RuleInfo, fixability
from kubectl_wasdra.lint.registry import Rule, all_rules, rule_infos, select_rules


def _entry(info: RuleInfo, implemented: Rule | None) -> dict[str, Any]:
    return {"id": info.id, "name": info.name, "family": info.family, "severity": str(info.severity),
            "status": info.status, "fix": str(fixability(info.id)),
            "summary": info.summary, "scope": implemented.scope if implemented else None,
            "doc": implemented.doc if implemented else ""}


def rule_entries(key: str | None = None) -> list[dict[str, Any]]:
    """Catalogue entries (all, or those `key` selects: an ID, a name, a family or ALL), in ID order of codes.py."""
    implemented = {r.info.id: r for r in all_rules()}
    try:
        wanted = select_rules([key]) if key else None
    except UsageError as exc:
        raise UsageError(exc.message, where="rules", hint=exc.hint) from None
    return [_entry(info, implemented.get(info.id)) for info in rule_infos() if wanted is None or info.id in wanted]


_FIX_MARK = {"none": "", "safe": "fix", "unsafe": "fix!"}   # ruff marks fixable rules; "!" = only with --unsafe-fixes


def render_rules(key: str | None, output: str) -> str:
    """Text: a table, or each rule's documentation when one rule is asked for. JSON: the entries."""
    entries = rule_entries(key)
    if output == "json":
        return json.dumps({"rules": entries}, indent=2, ensure_ascii=False) + "\n"
    if len(entries) == 1:
        e = entries[0]
        fix = "" if e["fix"] == "none" else f", fix: {e['fix']}"
        return f"{e['id']} {e['name']} ({e['severity']}, {e['status']}{fix})\n{e['summary']}\n\n{e['doc']}\n"
    id_w = max(len(e["id"]) for e in entries)
    name_w = max(len(e["name"]) for e in entries)
    lines = [f"{e['id']:<{id_w}}  {e['name']:<{name_w}}  {e['severity']:<7}  {_FIX_MARK[e['fix']]:<6}  {e['summary']}"
             for e in entries]
    return "\n".join(lines) + "\n"
