"""`explain -o html`: the report as one self-contained page, drawn from the document `-o json` prints (plus each
group's cluster grid, explain/grid.py), so the page's numbers are the JSON's by construction. `capacity -o html`
reuses the shell through `render_html(explain_doc, capacity_doc)`; docs/html-report.md describes both."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from kubectl_wasdra.explain.causes import DraCause
from kubectl_wasdra.explain.html_grid import grid_html
from kubectl_wasdra.explain.html_page import Section, esc, expand_buttons, page, table
from kubectl_wasdra.explain.html_plugins import plugin_tables
from kubectl_wasdra.explain.ordering import natural_key, runs, shortened

MAX_NAMES: Final = 6  # runs of domain names in a cause row
MAX_SECTIONS: Final = 50  # groups drawn in full (a 5,000-pod Job is 5,000 groups of one); -o json lists every one
OPEN_ROWS: Final = 50  # rows of a plain capacity list shown before it is folded
MAX_VERDICT_ROWS: Final = 200  # above this many groups the verdict table folds groups with one outcome into a row


def render_html(explain_doc: Mapping[str, Any] | None, capacity_doc: Mapping[str, Any] | None = None) -> str:
    """The page for an explain document (render_json.html_document: the -o json document with a `grid` per group;
    None: no explain sections) and, when given, a capacity document (capacity_sections)."""
    sections: list[Section] = []
    title = "kubectl wasdra"
    subtitle = ""
    if explain_doc is not None:
        groups = list(explain_doc.get("groups") or ())
        failing = sum(1 for g in groups if g.get("fits") is False)
        title = f"kubectl wasdra explain: {len(groups):,} group{'s' if len(groups) != 1 else ''}, " \
                f"{failing:,} {'does' if failing == 1 else 'do'} not fit"
        subtitle = f"Kubernetes {esc(explain_doc.get('k8sVersion', ''))}"
        sections.append(Section("verdict", "Verdict per group", _verdicts(groups) if len(groups) <= MAX_VERDICT_ROWS
                                else _folded_verdicts(groups)))
        drawn = groups[:MAX_SECTIONS]
        sections += [Section(f"g{i}", _group_title(g), _group_body(g, i)) for i, g in enumerate(drawn, 1)]
        if len(groups) > len(drawn):
            sections.append(Section("more", f"{len(groups) - len(drawn):,} more groups",
                                    f"<p>The first {len(drawn):,} groups are drawn in full; the verdict of every group "
                                    "is in the table above, and <code>-o json</code> has each one's details.</p>"))
        sections += _notes(explain_doc)
    if capacity_doc is not None:
        sections += capacity_sections(capacity_doc)
        if explain_doc is None:
            title = "kubectl wasdra capacity"
    footer = ("Written by kubectl wasdra. Self-contained: no scripts, styles or fonts are loaded from anywhere. "
              "Colour is never the only signal: every state has its own glyph.")
    return page(title, sections, subtitle=subtitle, footer=esc(footer))


def capacity_sections(capacity_doc: Mapping[str, Any]) -> list[Section]:
    """The capacity command's sections (explain/capacity_html.py draws them from its -o json document)."""
    from kubectl_wasdra.explain.capacity_html import capacity_sections as sections

    return sections(capacity_doc)


def verdict_word(group: Mapping[str, Any]) -> tuple[str, str]:
    """(css class, words) of a group's verdict: fits, does not fit, or unknown / not simulated."""
    fits = group.get("fits")
    if fits is True:
        return "v-fits", "fits"
    if fits is False:
        return "v-nofit", "does not fit"
    return "v-unknown", "unknown" if group.get("unknown") else "not simulated (another scheduler)"


def _name(group: Mapping[str, Any]) -> str:
    return f"{group.get('namespace', '')}/{group.get('name', '')}"


def _group_title(group: Mapping[str, Any]) -> str:
    return f"{group.get('kind', '')} {_name(group)}: {verdict_word(group)[1]}"


def _verdicts(groups: Sequence[Mapping[str, Any]]) -> str:
    rows = []
    for index, group in enumerate(groups, 1):
        css, word = verdict_word(group)
        placement = group.get("placement") or {}
        domain = ", ".join(f"{k}={v}" for k, v in (placement.get("domain") or {}).items())
        first = _first_reason(group)
        rows.append([esc(group.get("kind", "")), f'<a href="#g{index}">{esc(_name(group))}</a>',
                     f'<span class="v {css}" data-verdict="{esc(word)}">{esc(word)}</span>',
                     esc(f"{len(placement.get('pods') or {}):,}"), esc(domain), esc(first)])
    return table(["kind", "namespace/name", "verdict", "pods placed", "domain", "first reason"], rows, numeric=(3,),
                 attrs=' id="verdict-table"')


def _first_reason(group: Mapping[str, Any]) -> str:
    return "" if group.get("fits") else str((group.get("reasons") or [{}])[0].get("message", ""))


def _folded_verdicts(groups: Sequence[Mapping[str, Any]]) -> str:
    """One row per outcome (kind, verdict, first reason) with its number of groups and, folded, every group's name
    (and node, for a placed pod)."""
    outcomes: dict[tuple[str, str, str], list[Mapping[str, Any]]] = {}
    for group in groups:
        outcomes.setdefault((str(group.get("kind", "")), verdict_word(group)[1], _first_reason(group)), []).append(group)
    rows = []
    for (kind, word, reason), members in outcomes.items():
        css = verdict_word(members[0])[0]
        names = ", ".join(_name(g) + "".join(f" → {n}" for n in (g.get("placement") or {}).get("pods", {}).values())
                          for g in members)
        rows.append([esc(kind), f'<span class="v {css}" data-verdict="{esc(word)}" data-count="{len(members)}">'
                                f"{esc(word)}</span>", esc(f"{len(members):,}"),
                     f"<details><summary>{esc(_name(members[0]))}{' …' if len(members) > 1 else ''}</summary>"
                     f"<p>{esc(names)}</p></details>", esc(reason)])
    return (f"<p>{len(groups):,} groups, folded by outcome.</p>"
            + table(["kind", "verdict", "groups", "namespace/name", "first reason"], rows, numeric=(2,),
                    attrs=' id="verdict-table"'))


def _group_body(group: Mapping[str, Any], index: int) -> str:
    css, word = verdict_word(group)
    attrs = (f'data-kind="{esc(group.get("kind", ""))}" data-namespace="{esc(group.get("namespace", ""))}" '
             f'data-name="{esc(group.get("name", ""))}" data-fits="{esc(str(group.get("fits")).lower())}"')
    parts = [f'<div class="group" {attrs}>', expand_buttons(),
             f'<p>Verdict: <span class="v {css}">{esc(word)}</span></p>']
    if group.get("unknown"):
        parts.append(f"<p>Why unknown: {esc(group['unknown'])}</p>")
    parts += [_recorded(group), _reasons(group.get("reasons") or ()), _dra(group.get("dra")),
              _domains(group.get("domains") or ()),
              _placement(group.get("placement") or {}), _preemption(group.get("preemption")),
              _suggestions(group), plugin_tables(group), grid_html(group.get("grid"), index)]
    return "".join(parts) + "</div>"


def _recorded(group: Mapping[str, Any]) -> str:
    """explain-pending: what the cluster recorded, and whether our verdict agrees."""
    if "agree" not in group:
        return ""
    agree = group["agree"] or {}
    rows = ([esc(r.get("source", "")), esc(r.get("reason", "")), esc(r.get("message", "")), esc(r.get("time", ""))]
            for r in group.get("recorded") or ())
    return (f'<p>Agrees with what the cluster recorded: <b data-agree="{esc(agree.get("verdict", ""))}">'
            f'{esc(agree.get("verdict", ""))}</b> ({esc(agree.get("why", ""))})</p>'
            + table(["source", "reason", "message", "time"], rows, attrs=' class="recorded"'))


def _reasons(reasons: Sequence[Mapping[str, Any]]) -> str:
    if not reasons:
        return ""
    rows = [[f"<code>{esc(r.get('code', ''))}</code>", esc("" if r.get("count") is None else f"{r['count']:,}"),
             esc(r.get("message", ""))] for r in reasons]
    return "<h3>Reasons</h3>" + table(["code", "nodes", "message"], rows, numeric=(1,), attrs=' class="reasons"')


def _dra_text(dra: Mapping[str, Any] | None) -> str:
    """The text view's DRA line, from the JSON fields (causes.DraCause)."""
    if not dra:
        return ""
    return DraCause(str(dra.get("request", "")), str(dra.get("deviceClassName", "")), int(dra.get("needed", 0)),
                    str(dra.get("stage", "")), int(dra.get("bestFree", 0)), int(dra.get("nodes", 0)),
                    str(dra.get("matchAttribute", ""))).text()


def _dra(dra: Mapping[str, Any] | None) -> str:
    return f"<p>DRA: {esc(_dra_text(dra))}</p>" if dra else ""


def _signature(domain: Mapping[str, Any]) -> tuple[Any, ...]:
    """What domains with one cause share (DomainLine.signature, from the JSON fields)."""
    dra = domain.get("dra") or {}
    return (domain.get("fits"), domain.get("placeable"), domain.get("needed"),
            tuple((r.get("code"), r.get("message")) for r in domain.get("reasons") or ()),
            tuple(dra.get(k) for k in ("request", "deviceClassName", "needed", "stage", "matchAttribute")))


def _domains(domains: Sequence[Mapping[str, Any]]) -> str:
    """The per-domain cause table: one row per cause (its domains folded beneath), most pods placeable first."""
    if not domains:
        return ""
    groups: dict[tuple[Any, ...], list[Mapping[str, Any]]] = {}
    for domain in domains:
        groups.setdefault(_signature(domain), []).append(domain)
    ordered = sorted(groups.values(), key=lambda g: (-int(g[0].get("placeable") or 0), -len(g),
                                                     natural_key(str(g[0].get("value", "")))))
    key = str(domains[0].get("key", ""))
    rows = []
    for members in ordered:
        members = sorted(members, key=lambda d: natural_key(str(d.get("value", ""))))
        first = members[0]
        nodes = sum(int(d.get("nodes") or 0) for d in members)
        reasons = _summed(members)
        best = max(int((d.get("dra") or {}).get("bestFree", 0)) for d in members)
        dra = dict(first["dra"], bestFree=best, nodes=sum(int((d.get("dra") or {}).get("nodes", 0)) for d in members)) \
            if first.get("dra") else None
        names = shortened(runs([str(d.get("value", "")) for d in members]), MAX_NAMES, "names")
        listing = table(["value", "nodes", "placeable", "needed", "fits"],
                        ([esc(d.get("value", "")), esc(d.get("nodes", "")), esc(d.get("placeable", "")),
                          esc(d.get("needed", "")), esc("yes" if d.get("fits") else "no")] for d in members),
                        numeric=(1, 2, 3), attrs=' class="domain-list"')
        css = "v-fits" if first.get("fits") else "v-nofit"
        rows.append([f"<details><summary>{len(members):,} ({esc(names)})</summary>{listing}</details>",
                     esc(f"{nodes:,}"), f'<span class="v {css}">{esc(first.get("placeable"))} of '
                                        f'{esc(first.get("needed"))}</span>',
                     "<br>".join(esc(f"{count:,} {message}") for message, count in reasons),
                     esc(_dra_text(dra))])
    head = f"<h3>Per {esc(key)}: {len(domains):,} domains, {len(ordered):,} distinct causes</h3>"
    return head + table(["domains", "nodes", "pods placeable", "node reasons (first pod that did not fit)", "DRA"],
                        rows, numeric=(1,), attrs=' class="causes"')


def _summed(members: Sequence[Mapping[str, Any]]) -> list[tuple[str, int]]:
    """Reason messages with their node counts added over the domains (causes.summed, from the JSON fields)."""
    total: dict[str, int] = {}
    for domain in members:
        for reason in domain.get("reasons") or ():
            message = str(reason.get("message", ""))
            total[message] = total.get(message, 0) + int(reason.get("count") or 0)
    return sorted(total.items(), key=lambda item: f"{item[1]} {item[0]}")


def _placement(placement: Mapping[str, Any]) -> str:
    pods = placement.get("pods") or {}
    claims = placement.get("claims") or {}
    if not pods and not claims:
        return ""
    out = "<h3>Placement</h3>"
    if pods:
        numa = (placement.get("numa") or {}).get("pods") or {}
        out += table(["pod", "node", "NUMA (kubelet)"],
                     ([esc(pod), esc(node), esc(numa.get(pod, ""))] for pod, node in pods.items()),
                     attrs=' class="placement"')
    if claims:
        rows = [[esc(claim), esc(d.get("request", "")), esc(d.get("driver", "")), esc(d.get("pool", "")),
                 esc(d.get("device", ""))] for claim, devices in claims.items() for d in devices]
        out += table(["claim", "request", "driver", "pool", "device"], rows, attrs=' class="claims"')
    return out


def _preemption(preemption: Mapping[str, Any] | None) -> str:
    if not preemption:
        return ""
    victims = preemption.get("victims") or []
    out = "<h3>Preemption</h3>"
    if victims:
        out += table(["kind", "namespace", "name", "priority", "group"],
                     ([esc(v.get(k, "")) for k in ("kind", "namespace", "name", "priority", "group")] for v in victims))
    nominated = preemption.get("nominatedNodes") or {}
    if nominated:
        out += table(["pod", "nominated node"], ([esc(p), esc(n)] for p, n in nominated.items()))
    rest = {k: v for k, v in preemption.items() if k not in ("victims", "nominatedNodes")}
    if rest:
        out += table(["field", "value"], ([esc(k), esc(_value(v))] for k, v in rest.items()))
    return out


def _value(value: Any) -> str:
    """A JSON value as a reader writes it: yes/no, lists joined by commas, objects as key=value, null as nothing."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return ""
    if isinstance(value, list):
        return "; ".join(_value(v) for v in value) or "none"
    if isinstance(value, Mapping):
        return ", ".join(f"{k}={_value(v)}" for k, v in value.items() if v is not None)
    return str(value)


def _suggestions(group: Mapping[str, Any]) -> str:
    out = ""
    suggestions = group.get("suggestions") or []
    if suggestions:
        items = "".join(f"<li>{esc(s.get('message', ''))} <span class=\"meta\">({esc(s.get('outcome', ''))})</span></li>"
                        for s in suggestions)
        out += f'<h3>Suggestions</h3><ul class="suggestions">{items}</ul>'
    if group.get("suggestionsNote"):
        out += f"<p class=\"meta\">{esc(group['suggestionsNote'])}</p>"
    tried = group.get("tried") or []
    if tried:
        rows = ([esc(t.get("kind", "")), esc(t.get("change", "")), esc(t.get("outcome", ""))] for t in tried)
        out += (f"<details><summary>What was tried ({len(tried):,} what-ifs)</summary>"
                + table(["kind", "change", "outcome"], rows, attrs=' class="tried"') + "</details>")
    return out


def _notes(doc: Mapping[str, Any]) -> list[Section]:
    items = [str(n) for n in doc.get("notes") or ()]
    items += [f"not read: {g.get('kind', '')}: {g.get('reason', g)}" if isinstance(g, Mapping) else str(g)
              for g in doc.get("gaps") or ()]
    items += [f"left out: {p.get('message', p)}" if isinstance(p, Mapping) else str(p) for p in doc.get("leftOut") or ()]
    if not items:
        return []
    return [Section("notes", "Notes", "<ul>" + "".join(f"<li>{esc(i)}</li>" for i in items) + "</ul>")]
