"""What a report returns: its tables and lines of text, in order, as data. The renderers
(render/__init__.py) print them: as Markdown for the terminal and the results pages, as HTML for the
page of `report --html`. A report builds these and never prints; the command line renders them.

    items = [Table(["method", "ns"], [["`gpu.grid.cg`", "1234"]]), "", "A line of text."]
"""

from dataclasses import dataclass, field


class Html(str):
    """A cell that is HTML already, for the page's own markup (values broken by <br>, a muted
    "not recorded"): the HTML renderer writes it as it is, where it escapes every other cell."""


@dataclass
class Table:
    """One table: its column names, its rows (each a list of cells, as text, one per column; a
    row shorter than the header leaves its last cells empty), a caption shown above it and notes
    shown under it (lines of text; none by default), the indexes of its columns of figures
    aligned right (`---:` in Markdown; none by default), and a mark per row ("noisy", "bad" or
    "": the HTML page shades a marked row; none by default)."""

    header: list
    rows: list
    caption: str = ""
    notes: list = field(default_factory=list)
    align_right: list = field(default_factory=list)
    marks: list = field(default_factory=list)
