"""Test fixtures: every storage test runs on SQLite and, with IDC_TEST_PG_URL, on PostgreSQL.

`db` is a migrated, empty database (fresh per test); `admin`, `operator`, `manager` and
`auditor` are logged-in actors.
"""
from __future__ import annotations

import os
import tempfile
import uuid

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("IDC_PASSWORD_HASH_COST", "test")  # cheap argon2id for tests (app/domain/auth.py)
# The suite never writes to the user's real data directory (remembered audit heads, logs, settings).
os.environ["IDC_CONSOLE_HOME"] = tempfile.mkdtemp(prefix="idc-test-home-")

from sqlalchemy import create_engine, text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from app.audit.trail import Actor  # noqa: E402
from app.store.db import Database  # noqa: E402
from app.store.startup import prepare_database  # noqa: E402
from tests.support.pg_clones import PgClones  # noqa: E402

PG_URL = os.environ.get("IDC_TEST_PG_URL")
# host:port of a PgBouncer in front of that server (.ci/run): each test's database is opened through
# it, while the templates and clones are made directly (a pooler keeps server connections open,
# and CREATE DATABASE … TEMPLATE refuses a template anyone is connected to)
PG_POOLER = os.environ.get("IDC_TEST_PG_POOLER")
BACKENDS = ["sqlite"] + (["postgresql"] if PG_URL else [])


def on_postgresql(test):
    """A test of PostgreSQL alone: parametrised to that backend only (no SQLite copy that skips),
    and skipped as a whole when IDC_TEST_PG_URL is not set."""
    test = pytest.mark.parametrize("db", ["postgresql"], indirect=True)(test)
    return pytest.mark.skipif(not PG_URL, reason="needs IDC_TEST_PG_URL (PostgreSQL)")(test)


def across_backends(fixture: str, name: str, values: list):
    """Parametrise `name` over `values`, each on one backend in turn (SQLite, PostgreSQL, SQLite …)
    through the `fixture` (db or demo_db): a long check whose subject is not the backend (a role's
    day in each language) runs once per value, not once per value and backend; with PostgreSQL
    set, both backends still run it."""
    pairs = [(BACKENDS[i % len(BACKENDS)], v) for i, v in enumerate(values)]
    return pytest.mark.parametrize(f"{fixture}, {name}", pairs, indirect=[fixture])


def once_across_backends(index: int):
    """A long check whose subject is not the backend, on one of them only: BACKENDS[index] (wrapping),
    so that two such checks of a file share the backends (PostgreSQL when set for one, SQLite for the
    other) and CI runs each once, not once per backend."""
    return pytest.mark.parametrize("db", [BACKENDS[index % len(BACKENDS)]], indirect=True)


def _pg_admin_url() -> str:
    return make_url(PG_URL).set(drivername="postgresql+psycopg").render_as_string(hide_password=False)


_pg_clones: PgClones | None = None


def pg_clones() -> PgClones:
    """The session's maker of PostgreSQL test databases (tests/support/pg_clones.py)."""
    global _pg_clones
    if _pg_clones is None:
        admin = make_url(PG_URL).set(drivername="postgresql", database="postgres")
        _pg_clones = PgClones(admin.render_as_string(hide_password=False))
    return _pg_clones


@pytest.fixture(scope="session")
def pg_template():
    """A migrated template database; each test clones it (CREATE DATABASE … TEMPLATE)."""
    if not PG_URL:
        yield None
        return
    base = make_url(_pg_admin_url())
    name = f"idc_tpl_{uuid.uuid4().hex[:8]}"
    admin = create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    db = Database(base.set(database=name).render_as_string(hide_password=False))
    prepare_database(db)
    db.dispose()
    _release_template(name)
    yield name
    pg_clones().close()
    with admin.connect() as c:
        c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


def _release_template(name: str) -> None:
    """No session may stay on a template: CREATE DATABASE … TEMPLATE refuses one anyone is connected
    to ("being accessed by other users"), and every clone of it would fail. A connection left idle
    on the demo's database after its load (seen once in a session that had run the console
    first; not reproduced by a load alone) is ended here, before the first clone is asked for."""
    admin = create_engine(make_url(_pg_admin_url()).set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as c:
            c.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                           "WHERE datname = :name AND pid <> pg_backend_pid()"), {"name": name})
    finally:
        admin.dispose()


_sqlite_template: dict[str, bytes] = {}


def make_db(backend: str, tmp_path, pg_template, *, sqlite_bytes: bytes | None = None) -> Database:
    if backend == "sqlite":
        path = tmp_path / "test.db"
        if sqlite_bytes is not None:
            path.write_bytes(sqlite_bytes)
            return Database(f"sqlite:///{path}")
        if "bytes" not in _sqlite_template:
            tpl = tmp_path / "template.db"
            db = Database(f"sqlite:///{tpl}")
            prepare_database(db)
            db.dispose()
            import sqlite3
            c = sqlite3.connect(tpl)
            c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            c.close()
            _sqlite_template["bytes"] = tpl.read_bytes()
        path.write_bytes(_sqlite_template["bytes"])
        return Database(f"sqlite:///{path}")
    base = make_url(_pg_admin_url())
    name = pg_clones().take(pg_template)
    url = base.set(database=name)
    if PG_POOLER:
        host, port = PG_POOLER.rsplit(":", 1)
        url = url.set(host=host, port=int(port))
    db = Database(url.render_as_string(hide_password=False))
    db._test_drop = (base, name)
    return db


def drop_db(db: Database) -> None:
    db.dispose()
    info = getattr(db, "_test_drop", None)
    if info:
        pg_clones().give_back(info[1])


@pytest.fixture(params=BACKENDS)
def db(request, tmp_path, pg_template):
    database = make_db(request.param, tmp_path, pg_template)
    yield database
    drop_db(database)


@pytest.fixture(scope="session")
def demo_templates(tmp_path_factory, pg_template):
    """The demo data, loaded once per backend per test session, cloned for each test."""
    cache: dict[str, object] = {}

    def get(backend: str):
        if backend in cache:
            return cache[backend]
        from app.demo.load import load_demo

        if backend == "sqlite":
            folder = tmp_path_factory.mktemp("demo")
            db = make_db("sqlite", folder, pg_template)
            load_demo(db)
            db.dispose()
            import sqlite3
            c = sqlite3.connect(folder / "test.db")
            c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            c.close()
            cache[backend] = (folder / "test.db").read_bytes()
        else:
            base = make_url(_pg_admin_url())
            name = f"idc_demo_{uuid.uuid4().hex[:8]}"
            admin = create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")
            with admin.connect() as c:
                c.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{pg_template}"'))
            admin.dispose()
            db = Database(base.set(database=name).render_as_string(hide_password=False))
            load_demo(db)
            db.dispose()
            _release_template(name)
            cache[backend] = name
        return cache[backend]

    yield get
    if "postgresql" in cache:
        pg_clones().settle()   # the clone made ahead of the demo's, before the demo's own database
        drop_db(type("D", (), {"dispose": lambda self: None, "_test_drop": (make_url(_pg_admin_url()), cache["postgresql"])})())


@pytest.fixture(params=BACKENDS)
def demo_db(request, tmp_path, pg_template, demo_templates):
    """A private copy of the demo database (users: admin, wanglei, lina, zhaomin …; password demo1234)."""
    template = demo_templates(request.param)
    if request.param == "sqlite":
        database = make_db("sqlite", tmp_path, pg_template, sqlite_bytes=template)
    else:
        database = make_db("postgresql", tmp_path, template)
    yield database
    drop_db(database)


@pytest.fixture
def sqlite_db(tmp_path, pg_template):
    database = make_db("sqlite", tmp_path, pg_template)
    yield database
    drop_db(database)


PASSWORD = "correct-horse-1"


@pytest.fixture
def admin(db) -> Actor:
    from app.services.users import add_user, login

    add_user(db, None, "admin", "admin", PASSWORD, "管理员")
    return login(db, "admin", PASSWORD)


def make_user(db, admin, login_name, role, display):
    from app.services.users import add_user, login

    add_user(db, admin, login_name, role, PASSWORD, display)
    return login(db, login_name, PASSWORD)


@pytest.fixture
def operator(db, admin) -> Actor:
    return make_user(db, admin, "op", "operator", "运维 小王")


@pytest.fixture
def manager(db, admin) -> Actor:
    return make_user(db, admin, "am", "account_manager", "客户经理 李娜")


@pytest.fixture
def auditor(db, admin) -> Actor:
    return make_user(db, admin, "audit", "auditor", "审计 张伟")


def table_counts(db: Database) -> dict[str, int]:
    """Row count of every table: the fingerprint a refused write must leave unchanged."""
    import models

    out = {}
    with db.engine.connect() as c:
        for t in models.Base.metadata.sorted_tables:
            out[t.name] = c.execute(text(f'SELECT count(*) FROM "{t.name}"')).scalar_one()
        out["_head"] = tuple(c.execute(text("SELECT seq, hash FROM audit_head")).one())
    return out


@pytest.fixture(autouse=True)
def _garbage_collected_between_tests():
    """The console collects garbage on the GUI thread only (ui.shell.operations.collect_garbage_on_gui_thread:
    a pool thread must never free Qt objects); between tests, the main thread collects what is due."""
    yield
    import gc
    if not gc.isenabled():
        from ui.shell.operations import collect_due_garbage
        collect_due_garbage()


@pytest.fixture(autouse=True)
def _console_in_english_at_each_start():
    """Every test starts with the console in English, as a fresh process does: a test that switched the
    language and was stopped by a failure before its own teardown must not leave the next one, in the
    same process (a pytest-xdist worker runs tests in another order), reading Chinese."""
    import sys
    if "PySide6.QtWidgets" in sys.modules:
        from PySide6.QtWidgets import QApplication
        app = QApplication.instance()
        if app is not None:
            from ui.shell.i18n import install_translators
            install_translators(app, "en")      # removes any translator left installed; English locale
            _release_stuck_modifiers()
    yield


def _release_stuck_modifiers() -> None:
    """No key held down at a test's start, as in a fresh process. A key click whose shortcut opens a
    dialog (Ctrl+Shift+H) leaves Qt believing Shift is still pressed (it keeps the modifiers of the
    last key event); the next test's `selectRow` then extends a selection instead of making one, and
    its panel shows nothing."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication
    held = QGuiApplication.keyboardModifiers()
    if held == Qt.NoModifier:
        return
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QWidget
    sink = QWidget()
    QTest.keyRelease(sink, Qt.Key_Shift, Qt.NoModifier)    # Qt takes the state from the last key event
    sink.deleteLater()


def pytest_collection_modifyitems(config, items):
    """Every test that runs against PostgreSQL gets the `pg` mark: a test parametrised to that
    backend, or one skipped without IDC_TEST_PG_URL (on_postgresql, a PostgreSQL-only module). The
    full suite (scripts/test.py) runs the `pg` tests and the others in two processes side by side."""
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        on_pg = "postgresql" in params.values() or any(
            "IDC_TEST_PG_URL" in str(m.kwargs.get("reason", "")) for m in item.iter_markers("skipif"))
        if on_pg:
            item.add_marker(pytest.mark.pg)
