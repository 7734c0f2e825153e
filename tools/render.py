"""The renderers of what a report returns (tools/tables.py: Tables and lines of text, in order).

    markdown(items)   the Markdown text: a table as `| a | b |` lines under a `|---|---|` line, a
                      line of text as it is ("" a blank line); what `gpubarrier report MODE` prints
    html(items)       the same as HTML for the page: a table as <table> with a head and a body,
                      each line of text that is not blank as <p class="note">; `code` and **bold**
                      in cells and lines as <code> and <strong>, the rest escaped
"""
import html as html_lib
import re

from .tables import Table


def markdown(items):
    lines = []
    for item in items:
        if isinstance(item, Table):
            if item.caption:
                lines.append(item.caption)
            lines.append("| " + " | ".join(item.header) + " |")
            lines.append("|" + "---|" * len(item.header))
            lines += ["| " + " | ".join(r) + " |" for r in item.rows]
            lines += item.notes
        else:
            lines.append(item)
    return "\n".join(lines)


def print_markdown(items):
    print(markdown(items))


def inline(text):
    """A cell or a line of text as HTML: escaped, `code` and **bold** marked up."""
    out = html_lib.escape(str(text))
    out = re.sub(r"`([^`]*)`", r"<code>\1</code>", out)
    return re.sub(r"\*\*([^*]*)\*\*", r"<strong>\1</strong>", out)


def html(items):
    parts = []

    def notes(text):
        parts.extend(f'<p class="note">{inline(line)}</p>' for line in text.splitlines()
                     if line.strip())
    for item in items:
        if isinstance(item, Table):
            notes(item.caption)
            head = "".join(f"<th>{inline(c)}</th>" for c in item.header)
            body = "".join("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in r) + "</tr>"
                           for r in item.rows)
            parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
            notes("\n".join(item.notes))
        else:
            notes(item)
    return "\n".join(parts)
