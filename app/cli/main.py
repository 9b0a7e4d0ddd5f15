"""`idc-console [--db URL] [--user LOGIN] COMMAND …`

Exit codes: 0 done, 1 refused or verification failed (reason on stderr), 2 usage.
The program's entry point is the launcher above app/ and ui/ (launcher/): it adds the bench
package's commands and opens the console window when no command is given; app/ never imports ui/.

The argument types below (period, date, days, checkpoint, output file) are shared by every
command module: a bad value is a usage error (exit 2) named by argparse, never a traceback.
"""
from __future__ import annotations

import argparse
import datetime as dt
import getpass
import importlib
import logging
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from app import __version__
from app.domain.clock import FIRST_YEAR, LAST_YEAR, parse_date  # noqa: F401  (the business's calendar)
from app.domain.errors import DomainError
from app.store.config import ENV_PASSWORD, describe_url, resolve_db_url, resolve_read_db_url
from app.store.db import Database, check_sqlite_file, sqlite_path

if TYPE_CHECKING:
    from app.domain.actor import Actor

ENV_USER = "IDC_CONSOLE_USER"
LOGIN_MAX = 64          # models.User.login is String(64)
MAX_DAYS = 36500


# --- argument types -------------------------------------------------------------------------------
def parse_period(text: str, today: dt.date | None = None) -> str:
    """'YYYY-MM', 'last' (the previous Shanghai month) or 'this' (the current one) → 'YYYY-MM'.

    app.domain.rating.Period.parse, the one period reading; raises ValueError with a message for people.
    """
    from app.domain.rating import Period

    return Period.parse(text, today).label


def period_arg(text: str) -> str:
    """argparse type for --period: YYYY-MM, last or this."""
    try:
        return parse_period(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def parse_day(text: str) -> dt.date:
    """The one date reading (app.domain.clock.parse_date); ValueError with a message for people."""
    day = parse_date(text)
    if day is None:
        raise ValueError(f"{text!r} is not a date: use YYYY-MM-DD")
    return day


def date_arg(text: str) -> str:
    """argparse type for a YYYY-MM-DD date (Asia/Shanghai); returns it in ISO form."""
    try:
        return parse_day(text).isoformat()
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def days_arg(text: str) -> int:
    """argparse type for a number of days (0 … 36500)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of days") from None
    if not 0 <= n <= MAX_DAYS:
        raise argparse.ArgumentTypeError(f"{n} days is out of range (0 to {MAX_DAYS})")
    return n


def checkpoint_arg(text: str) -> str:
    """argparse type for an audit checkpoint SEQ:HASH (as printed by `report audit`)."""
    if not re.fullmatch(r"\d+:[0-9a-fA-F]{64}", (text or "").strip()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a checkpoint: use SEQ:HASH as printed by "
                                         "report audit (a number, a colon, 64 hex digits)")
    return text.strip().lower()


def output_arg(text: str) -> str:
    """argparse type for a file to write: its folder must exist (no folder is made on the side)."""
    path = Path(text).expanduser()
    if not text or path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a folder: name a file to write")
    if not path.resolve().parent.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {text}: the folder {path.resolve().parent} "
                                         "does not exist")
    return str(path)


def month_bounds(period: str) -> tuple[str, str]:
    """First and last day of a YYYY-MM period, in ISO form."""
    y, m = int(period[:4]), int(period[5:])
    first = dt.date(y, m, 1)
    nxt = dt.date(y + (m == 12), m % 12 + 1, 1)
    return first.isoformat(), (nxt - dt.timedelta(days=1)).isoformat()

# Modules that add their own sub-commands through `register(subparsers)` (the launcher adds more).
COMMAND_MODULES = ("app.cli.core", "app.cli.billing", "app.cli.reports", "app.cli.settings",
                   "app.cli.space", "app.cli.xconnect",
                   "app.cli.finance", "app.cli.power", "app.cli.clusters", "app.cli.capacity",
                   "app.cli.operations", "app.cli.maintenance", "app.cli.visit")
# The modules that make each command (its own, and those that add kinds, options or actions to it): a
# command imports these only, with any module the table does not name (the launcher's bench.cli, which
# lends DEFAULTS); --help, a command not listed and a mistyped one import them all. tests/cli/test_cli.py
# holds the table to what the modules register.
_CORE, _FINANCE, _OPS = "app.cli.core", "app.cli.finance", "app.cli.operations"
COMMANDS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("db", "user", "demo", "audit", "reservation", "customer"), (_CORE,)),
    **dict.fromkeys(("import", "export"), (_CORE, _FINANCE, _OPS)),
    **dict.fromkeys(("billing", "contracts", "statements"), ("app.cli.billing",)),
    "report": ("app.cli.reports", _FINANCE), "settings": ("app.cli.settings",), "space": ("app.cli.space",),
    "xconnect": ("app.cli.xconnect",),
    **dict.fromkeys(("payments", "fapiao", "deposits"), (_FINANCE,)),
    "power": ("app.cli.power",),
    **dict.fromkeys(("cluster", "node", "health"), ("app.cli.clusters",)),
    **dict.fromkeys(("capacity", "hold", "quote", "price"), ("app.cli.capacity",)),
    **dict.fromkeys(("ticket", "oncall"), (_OPS,)),
    "maintenance": ("app.cli.maintenance",), "visit": ("app.cli.visit",),
}


@dataclass
class CliContext:
    args: argparse.Namespace
    may_create: bool = False   # only `db upgrade` may open a database file that does not exist
    _db: Database | None = field(default=None, repr=False)

    @property
    def db(self) -> Database:
        """The database named by --db / IDC_CONSOLE_DB / the default, reachable, schema unchecked."""
        if self._db is None:
            url = resolve_db_url(self.args.db)
            url = _as_person(url, self.args.user or os.environ.get(ENV_USER))
            check_sqlite_file(url, must_exist=not self.may_create)
            db = Database(url, read_url=resolve_read_db_url(getattr(self.args, "read_db", None)))
            if not (self.may_create and sqlite_path(url) and not sqlite_path(url).exists()):
                try:
                    db.probe()
                except DomainError:
                    db.dispose()
                    raise
            self._db = db
        return self._db

    def current(self) -> Database:
        """The database at this program's schema; anything else is refused, never upgraded here."""
        db = self.db
        db.check_not_newer()
        rev, head = db.probe(), db.head_revision()
        if rev != head:
            target = self._db_option()
            if rev is None:
                raise DomainError(f"{describe_url(db.url)} has no schema yet; create it with "
                                  f"idc-console{target} db upgrade")
            raise DomainError(f"{describe_url(db.url)} is at schema {rev} and this idc-console needs {head}: "
                              f"run idc-console{target} db upgrade (a SQLite file is backed up first)")
        return db

    def _db_option(self) -> str:
        return f" --db {self.args.db}" if self.args.db else ""

    def open_upgraded(self, in_transaction=None) -> Database:
        """Create or upgrade the schema (backing up SQLite first): `db upgrade` only."""
        from app.store.startup import prepare_database

        self.may_create = True
        prepare_database(self.db, log=lambda m: print(m, file=sys.stderr), in_transaction=in_transaction)
        return self.db

    def actor(self) -> "Actor":
        """The acting user for a write: --user with IDC_CONSOLE_PASSWORD or a prompt."""
        from app.services.users import login

        self.current()
        name = self.args.user or os.environ.get(ENV_USER)
        if not name:
            raise DomainError("this command writes and needs --user LOGIN (password from "
                              f"{ENV_PASSWORD} or a prompt)")
        if len(name) > LOGIN_MAX:
            raise DomainError(f"no such login: logins have at most {LOGIN_MAX} characters")
        password = os.environ.get(ENV_PASSWORD)
        if password is None:
            if not sys.stdin or not sys.stdin.isatty():
                raise DomainError(f"no password: set {ENV_PASSWORD} or run in a terminal to be asked")
            password = getpass.getpass(f"Password for {name}: ")
        return login(self.db, name, password)

    def reader(self) -> "Actor":
        """Read-only commands act as the named user when given, else as a local reader."""
        if self.args.user:
            return self.actor()
        from app.domain.actor import Actor

        self.current()
        return Actor(None, f"os:{getpass.getuser()}", f"command line ({getpass.getuser()})", "auditor")


def _as_person(url: str, login: str | None) -> str:
    """PostgreSQL with a URL naming no user and --user LOGIN: connect as the person's own database
    login (app/store/dbroles.py), with their password; otherwise the URL as given."""
    from sqlalchemy.engine import make_url

    if not login or not url.startswith("postgresql") or make_url(url).username:
        return url
    password = os.environ.get(ENV_PASSWORD)
    if password is None and sys.stdin and sys.stdin.isatty():
        password = getpass.getpass(f"Password for {login}: ")
        os.environ[ENV_PASSWORD] = password  # the same password opens the program's login
    from app.store.dbroles import person_url

    return person_url(url, login, password or "")


def build_parser(command_modules: tuple[str, ...] = COMMAND_MODULES, command: str | None = None
                 ) -> argparse.ArgumentParser:
    """The parser of every command, or (`command` named in COMMANDS) of that command's module and of the
    modules the table does not list."""
    if command in COMMANDS:
        listed = {n for names in COMMANDS.values() for n in names}
        command_modules = tuple(n for n in command_modules if n in COMMANDS[command] or n not in listed)
    parser = argparse.ArgumentParser(prog="idc-console", description="IDC and GPU-compute back-office console")
    parser.add_argument("--version", action="version", version=f"idc-console {__version__}")
    parser.add_argument("--db", help="database URL or SQLite file (default: IDC_CONSOLE_DB or the user data directory)")
    parser.add_argument("--read-db", help="a PostgreSQL read replica for reports, exports and the big lists "
                                          "(default: IDC_CONSOLE_READ_DB; none: the database itself)")
    parser.add_argument("--user", help="login to act as (password from IDC_CONSOLE_PASSWORD or a prompt)")
    parser.add_argument("--lang", choices=["zh", "en"], help="console language")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in command_modules:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        module.register(sub)
        # values a module lends to the others' handlers (bench/cli.py: the large demo's loader)
        parser.set_defaults(**getattr(module, "DEFAULTS", {}))
    return parser


def _global_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="idc-console", add_help=False)
    parser.add_argument("--db")
    parser.add_argument("--read-db")
    parser.add_argument("--user")
    parser.add_argument("--lang", choices=["zh", "en"])
    return parser


def main(argv: list[str] | None = None, *, command_modules: tuple[str, ...] = COMMAND_MODULES,
         open_console=None) -> int:
    """Run one command. With none, `open_console(args)` (the launcher's: the window) or the usage.

    The window is opened without importing a single command module or building their parsers:
    only the global options are read when nothing else is given (cold start, docs/performance.md)."""
    args, rest = _global_parser().parse_known_args(sys.argv[1:] if argv is None else argv)
    if rest:
        args = build_parser(command_modules, rest[0]).parse_args(argv)
    else:
        args.command = None
    from app.store.logs import setup_logging

    setup_logging()
    if not args.command:
        if open_console is None:
            build_parser(command_modules).print_usage(sys.stderr)
            return _fail("no command given (the console window opens through idc-console)")
        try:
            return open_console(args)
        except DomainError as exc:   # e.g. IDC_CONSOLE_DB naming mysql:// or :memory:
            return _fail(exc.message)
    ctx = CliContext(args)
    try:
        # only with a read URL: an autocommit read cannot hold the server-side cursor the audit export
        # streams through ("DECLARE CURSOR can only be used in transaction blocks")
        if resolve_read_db_url(getattr(args, "read_db", None)) and (
                args.command == "report" or getattr(args.handler, "__name__", "") in REPLICA_HANDLERS):
            from app.store.db import reading

            with reading(replica=True):   # from --read-db when given (its units of work: the primary)
                return int(args.handler(ctx, args) or 0)
        return int(args.handler(ctx, args) or 0)
    except DomainError as exc:
        return _fail(exc.message)
    except KeyboardInterrupt:
        return _fail("interrupted")
    except UnicodeDecodeError as exc:
        return _fail(f"the file is not UTF-8 text ({exc.reason} at byte {exc.start}): save it as UTF-8 "
                     "(in Excel: CSV UTF-8) and try again")
    except OSError as exc:
        return _fail(_describe_os_error(exc))
    except Exception as exc:
        from sqlalchemy.exc import SQLAlchemyError

        if not isinstance(exc, SQLAlchemyError):
            logging.getLogger(__name__).exception("idc-console %s failed", args.command)
            raise
        from app.store.db import describe_db_error

        logging.getLogger(__name__).warning("idc-console %s: database error", args.command, exc_info=True)
        return _fail(describe_db_error(exc, ctx._db.url if ctx._db else "sqlite://"))
    finally:
        if ctx._db is not None:
            ctx._db.dispose()


# The commands that read from the read replica (--read-db) beside `report`: the exports, the audit
# scans (issue 26). Whatever they write goes through a unit of work, on the primary.
REPLICA_HANDLERS = {"export_file", "audit_verify", "audit_reconcile", "audit_export", "statements_export"}


def _fail(message: str) -> int:
    print(f"idc-console: {message}", file=sys.stderr)
    return 1


def _describe_os_error(exc: OSError) -> str:
    name = exc.filename
    if name and isinstance(exc, FileNotFoundError) and not Path(name).parent.is_dir():
        return f"cannot use {name}: the folder {Path(name).parent} does not exist"
    if name:
        return f"cannot use {name}: {exc.strerror or exc}"
    return str(exc)


if __name__ == "__main__":
    sys.exit(main())
