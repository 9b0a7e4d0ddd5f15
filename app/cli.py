"""`idc-console [--db URL] [--user LOGIN] COMMAND …`

Exit codes: 0 done, 1 refused or verification failed (reason on stderr), 2 usage.
With no command, the console window opens (ui/ is imported only then).
"""
from __future__ import annotations

import argparse
import getpass
import importlib
import os
import sys
from dataclasses import dataclass, field

from .audit import Actor
from .config import ENV_PASSWORD, resolve_db_url
from .db import Database
from .errors import DomainError

# Modules that add their own sub-commands through `register(subparsers)`.
COMMAND_MODULES = ("app.cli_core", "app.cli_billing", "app.cli_reports", "app.cli_scale", "app.cli_settings")


@dataclass
class CliContext:
    args: argparse.Namespace
    _db: Database | None = field(default=None, repr=False)

    @property
    def db(self) -> Database:
        if self._db is None:
            self._db = Database(resolve_db_url(self.args.db))
        return self._db

    def open_upgraded(self) -> Database:
        """Open the database, creating or upgrading its schema (backing up SQLite first)."""
        from .startup import prepare_database

        prepare_database(self.db, log=lambda m: print(m, file=sys.stderr))
        return self.db

    def actor(self) -> Actor:
        """The acting user for a write: --user with IDC_CONSOLE_PASSWORD or a prompt."""
        from .services.users import login

        self.open_upgraded()
        name = self.args.user or os.environ.get("IDC_CONSOLE_USER")
        if not name:
            raise DomainError("this command writes and needs --user LOGIN (password from "
                              f"{ENV_PASSWORD} or a prompt)")
        password = os.environ.get(ENV_PASSWORD)
        if password is None:
            if not sys.stdin or not sys.stdin.isatty():
                raise DomainError(f"no password: set {ENV_PASSWORD} or run in a terminal to be asked")
            password = getpass.getpass(f"Password for {name}: ")
        return login(self.db, name, password)

    def reader(self) -> Actor:
        """Read-only commands act as the named user when given, else as a local reader."""
        if self.args.user:
            return self.actor()
        self.open_upgraded()
        return Actor(None, f"os:{getpass.getuser()}", f"command line ({getpass.getuser()})", "auditor")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="idc-console", description="IDC and GPU-compute back-office console")
    parser.add_argument("--db", help="database URL or SQLite file (default: IDC_CONSOLE_DB or the user data directory)")
    parser.add_argument("--user", help="login to act as (password from IDC_CONSOLE_PASSWORD or a prompt)")
    parser.add_argument("--lang", choices=["zh", "en"], help="console language")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        from ui.main import run_console  # Qt only when the window is wanted

        return run_console(args)
    ctx = CliContext(args)
    try:
        return int(args.handler(ctx, args) or 0)
    except DomainError as exc:
        print(f"idc-console: {exc.message}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("idc-console: interrupted", file=sys.stderr)
        return 1
    finally:
        if ctx._db is not None:
            ctx._db.dispose()


if __name__ == "__main__":
    sys.exit(main())
