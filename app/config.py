"""Where the data lives and which database to open."""
from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "idc-console"
APP_AUTHOR = "IDC"
ENV_DB = "IDC_CONSOLE_DB"
ENV_PASSWORD = "IDC_CONSOLE_PASSWORD"


def data_dir() -> Path:
    path = Path(os.environ.get("IDC_CONSOLE_HOME") or platformdirs.user_data_dir(APP_NAME, APP_AUTHOR))
    path.mkdir(parents=True, exist_ok=True)
    return path


def default_sqlite_path() -> Path:
    return data_dir() / "idc-console.db"


def resolve_db_url(explicit: str | None = None) -> str:
    """--db wins, then IDC_CONSOLE_DB, then the SQLite file in the user data directory.

    A bare path is taken as a SQLite file.
    """
    url = explicit or os.environ.get(ENV_DB)
    if not url:
        return f"sqlite:///{default_sqlite_path()}"
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser().resolve()}"
    return url


def describe_url(url: str) -> str:
    """A short, password-free description for the status bar and messages."""
    from sqlalchemy.engine import make_url

    u = make_url(url)
    if u.get_backend_name() == "sqlite":
        return u.database or ":memory:"
    return f"{u.host or 'localhost'}:{u.port or 5432}/{u.database}"
