"""One engine and one sessionmaker per database URL; migrations; backups."""
from __future__ import annotations

import ast
import contextvars
import logging
import os
import re
import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import create_engine, event, inspect, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from app.domain.errors import SchemaTooNew
from app.domain.runs import logged_run
from app.store.config import DatabaseUnavailable, default_sqlite_path, describe_url

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "models" / "migrations"
_REVISION_LINE = re.compile(r"^(revision|down_revision)\s*(?::[^=\n]*)?=\s*(.+?)\s*$", re.M)


@lru_cache(maxsize=1)
def _revision_graph() -> dict[str, tuple[str, ...]]:
    """Each migration's revision and the revisions it follows, read from the files' text.

    Every start checks the schema revision; importing alembic and its migration scripts for that
    cost a fifth of the console's cold start (docs/performance.md), so alembic is imported only
    to upgrade. Empty when a file cannot be read this way (then alembic is asked).
    """
    graph: dict[str, tuple[str, ...]] = {}
    for f in sorted((MIGRATIONS_DIR / "versions").glob("*.py")):
        found = {}
        for key, value in _REVISION_LINE.findall(f.read_text(encoding="utf-8")):
            found.setdefault(key, value)
        try:
            rev = ast.literal_eval(found["revision"])
            down = ast.literal_eval(found.get("down_revision", "None"))
        except (KeyError, ValueError, SyntaxError):
            return {}
        graph[rev] = () if down is None else ((down,) if isinstance(down, str) else tuple(down))
    return graph


def sqlite_pragmas(dbapi_conn, _record):
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.close()


def make_engine(url: str, **kw) -> Engine:
    u = make_url(url)
    if u.get_backend_name() == "sqlite":
        # no folder is made here: prepare_database (db upgrade, the console's start) makes it
        engine = create_engine(url, **kw)
        event.listen(engine, "connect", sqlite_pragmas)
        return engine
    if u.get_backend_name() == "postgresql" and u.drivername == "postgresql":
        u = u.set(drivername="postgresql+psycopg")
    # No liveness ping per checkout: across a WAN it is a round trip before every read (issue 26).
    # TCP keepalives find a dead link instead, and a connection found broken is dropped with the
    # whole pool (SQLAlchemy's disconnect handling), so the next read opens a fresh one.
    kw.setdefault("pool_pre_ping", False)
    # No hstore column anywhere: without this the first connection asks the server for the type in a
    # savepoint of its own (three round trips of the console's start, issue 26).
    kw.setdefault("use_native_hstore", False)
    args = dict(PG_KEEPALIVES)
    # No server-side prepared statements unless IDC_CONSOLE_PREPARE=N (prepare from the N-th run): across
    # a WAN they cost round trips and save a plan of well under a millisecond. psycopg sends a statement's
    # Parse and waits for it before its first prepared run (a round trip more), and after every ROLLBACK
    # (each transaction-bound read session ends in one) drops them all with a DEALLOCATE ALL of its own
    # and prepares them again (issue 26, third round: 153 round trips instead of 144 for eight rack clicks).
    # Through a transaction-mode pooler that cannot keep them (PgBouncer before 1.21) leave it unset or 0.
    threshold = os.environ.get(ENV_PREPARE, "").strip()
    args["prepare_threshold"] = int(threshold) if threshold and threshold != "0" else PREPARE_THRESHOLD
    kw["connect_args"] = {**args, **kw.get("connect_args", {})}
    engine = create_engine(u, **kw)
    if engine.dialect.driver == "psycopg":
        _lean_first_connect(engine.dialect)
    return engine


FIRST_CONNECT_FACTS = ("SELECT current_schema(), current_setting('transaction_isolation'), "
                       "current_setting('standard_conforming_strings')")


def _lean_first_connect(dialect) -> None:
    """The engine's first connection learns the server in one statement, outside a transaction.

    SQLAlchemy's PostgreSQL dialect asks, each in turn and inside a transaction it then rolls back, the
    server's version, the current schema, the default isolation level and standard_conforming_strings:
    seven round trips before the console's first statement (issue 26: at 30 ms RTT, 210 ms of a start of
    460). The version is libpq's (the server reports it when the connection starts); the other three
    come in one statement on the connection in autocommit, so that no BEGIN or ROLLBACK is sent. Should
    that statement fail, the dialect asks its own way."""
    initialize = dialect.initialize

    def lean(connection) -> None:
        raw = connection.connection.dbapi_connection
        try:
            raw.autocommit = True
            schema, isolation, strings = connection.exec_driver_sql(FIRST_CONNECT_FACTS).one()
            number = raw.info.server_version       # e.g. 150008 (15.8), 90624 (9.6.24)
            version = (number // 10000, number % 100) if number >= 100000 else \
                (number // 10000, number // 100 % 100, number % 100)
        except Exception:
            log.error("the first connection could not read the server's facts in one statement: "
                      "SQLAlchemy asks them its own way", exc_info=True)
            raw.autocommit = False
            return initialize(connection)
        facts = {"_get_server_version_info": lambda _c: version,
                 "_get_default_schema_name": lambda _c: schema,
                 "get_default_isolation_level": lambda _dbapi: isolation.upper(),
                 "_set_backslash_escapes": lambda _c: setattr(dialect, "_backslash_escapes", strings == "off")}
        for name, fn in facts.items():
            setattr(dialect, name, fn)
        try:
            initialize(connection)
        finally:
            for name in facts:
                delattr(dialect, name)
            raw.autocommit = False

    dialect.initialize = lean


ENV_PREPARE = "IDC_CONSOLE_PREPARE"
PREPARE_THRESHOLD = None   # psycopg: never prepare
PG_KEEPALIVES = {"keepalives": 1, "keepalives_idle": 30, "keepalives_interval": 10, "keepalives_count": 3}
_READING: ContextVar[bool | str] = ContextVar("idc_reading", default=False)
READ_THREADS = 4
_READ_THREAD_PREFIX = "idc-read"


@lru_cache(maxsize=2)
def _read_pool(level: int = 1):
    """The threads of Database.read_together (a handful: the pool's connections bound it anyway). Level 2
    runs the reads a level-1 read sends side by side (a page's reads, each made of several): its
    threads never wait on another pool, so neither level can starve the other."""
    return ThreadPoolExecutor(max_workers=READ_THREADS, thread_name_prefix=f"{_READ_THREAD_PREFIX}{level}")


def _read_level() -> int:
    """0 outside read_together's threads, else the level of the pool the current thread belongs to."""
    name = threading.current_thread().name
    if not name.startswith(_READ_THREAD_PREFIX):
        return 0
    level = name[len(_READ_THREAD_PREFIX):].split("_")[0]
    return int(level) if level.isdigit() else 2


@contextmanager
def reading(replica: bool = False):
    """Inside: `Database.session()` gives a read session (PostgreSQL: autocommit, so a read costs its
    statements and no BEGIN or ROLLBACK round trip); with `replica`, from the read replica when the
    Database has one and it is usable (app/store/replica.py), else the primary. For background reads
    of what a screen shows; never around a unit of work (it opens a transaction on the primary anyway)."""
    token = _READING.set("replica" if replica else True)
    try:
        yield
    finally:
        _READING.reset(token)


class Database:
    """An engine plus its sessionmaker; what the CLI, the console and the tests hold."""

    # The revision the console's start upgraded this database from (None: no upgrade); the first
    # login after it records the upgrade (ui/shell/main.py, app/services/schema.py).
    upgraded_from: str | None = None

    replica = None          # app.store.replica.Replica when a read URL is given
    commit_lsn: str | None = None   # the primary's WAL position after this process's last commit

    def __init__(self, url: str, read_url: str | None = None, **engine_kw):
        self.url = url
        self.engine = make_engine(url, **engine_kw)
        self.sessionmaker = sessionmaker(self.engine, expire_on_commit=False)
        # reads (see reading()): the same pool, each connection in autocommit while it reads
        self.reader = self.engine if self.engine.dialect.name == "sqlite" else \
            self.engine.execution_options(isolation_level="AUTOCOMMIT")
        self.read_sessionmaker = sessionmaker(self.reader, expire_on_commit=False)
        if read_url and self.engine.dialect.name == "postgresql":
            from app.store.replica import Replica

            self.replica = Replica(read_url, make_engine)

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    def session(self) -> Session:
        mode = _READING.get()
        if mode == "replica" and self.replica is not None and self.replica.usable(self.commit_lsn):
            return self.replica.sessionmaker()
        return self.read_sessionmaker() if mode else self.sessionmaker()

    def committed(self) -> None:
        """After a commit: with a replica, remember the primary's WAL position so that this process's
        next replica reads wait for it (read your own writes). One round trip, only with a replica."""
        if self.replica is not None:
            with self.read_sessionmaker() as s:
                self.commit_lsn = s.execute(text("SELECT pg_current_wal_insert_lsn()::text")).scalar()

    def read_together(self, *calls):
        """Run independent reads side by side and return their results in order: on PostgreSQL each call
        in its own thread on its own pooled connection (inside reading()), so that a panel built from
        several reads costs the longest of them in round trips, not their sum (issue 26); on SQLite one
        after the other (a local file has no round trip to save). The first call's error is raised."""
        # from a page's read, on the second pool; from inside that one, in turn (waiting on a pool from
        # inside itself could exhaust it)
        level = _read_level()
        if self.is_sqlite or len(calls) < 2 or level >= 2:
            with reading():
                return [call() for call in calls]

        replica = _READING.get() == "replica"      # a background read's calls read where it reads

        def one(call):
            with reading(replica=replica):
                return call()
        pool = _read_pool(level + 1)
        futures = [pool.submit(contextvars.copy_context().run, one, call) for call in calls]
        return [f.result() for f in futures]

    def read_sessions_together(self, *reads):
        """read_together for functions of a session: each `read(session)` in a read session of its own."""
        def opened(read):
            def call():
                with self.read_session() as s:
                    return read(s)
            return call
        return self.read_together(*(opened(read) for read in reads))

    def warm(self, n: int = READ_THREADS) -> None:
        """Open up to `n` pooled connections in the background (PostgreSQL), returned to the pool idle: the
        console's start does it while its login dialog waits, so that the main window's reads side by side
        (read_together) find their connections open instead of each paying a connection's round trips
        (issue 26). Failures are left for the reads themselves to report."""
        if self.is_sqlite or n < 1:
            return
        barrier = threading.Barrier(n)

        def one():
            try:
                with self.reader.connect():
                    barrier.wait(timeout=30)     # all held at once: n connections, not one reused n times
            except (SQLAlchemyError, threading.BrokenBarrierError):  # opened, or reported, when used
                barrier.abort()
        for _ in range(n):
            _read_pool().submit(one)

    def read_connection(self):
        """A pooled connection for reading only, on the primary (PostgreSQL: autocommit, so its reads cost
        their statements and no BEGIN or ROLLBACK round trip; issue 26). What `engine.connect()` gave the
        read models, less the transaction control: each statement reads committed data as of its start,
        as it did under READ COMMITTED."""
        return self.reader.connect()

    def read_session(self) -> Session:
        """A session for reading only (PostgreSQL: autocommit, no transaction round trips): what the read
        models open; inside reading(replica=True) the replica's when it is usable, like session()."""
        if _READING.get() == "replica" and self.replica is not None and self.replica.usable(self.commit_lsn):
            return self.replica.sessionmaker()
        return self.read_sessionmaker()

    def dispose(self) -> None:
        self.engine.dispose()
        if self.replica is not None:
            self.replica.dispose()

    def describe_storage(self) -> str:
        """Where the data is kept, for a message: the SQLite file's folder, or the PostgreSQL server."""
        path = sqlite_path(self.url)
        if path is not None:
            return f"the folder of {path}"
        return f"the PostgreSQL server of {describe_url(self.url)}"

    # --- migrations -------------------------------------------------------
    def alembic_config(self) -> "Config":
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
        cfg.attributes["engine"] = self.engine
        return cfg

    def head_revision(self) -> str:
        graph = _revision_graph()
        heads = set(graph) - {d for downs in graph.values() for d in downs}
        if len(heads) == 1:
            return heads.pop()
        from alembic.script import ScriptDirectory

        return ScriptDirectory.from_config(self.alembic_config()).get_current_head()

    def current_revision(self) -> str | None:
        return self._revision_and(None)[0]

    def revision_and_regions(self) -> tuple[str | None, bool | None]:
        """(schema revision, whether the region table holds a row) in one statement where both exist
        (the console's start: one round trip, issue 26); the second is None where it cannot be asked
        (no region table yet)."""
        return self._revision_and("SELECT EXISTS (SELECT 1 FROM region)")

    def _revision_and(self, also: str | None) -> tuple[str | None, bool | None]:
        with self.read_connection() as conn:   # autocommit: no BEGIN, no ROLLBACK
            rows = None
            if also is not None:
                try:
                    rows = conn.execute(text(f"SELECT version_num, ({also}) FROM alembic_version")).all()
                except DBAPIError:   # a new database, or one before the table asked: ask the plain way
                    conn.rollback()
            if rows is None:
                if not inspect(conn).has_table("alembic_version"):
                    return None, None
                rows = conn.execute(text("SELECT version_num, NULL FROM alembic_version")).all()
            if len(rows) <= 1:
                return (rows[0][0], rows[0][1]) if rows else (None, None)
            from alembic.runtime.migration import MigrationContext

            return MigrationContext.configure(conn).get_current_revision(), None  # raises: several heads

    def needs_upgrade(self) -> bool:
        return self.current_revision() != self.head_revision()

    def probe(self) -> str | None:
        """Connect once and return the schema revision; a failure becomes DatabaseUnavailable."""
        try:
            return self.current_revision()
        except SQLAlchemyError as exc:
            raise DatabaseUnavailable(describe_db_error(exc, self.url)) from None

    def check_not_newer(self, current: str | None | object = ...) -> str | None:
        """SchemaTooNew when the database is at a revision this console does not know; else its revision
        (read once: the caller need not read it again, issue 26; `current`: as the caller read it)."""
        current = self.current_revision() if current is ... else current
        if current is None:
            return None
        graph = _revision_graph()
        if graph and current in graph:
            return current
        from alembic.script import ScriptDirectory

        script = ScriptDirectory.from_config(self.alembic_config())
        if not _known(script, current):
            raise SchemaTooNew(
                f"The database is at schema revision {current}, which this version of the console "
                f"does not know (newest known: {script.get_current_head()}). "
                "Install a newer idc-console to open it.")
        return current

    @logged_run("db upgrade", start=lambda self, revision="head", **kw: dict(revision=revision,
                                                                           database=self.describe_storage()))
    def upgrade(self, revision: str = "head", in_transaction=None) -> None:
        """`in_transaction(connection)`, when given, runs after the migrations in their transaction, so
        that what it writes commits with them or not at all (PostgreSQL's DDL is transactional)."""
        from alembic import command

        from app.audit.trail import forget_definer_functions

        self.check_not_newer()
        cfg = self.alembic_config()

        def then(connection):
            # PostgreSQL with roles: the grants again, in the migrations' transaction, so that no new table or
            # function is left with PostgreSQL's defaults (EXECUTE for PUBLIC) until `db roles` runs again
            from app.store.dbroles import regrant_after_upgrade

            regrant_after_upgrade(connection)
            if in_transaction is not None:
                in_transaction(connection)

        cfg.attributes["in_transaction"] = then
        try:
            command.upgrade(cfg, revision)
        finally:
            forget_definer_functions(self.engine)

    def downgrade(self, revision: str) -> None:
        from alembic import command

        from app.audit.trail import forget_definer_functions

        try:
            command.downgrade(self.alembic_config(), revision)
        finally:
            forget_definer_functions(self.engine)

    def backup_sqlite(self, target: Path) -> Path:
        """Online, consistent copy through sqlite3's backup API."""
        if not self.is_sqlite:
            raise ValueError("backup through the console is for SQLite files; use pg_dump for PostgreSQL")
        src_path = self.engine.url.database
        target = Path(target)
        if not target.parent.is_dir():
            raise FileNotFoundError(2, "No such file or directory", str(target))
        src = sqlite3.connect(src_path)
        dst = sqlite3.connect(str(target))
        try:
            src.backup(dst)
        finally:
            dst.close()
            src.close()
        return target


SQLITE_HEADER = b"SQLite format 3\x00"


def sqlite_path(url: str) -> Path | None:
    u = make_url(url)
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:":
        return None
    return Path(u.database)


def check_sqlite_file(url: str, *, must_exist: bool) -> None:
    """Refuse a SQLite path that is absent (unless it may be created), a folder or not SQLite.

    An empty file is a valid, empty SQLite database (the schema check says what to do next).
    """
    path = sqlite_path(url)
    if path is None:
        return
    if not path.exists():
        if must_exist:
            raise DatabaseUnavailable(f"no database at {path}; create one with "
                                      f"idc-console --db {path} db upgrade")
        if not path.parent.is_dir() and path.parent.exists():
            raise DatabaseUnavailable(f"{path.parent} is not a folder")
        return
    if path.is_dir():
        raise DatabaseUnavailable(f"{path} is a folder, not a database file")
    try:
        with open(path, "rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise DatabaseUnavailable(f"cannot read {path}: {exc.strerror}") from None
    if head and head != SQLITE_HEADER:
        raise DatabaseUnavailable(f"{path} is not a SQLite database (and not a PostgreSQL URL)")


def storage_full(exc: BaseException | None) -> bool:
    """Whether `exc`, or an error it was raised from or while handling, is the database running out of
    space: SQLite's SQLITE_FULL ("database or disk is full"), PostgreSQL's disk_full (53100) or an
    OS "No space left on device"."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        orig = getattr(exc, "orig", None) or exc
        if getattr(orig, "sqlite_errorname", None) == "SQLITE_FULL" or getattr(orig, "sqlstate", None) == "53100":
            return True
        if getattr(orig, "errno", None) == 28:  # ENOSPC
            return True
        text = str(orig).lower()
        if "database or disk is full" in text or "no space left on device" in text:
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def describe_db_error(exc: BaseException, url: str) -> str:
    """One line naming what went wrong with the database, without the driver's traceback."""
    orig = getattr(exc, "orig", None) or exc
    text = " ".join(str(orig).split())   # the driver's message, on one line
    text = text.split("(Background on this error")[0].removeprefix("connection failed: ")
    text = text.split(" Is the server running")[0].strip().rstrip(".")
    where = describe_url(url)
    if "malformed" in text or "not a database" in text:
        return f"{where} is damaged or not a SQLite database ({text})"
    u = make_url(url)
    if u.get_backend_name() == "sqlite":
        return f"cannot use the database {where}: {text}"
    # the login tried, named: a pooler says only "no such user" where the server names the role
    user = u.username
    return f"cannot use the PostgreSQL database {where}{f' as {user}' if user else ''}: {text}"


def _known(script, rev: str) -> bool:
    from alembic.util import CommandError  # alembic only where migrations are looked at

    try:
        return script.get_revision(rev) is not None
    except CommandError:  # alembic's answer for an unknown revision
        return False


def ping(url: str, timeout: int = 5) -> None:
    """Open `url` and run SELECT 1: returns when the database answers, else raises the driver's error
    (PostgreSQL gives up after `timeout` seconds)."""
    from sqlalchemy import text

    engine = make_engine(url, **({"connect_args": {"connect_timeout": timeout}} if url.startswith("postgres") else {}))
    try:
        with engine.connect() as c:
            c.execute(text("SELECT 1"))
    finally:
        engine.dispose()


def check_console_db(url: str) -> None:
    """The console's start, like every command but `db upgrade`: a SQLite file that does not exist is
    refused (DatabaseUnavailable: no database at …), so that no folder or file is made as a side effect;
    only the default file (a first start) is created."""
    path = sqlite_path(url)
    if path is None or path.expanduser().resolve() == default_sqlite_path().expanduser().resolve():
        return
    check_sqlite_file(url, must_exist=True)
