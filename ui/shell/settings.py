"""One wrapper over QSettings: every key declared once with its type and default."""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QByteArray, QSettings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Key:
    name: str
    type: type
    default: Any
    preference: bool = True   # user preference (False: window state)


KEYS = {k.name: k for k in (
    Key("language", str, ""),                  # "" = follow the system locale; "zh" | "en"
    Key("db_url", str, ""),                    # "" = app.store.config default (IDC_CONSOLE_DB or the data dir)
    Key("db_keyring", bool, False),            # PostgreSQL password kept in the OS keyring
    Key("db_ask_password", bool, False),       # PostgreSQL password kept nowhere: asked for at start
    Key("pdf_font_path", str, ""),
    Key("last_login", str, ""),
    Key("last_save_dir", str, ""),             # where the last document or export was saved
    Key("live_refresh_seconds", int, 3),
    Key("window/geometry", QByteArray, QByteArray(), False),
    Key("window/state", QByteArray, QByteArray(), False),
    Key("window/page", int, 0, False),
)}
# Per-table header state: one key per list kind, declared by prefix.
HEADER_PREFIX = "tables/"
# Per-page list filters (column filters and the filter box, as JSON): one key per list kind.
FILTER_PREFIX = "filters/"


class Settings:
    def __init__(self, qsettings: QSettings | None = None):
        if qsettings is None:
            from app.store.config import settings_file   # IDC_CONSOLE_SETTINGS, else IDC_CONSOLE_HOME
            path = str(settings_file() or "")
            qsettings = (QSettings(path, QSettings.IniFormat) if path
                         else QSettings("IDC", "idc-console"))
        self.q = qsettings

    def _key(self, name: str) -> Key:
        if name.startswith(HEADER_PREFIX):
            return Key(name, QByteArray, QByteArray(), False)
        if name.startswith(FILTER_PREFIX):
            return Key(name, str, "", False)
        return KEYS[name]   # KeyError: an undeclared key is a bug

    def get(self, name: str):
        key = self._key(name)
        value = self.q.value(name, key.default)
        if value is None:
            return key.default
        if key.type is bool:
            return value in (True, "true", "1", 1)
        if key.type is int:
            try:
                return int(value)
            except (TypeError, ValueError):
                log.warning("setting %s: %r is not a whole number; the default %r is used", name, value, key.default)
                return key.default
        if key.type is QByteArray:
            return value if isinstance(value, QByteArray) else QByteArray(value or b"")
        return key.type(value)

    def set(self, name: str, value) -> None:
        self._key(name)
        self.q.setValue(name, value)

    def header_state(self, kind: str) -> QByteArray:
        return self.get(HEADER_PREFIX + kind)

    def set_header_state(self, kind: str, state: QByteArray) -> None:
        self.set(HEADER_PREFIX + kind, state)

    def sync(self) -> None:
        self.q.sync()


_settings: Settings | None = None


def settings() -> Settings:
    global _settings
    if _settings is None:
        _settings = Settings()
    return _settings


def set_settings(s: Settings) -> None:
    global _settings
    _settings = s
