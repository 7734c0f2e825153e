"""The tables of report.py, one module per report or closely related group; report.py keeps the
command line (its --help, MODES, dispatch, main) and imports them.

    common        what every report shares: load (folders expanded, files read once), matches,
                  pick, fmt, table, the host headline row, one table per machine
    single        single: the single-GPU suite beside the study's V100/P100
    foundation    foundation: a sweep's foundation figures against the design's references
    multi         multi, hostwait: multi-GPU and host-side barriers side by side
    scaling       scaling: multi-GPU barriers by GPU count
    reference     reference: host figures against the reference tools' conventions
    selfcheck     selfcheck, selfcheck-log: the clock and differential techniques
    repeats       repeats, series: repeated runs of builds and labelled series
    value         value, ratio, pairs, count, runs, rows: one figure at a time
    floor_tables  floor, push-phases: multi-GPU barriers over their composed floor
    checks        faults, sanitize: what the check and the sanitizers caught
    delegated     samerows, compare, model, reduction-tables: other tools' tables

The modules import the other tools (gbcsv, machines, ...) of the package relatively. reference and
sanitize return their tables and lines (data/tables.py), which report.py prints as Markdown and
the HTML page renders as HTML (render/__init__.py); the other reports print their Markdown tables
(common.table).
"""
