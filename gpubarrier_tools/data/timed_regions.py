"""Where src/core/timed_regions.cpp says a clock figure's timed region lacks the instruction its
method times, for rows written before the executable noted it: the table's `absent` rows only
(tests/cli/test_timed_regions.py fails when they differ from the C++ table's)."""

# (method, axis, value, instruction): "" axis for every point of the method, else the points
# whose config has axis=value. sm_90 is the only architecture whose SASS the table checks.
ABSENT_ON_SM90 = (
    ("gpu.warp.coalesced-sync", "", 0, "WARPSYNC"),
    ("gpu.warp.reduce", "variant", 2, "WARPSYNC"),
    ("gpu.warp.reduce", "variant", 3, "WARPSYNC"),
    ("gpu.warp.syncwarp", "", 0, "WARPSYNC"),
    ("gpu.warp.tile-sync", "", 0, "WARPSYNC"),
)

# GPU models (a row's gpu_model contains one) of compute capability 9.0.
SM90_MODELS = ("H100", "H200")


def absent_note(method, axes, gpu_model):
    """The note part the executable writes for a clock figure of `method` at config `axes` (a
    dict of text) on `gpu_model` whose timed region lacks its instruction, or "" where the
    table does not say so."""
    if not any(m in gpu_model for m in SM90_MODELS):
        return ""
    for m, axis, value, instruction in ABSENT_ON_SM90:
        if m == method and (not axis or axes.get(axis) == str(value)):
            return f"not timed: compiled to no {instruction} on sm_90"
    return ""
