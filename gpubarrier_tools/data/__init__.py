"""Reading and checking gpubarrier's CSVs and the files beside them (gbcsv, the schema, machines,
bounds, the study's published figures), how a tool fails (tool_main), what it may read and write
(user_files, output_files), and what a report returns (tables). Imports neither the analysis nor
the renderers."""
