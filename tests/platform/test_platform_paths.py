"""The data directory and the settings' place on simulated Windows, macOS and Linux (issue 10), as plain
functions of the platform, its environment and home; on this Linux they agree with platformdirs and Qt."""
from __future__ import annotations

import os
from pathlib import Path

import platformdirs
import pytest

from app.store.config import APP_AUTHOR, APP_NAME, platform_data_dir, platform_settings_location

HOME_WIN = r"C:\Users\lina"
HOME_MAC = "/Users/lina"


@pytest.mark.parametrize("system, env, home, expected", [
    ("Windows", {"LOCALAPPDATA": r"C:\Users\lina\AppData\Local"}, HOME_WIN, r"C:\Users\lina\AppData\Local\IDC\idc-console"),
    ("Windows", {}, HOME_WIN, r"C:\Users\lina\AppData\Local\IDC\idc-console"),
    ("Darwin", {}, HOME_MAC, "/Users/lina/Library/Application Support/idc-console"),
    ("Linux", {}, "/home/lina", "/home/lina/.local/share/idc-console"),
    ("Linux", {"XDG_DATA_HOME": "/data/lina"}, "/home/lina", "/data/lina/idc-console"),
])
def test_data_directory_per_platform(system, env, home, expected):
    assert str(platform_data_dir(system, env, home)) == expected


def test_the_linux_rule_is_platformdirs(monkeypatch, tmp_path):
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    assert str(platform_data_dir("Linux", dict(os.environ), str(Path.home()))) == \
        platformdirs.user_data_dir(APP_NAME, APP_AUTHOR)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert str(platform_data_dir("Linux", dict(os.environ), str(Path.home()))) == \
        platformdirs.user_data_dir(APP_NAME, APP_AUTHOR)


@pytest.mark.parametrize("system, env, home, expected", [
    ("Windows", {}, HOME_WIN, r"HKEY_CURRENT_USER\Software\IDC\idc-console"),
    ("Darwin", {}, HOME_MAC, "/Users/lina/Library/Preferences/com.idc.idc-console.plist"),
    ("Linux", {}, "/home/lina", "/home/lina/.config/IDC/idc-console.conf"),
    ("Windows", {"IDC_CONSOLE_HOME": r"D:\idc"}, HOME_WIN, r"D:\idc\settings.ini"),
    ("Darwin", {"IDC_CONSOLE_HOME": "/Volumes/idc"}, HOME_MAC, "/Volumes/idc/settings.ini"),
    ("Windows", {"IDC_CONSOLE_SETTINGS": r"D:\s.ini", "IDC_CONSOLE_HOME": r"D:\idc"}, HOME_WIN, r"D:\s.ini"),
])
def test_settings_place_per_platform(system, env, home, expected):
    assert platform_settings_location(system, env, home) == expected


def test_the_linux_rule_is_qts(monkeypatch):
    from PySide6.QtCore import QSettings

    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    assert QSettings("IDC", "idc-console").fileName() == \
        platform_settings_location("Linux", {}, str(Path.home()))


def test_the_readme_names_the_same_places():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert r"%LOCALAPPDATA%\IDC\idc-console" in readme
    assert "~/Library/Application Support/idc-console" in readme
    assert r"HKCU\Software\IDC\idc-console" in readme
    assert "~/Library/Preferences/com.idc.idc-console.plist" in readme
    assert "~/.config/IDC/idc-console.conf" in readme
