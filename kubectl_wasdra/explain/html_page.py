"""The shell of every HTML report: one self-contained page (inline CSS, a few lines of optional script, a
Content-Security-Policy that forbids any network fetch), light and dark colour schemes, a skip link, a table of
contents, and the small builders sections use (escaping, tables). Sections bring their own body HTML."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Final

# Nothing may be fetched: styles and the script are inline, images only data: URLs (there are none today)
_CSP: Final = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; "
               "base-uri 'none'; form-action 'none'")

# Colours: text on background and the state colours reach WCAG AA contrast (4.5:1 for text, 3:1 for the cell fills
# against the page) in both schemes; every state also has its own glyph, so colour is never the only signal.
_CSS: Final = """
:root{color-scheme:light dark;--bg:#ffffff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--head:#f6f8fa;--link:#0a58ca;
--ok:#116329;--bad:#a40e26;--unk:#7d4e00;--this:#0a58ca;--used:#57606a;--free:#1a7f37;--ntaint:#a40e26;
--excl:#656d76;--dtaint:#bc4c00;--focus:#0a58ca}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9da7b3;--line:#30363d;--head:#161b22;
--link:#6cb6ff;--ok:#56d364;--bad:#ff7b72;--unk:#e3b341;--this:#6cb6ff;--used:#9da7b3;--free:#56d364;--ntaint:#ff7b72;
--excl:#8b949e;--dtaint:#ffa657;--focus:#6cb6ff}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif}
a{color:var(--link)}
a:focus-visible,summary:focus-visible,button:focus-visible,main:focus-visible,
.scroll:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-9999px;top:0;background:var(--bg);padding:.5em 1em;z-index:1}
.skip:focus{left:0}
header,main,footer{max-width:1280px;margin:0 auto;padding:0 1rem}
header{border-bottom:1px solid var(--line);padding-bottom:.5rem}
h1{font-size:1.5rem;margin:.8rem 0 .3rem}h2{font-size:1.25rem;margin:1.6rem 0 .4rem}h3{font-size:1.05rem;margin:1.2rem 0 .3rem}
nav ul{margin:.3rem 0;padding-left:1.2rem}
.meta{color:var(--muted);margin:.2rem 0}
table{border-collapse:collapse;margin:.4rem 0 1rem;font-size:.92rem}
th,td{border:1px solid var(--line);padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:var(--head)}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.scroll{overflow-x:auto;max-width:100%}
.filter-table td:first-child,.score-table td:first-child,.grid-nodes td:first-child{white-space:nowrap}
.v{font-weight:600}.v-fits{color:var(--ok)}.v-nofit{color:var(--bad)}.v-unknown{color:var(--unk)}
details{margin:.2rem 0}summary{cursor:pointer}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
.c{display:inline-block;width:1.2em;text-align:center;font-family:ui-monospace,monospace;font-size:1.15em;line-height:1.2}
.s-this{color:var(--this)}.s-used{color:var(--used)}.s-free{color:var(--free)}.s-nodeTainted{color:var(--ntaint)}
.s-excluded{color:var(--excl)}.s-deviceTainted{color:var(--dtaint)}
.numa{margin-right:.6em;white-space:nowrap}.numa b{font-weight:400;color:var(--muted);margin-right:.2em}
ul.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.3rem 1.2rem}
.js-only{display:none}.js .js-only{display:inline-block}
footer{color:var(--muted);border-top:1px solid var(--line);margin-top:2rem;padding:.5rem 1rem 1rem}
@media print{.skip,.js-only{display:none}}
"""

# Progressive enhancement only: "expand all / collapse all" for the folded parts; the page works without it
_SCRIPT: Final = """document.documentElement.classList.add('js');
document.addEventListener('click',function(e){var b=e.target.closest('button[data-open]');if(!b)return;
var s=b.closest('section');s.querySelectorAll('details').forEach(function(d){d.open=b.dataset.open==='1'});});"""


@dataclass(frozen=True)
class Section:
    """One top-level part of the page: its id (the anchor), heading, and body HTML (built with `esc`/`table`)."""

    id: str
    title: str
    body: str


def esc(value: object) -> str:
    """Text (any value) escaped for HTML content and attribute values."""
    return escape(str(value), quote=True)


def table(headers: Sequence[str], rows: Iterable[Sequence[str]], *, numeric: Sequence[int] = (), caption: str = "",
          attrs: str = "", wide: bool = False) -> str:
    """A table; `rows` hold cell HTML (already escaped), `numeric` are the column indexes aligned right; a `wide`
    table scrolls sideways in a region the keyboard can focus and scroll."""
    head = "".join(f'<th scope="col"{" class=n" if i in numeric else ""}>{esc(h)}</th>' for i, h in enumerate(headers))
    body = "".join("<tr>" + "".join(f'<td{" class=n" if i in numeric else ""}>{cell}</td>' for i, cell in enumerate(row))
                   + "</tr>" for row in rows)
    cap = f"<caption>{esc(caption)}</caption>" if caption else ""
    region = f' tabindex="0" role="region" aria-label="{esc(caption or headers[0])} (scrolls sideways)"' if wide else ""
    return f'<div class="scroll"{region}><table{attrs}>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def expand_buttons() -> str:
    """Buttons opening or closing every folded part of the section (shown only when scripts run)."""
    return ('<p><button type="button" class="js-only" data-open="1">Expand all</button> '
            '<button type="button" class="js-only" data-open="0">Collapse all</button></p>')


def page(title: str, sections: Sequence[Section], *, subtitle: str = "", footer: str = "") -> str:
    """The whole document: head with inline CSS, skip link, table of contents, the sections, a footer."""
    toc = "".join(f'<li><a href="#{esc(s.id)}">{esc(s.title)}</a></li>' for s in sections)
    body = "".join(f'<section id="{esc(s.id)}" aria-labelledby="{esc(s.id)}-h"><h2 id="{esc(s.id)}-h">{esc(s.title)}</h2>'
                   f"{s.body}</section>" for s in sections)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            '<meta name="color-scheme" content="light dark">'
            f"<title>{esc(title)}</title><style>{_CSS}</style></head>\n<body>"
            '<a class="skip" href="#main">Skip to the report</a>'
            f"<header><h1>{esc(title)}</h1>"
            + (f'<p class="meta">{subtitle}</p>' if subtitle else "")
            + f'<nav aria-label="Contents"><ul>{toc}</ul></nav></header>\n'
            f'<main id="main" tabindex="-1">{body}</main>\n'
            + (f"<footer>{footer}</footer>" if footer else "")
            + f"<script>{_SCRIPT}</script></body></html>\n")
