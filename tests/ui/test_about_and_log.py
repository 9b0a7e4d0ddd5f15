"""Help → About (version, database without its password, log file, data directory); the window's
former silent failures go to the log."""
from __future__ import annotations

import logging

import pytest


@pytest.fixture
def window(qtbot, db, admin):
    from ui.shell.mainwindow import MainWindow
    w = MainWindow(db, admin)
    qtbot.addWidget(w)
    return w


def test_help_about_names_version_database_log_and_data_directory(window, db, tmp_path, monkeypatch):
    from app import __version__
    from app.store.config import data_dir
    from app.store.logs import current_log_path

    monkeypatch.setenv("IDC_CONSOLE_HOME", str(tmp_path / "home"))
    assert window.act_about in window.menuBar().actions()[0].menu().actions()
    box = window.show_about()
    text = box.text()
    box.close()
    assert __version__ in text and str(current_log_path()) in text and str(data_dir()) in text
    assert str(tmp_path / "home") in text
    assert db.url.split("://", 1)[1].split("@")[-1] in text


def test_about_never_shows_the_database_password(window, monkeypatch):
    from types import SimpleNamespace

    monkeypatch.setattr(window, "db", SimpleNamespace(url="postgresql+psycopg://idc:s3cret-pw@db.example:5432/idc"))
    lines = dict(window.about_lines())
    assert "s3cret-pw" not in "".join(lines.values())
    assert lines[window.tr("Database")] == "postgresql+psycopg://idc@db.example:5432/idc"


def test_a_failed_live_refresh_is_logged_not_swallowed(window, caplog, tmp_path, monkeypatch):
    from app.store.db import Database

    monkeypatch.setattr(window, "db", Database(f"sqlite:///{tmp_path / 'absent' / 'no.db'}"))  # it went away
    with caplog.at_level(logging.WARNING, logger="ui.shell.mainwindow"):
        window._own_change({"rack"})
        window.check_head()
    messages = [r.getMessage() for r in caplog.records if r.name == "ui.shell.mainwindow"]
    assert "after our own change the audit head could not be read" in messages
    assert "live refresh: the audit head could not be read" in messages
    window.db.dispose()
