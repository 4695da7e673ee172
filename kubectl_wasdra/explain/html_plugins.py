"""The per-plugin tables of the HTML report (kube-scheduler-simulator's result tables): per pod, each Filter plugin's
verdict and message per node, each Score plugin's weighted score, the total and the chosen node. Drawn from a group's
`plugins` object of `explain -o json --plugin-results` (docs/plugin-results.md); nothing when it is absent."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from kubectl_wasdra.explain.html_page import esc, table

STATUS_MARKS: Final = {"pass": ("✓", "pass"), "fail": ("✗", "fail"), "unschedulable_and_unresolvable": ("⊘", "unresolvable"),
                       "error": ("!", "error"), "skipped": ("–", "skipped")}  # noqa: RUF001
MAX_PODS: Final = 8  # pods of one group whose tables are drawn (a 40-pod gang's are alike)


def plugin_tables(group: Mapping[str, Any]) -> str:
    """The group's per-pod plugin tables (the first pod unfolded), or "" without recorded plugin results."""
    plugins = group.get("plugins")
    if plugins is None:  # not recorded: say how to get them
        return ('<p class="meta plugins-absent">Per-plugin tables (each Filter plugin\'s verdict and each Score '
                "plugin's score per node) were not recorded: <code>kubectl wasdra explain --plugin-results</code> "
                "records them.</p>") if group.get("fits") is not None else ""
    if not plugins:
        return ""
    parts = ['<h3>Scheduler plugins per node</h3><p class="meta">Filter: ✓ pass, ✗ fail (freeing capacity might '
             "help), ⊘ unschedulable and unresolvable, ! error, – skipped after an earlier rejection. Score: "  # noqa: RUF001
             "weighted score (normalized × weight; raw and normalized in the cell's title).</p>"]  # noqa: RUF001
    for number, (pod, result) in enumerate(list(plugins.items())[:MAX_PODS]):
        parts.append(_pod(pod, result, number == 0))
    if len(plugins) > MAX_PODS:
        parts.append(f"<p>… {len(plugins) - MAX_PODS:,} more pods: <code>-o json --plugin-results</code> lists every "
                     "one.</p>")
    return '<div class="plugins">' + "".join(parts) + "</div>"


def _pod(pod: str, result: Mapping[str, Any], is_open: bool) -> str:
    chosen = result.get("chosenNode")
    domain = ", ".join(f"{k}={v}" for k, v in (result.get("domain") or {}).items())
    summary = (f"pod {pod}: chosen node {chosen or 'none'}; {result.get('feasible', 0):,} of {result.get('nodes', 0):,} "
               f"nodes{' of ' + domain if domain else ''} feasible, {result.get('scored', 0):,} scored")
    body = ""
    pre = result.get("preFilter")
    if pre:
        body += f"<p>PreFilter {esc(pre.get('plugin', ''))}: {esc(pre.get('status', ''))}: {esc(pre.get('message', ''))}</p>"
    rejected = result.get("rejectedBy") or {}
    if rejected:
        body += "<p>Rejected by (over all nodes): " + esc(", ".join(f"{p} {n:,}" for p, n in rejected.items())) + "</p>"
    body += _filters(result.get("filter") or [], chosen) + _scores(result.get("score") or [], chosen)
    if result.get("nodesLeftOut"):
        body += f"<p>… {result['nodesLeftOut']:,} more nodes evaluated, not listed (--plugin-nodes)</p>"
    attrs = f' data-pod="{esc(pod)}" data-chosen="{esc(chosen or "")}"'
    return f"<details{' open' if is_open else ''}{attrs}><summary>{esc(summary)}</summary>{body}</details>"


def _node_cell(node: str, chosen: str | None) -> str:
    return f"<b>{esc(node)}</b> (chosen)" if node == chosen else esc(node)


def _filters(rows: Sequence[Mapping[str, Any]], chosen: str | None) -> str:
    if not rows:
        return ""
    plugins = list(dict.fromkeys(r.get("plugin", "") for row in rows for r in row.get("results") or ()))
    out = []
    for row in rows:
        by_plugin = {r.get("plugin", ""): r for r in row.get("results") or ()}
        cells = [_node_cell(str(row.get("node", "")), chosen)]
        for plugin in plugins:
            result = by_plugin.get(plugin)
            if result is None:
                cells.append("")
                continue
            status = str(result.get("status"))
            mark, word = STATUS_MARKS.get(status, ("?", status))
            message = str(result.get("message") or "")
            title = f' title="{esc(word)}"' if status not in ("pass", "skipped") else ""
            cells.append(f'<span class="f-{esc(status)}"{title}>{mark}</span>' + (f" {esc(message)}" if message else ""))
        out.append(cells)
    return table(["node", *plugins], out, attrs=' class="filter-table"', caption="Filter plugins", wide=True)


def _scores(rows: Sequence[Mapping[str, Any]], chosen: str | None) -> str:
    if not rows:
        return ""
    plugins = list(dict.fromkeys(s.get("plugin", "") for row in rows for s in row.get("scores") or ()))
    out = []
    for row in rows:
        by_plugin = {s.get("plugin", ""): s for s in row.get("scores") or ()}
        cells = [_node_cell(str(row.get("node", "")), chosen)]
        for plugin in plugins:
            score = by_plugin.get(plugin)
            if score is None:
                cells.append("")
                continue
            title = f"raw {score.get('raw')}, normalized {score.get('normalized')}, weight {score.get('weight')}"
            cells.append(f'<span title="{esc(title)}">{esc(score.get("weighted", 0))}</span>')
        cells.append(f"<b>{esc(row.get('total', 0))}</b>")
        out.append(cells)
    return table(["node", *plugins, "total"], out, numeric=tuple(range(1, len(plugins) + 2)),
                 attrs=' class="score-table"', caption="Score plugins (weighted)", wide=True)
