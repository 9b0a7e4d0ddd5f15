"""PostgreSQL roles (app/store/dbroles.py): each person's database login can do what their program role
does and nothing else. Role names carry the test database's unique name and are dropped afterwards,
so parallel runs and CI do not collide (roles are cluster-wide)."""
from __future__ import annotations

import datetime as dt

import psycopg
import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from app.store import dbroles
from app.store.db import Database
from tests.conftest import on_postgresql

PASSWORD = "correct-horse-1"
PEOPLE = {"boss": "admin", "op": "operator", "am": "account_manager", "aud": "auditor"}
TABLES_NOT_WRITABLE_BY_ANYONE = {"audit_event": dbroles.IUD, "audit_head": dbroles.IUD,
                                 "alembic_version": dbroles.IUD, "app_secret": dbroles.IUD}


def test_db_roles_refused_on_sqlite(sqlite_db, capsys):
    from app.cli.main import main

    from app.store.startup import prepare_database
    prepare_database(sqlite_db)
    assert main(["--db", sqlite_db.url, "db", "roles"]) == 1
    assert "PostgreSQL only" in capsys.readouterr().err


@pytest.fixture
def pg(db, admin, monkeypatch, tmp_path):
    from app.cli.main import main

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


def role_dsn(db, login):
    u = make_url(dbroles.person_url(db.url, login, PASSWORD))
    return u.set(drivername="postgresql").render_as_string(hide_password=False)


def try_sql(conn, sql) -> str | None:
    """None when allowed, else the error class name; nothing is changed either way."""
    try:
        with conn.transaction(force_rollback=True):
            conn.execute(sql)
        return None
    except psycopg.errors.InsufficientPrivilege:
        return "refused"
    except psycopg.Error:   # got past the privilege check (a NOT NULL column, a trigger…)
        return "allowed, then refused by a constraint"


def _columns(db, table):
    """The table's columns as the owner sees them (information_schema hides what a login may not read)."""
    with db.engine.connect() as c:
        return c.execute(text(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = :t "
            "ORDER BY ordinal_position"), {"t": table}).scalars().all()


def test_every_table_has_its_writers_declared():
    """A new table must be given to the groups that write it (or be declared the owner's alone):
    otherwise its use cases fail under the per-person logins on PostgreSQL."""
    from models import Base
    declared = set().union(*(set(w) for w in dbroles.WRITES.values()))
    owners_only = set(dbroles.NEVER_WRITTEN) | {"audit_event", "audit_head"}  # the trail: through functions
    owners_only |= set(dbroles.LOADED_BY_MIGRATIONS)
    missing = sorted(set(Base.metadata.tables) - declared - owners_only)
    assert not missing, f"tables no database group may write: {missing} (app/store/dbroles.py WRITES)"


def test_each_groups_writes_follow_its_roles_permissions():
    """One table (dbroles.PERMISSION_WRITES: what each permission's use cases write); a group writes what
    its role's permissions (auth.PERMISSIONS) write, and nothing is declared twice."""
    from app.domain.auth import PERMISSIONS

    assert set(dbroles.PERMISSION_WRITES) == set(PERMISSIONS)
    for role in dbroles.GROUPS:
        expected: dict[str, set] = {}
        for permission, roles in PERMISSIONS.items():
            if role in roles:
                for table, privs in dbroles.PERMISSION_WRITES[permission].items():
                    expected.setdefault(table, set()).update(privs)
        assert {t: set(p) for t, p in dbroles.WRITES[role].items()} == expected, role
    assert dbroles.WRITES["auditor"] == {}
    # what feeds money and is never changed by the program is not writable (or only insertable)
    assert all("tax_rate" not in w for w in dbroles.WRITES.values())
    assert dbroles.WRITES["operator"]["meter_reading"] == ("INSERT",)


@on_postgresql
def test_every_forbidden_write_is_refused(pg):
    with pg.engine.connect() as c:
        tables = c.execute(text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).scalars().all()
    checked = 0
    for login, role in PEOPLE.items():
        allowed = dbroles.WRITES[role]
        with psycopg.connect(role_dsn(pg, login), autocommit=True) as conn:
            assert conn.execute("SELECT current_user").fetchone()[0] == f"{pg.url.rsplit('/', 1)[1]}.{login}"
            for table in tables:
                cols = _columns(pg, table)
                col = "role" if table == "app_user" else cols[-1]
                attempts = {"INSERT": f'INSERT INTO "{table}" DEFAULT VALUES',
                            "UPDATE": f'UPDATE "{table}" SET "{col}" = "{col}" WHERE false',
                            "DELETE": f'DELETE FROM "{table}" WHERE false'}
                for verb, sql in attempts.items():
                    result = try_sql(conn, sql)
                    may = verb in allowed.get(table, ()) and verb not in TABLES_NOT_WRITABLE_BY_ANYONE.get(table, ())
                    if may:
                        assert result != "refused", (login, table, verb)
                    else:
                        assert result == "refused", (login, table, verb)
                        checked += 1
                assert try_sql(conn, f'TRUNCATE "{table}"') == "refused", (login, table)
                assert try_sql(conn, f'ALTER TABLE "{table}" ADD COLUMN x_forged integer') == "refused", (login, table)
                assert try_sql(conn, f'DROP TABLE "{table}"') == "refused", (login, table)
                checked += 3
            for trigger, table in (("audit_event_append_only", "audit_event"),
                                   ("audit_event_no_truncate", "audit_event"),
                                   ("statement_issued_frozen", "statement"),
                                   ("statement_line_issued_frozen", "statement_line")):
                assert try_sql(conn, f"DROP TRIGGER {trigger} ON {table}") == "refused", (login, trigger)
                assert try_sql(conn, f"ALTER TABLE {table} DISABLE TRIGGER {trigger}") == "refused"
            # app_user: only an administrator writes it, even one's own row (logging in goes through
            # idc_login_state, one's own password through idc_own_password)
            if role != "admin":
                assert try_sql(conn, "UPDATE app_user SET failed_logins = 0 WHERE login = %s" % _lit(login)) == "refused"
                # the definer functions check who calls them
                assert try_sql(conn, "SELECT idc_person_login('op', 'admin', true, NULL)") == "refused"
                assert try_sql(conn, "SELECT idc_login_state('admin', 'ok', NULL, 'x')") == "refused"
                assert try_sql(conn, "SELECT idc_login_state(%s, 'ok', NULL, NULL)" % _lit(login)) is None
            # the trail: the server numbers, links, dates and hashes every event (tests/security/test_security_pg.py
            # tries the forgeries); auditors may not call audit_append at all
            if role == "auditor":
                assert try_sql(conn, "SELECT audit_append('[{\"action\": \"x\"}]'::jsonb)") == "refused"
            assert try_sql(conn, "SELECT * FROM audit_head_lock()") is None
    assert checked > 300


def _lit(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


@on_postgresql
def test_permitted_use_cases_work_as_the_person(pg, capsys):
    from app.audit.state import verify_and_remember
    from app.cli.main import main
    from app.audit.reconcile import reconcile
    from app.services.common import create_record, update_record
    from app.services.gpus import transition_gpu
    from app.services.users import add_user, login
    from app.services.reference import load_regions

    from tests.support.builders import build_customer

    dbs = {p: Database(dbroles.person_url(pg.url, p, PASSWORD)) for p in PEOPLE}
    try:
        actors = {p: login(dbs[p], p, PASSWORD) for p in PEOPLE}
        # operator: reference data, a GPU model, a GPU and its lifecycle
        gm = create_record(dbs["op"], actors["op"], "gpu_model", dict(name="Role GPU", vendor="NVIDIA",
                                                                       memory_gb=80, form_factor="sxm"))
        load_regions(dbs["op"], actors["op"])
        gpu = create_record(dbs["op"], actors["op"], "gpu", dict(serial="ROLE-0001", gpu_model_id=gm))
        transition_gpu(dbs["op"], actors["op"], gpu, "received", "delivered")
        # operator: a ticket, and the SLA sweep that keeps its clocks (ticket_sla_state, migration 0041)
        from app.services.operations.sla import check_sla
        from app.services.operations.tickets import open_ticket
        from app.store.uow import UnitOfWork
        from app.services.operations.sla import set_holiday_in
        open_ticket(dbs["op"], actors["op"], title="role ticket")
        check_sla(dbs["op"], actors["op"])
        with pg.engine.connect() as c:
            assert c.execute(text("SELECT count(*) FROM ticket_sla_state")).scalar_one() == 1
            generation = c.execute(text("SELECT n FROM sla_rules_generation")).scalar_one()
        # admin: a day of China's schedule moves the rules' number through the owner's trigger function
        with UnitOfWork(dbs["boss"], actors["boss"]) as uow:
            set_holiday_in(uow, dt.date(2031, 1, 1), True, "元旦", reason="role test")
            uow.commit()
        with pg.engine.connect() as c:
            assert c.execute(text("SELECT n FROM sla_rules_generation")).scalar_one() > generation
        # account manager: a customer
        cust = build_customer(dbs["am"], actors["am"])
        # admin: a user (the program's row; database logins are the owner's) and an edit
        add_user(dbs["boss"], actors["boss"], "newbie", "operator", PASSWORD)
        update_record(dbs["boss"], actors["boss"], "customer", cust, {"address": "广州"})
        # auditor: verify, reconcile, export the trail (its own audit event)
        with dbs["aud"].session() as s:
            assert verify_and_remember(dbs["aud"], s).ok
            assert reconcile(s).ok
        from app.domain.errors import PermissionDenied
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
    # an administrator's own login adds a user and their database login (the one service, as the console)
    assert main(["--db", userless, "--user", "boss", "user", "add", "x3", "--role", "auditor"]) == 0
    assert "database login" in capsys.readouterr().out
    assert _authid(pg, "x3")["rolcanlogin"] and _groups(pg, "x3") == {"auditor"}
    with pg.engine.connect() as c:
        actors_seen = set(c.execute(text("SELECT DISTINCT actor_login FROM audit_event")).scalars())
    assert {"op", "am", "boss", "aud"} <= actors_seen


def _authid(db, login):
    with db.engine.connect() as c:
        row = c.execute(text("SELECT rolcanlogin, rolpassword FROM pg_authid WHERE rolname = :n"),
                        {"n": dbroles.person_name(make_url(db.url).database, login)}).mappings().first()
    return dict(row) if row else None


def _groups(db, login):
    prefix = make_url(db.url).database
    with db.engine.connect() as c:
        names = c.execute(text("SELECT r.rolname FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.roleid "
                               "JOIN pg_roles u ON u.oid = m.member WHERE u.rolname = :n"),
                          {"n": dbroles.person_name(prefix, login)}).scalars().all()
    return {n[len(prefix) + 1:] for n in names}


def _accepts(db, login, password) -> bool:
    """The stored SCRAM verifier accepts `password`: what the server checks at a password login (this
    test server trusts local connections, so a connection would prove nothing)."""
    return dbroles.check_scram(_authid(db, login)["rolpassword"], password)


def test_check_scram_against_a_known_verifier():
    v = dbroles.scram_verifier("pässword", salt=b"0123456789abcdef")
    assert dbroles.check_scram(v, "pässword")
    assert not dbroles.check_scram(v, "password")
    assert not dbroles.check_scram("md5abc", "x")


@on_postgresql
def test_database_logins_follow_the_program(pg, capsys, monkeypatch):
    """Users older than db roles get a login; a password set or changed anywhere changes the database
    login's; disabling makes it NOLOGIN; a new role moves it; an administrator unlocks a login."""
    from app.domain.auth import LOGIN_POLICY, LoginPolicy
    from app.cli.main import main
    from app.domain.errors import AuthenticationFailed
    from app.services.users import change_own_password, find_user, login, retire_user, unlock_user, update_user

    # `admin` existed before db roles: it got a login in its group, without a password yet
    assert _authid(pg, "admin") == {"rolcanlogin": True, "rolpassword": None}
    assert _groups(pg, "admin") == {"admin"}
    for p, role in PEOPLE.items():   # user add: a password the server would accept
        assert _accepts(pg, p, PASSWORD) and not _accepts(pg, p, PASSWORD + "x")
        assert _groups(pg, p) == {role}
    dbs = {p: Database(dbroles.person_url(pg.url, p, PASSWORD)) for p in ("boss", "op")}
    try:
        boss = login(dbs["boss"], "boss", PASSWORD)
        # an administrator sets a password (console and CLI: update_user): both change
        update_user(dbs["boss"], boss, find_user(pg, "admin").id, password="admin-new-pw-1")
        assert _accepts(pg, "admin", "admin-new-pw-1")
        assert login(pg, "admin", "admin-new-pw-1").login == "admin"
        # one's own password, connected as oneself (an operator may not write app_user)
        op = login(dbs["op"], "op", PASSWORD)
        change_own_password(dbs["op"], op, PASSWORD, "op-new-pw-22")
        assert _accepts(pg, "op", "op-new-pw-22") and not _accepts(pg, "op", PASSWORD)
        assert login(pg, "op", "op-new-pw-22").login == "op"
        with pytest.raises(AuthenticationFailed):
            login(pg, "op", PASSWORD)
        # a role change moves the login to the new group; disabling makes it NOLOGIN
        am = find_user(pg, "am")
        update_user(dbs["boss"], boss, am.id, am.version, role="operator")
        assert _groups(pg, "am") == {"operator"}
        retire_user(dbs["boss"], boss, find_user(pg, "aud").id, "left the company")
        assert _authid(pg, "aud")["rolcanlogin"] is False
        # lock a login by failed attempts (through idc_login_state, as the person: the server locks it by
        # auth.LOGIN_POLICY once the count says so, whatever policy the client names), then unlock it
        policy = LoginPolicy(max_failures=2, lock_seconds=600)
        for _ in range(LOGIN_POLICY.max_failures - 1):   # one failure above (login(pg, "op", PASSWORD))
            with pytest.raises(AuthenticationFailed):
                login(dbs["op"], "op", "wrong-password", policy=policy)
        locked = find_user(pg, "op")
        assert locked.failed_logins == LOGIN_POLICY.max_failures and locked.locked_until is not None
        info = unlock_user(dbs["boss"], boss, locked.id, "called the helpdesk")
        assert info.failed_logins == 0 and info.locked_until is None and info.version == locked.version
    finally:
        for d in dbs.values():
            d.dispose()
    with pg.engine.connect() as c:
        ev = c.execute(text("SELECT actor_login, reason, before FROM audit_event WHERE action = 'user.unlock'")).one()
    assert ev.actor_login == "boss" and ev.reason == "called the helpdesk" and '"failed_logins":5' in ev.before
    # the CLI: an administrator's reset, and unlock refused when nothing is locked
    u = make_url(pg.url)
    userless = f"postgresql://{u.host}:{u.port or 5432}/{u.database}"
    monkeypatch.setenv("IDC_CONSOLE_NEW_PASSWORD", "am-new-pw-333")
    capsys.readouterr()
    assert main(["--db", userless, "--user", "boss", "user", "password", "am"]) == 0
    assert _accepts(pg, "am", "am-new-pw-333")
    assert main(["--db", userless, "--user", "boss", "user", "unlock", "am", "--reason", "x"]) == 1
    assert "not locked" in capsys.readouterr().err
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", "op-new-pw-22")   # op's database and program password now
    assert main(["--db", userless, "--user", "op", "user", "password", "am"]) == 1
    assert "may not manage users" in capsys.readouterr().err
    assert _accepts(pg, "am", "am-new-pw-333")
