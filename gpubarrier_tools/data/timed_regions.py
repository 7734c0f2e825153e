"""Where a clock figure's timed region lacks the instruction its method times, for rows written
before the executable noted it. Each method states its timed instructions (MethodInfo::timed);
the executable writes them into its schema (`gpubarrier --json schema`, "timed"), committed as
gpubarrier_tools/data/schema.json, which this module reads: the `absent` ones only."""
from __future__ import annotations

from collections.abc import Mapping

from .bounds import stated

# ((method, axis, value, instruction), ...) of the timed instructions whose sm_90 SASS lacks them:
# "" axis for every point of the method, else the points whose config has axis=value.
ABSENT_ON_SM90 = tuple((method, t["axis"], int(t["value"]), t["instruction"])
                       for method, rows in stated("timed").items() for t in rows
                       if t["sm90"] == "absent")

# GPU models (a row's gpu_model contains one) of compute capability 9.0.
SM90_MODELS = ("H100", "H200")


def absent_note(method: str, axes: Mapping[str, str], gpu_model: str) -> str:
    """The note part the executable writes for a clock figure of `method` at config `axes` (a
    dict of text) on `gpu_model` whose timed region lacks its instruction, or "" where the
    method does not say so."""
    if not any(m in gpu_model for m in SM90_MODELS):
        return ""
    for m, axis, value, instruction in ABSENT_ON_SM90:
        if m == method and (not axis or axes.get(axis) == str(value)):
            return f"not timed: compiled to no {instruction} on sm_90"
    return ""
