"""The console's start (issue 10): a --db file that does not exist is refused without making anything;
the default file is still made at a first start; an upgrade made at start is recorded with the first
login after it."""
from __future__ import annotations

import argparse

from sqlalchemy import text

from app.services.users import login
from tests.conftest import PASSWORD


def test_console_refuses_a_missing_db_file_and_creates_nothing(qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    from ui.shell import dbdialog
    from ui.shell.main import run_console

    told = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *a: told.append(a[2]))
    monkeypatch.setattr(dbdialog.SettingsDialog, "exec", lambda self: 0)   # the user gives up
    missing = tmp_path / "no-such-folder" / "idc.db"
    args = argparse.Namespace(db=str(missing), user=None, lang="en", command=None)
    assert run_console(args) == 1
    assert told and f"no database at {missing}" in told[0]
    assert not missing.parent.exists()


def test_the_default_file_is_not_refused(tmp_path, monkeypatch):
    from app.store.config import default_sqlite_path, resolve_db_url
    from app.store.db import check_console_db

    monkeypatch.setenv("IDC_CONSOLE_HOME", str(tmp_path / "home"))
    check_console_db(resolve_db_url(None))          # a first start: made later by prepare
    check_console_db(resolve_db_url(str(default_sqlite_path())))   # named explicitly, still the default file
    assert not (tmp_path / "home").exists()


def test_an_upgrade_at_start_is_recorded_with_the_first_login(qtbot, db, admin):
    from ui.shell.main import prepare, record_console_upgrade

    db.downgrade("0015")
    db.dispose()
    assert prepare(db)
    assert db.upgraded_from == "0015"
    record_console_upgrade(db, login(db, "admin", PASSWORD))
    assert db.upgraded_from is None
    with db.engine.connect() as c:
        ev = c.execute(text("SELECT actor_login, before, reason FROM audit_event WHERE action = 'db.upgrade'")).one()
    assert ev.actor_login == "admin" and '"0015"' in ev.before and "console start" in ev.reason
