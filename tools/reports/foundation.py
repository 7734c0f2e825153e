"""report foundation: the foundation figures of a sweep against the reference values of the
design (tools/study_reference.py, DESIGN_REFERENCE), within 15% or not."""
import study_reference

from reports.common import load, pick, table, vals


def foundation(argv):
    rows = load(argv)
    out = []
    for label, method, metric, axes, scale, unit, refv in study_reference.DESIGN_REFERENCE:
        v = vals(pick(rows, method, metric, **axes), scale)
        if len(v) != 1:
            raise ValueError(f"foundation: {len(v)} rows for {method} {metric} {axes} on GPU 0")
        dev = (v[0] / refv - 1) * 100
        digits = 2 if unit == "cycles" else 3
        out.append([label, f"{v[0]:.{digits}f} {unit}", f"{refv:g} {unit}",
                    f"{'yes' if abs(dev) <= 15 else '**no**'} ({dev:+.1f}%)"])
    table(["figure (GPU 0)", "measured", "reference (DESIGN.md 7)", "within 15%"], out)
