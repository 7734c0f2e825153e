"""The renderers of what a report returns (gpubarrier_tools/render/__init__.py, gpubarrier_tools/data/tables.py): the Markdown of a
table is `| a | b |` lines under a `|---|` rule, a `|` in a cell escaped; the aligned text is
columns padded with spaces; the HTML of the same items is built from the tables (never from their
Markdown), escaped, with `code` and **bold** marked up."""
import pytest

from gpubarrier_tools import render
from gpubarrier_tools.analysis.reports import common
from gpubarrier_tools.data.tables import Html, Table

ROWS = [["`gpu.grid.cg`", "1.5 | 2", "**no**"], ["a<b", "", "x & y"]]


def test_markdown_of_a_table_and_lines():
    items = [common.table(["method", "ns", "ok"], ROWS), "", "A line."]
    assert render.markdown(items) == ("| method | ns | ok |\n"
                                      "|---|---|---|\n"
                                      "| `gpu.grid.cg` | 1.5 \\| 2 | **no** |\n"
                                      "| a<b |  | x & y |\n"
                                      "\n"
                                      "A line.")


def test_markdown_caption_notes_alignment_and_short_rows():
    t = Table(["a", "n", "m"], [["x", "1", "2"], ["y"]], caption="Above:", notes=["", "Under."],
              align_right=[1, 2])
    assert render.markdown([t]) == ("Above:\n| a | n | m |\n|---|---:|---:|\n| x | 1 | 2 |\n"
                                    "| y | | |\n\nUnder.")


def test_text_aligns_columns():
    t = Table(["method", "ns"], [["a", "1234"], ["longer", "5"]])
    assert render.text(["lead", t]) == ("lead\nmethod  ns\n------  ----\na       1234\n"
                                        "longer  5")


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


def test_html_table_presentation():
    t = Table(["n", "v"], [["a", "1"], ["b", "2"]], align_right=[1], marks=["", "noisy"])
    assert render.html_table(t, css="x", table_id="y", nowrap=[1]) == (
        '<table id="y" class="x"><thead><tr><th>n</th><th>v</th></tr></thead><tbody>'
        '<tr><td>a</td><td class="num nw">1</td></tr>'
        '<tr class="noisy"><td>b</td><td class="num nw">2</td></tr></tbody></table>')


def test_html_table_without_head_with_row_heads_and_html_cells():
    t = Table(["", "GPU0"], [["GPU0", "`X`"], ["k", Html("a<br>b")]])
    assert render.html_table(t, markup=False, head=False, row_head=True) == (
        "<table><tbody><tr><th>GPU0</th><td>`X`</td></tr>"
        "<tr><th>k</th><td>a<br>b</td></tr></tbody></table>")
