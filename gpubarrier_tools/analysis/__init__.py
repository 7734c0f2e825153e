"""The figures computed from the rows: the answers, the comparison, the composed floor, the
findings, the study's model and tables, and the tables of `report` (reports/), each returned as
data (data/tables.py) for a renderer to draw. Imports the data, never a renderer."""
