"""PostgreSQL roles (app/dbroles.py): each person's database login can do what their program role
does and nothing else. Role names carry the test database's unique name and are dropped afterwards,
so parallel runs and CI do not collide (roles are cluster-wide)."""
from __future__ import annotations

import psycopg
import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from app import dbroles
from app.db import Database
from tests.conftest import on_postgresql

PASSWORD = "correct-horse-1"
PEOPLE = {"boss": "admin", "op": "operator", "am": "account_manager", "aud": "auditor"}
TABLES_NOT_WRITABLE_BY_ANYONE = {"audit_event": ("UPDATE", "DELETE"), "audit_head": ("INSERT", "DELETE"),
                                 "alembic_version": dbroles.IUD, "app_secret": dbroles.IUD}


def test_db_roles_refused_on_sqlite(sqlite_db, capsys):
    from app.cli import main

    from app.startup import prepare_database
    prepare_database(sqlite_db)
    assert main(["--db", sqlite_db.url, "db", "roles"]) == 1
    assert "PostgreSQL only" in capsys.readouterr().err


@pytest.fixture
def pg(db, admin, monkeypatch, tmp_path):
    from app.cli import main

    monkeypatch.setenv("IDC_CONSOLE_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", PASSWORD)
    monkeypatch.setenv("IDC_CONSOLE_NEW_PASSWORD", PASSWORD)
    try:
        assert main(["--db", db.url, "db", "roles"]) == 0
        for login, role in PEOPLE.items():
            assert main(["--db", db.url, "--user", "admin", "user", "add", login, "--role", role]) == 0
        yield db
    finally:
        with db.engine.begin() as c:
            dbroles.drop_roles(c, db.url)
        with db.engine.connect() as c:
            left = c.execute(text("SELECT count(*) FROM pg_roles WHERE rolname LIKE :p"),
                             {"p": make_url(db.url).database + "%"}).scalar()
        assert left == 0


def _dsn(db, login):
    u = make_url(dbroles.person_url(db.url, login, PASSWORD))
    return u.set(drivername="postgresql").render_as_string(hide_password=False)


def _try(conn, sql) -> str | None:
    """None when allowed, else the error class name; nothing is changed either way."""
    try:
        with conn.transaction(force_rollback=True):
            conn.execute(sql)
        return None
    except psycopg.errors.InsufficientPrivilege:
        return "refused"
    except psycopg.Error:   # got past the privilege check (a NOT NULL column, a trigger…)
        return "allowed, then refused by a constraint"


def _columns(conn, table):
    return [r[0] for r in conn.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = %s "
        "ORDER BY ordinal_position", (table,)).fetchall()]


@on_postgresql
def test_every_forbidden_write_is_refused(pg):
    with pg.engine.connect() as c:
        tables = c.execute(text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).scalars().all()
    checked = 0
    for login, role in PEOPLE.items():
        allowed = dict(dbroles.WRITES[role], **dbroles._AUDIT_APPEND)
        with psycopg.connect(_dsn(pg, login), autocommit=True) as conn:
            assert conn.execute("SELECT current_user").fetchone()[0] == f"{pg.url.rsplit('/', 1)[1]}.{login}"
            for table in tables:
                cols = _columns(conn, table)
                col = "role" if table == "app_user" else cols[-1]
                attempts = {"INSERT": f'INSERT INTO "{table}" DEFAULT VALUES',
                            "UPDATE": f'UPDATE "{table}" SET "{col}" = "{col}" WHERE false',
                            "DELETE": f'DELETE FROM "{table}" WHERE false'}
                for verb, sql in attempts.items():
                    result = _try(conn, sql)
                    may = verb in allowed.get(table, ()) and verb not in TABLES_NOT_WRITABLE_BY_ANYONE.get(table, ())
                    if may:
                        assert result != "refused", (login, table, verb)
                    else:
                        assert result == "refused", (login, table, verb)
                        checked += 1
                assert _try(conn, f'TRUNCATE "{table}"') == "refused", (login, table)
                assert _try(conn, f'ALTER TABLE "{table}" ADD COLUMN x_forged integer') == "refused", (login, table)
                assert _try(conn, f'DROP TABLE "{table}"') == "refused", (login, table)
                checked += 3
            for trigger, table in (("audit_event_append_only", "audit_event"),
                                   ("audit_event_no_truncate", "audit_event"),
                                   ("statement_issued_frozen", "statement"),
                                   ("statement_line_issued_frozen", "statement_line")):
                assert _try(conn, f"DROP TRIGGER {trigger} ON {table}") == "refused", (login, trigger)
                assert _try(conn, f"ALTER TABLE {table} DISABLE TRIGGER {trigger}") == "refused"
            # others' rows of app_user: only an administrator
            if role != "admin":
                assert _try(conn, "UPDATE app_user SET failed_logins = 0 WHERE login = 'admin'") is None
                n = conn.execute("UPDATE app_user SET failed_logins = failed_logins WHERE login = 'admin'").rowcount
                assert n == 0   # row-level security: the row is not theirs
                n = conn.execute("UPDATE app_user SET failed_logins = failed_logins WHERE login = %s",
                                 (login,)).rowcount
                assert n == 1
    assert checked > 300


@on_postgresql
def test_permitted_use_cases_work_as_the_person(pg, capsys):
    from app.audit_state import verify_and_remember
    from app.cli import main
    from app.reconcile import reconcile
    from app.services.common import create_record, update_record
    from app.services.gpus import transition_gpu
    from app.services.users import add_user, login
    from app.services.reference import load_regions

    from builders import build_customer

    dbs = {p: Database(dbroles.person_url(pg.url, p, PASSWORD)) for p in PEOPLE}
    try:
        actors = {p: login(dbs[p], p, PASSWORD) for p in PEOPLE}
        # operator: reference data, a GPU model, a GPU and its lifecycle
        gm = create_record(dbs["op"], actors["op"], "gpu_model", dict(name="Role GPU", vendor="NVIDIA",
                                                                       memory_gb=80, form_factor="sxm"))
        load_regions(dbs["op"], actors["op"])
        gpu = create_record(dbs["op"], actors["op"], "gpu", dict(serial="ROLE-0001", gpu_model_id=gm))
        transition_gpu(dbs["op"], actors["op"], gpu, "received", "delivered")
        # account manager: a customer
        cust = build_customer(dbs["am"], actors["am"])
        # admin: a user (the program's row; database logins are the owner's) and an edit
        add_user(dbs["boss"], actors["boss"], "newbie", "operator", PASSWORD)
        update_record(dbs["boss"], actors["boss"], "customer", cust, {"address": "广州"})
        # auditor: verify, reconcile, export the trail (its own audit event)
        with dbs["aud"].session() as s:
            assert verify_and_remember(dbs["aud"], s).ok
            assert reconcile(s).ok
        from app.errors import PermissionDenied
        with pytest.raises(PermissionDenied):
            create_record(dbs["aud"], actors["aud"], "gpu_model", dict(name="x", vendor="NVIDIA", memory_gb=1,
                                                                       form_factor="pcie"))
    finally:
        for d in dbs.values():
            d.dispose()
    # the CLI connects as the person when the URL names no user
    u = make_url(pg.url)
    userless = f"postgresql://{u.host}:{u.port or 5432}/{u.database}"   # (URL.set(username=None) keeps it)
    capsys.readouterr()
    assert main(["--db", userless, "--user", "aud", "audit", "verify"]) == 0
    assert main(["--db", userless, "--user", "nobody", "audit", "verify"]) == 1   # no such database login
    assert "nobody" in capsys.readouterr().err
    assert main(["--db", userless, "--user", "aud", "db", "roles"]) == 1   # the owner's alone
    assert "run by the schema owner" in capsys.readouterr().err
    assert main(["--db", userless, "--user", "aud", "audit", "reconcile"]) == 0
    assert main(["--db", userless, "--user", "aud", "user", "add", "x2", "--role", "auditor"]) == 1
    assert main(["--db", userless, "--user", "boss", "user", "add", "x3", "--role", "auditor"]) == 1
    assert "made by the schema owner" in capsys.readouterr().err
    with pg.engine.connect() as c:
        actors_seen = set(c.execute(text("SELECT DISTINCT actor_login FROM audit_event")).scalars())
    assert {"op", "am", "boss", "aud"} <= actors_seen
