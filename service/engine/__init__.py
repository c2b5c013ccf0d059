"""The expert system: facts in, findings out. Pure: no database, no HTTP, no I/O beyond loading rule files."""
