"""The results folders at a glance, for results/README.md: `report.py folders DIR`.

One line per folder of DIR that holds gpubarrier CSVs (searched recursively): its GPU models,
how many machines its rows come from (analysis/answers.py `machines`: one host, overlapping GPU
UUID sets; rows written before UUIDs were recorded count one machine per host and GPU model),
its CSVs, its ok rows, and the first and last day measured. A folder that git ignores (results/local/,
where scripts/run writes a user's own runs) is not listed: the index is of what is published.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence

from ..data import gbcsv
from ..data.tables import Table
from . import answers


def _ignored(path: str) -> bool:
    """Whether git ignores `path` (False outside a git checkout or without git)."""
    try:
        return (
            subprocess.run(
                [
                    "git",
                    "-C",
                    os.path.dirname(os.path.abspath(path)) or ".",
                    "check-ignore",
                    "-q",
                    os.path.abspath(path),
                ],
                capture_output=True,
            ).returncode
            == 0
        )
    except OSError:
        return False


def folders(argv: Sequence[str]) -> list[Table | str]:
    base = argv[0] if argv else "."
    lines = []
    for name in sorted(os.listdir(base)):
        path = os.path.join(base, name)
        if not os.path.isdir(path) or _ignored(path):
            continue
        csvs, _ = gbcsv.expand([path])
        if not csvs:
            continue
        rows = gbcsv.load(csvs, statuses={"ok"})
        models = sorted({r["gpu_model"].replace("NVIDIA ", "") for r in rows if r["gpu_model"]})
        days = sorted(r["timestamp"][:10] for r in rows if r["timestamp"])
        span = (
            f"{days[0]} - {days[-1]}"
            if days and days[0] != days[-1]
            else (days[0] if days else "-")
        )
        page = (
            f"[{name}/README.md]({name}/README.md)"
            if os.path.exists(os.path.join(path, "README.md"))
            else "-"
        )
        lines.append(
            [
                f"`{name}/`",
                ", ".join(models) or "none (host only)",
                str(len(answers.machines(rows))),
                str(len(csvs)),
                str(len(rows)),
                span,
                page,
            ]
        )
    return [Table(["folder", "GPU", "machines", "CSVs", "ok rows", "measured", "page"], lines)]
