"""`capacity -o html`: the capacity answer as sections of the self-contained report page (explain/html_page.py),
drawn from the document `capacity -o json` prints, so the page's numbers are the JSON's by construction."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from kubectl_wasdra.explain.html_page import Section, esc, page, table
from kubectl_wasdra.explain.ordering import natural_key

OPEN_ROWS: Final = 50  # node rows shown before the rest are folded under <details>


def _limit_words(limit: Mapping[str, Any] | None) -> str:
    if not limit:
        return ""
    return ("excluded: " if limit.get("excluded") else "") + str(limit.get("limit", ""))


def _limits_cell(limits: Sequence[Mapping[str, Any]]) -> str:
    """A domain's limits as "cpu (3 nodes), ..." (what runs out before exclusions)."""
    ordered = sorted(limits, key=lambda item: (bool(item.get("excluded")), -int(item.get("nodes", 0)),
                                               str(item.get("limit", ""))))
    return esc(", ".join(f"{_limit_words(item)} ({int(item.get('nodes', 0)):,})" for item in ordered))


def _summary(doc: Mapping[str, Any]) -> str:
    shape = doc.get("shape") or {}
    copies, capped = int(doc.get("copies", 0)), bool(doc.get("capped"))
    words = f"at least {copies:,} copies fit now (stopped at --max {int(doc.get('max', 0)):,})" if capped else \
        f"{copies:,} {'copy fits' if copies == 1 else 'copies fit'} now"
    body = (f'<p class="capacity-total" data-copies="{copies}" data-capped="{"true" if capped else "false"}">'
            f"<strong>{esc(words)}</strong></p>")
    message = (doc.get("nextCopy") or {}).get("message")
    if message:
        body += f"<p>Copy {copies + 1:,} does not fit: <q>{esc(message)}</q></p>"
    rows = [["shape", esc(f"{shape.get('kind', '')} {shape.get('namespace', '')}/{shape.get('name', '')}")],
            ["pods a copy", esc(f"{int(shape.get('podsPerCopy', 1)):,}")],
            ["Kubernetes", esc(doc.get("k8sVersion", ""))],
            ["topology key", esc(doc.get("topologyKey") or "none")]]
    return body + table(["field", "value"], rows, attrs=' data-list="summary"')


def _limits(doc: Mapping[str, Any]) -> str:
    rows = [[esc(_limit_words(item)), esc(item.get("code", "")), esc(f"{int(item.get('nodes', 0)):,}")]
            for item in doc.get("limits") or ()]
    if not rows:
        return "<p>No copy failed, so nothing ran out.</p>"
    return ("<p>Why the copy that did not fit fits on no node, per node: the scheduler's reason, named as the resource "
            "that ran out. <em>excluded</em> nodes never take a copy (a taint, an affinity, a request above "
            "allocatable).</p>" + table(["what runs out", "reason code", "nodes"], rows, numeric=(2,),
                                        attrs=' data-list="limits"'))


def _domains(doc: Mapping[str, Any]) -> str:
    domains = sorted(doc.get("domains") or (), key=lambda d: natural_key(d.get("value", "")))
    constrained = bool(doc.get("topologyConstrained"))
    per_copy = int((doc.get("shape") or {}).get("podsPerCopy", 1))
    rows = []
    for domain in domains:
        following = domain.get("nextCopyPods")
        row = [esc(domain.get("value", "")), esc(f"{int(domain.get('nodes', 0)):,}"),
               esc(f"{int(domain.get('copies', 0)):,}"), esc(f"{int(domain.get('pods', 0)):,}")]
        if constrained:
            row.append(esc("-" if following is None else f"{following}/{per_copy}"))
        rows.append([*row, _limits_cell(domain.get("limits") or ())])
    headers = ["domain", "nodes", "copies", "pods", *(["next copy pods"] if constrained else []), "what runs out"]
    return table(headers, rows, numeric=(1, 2, 3), attrs=' data-list="domains"', wide=True)


def _nodes(doc: Mapping[str, Any]) -> str:
    used = sorted((n for n in doc.get("nodes") or () if n.get("pods")), key=lambda n: natural_key(n.get("name", "")))
    if not used:
        return "<p>No node took a copy.</p>"
    rows = [[esc(n.get("name", "")), esc(n.get("domain") or ""), esc(f"{int(n.get('pods', 0)):,}"),
             esc(_limit_words(n.get("limit")))] for n in used]
    drawn = table(["node", "domain", "pods", "what runs out"], rows, numeric=(2,), attrs=' data-list="nodes"', wide=True)
    note = f"<p>{len(used):,} of {len(doc.get('nodes') or ()):,} nodes took copies.</p>"
    return note + (drawn if len(rows) <= OPEN_ROWS else f"<details><summary>all {len(rows):,} nodes</summary>{drawn}"
                                                         "</details>")


def capacity_sections(doc: Mapping[str, Any]) -> list[Section]:
    """The capacity answer: the total and the failing copy's message, what runs out first, per domain, per node."""
    sections = [Section("capacity", "Capacity", _summary(doc)),
                Section("capacity-limits", "What runs out first", _limits(doc))]
    if doc.get("domains"):
        sections.append(Section("capacity-domains", f"Per {doc.get('topologyKey')}", _domains(doc)))
    sections.append(Section("capacity-nodes", "Per node", _nodes(doc)))
    notes = [*(doc.get("notes") or ()), *(f"not read from the cluster: {g.get('kind')}: {g.get('reason')}"
                                        for g in doc.get("gaps") or ())]
    if notes:
        sections.append(Section("capacity-notes", "Notes", "<ul>" + "".join(f"<li>{esc(n)}</li>" for n in notes)
                                + "</ul>"))
    return sections


def render_capacity_html(doc: Mapping[str, Any]) -> str:
    """The whole page for one capacity document."""
    shape = doc.get("shape") or {}
    title = f"kubectl wasdra capacity: {shape.get('kind', '')} {shape.get('namespace', '')}/{shape.get('name', '')}"
    footer = "Written by kubectl wasdra. Self-contained: no scripts, styles or fonts are loaded from anywhere."
    return page(title, capacity_sections(doc), subtitle=f"Kubernetes {esc(doc.get('k8sVersion', ''))}",
                footer=esc(footer))
