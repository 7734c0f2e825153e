"""The command lines: one module per program (report, compare, plot, model, the documents'
writers methods_doc and library_doc) and the HTML page of `report --html`, each picking an
analysis and the renderer of its output."""
