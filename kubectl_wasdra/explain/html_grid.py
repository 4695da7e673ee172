"""The cluster grid of the HTML report (explain/grid.py's data): a legend naming the states and device classes, the
per-domain counts of every state with a total, and per domain the drawn node rows, one cell per device grouped by NUMA
node; every state has its own glyph as well as its colour."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from kubectl_wasdra.explain.html_page import esc, table

GLYPHS: Final = {"this": "▣", "used": "■", "free": "□", "nodeTainted": "⊘", "excluded": "◌", "deviceTainted": "✗"}
STATE_WORDS: Final = {"this": "this group", "used": "used by others", "free": "free",
                      "nodeTainted": "node tainted (not tolerated) or cordoned",
                      "excluded": "excluded by the request's class and selectors", "deviceTainted": "device tainted"}
OPEN_DOMAINS: Final = 2  # grid domains unfolded when the page opens
MAX_CELLS: Final = 256  # device cells drawn per node; the rest are counted


def _legend(grid: Mapping[str, Any]) -> str:
    states = "".join(f'<li><span class="c s-{s}" aria-hidden="true">{GLYPHS[s]}</span> {esc(STATE_WORDS[s])}</li>'
                     for s in grid["states"])
    classes = "; ".join(f"driver {d}" + (f" (DeviceClass {', '.join(c)})" if c else "")
                        for d, c in grid.get("classes", {}).items())
    requests = "; ".join(f"{r['request']}: class {r['deviceClassName']}" for r in grid.get("requests") or ())
    return (f'<ul class="legend">{states}</ul><p>One cell per device of {esc(classes or "the drivers shown")}'
            + (f"; requests judged: {esc(requests)}" if requests else "") + ".</p>")


def grid_html(grid: Mapping[str, Any] | None, index: int) -> str:
    """Per-domain counts of every device state (every node counted), then node rows for the first nodes of the first
    domains, cells grouped per NUMA node."""
    if not grid:
        return ""
    states = list(grid["states"])
    key = grid.get("key") or ""
    rows = []
    for domain in grid["domains"]:
        label = f"{key}={domain['value']}" if key else "all nodes with devices"
        counts = domain["counts"]
        rows.append([esc(label), esc(f"{domain['nodes']:,}"), *(esc(f"{counts[s]:,}") for s in states)])
    totals = grid["totals"]
    rows.append(["<b>total</b>", esc(f"{sum(d['nodes'] for d in grid['domains']):,}"),
                 *(f"<b>{totals[s]:,}</b>" for s in states)])
    headers = ["domain", "nodes", *(f"{GLYPHS[s]} {STATE_WORDS[s]}" for s in states)]
    out = (f'<h3 id="g{index}-grid">Cluster grid</h3>' + _legend(grid)
           + table(headers, rows, numeric=tuple(range(1, len(headers))), attrs=' class="grid-counts"'))
    drawn = [d for d in grid["domains"] if d["rows"]]
    for number, domain in enumerate(drawn):
        out += _domain_rows(domain, key, number < OPEN_DOMAINS)
    undrawn = len(grid["domains"]) - len(drawn)
    if undrawn:
        out += f"<p>… {undrawn:,} more domains without node rows (their counts are in the table above).</p>"
    return f'<div class="grid" data-key="{esc(key)}">{out}</div>'


def _domain_rows(domain: Mapping[str, Any], key: str, is_open: bool) -> str:
    label = f"{key}={domain['value']}" if key else "all nodes with devices"
    rows = []
    for row in domain["rows"]:
        node = esc(row["node"])
        if row.get("taint"):
            node += f' <span class="s-nodeTainted" title="{esc(row["taint"])}">⊘ {esc(row["taint"])}</span>'
        if row.get("evicts"):
            node += f" <span class=\"meta\">(preemption evicts {row['evicts']:,})</span>"
        rows.append([node, _cells(row["numa"])])
    more = f"<p>… {domain['hiddenNodes']:,} more nodes</p>" if domain["hiddenNodes"] else ""
    body = table(["node", "devices (per NUMA node)"], rows, attrs=f' class="grid-nodes" data-domain="{esc(domain["value"])}"')
    return (f"<details{' open' if is_open else ''}><summary>{esc(label)}: {domain['nodes']:,} nodes, "
            f"{len(domain['rows']):,} drawn</summary>{body}{more}</details>")


def _cells(numas: Sequence[Mapping[str, Any]]) -> str:
    out, drawn, rest = [], 0, {}
    for numa in numas:
        cells = []
        for state, _driver, device in numa["cells"]:
            if drawn >= MAX_CELLS:
                rest[state] = rest.get(state, 0) + 1
                continue
            drawn += 1
            cells.append(f'<span class="c s-{state}" title="{esc(device)}">{GLYPHS[state]}</span>')
        label = f"<b>N{numa['numa']}</b>" if numa["numa"] is not None else ""
        if cells:
            out.append(f'<span class="numa">{label}{"".join(cells)}</span>')
    if rest:
        out.append(esc(f"+{sum(rest.values()):,} more (" + ", ".join(f"{n:,} {STATE_WORDS[s]}" for s, n in rest.items())
                       + ")"))
    return "".join(out)
