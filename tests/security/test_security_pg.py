"""The database, not the client, owns the audit chain, the logins and the money inputs (PostgreSQL with
`db roles`): every attack below is tried with each program role's own database login (an administrator
who is not the schema owner, an operator, an account manager, an auditor) and refused; afterwards the
real trail still verifies and reconciles."""
from __future__ import annotations

import json

import psycopg
import pytest
from sqlalchemy import select, text

from app.store import dbroles
from app.audit.trail import event_hash, verify_audit_chain
from app.domain.auth import login_fingerprint
from app.audit.reconcile import reconcile
from models import AuditEvent
from tests.conftest import on_postgresql
from tests.security.test_dbroles import PEOPLE, role_dsn, try_sql, pg  # noqa: F401  (pg: the fixture)

def _append(conn, function: str, events: list[dict]):
    """The function's answer, or the refusal's class and message (nothing kept when refused)."""
    try:
        return conn.execute(f"SELECT {function}(%s::jsonb)", (json.dumps(events),)).fetchone()[0]
    except psycopg.Error as exc:
        return f"{type(exc).__name__}: {exc}"


def _event(**over):
    return dict(dict(action="note.forged", object_type="note", object_id="1", object_label="forged",
                     before=None, after='{"x":1}', reason=None, outcome="success", host="psql",
                     app_version="0", request_id="00000000-0000-4000-8000-00000000beef"), **over)


@on_postgresql
def test_each_login_is_refused_every_bypass_of_the_services(pg):  # noqa: F811
    prefix = pg.url.rsplit("/", 1)[1]
    refused = 0
    for login, role in PEOPLE.items():
        with psycopg.connect(role_dsn(pg, login), autocommit=True) as conn:
            assert conn.execute("SELECT session_user").fetchone()[0] == f"{prefix}.{login}"
            # 1. the trail: the client's hash, actor, seq and link count for nothing
            seq, head = conn.execute("SELECT seq, hash FROM audit_head").fetchone()
            forged = _event(seq=seq + 7, prev_hash="f" * 64, hash="0" * 64, actor_id=1, actor_login="admin",
                            actor_name="管理员", actor_role="admin")
            got = _append(conn, "audit_append", [forged])
            if role == "auditor":
                assert isinstance(got, str) and "InsufficientPrivilege" in got, got
                refused += 1
            else:
                assert got == seq + 1, got
                row = conn.execute("SELECT actor_login, actor_role, prev_hash, hash, ts > now() AT TIME ZONE 'utc'"
                                   " - interval '1 minute' FROM audit_event WHERE seq = %s", (got,)).fetchone()
                assert row[:3] == (login, role, head) and row[3] != "0" * 64 and row[4], row
                refused += 1
            back_dated = _event(ts="2026-01-01T00:00:00.000000", actor_login="admin")
            for function in ("audit_append", "audit_note"):
                got = _append(conn, function, [dict(back_dated, action="auth.login")])
                assert isinstance(got, str) and "InsufficientPrivilege" in got, (login, function, got)
                refused += 1
            got = _append(conn, "audit_note", [_event(action="contract.approve")])
            assert isinstance(got, str) and "audit_note records only" in got, got
            assert try_sql(conn, "SELECT idc_audit_insert('[{}]'::jsonb, NULL)") == "refused"
            assert try_sql(conn, "UPDATE audit_head SET hash = hash") == "refused"
            refused += 3
            # 2. logins: nobody locks or counts anyone else's
            for sql in ("SELECT idc_login_state('admin', 'lock', (now() AT TIME ZONE 'utc') + interval '23 hours', NULL)",
                        "SELECT idc_login_state('admin', 'fail', NULL, NULL)",
                        "SELECT idc_login_state(%s, 'lock', (now() AT TIME ZONE 'utc') + interval '23 hours', NULL)"
                        % _lit(login)):
                assert try_sql(conn, sql) == "refused", (login, sql)
                refused += 1
            # 3. password hashes and the login-HMAC key: no group reads them; checks say yes or no, for oneself
            for sql in ("SELECT login, password_hash FROM app_user", "SELECT * FROM app_user",
                        "SELECT * FROM app_secret", "SELECT idc_login_fingerprint('admin')",
                        "SELECT idc_password_setting('admin')", "SELECT idc_password_matches('admin', 'x')",
                        "SELECT idc_audit_payload(NULL::audit_event)"):
                assert try_sql(conn, sql) == "refused", (login, sql)
                refused += 1
            assert conn.execute("SELECT idc_password_matches(%s, 'not the hash')", (login,)).fetchone()[0] is False
            assert conn.execute("SELECT count(*) FROM app_user").fetchone()[0] >= len(PEOPLE)  # the rest is readable
            # 4. the money inputs no use case changes: VAT rates, meter and circuit readings
            for sql in ("UPDATE tax_rate SET rate = 0", "INSERT INTO tax_rate (category, rate, valid_from) "
                        "VALUES ('idc', 0, '2026-11-01')", "DELETE FROM tax_rate",
                        "UPDATE meter_reading SET kwh_total = 0", "DELETE FROM meter_reading",
                        "UPDATE circuit_reading SET kwh_total = 0", "DELETE FROM circuit_reading"):
                assert try_sql(conn, sql) == "refused", (login, sql)
                refused += 1
    assert refused >= 4 * 20
    with pg.engine.connect() as c:
        admin = c.execute(text("SELECT failed_logins, locked_until FROM app_user WHERE login = 'admin'")).one()
        assert admin.locked_until is None and admin.failed_logins == 0
    with pg.session() as s:
        result = verify_audit_chain(s)
        assert result.ok, result.summary()
        rec = reconcile(s)
        assert rec.ok, [d.describe() for d in rec.differences]
        assert "tax_rate" in rec.fields_by_table   # the migration's VAT rates have baseline events (db roles)
        # the forged events are in the chain under their real authors, hashed by the server as app/audit/trail.py does
        rows = s.execute(select(AuditEvent).where(AuditEvent.action == "note.forged")).scalars().all()
        assert {r.actor_login for r in rows} == {"boss", "op", "am"}
        for r in rows:
            assert event_hash({k: getattr(r, k) for k in ("seq", "ts", "actor_id", "actor_login", "actor_name",
                                                           "actor_role", "host", "app_version", "request_id",
                                                           "action", "object_type", "object_id", "object_label",
                                                           "before", "after", "reason", "outcome",
                                                           "prev_hash")}) == r.hash


def _lit(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


@on_postgresql
def test_the_program_logs_in_and_records_its_own_failures_as_the_person(pg):  # noqa: F811
    """A person's login counts its own failed attempts (the server sets the lock), cannot count or check
    another person's, and a mistyped login is keyed by the server exactly as auth.login_fingerprint does."""
    from app.store.db import Database
    from app.domain.errors import AuthenticationFailed
    from app.services.users import login

    from tests.security.test_dbroles import PASSWORD

    op_db = Database(dbroles.person_url(pg.url, "op", PASSWORD))
    try:
        assert login(op_db, "op", PASSWORD).login == "op"
        with pytest.raises(AuthenticationFailed):
            login(op_db, "op", "wrong-password")
        with pytest.raises(AuthenticationFailed):
            login(op_db, "admin", "wrong-password")   # another person's: not counted, not checked
        with pytest.raises(AuthenticationFailed):
            login(op_db, "admin", PASSWORD)
        with pytest.raises(AuthenticationFailed):
            login(op_db, "no-such-person", "x")
    finally:
        op_db.dispose()
    with pg.engine.connect() as c:
        counts = dict(c.execute(text("SELECT login, failed_logins FROM app_user WHERE login IN ('op', 'admin')")).all())
        key = c.execute(text("SELECT value FROM app_secret WHERE name = 'login_hmac_key'")).scalar()
        after = c.execute(text("SELECT after, actor_login FROM audit_event WHERE object_label = 'unknown login' "
                               "ORDER BY seq DESC LIMIT 1")).one()
    assert counts == {"op": 1, "admin": 0}
    assert json.loads(after.after) == {"login_hmac": login_fingerprint(key, "no-such-person")}
    assert after.actor_login == "op"   # the connection's person, whoever the event claimed


@on_postgresql
def test_reconcile_compares_the_vat_rates_loaded_by_migrations(pg):  # noqa: F811
    """Only the owner can still change a VAT rate with SQL; `audit reconcile` then names it (the rates'
    baseline events, made by `db roles`, record what the migration loaded)."""
    with pg.engine.begin() as c:
        c.execute(text("UPDATE tax_rate SET rate = 0 WHERE id = (SELECT min(id) FROM tax_rate)"))
    with pg.session() as s:
        rec = reconcile(s)
    assert [(d.object_type, d.field) for d in rec.differences] == [("tax_rate", "rate")]
    with pg.engine.begin() as c:   # db roles again: no second baseline for rows an event already names
        assert dbroles.baseline_events(c) == 0


@on_postgresql
def test_an_auditor_changes_their_own_password_and_logs_in_as_themselves(pg):  # noqa: F811
    """What an auditor's own work leaves goes through audit_note: logging in, their own new password."""
    from app.store.db import Database
    from app.services.users import change_own_password, login

    from tests.security.test_dbroles import PASSWORD

    aud_db = Database(dbroles.person_url(pg.url, "aud", PASSWORD))
    try:
        aud = login(aud_db, "aud", PASSWORD)
        change_own_password(aud_db, aud, PASSWORD, "aud-new-password-1")
    finally:
        aud_db.dispose()
    with pg.engine.connect() as c:
        ev = c.execute(text("SELECT actor_login, actor_role FROM audit_event WHERE action = 'user.password' "
                            "ORDER BY seq DESC LIMIT 1")).one()
    assert tuple(ev) == ("aud", "auditor")
    assert dbroles.check_scram(c_authid(pg, "aud"), "aud-new-password-1")


def c_authid(db, login):
    with db.engine.connect() as c:
        return c.execute(text("SELECT rolpassword FROM pg_authid WHERE rolname = :n"),
                         {"n": dbroles.person_name(db.url.rsplit("/", 1)[1], login)}).scalar()


@on_postgresql
def test_what_a_group_may_write_with_sql_is_named_by_reconcile(pg):  # noqa: F811
    """Issue 21: where a group's grants allow a write the program also makes (operators import readings, so
    they may INSERT them; account managers draft contract items), a write with psql is not refused by the
    server, and `audit reconcile` names it: a reading no import's event names, an active contract's price."""
    import datetime as dt

    from app.audit.trail import Actor
    from tests.billing.test_billing_world import make_world, rack_item, signed

    w = make_world(pg)
    am_, boss_ = (Actor(i, login, login, role) for i, login, role in _ids(pg, "am", "boss"))
    info = signed(pg, am_, boss_, w, [rack_item(w, 1, "6000")], dt.date(2026, 1, 1), dt.date(2026, 12, 31))
    with pg.session() as s:
        assert reconcile(s).ok
    with psycopg.connect(role_dsn(pg, "op"), autocommit=True) as conn:
        reading = conn.execute("INSERT INTO meter_reading (rack_id, read_at, kwh_total) VALUES (%s, "
                               "'2026-11-30 16:00', 0) RETURNING id", (w.rack_ids[0],)).fetchone()[0]
        assert try_sql(conn, "UPDATE contract_item SET unit_price = 1") == "refused"   # not an operator's table
    with psycopg.connect(role_dsn(pg, "am"), autocommit=True) as conn:
        conn.execute("UPDATE contract_item SET unit_price = 1 WHERE id = %s", (info.items[0].id,))
        assert try_sql(conn, "UPDATE tax_rate SET rate = 0") == "refused"
        assert try_sql(conn, "INSERT INTO meter_reading (rack_id, read_at, kwh_total) VALUES "
                          f"({w.rack_ids[1]}, '2026-11-30 16:00', 0)") == "refused"
    with pg.session() as s:
        rec = reconcile(s)
    got = {(d.object_type, d.object_id, d.field) for d in rec.differences}
    assert got == {("meter_reading", str(reading), "(row)"), ("contract_item", str(info.items[0].id), "unit_price")}


def _ids(db, *logins):
    with db.engine.connect() as c:
        rows = dict((r.login, r) for r in c.execute(text("SELECT id, login, role FROM app_user")))
    return [tuple(rows[x]) for x in logins]


@on_postgresql
def test_an_upgrade_of_a_database_with_roles_grants_in_its_own_transaction(pg):  # noqa: F811
    """A migration that makes a function leaves it executable by PUBLIC (PostgreSQL's default); `db upgrade`
    of a database that has roles grants again before it commits, so no window exists until `db roles`."""
    def public_may(function):
        with pg.engine.connect() as c:
            return c.execute(text("SELECT has_function_privilege('public', :f, 'EXECUTE')"), {"f": function}).scalar()

    pg.dispose()
    pg.downgrade("0028")
    pg.upgrade()   # 0029 makes audit_note and the password functions again, executable by PUBLIC
    for f in ("audit_note(jsonb)", "idc_password_setting(text)", "idc_password_matches(text, text)",
              "audit_append(jsonb)", "idc_audit_insert(jsonb, text[])"):
        assert not public_may(f), f
    with psycopg.connect(role_dsn(pg, "aud"), autocommit=True) as conn:
        assert try_sql(conn, "SELECT audit_append('[{}]'::jsonb)") == "refused"
        assert conn.execute("SELECT idc_password_matches('aud', 'not the hash')").fetchone()[0] is False
    with psycopg.connect(role_dsn(pg, "op"), autocommit=True) as conn:
        assert try_sql(conn, "UPDATE tax_rate SET rate = 0") == "refused"
