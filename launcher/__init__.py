"""The `idc-console` program: the one module above both halves (app/ and ui/, and bench/).

With a command it runs the command line (app/cli/main.py) composed of the product's command modules
and the bench package's; with none it opens the console window (ui/shell/main.py). Neither half
imports the other upwards: app/ knows nothing of ui/ or bench/ (import-linter contracts).
Before the window, nothing but the global options is parsed and no command module is imported
(cold start: tests/platform/test_cold_start_imports.py).
"""
from __future__ import annotations

from app.cli import main as cli

# The product's commands, then the benchmark's (`bench`, and the loader behind `demo load --scale large`).
COMMAND_MODULES = cli.COMMAND_MODULES + ("bench.cli",)


def open_console(args) -> int:
    from ui.shell.main import run_console  # Qt only when the window is wanted

    return run_console(args)


def main(argv: list[str] | None = None) -> int:
    return cli.main(argv, command_modules=COMMAND_MODULES, open_console=open_console)
