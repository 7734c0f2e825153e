"""gpubarrier's Python tools: the programs behind `gpubarrier compare`, `plot`, `model` and
`report`, and the modules they share, in four parts:

  data/      reading the CSVs and the files beside them (gbcsv reads the CSVs, tool_main turns
             every failure into one line and an exit status, user_files bounds every file read)
  analysis/  the figures computed from the rows (answers, comparison, floor, findings, model)
  render/    what draws them: Markdown, text, HTML, charts and plots
  cli/       the programs: report, compare, plot, model, and the documents' writers

The package is imported by its folder's name (`gpubarrier_tools` in the source tree and in an
install, under share/gpubarrier/), and its modules import each other relatively, so the folder may
lie anywhere. A program runs as a module of the package: `gpubarrier report ...` runs the module
gpubarrier_tools.cli.report as `python3 -m gpubarrier_tools.cli.report ...` would, with the folder
above gpubarrier_tools/ first on the path (src/app/python_tool.cpp); from a checkout,
`python3 -m gpubarrier_tools.cli.report ...` in its root does the same.
`python3 gpubarrier_tools/cli/report.py ...` from anywhere imports the package from the folder
above the file's and runs the same module in the same process, and the ReFrame suite
(reframe/lib/gbresults.py) imports the package shipped beside it from its folder: neither edits
sys.path.
"""
