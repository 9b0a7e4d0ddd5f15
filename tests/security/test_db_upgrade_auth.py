"""`db upgrade` of a database that holds users is an administrator's and is audited; a new database
needs no login (issue 10). Checked before anything changes: a refusal leaves the schema as it was."""
from __future__ import annotations

from sqlalchemy import text

from app.cli.main import main
from app.services.users import add_user
from tests.conftest import PASSWORD, on_postgresql


def _revision(db):
    with db.engine.connect() as c:
        return c.execute(text("SELECT version_num FROM alembic_version")).scalar()


def test_upgrade_of_a_database_with_users_needs_an_administrator(db, admin, capsys, monkeypatch):
    add_user(db, admin, "op", "operator", PASSWORD)
    head = _revision(db)
    db.downgrade("0015")
    db.dispose()
    url = db.url
    monkeypatch.delenv("IDC_CONSOLE_USER", raising=False)
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", PASSWORD)
    capsys.readouterr()
    assert main(["--db", url, "db", "upgrade"]) == 1
    assert "needs an administrator's --user" in capsys.readouterr().err
    assert main(["--db", url, "--user", "op", "db", "upgrade"]) == 1
    assert "administrator's; op is operator" in capsys.readouterr().err
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", "wrong-password")
    assert main(["--db", url, "--user", "admin", "db", "upgrade"]) == 1
    assert "login failed" in capsys.readouterr().err
    assert _revision(db) == "0015"   # nothing changed by the refusals
    assert main(["--db", url, "db", "upgrade", "--if-no-users"]) == 0   # the launcher leaves it to the console
    assert "the console's start upgrades it" in capsys.readouterr().out
    assert _revision(db) == "0015"
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", PASSWORD)
    assert main(["--db", url, "--user", "admin", "db", "upgrade"]) == 0
    assert "by admin, audited" in capsys.readouterr().out
    assert _revision(db) == head
    with db.engine.connect() as c:
        ev = c.execute(text("SELECT actor_login, actor_role, before, after, reason FROM audit_event "
                            "WHERE action = 'db.upgrade'")).one()
    assert (ev.actor_login, ev.actor_role) == ("admin", "admin")
    assert '"0015"' in ev.before and f'"{head}"' in ev.after and ev.reason == "idc-console db upgrade"
    # at the head already: nothing to do, no login needed
    assert main(["--db", url, "db", "upgrade"]) == 0


def test_upgrade_of_a_new_database_needs_no_login(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("IDC_CONSOLE_USER", raising=False)
    monkeypatch.delenv("IDC_CONSOLE_PASSWORD", raising=False)
    path = tmp_path / "new.db"
    assert main(["--db", str(path), "db", "upgrade"]) == 0
    assert "(empty) ->" in capsys.readouterr().out


@on_postgresql   # PostgreSQL's DDL is transactional; a SQLite upgrade is backed up first instead
def test_a_postgresql_upgrade_and_its_audit_event_commit_together(db, admin, capsys, monkeypatch):
    """Killed between the migrations and the event (here: the event written, then a failure before the
    commit), a PostgreSQL upgrade leaves the old schema and no event; SQLite keeps its backup instead."""
    from app.services import schema

    head = _revision(db)
    db.downgrade("0015")
    db.dispose()
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", PASSWORD)
    real = schema.upgrade_event

    def killed(connection, *args):
        real(connection, *args)
        raise KeyboardInterrupt("killed before the commit")

    monkeypatch.setattr(schema, "upgrade_event", killed)
    assert main(["--db", db.url, "--user", "admin", "db", "upgrade"]) != 0   # "idc-console: interrupted"
    assert _revision(db) == "0015"
    with db.engine.connect() as c:
        assert c.execute(text("SELECT count(*) FROM audit_event WHERE action = 'db.upgrade'")).scalar() == 0
    monkeypatch.setattr(schema, "upgrade_event", real)
    assert main(["--db", db.url, "--user", "admin", "db", "upgrade"]) == 0
    assert _revision(db) == head
    with db.engine.connect() as c:
        assert c.execute(text("SELECT count(*) FROM audit_event WHERE action = 'db.upgrade'")).scalar() == 1
