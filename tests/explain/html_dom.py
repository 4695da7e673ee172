"""A small DOM built with the standard library's HTML parser, and the numbers the HTML report shows read back from it
(verdicts, reasons, domains, grid counts and cells, plugin tables), for comparison with `explain -o json`. The same
reader serves the page as written and the DOM headless Chromium dumps."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    children: list[Element | str] = field(default_factory=list)

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def iter(self):
        yield self
        for child in self.children:
            if isinstance(child, Element):
                yield from child.iter()

    def find_all(self, tag: str, **attrs: str) -> list[Element]:
        """Descendants with this tag whose attributes contain `attrs` (class_ matches one class)."""
        out = []
        for element in self.iter():
            if element.tag != tag:
                continue
            wanted = dict(attrs)
            css = wanted.pop("class_", None)
            if css is not None and css not in element.attrs.get("class", "").split():
                continue
            if all(element.attrs.get(k.replace("_", "-")) == v for k, v in wanted.items()):
                out.append(element)
        return out

    def rows(self) -> list[list[Element]]:
        """A table's body rows as lists of cells."""
        body = self.find_all("tbody")[0]
        return [row.find_all("td") for row in body.find_all("tr")]


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#root", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(element)
        if tag not in _VOID:
            self.stack.append(element)

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self.stack) - 1, 0, -1):
            if self.stack[index].tag == tag:
                del self.stack[index:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(text: str) -> Element:
    builder = _Builder()
    builder.feed(text)
    builder.close()
    return builder.root


def _number(text: str) -> int | None:
    text = text.strip().replace(",", "")
    return int(text) if text else None


def report_numbers(root: Element) -> list[dict[str, Any]]:
    """Per group section, what the page says: verdict, reasons (code, count), every domain's row, the grid's counts
    per domain and the cells drawn per node and state, the plugin tables."""
    groups = []
    for div in root.find_all("div", class_="group"):
        fits = {"true": True, "false": False}.get(div.attrs["data-fits"])
        group: dict[str, Any] = {"kind": div.attrs["data-kind"], "namespace": div.attrs["data-namespace"],
                                 "name": div.attrs["data-name"], "fits": fits}
        reasons = div.find_all("table", class_="reasons")
        group["reasons"] = [(cells[0].text(), _number(cells[1].text())) for cells in reasons[0].rows()] if reasons else []
        group["domains"] = sorted(
            (c[0].text(), _number(c[1].text()), _number(c[2].text()), _number(c[3].text()), c[4].text() == "yes")
            for table in div.find_all("table", class_="domain-list") for c in table.rows())
        group["grid"] = _grid(div)
        group["plugins"] = _plugins(div)
        groups.append(group)
    return groups


def _grid(div: Element) -> dict[str, Any] | None:
    tables = div.find_all("table", class_="grid-counts")
    if not tables:
        return None
    headers = [th.text() for th in tables[0].find_all("th")]
    rows = tables[0].rows()
    counts = {r[0].text(): [_number(c.text()) for c in r[1:]] for r in rows}
    cells: dict[str, dict[str, int]] = {}
    for table in div.find_all("table", class_="grid-nodes"):
        for row in table.rows():
            node = row[0].text().split()[0]
            per_state: dict[str, int] = {}
            for span in row[1].find_all("span"):
                for css in span.attrs.get("class", "").split():
                    if css.startswith("s-") and "c" in span.attrs["class"].split():
                        per_state[css[2:]] = per_state.get(css[2:], 0) + 1
            cells[node] = per_state
    return {"headers": headers, "counts": counts, "cells": cells}


def _plugins(div: Element) -> dict[str, Any]:
    out = {}
    for details in div.find_all("details"):
        if "data-pod" not in details.attrs:
            continue
        filters = {}
        for table in details.find_all("table", class_="filter-table"):
            plugins = [th.text() for th in table.find_all("th")][1:]
            for row in table.rows():
                statuses = {}
                for plugin, cell in zip(plugins, row[1:], strict=True):
                    spans = cell.find_all("span")
                    if spans:
                        statuses[plugin] = spans[0].attrs["class"].removeprefix("f-")
                filters[row[0].text().split()[0]] = statuses
        totals = {}
        for table in details.find_all("table", class_="score-table"):
            for row in table.rows():
                totals[row[0].text().split()[0]] = _number(row[-1].text())
        out[details.attrs["data-pod"]] = {"chosen": details.attrs["data-chosen"] or None, "filter": filters,
                                          "totals": totals}
    return out


def devices_per_node(snapshot: Any) -> dict[str, list[tuple[str, str, str]]]:
    """node -> (driver, pool, device) of the ResourceSlices published for it, counted from the raw objects."""
    out: dict[str, list[tuple[str, str, str]]] = {}
    for item in snapshot.of_kind("ResourceSlice"):
        spec = item.get("spec") or {}
        if not spec.get("nodeName"):
            continue
        for device in spec.get("devices") or ():
            out.setdefault(spec["nodeName"], []).append((spec["driver"], spec["pool"]["name"], device["name"]))
    return out


def verdict_counts(root: Element) -> dict[str, int]:
    """Verdict word -> groups, from the verdict table (a folded row counts its data-count groups)."""
    out: dict[str, int] = {}
    for table in root.find_all("table", id="verdict-table"):
        for span in table.find_all("span"):
            if "data-verdict" in span.attrs:
                word = span.attrs["data-verdict"]
                out[word] = out.get(word, 0) + int(span.attrs.get("data-count", "1"))
    return out


def assert_agrees(page: list[dict[str, Any]], doc: dict[str, Any], snapshot: Any, root: Element | None = None) -> int:
    """Every number the page shows equals the JSON document's (and the grid's device totals the snapshot's); the
    groups drawn in full are the first ones (all up to MAX_SECTIONS); with `root`, the verdict table counts every
    group. Returns the number of grids checked."""
    from kubectl_wasdra.explain.render_html import MAX_SECTIONS

    assert len(page) == min(len(doc["groups"]), MAX_SECTIONS)
    groups = doc["groups"][:len(page)]
    if root is not None:
        words = {True: "fits", False: "does not fit"}
        expected: dict[str, int] = {}
        for group in doc["groups"]:
            word = words.get(group["fits"], "unknown" if group.get("unknown") else "not simulated (another scheduler)")
            expected[word] = expected.get(word, 0) + 1
        assert verdict_counts(root) == expected
    assert [(g["kind"], g["namespace"], g["name"], g["fits"]) for g in page] == \
        [(g["kind"], g["namespace"], g["name"], g["fits"]) for g in groups]
    devices = devices_per_node(snapshot)
    nodes = {(n.get("metadata") or {}).get("name"): n for n in snapshot.of_kind("Node")}
    grids = 0
    for shown, group in zip(page, groups, strict=True):
        assert shown["reasons"] == [(r["code"], r["count"]) for r in group["reasons"]]
        assert shown["domains"] == sorted((d["value"], d["nodes"], d["placeable"], d["needed"], d["fits"])
                                          for d in group.get("domains") or ())
        if shown["grid"] is not None:
            grids += 1
            _grid_agrees(shown["grid"], group, devices, nodes)
        from kubectl_wasdra.explain.html_plugins import MAX_PODS

        assert list(shown["plugins"]) == list(group.get("plugins") or {})[:MAX_PODS]
        for pod, drawn in shown["plugins"].items():
            plugins = group["plugins"][pod]
            assert drawn["chosen"] == plugins["chosenNode"]
            assert drawn["filter"] == {f["node"]: {r["plugin"]: r["status"] for r in f["results"]}
                                       for f in plugins["filter"]}
            assert drawn["totals"] == {s["node"]: s["total"] for s in plugins["score"]}
    return grids


def _grid_agrees(grid: dict[str, Any], group: dict[str, Any], devices: dict, nodes: dict) -> None:
    states = [h.split(" ", 1)[1] for h in grid["headers"][2:]]
    total = grid["counts"].pop("total")
    assert [sum(v[i] for v in grid["counts"].values()) for i in range(len(total))] == total
    key = (group.get("domains") or [{}])[0].get("key")
    in_domains = [n for n, obj in nodes.items() if n in devices
                  and (not key or key in ((obj.get("metadata") or {}).get("labels") or {}))]
    assert total[0] == len(in_domains)  # nodes with devices
    assert sum(total[1:]) == sum(len(devices[n]) for n in in_domains)  # every device in exactly one state
    claimed = [d for ds in (group["placement"]["claims"] or {}).values() for d in ds]
    if group["fits"]:
        assert total[1 + states.index("this group")] == len(claimed)
    for node, per_state in grid["cells"].items():
        assert sum(per_state.values()) == min(len(devices[node]), 256)
        if group["fits"]:
            assert per_state.get("this", 0) == sum(1 for d in claimed if (d["driver"], d["pool"], d["device"])
                                                   in set(devices[node]))
