"""The keyring code on simulated Windows and macOS (issue 10): the OS keyring backend keyring would
pick there (Windows Credential Manager, macOS Keychain) but whose OS library is missing, as in a
bundle built without it. The password is then never written to the settings file: the settings say
to ask, and the console asks for it at start."""
from __future__ import annotations

import keyring
import pytest
from keyring.backends import Windows, macOS

from ui.shell.dbdialog import keyring_get, keyring_set, store_db_url, with_password
from ui.shell.main import database_url
from tests.ui.test_dbsettings import SECRET, URL, args, settings_text

BACKENDS = {"Windows": Windows.WinVaultKeyring, "Darwin": macOS.Keyring}


@pytest.fixture(params=sorted(BACKENDS))
def platform_keyring(request, monkeypatch):
    monkeypatch.delenv("IDC_CONSOLE_DB", raising=False)
    before = keyring.get_keyring()
    keyring.set_keyring(BACKENDS[request.param]())
    yield request.param
    keyring.set_keyring(before)


def test_a_broken_platform_keyring_keeps_the_password_out_of_the_settings(platform_keyring):
    url = URL.replace("idc@", f"idc:{SECRET}@")
    assert keyring_get(url) is None                          # no crash: asked for instead
    problem = keyring_set(url, SECRET)
    assert problem                                           # said, never silently lost
    assert store_db_url(url, None, keep_in_keyring=True) == problem   # nothing saved then
    assert SECRET not in settings_text()
    assert store_db_url(url, None, keep_in_keyring=False) is None    # the user chooses "ask at start"
    text = settings_text()
    assert SECRET not in text and "db.example" in text
    asked = []
    opened = database_url(args(), ask=lambda u: asked.append(u) or "typed-at-start")
    assert asked and SECRET not in asked[0]
    assert opened.endswith("@db.example:5432/idc") and ":typed-at-start@" in opened
    assert SECRET not in settings_text()


def test_cancelling_the_password_at_start_opens_nothing(platform_keyring):
    store_db_url(URL, SECRET, keep_in_keyring=False)
    assert SECRET not in settings_text()
    assert with_password(URL, ask=lambda u: None) is None
