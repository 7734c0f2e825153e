"""Tables that other tools compute, as report tables: samerows (tools/same_rows.py), compare
(tools/compare.py), model (tools/model.py), reduction-tables (tools/reduction_tables.py)."""
from .common import option


def samerows(argv):
    from .. import same_rows
    if len(argv) != 2:
        raise ValueError("samerows: BEFORE.csv AFTER.csv")
    before, after = same_rows.load(argv[0]), same_rows.load(argv[1])
    _, bad = same_rows.compare(before, after, 0.05, 3.0)
    print(f"{bad} of {len(before.keys() & after.keys())}")


def compare_table(argv):
    """`gpubarrier compare ARGS` (tools/compare.py) as a markdown table with its verdicts."""
    from .. import compare
    return compare.main(list(argv) + ["--format", "markdown"])


def model_table(argv):
    """`gpubarrier model ARGS` (tools/model.py): the study's model, as its markdown table."""
    from .. import model
    return model.main(list(argv))


def reduction_tables(argv):
    """The study's Tables 3, 5, 6 (the reduction case study) from the CSVs, beside the study's."""
    from .. import reduction_tables as tables
    which = option(argv, "--table", "3,5,6").split(",")
    sizes = option(argv, "--sizes")
    print("\n".join(tables.report(argv, which, sizes and [int(s) for s in sizes.split(",")])))
