"""Bad command lines: each gets one message and exit 1 (refused) or 2 (usage), never a traceback.

The cases below also make the table docs/cli-errors.md; `test_the_table_is_current` fails when
the messages change without the table. Regenerate it with
    IDC_UPDATE_DOCS=1 .venv/bin/python -m pytest -q tests/cli/test_cli_errors.py -k table
"""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from launcher import main
from tests.conftest import on_postgresql

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "docs" / "cli-errors.md"
PASSWORD = "first-admin-1"
LONG = "x" * 65

# (command line after `idc-console`, exit code, environment changes)
CASES: list[tuple[str, int, dict]] = [
    ("--db nope.db db current", 1, {}),
    ("--db nope.db user list", 1, {}),
    ("--db missing/folder/x.db demo load", 1, {}),
    ("--db notes.txt db current", 1, {}),
    ("--db empty.db user list", 1, {}),
    ("--db damaged.db user list", 1, {}),
    ("--db folder audit verify", 1, {}),
    ("--db old.db user list", 1, {}),
    ("--db old.db audit verify", 1, {}),
    ("--db mysql://root@localhost/idc db current", 1, {}),
    ("--db :memory: db current", 1, {}),
    ("--db sqlite:// db upgrade", 1, {}),
    ("--db postgresql://postgres@127.0.0.1:1/idc db current", 1, {}),
    ("--db postgresql://postgres@db.example:port/idc db current", 1, {}),
    ("--db postgres://postgres@127.0.0.1:1 db current", 1, {}),
    ("--db good.db billing run --period 0000-01 --dry-run", 2, {}),
    ("--db good.db billing run --period 2026-13 --dry-run", 2, {}),
    ("--db good.db billing run --period 202610 --dry-run", 2, {}),
    ("--db good.db billing issue --period yesterday", 2, {}),
    ("--db good.db report audit --to 9999-12-31 -o audit.pdf", 2, {}),
    ("--db good.db report audit --from 2026-02-30 -o audit.pdf", 2, {}),
    ("--db good.db audit export --from 2026-11-01 --to tomorrow -o audit.csv", 2, {}),
    ("--db good.db contracts due --within 1000000000000", 2, {}),
    ("--db good.db contracts due --within -5", 2, {}),
    ("--db good.db audit verify --expect-head 12:abc", 2, {}),
    ("--db good.db audit verify --expect-head latest", 2, {}),
    ("--db good.db report fleet -o nofolder/fleet.pdf", 2, {}),
    ("--db good.db export users -o .", 2, {}),
    ("--db good.db db backup nofolder/copy.db", 2, {}),
    ("--db good.db frobnicate", 2, {}),
    ("--db good.db report statement", 2, {}),
    ("--lang fr", 2, {}),
    ("--db good.db billing run --period last", 1, {}),
    ("--db good.db --user admin billing run --period last", 1, {"IDC_CONSOLE_PASSWORD": None}),
    (f"--db good.db --user {LONG} user list", 1, {}),
    (f"--db good.db --user admin user add {LONG} --role operator", 1, {"IDC_CONSOLE_NEW_PASSWORD": "pw-123456"}),
    ("--db good.db --user nobody billing run --period last", 1, {}),
    ("--db good.db --user admin billing meter-import gbk.csv", 1, {}),
    ("--db good.db --user admin import customers missing.csv", 1, {}),
    ("--db good.db --user admin demo load", 1, {}),
    ("--db good.db report statement FZ-209901-000001 -o statement.pdf", 1, {}),
]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """A folder with the databases and files the cases name."""
    d = tmp_path_factory.mktemp("cli-errors")
    old = os.getcwd()
    os.chdir(d)
    env = {k: os.environ.get(k) for k in ("IDC_CONSOLE_PASSWORD", "IDC_CONSOLE_HOME", "IDC_CONSOLE_DB")}
    os.environ["IDC_CONSOLE_PASSWORD"] = PASSWORD
    os.environ["IDC_CONSOLE_HOME"] = str(d / "home")
    os.environ.pop("IDC_CONSOLE_DB", None)
    try:
        assert main(["--db", "good.db", "db", "upgrade"]) == 0
        assert main(["--db", "good.db", "user", "add", "admin", "--role", "admin"]) == 0
        assert main(["--db", "old.db", "db", "upgrade"]) == 0
        from app.store.db import Database

        old_db = Database("sqlite:///old.db")
        old_db.downgrade("0003")
        old_db.dispose()
        Path("notes.txt").write_text("not a database\n")
        Path("empty.db").write_bytes(b"")
        Path("damaged.db").write_bytes(Path("good.db").read_bytes()[:4096] + b"\0" * 100)
        Path("folder").mkdir()
        Path("gbk.csv").write_bytes("rack,read_at,kwh_total\n机柜A,2026-10-01T00:00,100\n".encode("gbk"))
        yield d
    finally:
        os.chdir(old)
        for k, v in env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def run_case(line: str, env: dict, capsys, monkeypatch) -> tuple[int, str, str]:
    for k, v in env.items():
        if v is None:
            monkeypatch.delenv(k, raising=False)
        else:
            monkeypatch.setenv(k, v)
    try:
        code = main(line.split())
    except SystemExit as exc:   # argparse: usage errors and --help
        code = exc.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def message(err: str, workdir: Path) -> str:
    """The line a person reads: argparse's `error:` line or ours, with the temporary folder as `.`."""
    lines = [ln for ln in err.strip().splitlines() if ln.strip()]
    text = next((ln for ln in lines if ": error: " in ln), lines[0] if lines else "")
    return text.replace(str(workdir.resolve()), ".").replace(str(workdir), ".")


@pytest.mark.parametrize("line, expected, env", CASES, ids=[c[0][:60] for c in CASES])
def test_bad_command_line(line, expected, env, workdir, capsys, monkeypatch):
    code, out, err = run_case(line, env, capsys, monkeypatch)
    assert code == expected, err
    assert "Traceback" not in err and err.strip()
    if expected == 1 and "import customers" not in line:
        assert len(err.strip().splitlines()) == 1, err   # one line naming the problem
    if expected == 2:
        assert "usage:" in err


def test_no_folder_is_made_on_the_side(workdir, capsys):
    assert not (workdir / "missing").exists()
    assert not (workdir / "nofolder").exists()
    assert not (workdir / "nope.db").exists()
    # IDC_CONSOLE_HOME: nothing made by a refused command but the program's log (the setup's db
    # upgrades log their start and end there)
    home = workdir / "home"
    assert not home.exists() or {p.name for p in home.iterdir()} == {"logs"}


def test_the_table_is_current(workdir, capsys, monkeypatch):
    rows = []
    for line, _expected, env in CASES:
        with monkeypatch.context() as m:
            code, _out, err = run_case(line, env, capsys, m)
        shown = line.replace(LONG, "xxx…(65 characters)")
        text = message(err, workdir).replace(LONG, "xxx…").replace("|", "\\|")
        rows.append(f"| `idc-console {shown}` | {code} | {text} |")
    table = "\n".join([
        "# Bad command lines and what idc-console says",
        "",
        "Generated by `tests/cli/test_cli_errors.py` (which fails when this table is out of date; regenerate with",
        "`IDC_UPDATE_DOCS=1 .venv/bin/python -m pytest -q tests/cli/test_cli_errors.py -k table`). Exit code 1: refused,",
        "one line on stderr; 2: a usage error (argparse prints the usage, then this line). Paths are shown relative",
        "to the folder the commands ran in.",
        "",
        "| command | exit | message |",
        "| --- | --- | --- |",
        *rows,
        "",
    ])
    if os.environ.get("IDC_UPDATE_DOCS"):
        TABLE.write_text(table, encoding="utf-8")
    assert len(rows) >= 30
    assert TABLE.read_text(encoding="utf-8") == table, "docs/cli-errors.md is out of date (see module doc)"


# --- both backends ----------------------------------------------------------------------------
def _url(db) -> str:
    return db.engine.url.render_as_string(hide_password=False)


def test_read_only_commands_never_upgrade(db, capsys):
    db.downgrade("0003")
    for argv in (["user", "list"], ["audit", "verify"], ["contracts", "due"], ["report", "fleet", "-o", "x.pdf"]):
        assert main(["--db", _url(db), *argv]) == 1
        err = capsys.readouterr().err
        assert "is at schema 0003 and this idc-console needs" in err and "db upgrade" in err
        assert db.current_revision() == "0003"
    assert main(["--db", _url(db), "db", "current"]) == 0
    assert "0003 (head is" in capsys.readouterr().out
    assert main(["--db", _url(db), "db", "upgrade"]) == 0
    assert db.current_revision() == db.head_revision()


def test_over_long_logins_are_refused_cleanly(db, admin, capsys, monkeypatch):
    """PostgreSQL raised StringDataRightTruncation from the failed-login audit event."""
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", "whatever-1")
    monkeypatch.setenv("IDC_CONSOLE_NEW_PASSWORD", "another-pass-1")
    assert main(["--db", _url(db), "--user", "y" * 300, "user", "list"]) == 1
    assert "at most 64 characters" in capsys.readouterr().err
    assert main(["--db", _url(db), "--user", admin.login, "user", "add", "z" * 300, "--role", "operator"]) == 1
    assert "at most 64 characters" in capsys.readouterr().err


@on_postgresql
def test_postgres_scheme_and_missing_database(db, capsys):
    u = make_url(_url(db))
    plain = u.render_as_string(hide_password=False).replace("postgresql+psycopg://", "postgres://")
    assert main(["--db", plain, "db", "current"]) == 0
    assert "(head)" in capsys.readouterr().out
    missing = plain.rsplit("/", 1)[0] + "/idc_no_such_database"
    assert main(["--db", missing, "db", "current"]) == 1
    err = capsys.readouterr().err
    assert 'database "idc_no_such_database" does not exist' in err and len(err.strip().splitlines()) == 1


def test_version(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0 and capsys.readouterr().out.startswith("idc-console 0.")


# --- the shared argument parsers ----------------------------------------------------------------
def test_relative_periods():
    import datetime as dt

    from app.cli.main import month_bounds, parse_period

    assert parse_period("last", dt.date(2027, 3, 15)) == "2027-02"
    assert parse_period("this", dt.date(2027, 3, 15)) == "2027-03"
    assert parse_period("LAST", dt.date(2027, 1, 1)) == "2026-12"
    assert parse_period("2026-10") == "2026-10"
    assert month_bounds("2027-02") == ("2027-02-01", "2027-02-28")
    assert month_bounds("2026-12") == ("2026-12-01", "2026-12-31")
    for bad in ("0000-01", "2026-00", "2026-1", "", "next"):
        with pytest.raises(ValueError):
            parse_period(bad)


def test_url_resolution(tmp_path, monkeypatch):
    from app.store.config import DatabaseUnavailable, resolve_db_url

    monkeypatch.delenv("IDC_CONSOLE_DB", raising=False)
    assert resolve_db_url("postgres://u:p@h:5433/d") == "postgresql+psycopg://u:p@h:5433/d"
    assert resolve_db_url("postgresql://u@h/d") == "postgresql+psycopg://u@h/d"
    assert resolve_db_url("postgresql+psycopg://u@h/d") == "postgresql+psycopg://u@h/d"
    assert resolve_db_url(str(tmp_path / "a.db")) == f"sqlite:///{tmp_path / 'a.db'}"
    for bad, words in [("mysql://u@h/d", "not supported"), (":memory:", "in-memory"),
                       ("sqlite:///:memory:", "in-memory"), ("postgresql://u@h:x/d", "not a database URL"),
                       ("postgresql://u:secret@h", "names no database")]:
        with pytest.raises(DatabaseUnavailable, match=words) as e:
            resolve_db_url(bad)
        assert "secret" not in e.value.message


def test_home_moves_data_and_settings_and_nothing_is_created(tmp_path, monkeypatch):
    from app.store.config import data_dir, default_sqlite_path, settings_file

    home = tmp_path / "home"
    monkeypatch.setenv("IDC_CONSOLE_HOME", str(home))
    monkeypatch.delenv("IDC_CONSOLE_SETTINGS", raising=False)
    assert data_dir() == home and default_sqlite_path() == home / "idc-console.db"
    assert settings_file() == home / "settings.ini"
    assert not home.exists()
    monkeypatch.setenv("IDC_CONSOLE_SETTINGS", str(tmp_path / "other.ini"))
    assert settings_file() == tmp_path / "other.ini"
    monkeypatch.delenv("IDC_CONSOLE_HOME")
    monkeypatch.delenv("IDC_CONSOLE_SETTINGS")
    assert settings_file() is None   # Qt's native place


def test_damaged_sqlite_named(tmp_path):
    from app.store.config import DatabaseUnavailable
    from app.store.db import Database, check_sqlite_file

    good = tmp_path / "good.db"
    db = Database(f"sqlite:///{good}")
    db.upgrade()
    db.dispose()
    con = sqlite3.connect(good)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    bad = tmp_path / "bad.db"
    bad.write_bytes(good.read_bytes()[:4096])
    check_sqlite_file(f"sqlite:///{bad}", must_exist=True)   # the header is fine …
    with pytest.raises(DatabaseUnavailable, match="damaged"):
        Database(f"sqlite:///{bad}").probe()                 # … the pages are not
