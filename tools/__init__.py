"""gpubarrier's Python tools: the programs behind `gpubarrier compare`, `plot`, `model` and
`report`, and the modules they share (gbcsv reads the CSVs, tool_main turns every failure into one
line and an exit status, user_files bounds every file read).

The package is imported by its folder's name (`tools` in the source tree and in an install, under
share/gpubarrier/), and its modules import each other relatively, so the folder may lie anywhere.
A program runs as a module of the package: `gpubarrier report ...` runs the module tools.report as
`python3 -m tools.report ...` would, with the folder above tools/ first on the path
(src/app/python_tool.cpp); from a checkout, `python3 -m tools.report ...` in its root does the
same. `python3 tools/report.py ...` from anywhere imports the package from beside the file and runs
the same module in the same process, and the ReFrame suite (reframe/lib/gbresults.py) imports the
package shipped beside it from its folder: neither edits sys.path.
"""
