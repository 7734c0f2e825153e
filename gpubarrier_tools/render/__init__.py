"""The renderers of what a report returns (data/tables.py: Tables and lines of text, in order).
No other module writes table syntax: a report returns data and the command line renders it.

    markdown(items)   the Markdown text: a table as `| a | b |` lines under a `|---|---|` line (a
                      `|` inside a cell escaped as `\\|`, so that it stays in its cell), a line of
                      text as it is ("" a blank line); what `gpubarrier report MODE` prints
    text(items)       the same for a terminal without Markdown: a table as columns padded with
                      spaces under a line of dashes (`gpubarrier compare`'s default)
    html(items)       the same as HTML for the page: a table as <table> with a head and a body,
                      each line of text that is not blank as <p class="note">; `code` and **bold**
                      in cells and lines as <code> and <strong>, the rest escaped
"""

from __future__ import annotations

import html as html_lib
import itertools
import re
from collections.abc import Iterable, MutableMapping
from typing import Any

from ..data.tables import Html, Table


def _md_cell(text: object) -> str:
    return str(text).replace("|", "\\|")


def markdown_table(table: Table) -> list:
    """A table's Markdown lines: its caption, the table, its notes."""
    lines = [table.caption] if table.caption else []
    lines.append("| " + " | ".join(_md_cell(h) for h in table.header) + " |")
    lines.append("|" + "".join(f"{a}|" for a in _md_rule(table)))
    lines += [
        "| " + " | ".join(_md_cell(c) for c in r) + " |" + " |" * (len(table.header) - len(r))
        for r in table.rows
    ]
    return lines + list(table.notes)


def _md_rule(table: Table) -> list:
    """Each column's `---` (`---:` for a column aligned right)."""
    right = set(table.align_right)
    return ["---:" if i in right else "---" for i in range(len(table.header))]


def markdown(items: list) -> str:
    lines = []
    for item in items:
        if isinstance(item, Table):
            lines += markdown_table(item)
        else:
            lines.append(item)
    return "\n".join(lines)


def print_markdown(items: list) -> None:
    print(markdown(items))


def aligned_table(table: Table) -> list:
    """A table's lines for a terminal: its caption, its columns padded with spaces under a line
    of dashes, its notes."""
    rows = [[str(c) for c in r] for r in table.rows]
    widths = [
        max(len(x) for x in col) for col in itertools.zip_longest(table.header, *rows, fillvalue="")
    ]

    def line(cells: list) -> str:
        return "  ".join(x.ljust(w) for x, w in zip(cells, widths)).rstrip()

    return (
        ([table.caption] if table.caption else [])
        + [line(table.header), line(["-" * w for w in widths])]
        + [line(r) for r in rows]
        + list(table.notes)
    )


def text(items: list) -> str:
    lines = []
    for item in items:
        lines += aligned_table(item) if isinstance(item, Table) else [item]
    return "\n".join(lines)


def escaped(text: str) -> str:
    """A cell as HTML: escaped (an Html cell as it is)."""
    return str(text) if isinstance(text, Html) else html_lib.escape(str(text))


def inline(text: str) -> str:
    """A cell or a line of text as HTML: escaped, `code` and **bold** marked up (an Html cell as
    it is)."""
    if isinstance(text, Html):
        return str(text)
    out = html_lib.escape(str(text))
    out = re.sub(r"`([^`]*)`", r"<code>\1</code>", out)
    return re.sub(r"\*\*([^*]*)\*\*", r"<strong>\1</strong>", out)


def html_table(
    table: Table,
    css: str = "",
    table_id: str = "",
    right: Iterable[int] = (),
    nowrap: Iterable[int] = (),
    markup: bool = True,
    head: bool = True,
    row_head: bool = False,
) -> str:
    """A table as <table> (its caption and notes not included): a column aligned right (the
    table's, and those of `right`: figures the page aligns, the Markdown not) as cells of class
    "num", a row's mark as the row's class. css, table_id: the table's class and id; nowrap: the
    columns kept on one line (class "nw"); markup=False: the cells escaped only (text shown as it
    is, as a CSV's notes); head=False: no header row (a list of names and values); row_head: each
    row's first cell a header cell (a matrix)."""
    cell = inline if markup else escaped
    right, nowrap = set(table.align_right) | set(right), set(nowrap)

    def td(i: int, c: str) -> str:
        if row_head and i == 0:
            return f"<th>{cell(c)}</th>"
        cls = " ".join(["num"] * (i in right) + ["nw"] * (i in nowrap))
        return f'<td class="{cls}">{cell(c)}</td>' if cls else f"<td>{cell(c)}</td>"

    def tr(k: int, r: MutableMapping[str, Any]) -> str:
        mark = table.marks[k] if k < len(table.marks) else ""
        return (
            (f'<tr class="{mark}">' if mark else "<tr>")
            + "".join(td(i, c) for i, c in enumerate(r))
            + "</tr>"
        )

    attrs = (f' id="{table_id}"' if table_id else "") + (f' class="{css}"' if css else "")
    top = (
        "<thead><tr>" + "".join(f"<th>{cell(c)}</th>" for c in table.header) + "</tr></thead>"
        if head
        else ""
    )
    body = "".join(tr(k, r) for k, r in enumerate(table.rows))
    return f"<table{attrs}>{top}<tbody>{body}</tbody></table>"


def html(items: list) -> str:
    parts = []

    def notes(text: str) -> None:
        parts.extend(
            f'<p class="note">{inline(line)}</p>' for line in text.splitlines() if line.strip()
        )

    for item in items:
        if isinstance(item, Table):
            notes(item.caption)
            parts.append(html_table(item))
            notes("\n".join(item.notes))
        else:
            notes(item)
    return "\n".join(parts)
