"""The renderers of what a report returns (tools/render.py, tools/tables.py): the Markdown of a
table is what the reports printed line by line, the HTML of the same items is built from the
tables (never from their Markdown), escaped, with `code` and **bold** marked up."""
import contextlib
import io

import pytest

from tools import render
from tools.reports import common
from tools.tables import Table

ROWS = [["`gpu.grid.cg`", "1.5 | 2", "**no**"], ["a<b", "", "x & y"]]


def test_markdown_is_what_the_reports_print():
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        common.table(["method", "ns", "ok"], ROWS)
        print()
        print("A line.")
    items = [Table(["method", "ns", "ok"], ROWS), "", "A line."]
    assert render.markdown(items) + "\n" == printed.getvalue()


def test_html_from_the_tables():
    got = render.html([Table(["method", "ns"], [["`m`", "1 | 2"]], caption="Above.",
                             notes=["Under **it**."]), "", "a < b"])
    assert got == ('<p class="note">Above.</p>\n'
                   "<table><thead><tr><th>method</th><th>ns</th></tr></thead><tbody><tr>"
                   "<td><code>m</code></td><td>1 | 2</td></tr></tbody></table>\n"
                   '<p class="note">Under <strong>it</strong>.</p>\n'
                   '<p class="note">a &lt; b</p>')


@pytest.mark.parametrize("text, want", [("`a&b`", "<code>a&amp;b</code>"),
                                         ("**x** y", "<strong>x</strong> y"),
                                         ('"q"', "&quot;q&quot;")])
def test_inline(text, want):
    assert render.inline(text) == want
