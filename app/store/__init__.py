"""Storage: where the data lives, the database and its migrations, the unit of work, database roles, the log, table files."""
