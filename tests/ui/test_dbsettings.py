"""The PostgreSQL password never reaches the settings file: it goes to the keyring, or is asked
for at start; messages and the status bar never show it."""
from __future__ import annotations

import argparse
import os
from pathlib import Path

import keyring
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import fail

from ui.shell.dbdialog import KEYRING_SERVICE, SettingsDialog
from ui.shell.main import database_url
from ui.shell.settings import settings

URL = "postgresql+psycopg://idc@db.example:5432/idc"
SECRET = "s3cret-Pw:9"


class MemoryKeyring(KeyringBackend):
    priority = 1

    def __init__(self):
        super().__init__()
        self.store: dict[tuple[str, str], str] = {}

    def get_password(self, service, username):
        return self.store.get((service, username))

    def set_password(self, service, username, password):
        self.store[(service, username)] = password

    def delete_password(self, service, username):
        self.store.pop((service, username), None)


@pytest.fixture
def memory_keyring():
    before = keyring.get_keyring()
    ring = MemoryKeyring()
    keyring.set_keyring(ring)
    yield ring
    keyring.set_keyring(before)


@pytest.fixture
def no_keyring():
    before = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    yield
    keyring.set_keyring(before)


@pytest.fixture(autouse=True)
def no_db_from_the_environment(monkeypatch):
    monkeypatch.delenv("IDC_CONSOLE_DB", raising=False)


def settings_text() -> str:
    settings().sync()
    path = Path(os.environ["IDC_CONSOLE_SETTINGS"])
    return path.read_text(encoding="utf-8") if path.exists() else ""


def fill(dlg: SettingsDialog, url: str, password: str, keep: bool) -> None:
    dlg.pg.setChecked(True)
    dlg.pg_url.setText(url)
    dlg.pg_password.setText(password)
    dlg.use_keyring.setChecked(keep)


def never_asked(url):
    raise AssertionError("the password was asked for although it is stored")


def args():
    return argparse.Namespace(db=None)


def test_without_password_really_removes_it():
    from ui.shell.dbdialog import without_password
    assert without_password("postgresql+psycopg://idc:pw@h:5433/d?sslmode=require") == \
        "postgresql+psycopg://idc@h:5433/d?sslmode=require"
    assert without_password(URL) == URL
    assert without_password("sqlite:////tmp/x.db") == "sqlite:////tmp/x.db"


@pytest.mark.parametrize("url, password", [(URL, SECRET), (URL.replace("idc@", f"idc:{SECRET.replace(':', '%3A')}@"), "")])
def test_with_a_keyring_the_password_is_kept_there_and_not_in_the_settings(qtbot, memory_keyring, url, password):
    dlg = SettingsDialog()
    qtbot.addWidget(dlg)
    fill(dlg, url, password, keep=True)
    dlg.save()
    assert dlg.result() == 1, dlg.test_result.text()
    text = settings_text()
    assert "s3cret" not in text and "s3cret" not in text.replace("%3A", ":")
    assert settings().get("db_url") == URL
    assert memory_keyring.store == {(KEYRING_SERVICE, "idc@db.example:5432/idc"): SECRET}
    opened = database_url(args(), ask=never_asked)              # the next start
    assert opened == URL.replace("idc@", "idc:s3cret-Pw%3A9@")
    reopened = SettingsDialog()                                 # the dialog shows the URL, not the password
    qtbot.addWidget(reopened)
    assert reopened.pg_url.text() == URL and "s3cret" not in reopened.pg_url.text()


def test_without_a_keyring_nothing_is_stored_and_the_console_asks_at_start(qtbot, no_keyring):
    dlg = SettingsDialog()
    qtbot.addWidget(dlg)
    fill(dlg, URL, SECRET, keep=True)
    dlg.save()                                                  # the keyring cannot take it: says so
    assert dlg.result() == 0
    assert "keyring is not available" in dlg.test_result.text() and SECRET not in dlg.test_result.text()
    assert "s3cret" not in settings_text()
    dlg.use_keyring.setChecked(False)
    dlg.save()
    assert dlg.result() == 1
    assert "s3cret" not in settings_text() and settings().get("db_url") == URL
    asked = []
    assert database_url(args(), ask=lambda url: asked.append(url) or "typed-at-start") == \
        URL.replace("idc@", "idc:typed-at-start@")
    assert asked == [URL]
    assert database_url(args(), ask=lambda url: None) is None   # cancelled: the console does not start


def test_a_server_without_passwords_is_not_asked_for_one(qtbot, no_keyring):
    dlg = SettingsDialog()
    qtbot.addWidget(dlg)
    fill(dlg, URL, "", keep=False)
    dlg.save()
    assert database_url(args(), ask=never_asked) == URL


@pytest.mark.parametrize("ring", ["memory", "none"])
def test_a_password_left_in_the_settings_file_is_moved_out_at_start(request, ring):
    store = request.getfixturevalue("memory_keyring") if ring == "memory" else request.getfixturevalue("no_keyring")
    s = settings()
    s.set("db_url", URL.replace("idc@", "idc:s3cret@"))       # as the old version wrote it
    s.set("db_keyring", True)
    s.sync()
    asked = []
    url = database_url(args(), ask=lambda u: asked.append(u) or "s3cret")
    assert url == URL.replace("idc@", "idc:s3cret@")
    assert "s3cret" not in settings_text()
    if ring == "memory":
        assert store.store[(KEYRING_SERVICE, "idc@db.example:5432/idc")] == "s3cret" and not asked
    else:
        assert asked == [URL] and settings().get("db_ask_password")


def test_messages_hide_the_password():
    from ui.shell.dbdialog import hide_secret, test_connection as probe
    url = "postgresql+psycopg://idc:s3cret@127.0.0.1:1/idc"
    assert hide_secret(f"could not parse {url}", url) == "could not parse postgresql+psycopg://idc:***@127.0.0.1:1/idc"
    problem = probe(url)                                        # nothing listens on port 1
    assert problem and "s3cret" not in problem
    from app.store.config import describe_url
    assert "s3cret" not in describe_url(url)
