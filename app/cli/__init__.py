"""The command line: `idc-console COMMAND …` (main) and one module per command group."""
