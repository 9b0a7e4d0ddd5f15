"""Where the data lives and which database to open."""
from __future__ import annotations

import os
from pathlib import Path, PurePath, PurePosixPath, PureWindowsPath

import platformdirs

from app.domain.errors import DomainError

APP_NAME = "idc-console"
APP_AUTHOR = "IDC"
ENV_DB = "IDC_CONSOLE_DB"
ENV_READ_DB = "IDC_CONSOLE_READ_DB"
ENV_PASSWORD = "IDC_CONSOLE_PASSWORD"
ENV_HOME = "IDC_CONSOLE_HOME"
ENV_SETTINGS = "IDC_CONSOLE_SETTINGS"
SETTINGS_FILE = "settings.ini"


class DatabaseUnavailable(DomainError):
    """The database named cannot be used: absent, unreachable, not a database, unsupported."""


def data_dir() -> Path:
    """The data directory (not created here: only `db upgrade` and the console's first start do)."""
    return Path(os.environ.get(ENV_HOME) or platformdirs.user_data_dir(APP_NAME, APP_AUTHOR))


def settings_file() -> Path | None:
    """IDC_CONSOLE_SETTINGS, else settings.ini in IDC_CONSOLE_HOME, else None (the platform's place:
    the registry on Windows, ~/Library/Preferences on macOS, ~/.config/IDC on Linux)."""
    if os.environ.get(ENV_SETTINGS):
        return Path(os.environ[ENV_SETTINGS])
    if os.environ.get(ENV_HOME):
        return Path(os.environ[ENV_HOME]) / SETTINGS_FILE
    return None


def platform_data_dir(system: str, env: dict[str, str], home: str) -> PurePath:
    """Where the data directory is on `system` ("Windows", "Darwin", anything else: Linux and other
    Unixes), given its environment and home folder: platformdirs' rule for (APP_NAME, APP_AUTHOR),
    written out so that every platform's answer is a plain function tested on Linux (data_dir() asks
    platformdirs itself on the real platform; tests/platform/test_platform_paths.py checks they agree here)."""
    if system == "Windows":
        base = env.get("LOCALAPPDATA") or str(PureWindowsPath(home, "AppData", "Local"))
        return PureWindowsPath(base, APP_AUTHOR, APP_NAME)
    if system == "Darwin":
        return PurePosixPath(home, "Library", "Application Support", APP_NAME)
    base = env.get("XDG_DATA_HOME", "").strip() or str(PurePosixPath(home, ".local", "share"))
    return PurePosixPath(base, APP_NAME)


def platform_settings_location(system: str, env: dict[str, str], home: str) -> str:
    """Where the console's settings are on `system` when neither IDC_CONSOLE_SETTINGS nor IDC_CONSOLE_HOME
    is set: Qt's native place for QSettings("IDC", "idc-console") (the registry on Windows)."""
    if env.get(ENV_SETTINGS):
        return env[ENV_SETTINGS]
    if env.get(ENV_HOME):
        return str((PureWindowsPath if system == "Windows" else PurePosixPath)(env[ENV_HOME], SETTINGS_FILE))
    if system == "Windows":
        return rf"HKEY_CURRENT_USER\Software\{APP_AUTHOR}\{APP_NAME}"
    if system == "Darwin":
        return str(PurePosixPath(home, "Library", "Preferences", f"com.{APP_AUTHOR.lower()}.{APP_NAME}.plist"))
    base = env.get("XDG_CONFIG_HOME", "").strip() or str(PurePosixPath(home, ".config"))
    return str(PurePosixPath(base, APP_AUTHOR, f"{APP_NAME}.conf"))


def default_sqlite_path() -> Path:
    return data_dir() / "idc-console.db"


def resolve_db_url(explicit: str | None = None) -> str:
    """--db wins, then IDC_CONSOLE_DB, then the SQLite file in the user data directory.

    A bare path is taken as a SQLite file; `postgres://` and `postgresql://` mean PostgreSQL
    through psycopg. Anything else (mysql://, an in-memory SQLite, a malformed URL) is refused
    with DatabaseUnavailable.
    """
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    url = (explicit or os.environ.get(ENV_DB) or "").strip()
    if not url:
        return f"sqlite:///{default_sqlite_path()}"
    if url == ":memory:":
        raise DatabaseUnavailable(_IN_MEMORY)
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser().resolve()}"
    typed = url
    scheme, rest = url.split("://", 1)
    backend = scheme.split("+")[0].lower()
    if backend in ("postgres", "postgresql"):
        url = "postgresql+psycopg://" + rest if scheme.lower() in ("postgres", "postgresql") else url
    elif backend != "sqlite":
        raise DatabaseUnavailable(f"{scheme}:// databases are not supported: use a SQLite file or "
                                  "postgresql://user@host/dbname")
    try:
        u = make_url(url)
        _ = u.port  # a non-numeric port raises here
    except (ArgumentError, ValueError):
        raise DatabaseUnavailable(f"{describe_raw(typed)} is not a database URL: use a SQLite file or "
                                  "postgresql://user@host[:port]/dbname") from None
    if backend == "sqlite" and (u.database or ":memory:") == ":memory:":
        raise DatabaseUnavailable(_IN_MEMORY)
    if backend != "sqlite" and not u.database:
        raise DatabaseUnavailable(f"{describe_raw(typed)} names no database: add /dbname")
    return url


def resolve_read_db_url(explicit: str | None = None) -> str | None:
    """--read-db wins, then IDC_CONSOLE_READ_DB: a PostgreSQL streaming replica the reports, exports,
    the dashboard and the big lists read from. None: everything reads the primary."""
    url = (explicit or os.environ.get(ENV_READ_DB) or "").strip()
    if not url:
        return None
    resolved = resolve_db_url(url)
    if not resolved.startswith("postgresql"):
        raise DatabaseUnavailable("the read database (--read-db) is a PostgreSQL replica: postgresql://user@host/dbname")
    return resolved


_IN_MEMORY = ("an in-memory database vanishes when the command ends: name a SQLite file or a "
              "PostgreSQL URL")


def describe_raw(url: str) -> str:
    """The URL as typed, without its password."""
    if "://" in url and "@" in url.split("://", 1)[1]:
        scheme, rest = url.split("://", 1)
        cred, host = rest.rsplit("@", 1)
        return f"{scheme}://{cred.split(':', 1)[0]}@{host}"
    return url


def describe_url(url: str) -> str:
    """A short, password-free description for the status bar and messages."""
    from sqlalchemy.engine import make_url

    u = make_url(url)
    if u.get_backend_name() == "sqlite":
        return u.database or ":memory:"
    return f"{u.host or 'localhost'}:{u.port or 5432}/{u.database}"


# --- the database URL's parts, for the console's database settings (ui/ never parses a URL itself) ---

def url_username(url: str) -> str | None:
    from sqlalchemy.engine import make_url

    return make_url(url).username


def url_password(url: str | None) -> str | None:
    """The password written in the URL; None when there is none or the text is no URL."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).password if url and "://" in url else None
    except (ArgumentError, ValueError):  # an unparsable URL has no password to find
        return None


def keyring_account(url: str) -> str:
    """The account name the OS keyring keeps this database's password under."""
    from sqlalchemy.engine import make_url

    u = make_url(url)
    return f"{u.username}@{u.host}:{u.port or 5432}/{u.database}"


def with_url_password(url: str, password: str | None) -> str:
    """The URL with `password` in it (None: with none). (`URL.set(password=None)` leaves the password
    in place in SQLAlchemy 2: None there means "unchanged"; hence URL.create.)"""
    from sqlalchemy.engine import URL, make_url

    u = make_url(url)
    return URL.create(u.drivername, username=u.username, password=password, host=u.host, port=u.port,
                      database=u.database, query=u.query).render_as_string(hide_password=False)


def without_password(url: str) -> str:
    """The URL with no password in it: what may be stored or shown."""
    from sqlalchemy.engine import make_url

    if not url or "://" not in url or make_url(url).password is None:
        return url
    return with_url_password(url, None)
