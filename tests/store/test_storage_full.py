"""A full disk during a write says so: the disk is full and nothing was written, not SQLite's
"no such savepoint: sa_savepoint_1" from the import rolling its batch back.

The disk is filled for real, on SQLite, by capping the database file (PRAGMA max_page_count): the
next page it needs is refused with SQLITE_FULL, exactly as when the disk has no room left. (A full
PostgreSQL disk cannot be made here without filling the server's disk; its disk_full, SQLSTATE 53100,
is recognised by the same check, app.store.db.storage_full.)"""
from __future__ import annotations

import pytest
from sqlalchemy import event, text

from app.cli.main import main
from app.domain.errors import StorageFull
from app.importexport import run_import
from tests.conftest import PASSWORD, table_counts


def _cap(db, spare_pages: int) -> None:
    """Every new connection may grow the file by `spare_pages` pages only."""
    with db.engine.connect() as conn:
        pages = conn.execute(text("PRAGMA page_count")).scalar_one()

    def cap(dbapi_conn, _record):
        dbapi_conn.execute(f"PRAGMA max_page_count = {pages + spare_pages}")

    db.engine.dispose()
    event.listen(db.engine, "connect", cap)


def _admin(db):
    from app.services.users import add_user, login

    add_user(db, None, "admin", "admin", PASSWORD, "管理员")
    return login(db, "admin", PASSWORD)


def _regions(tmp_path, n: int):
    path = tmp_path / "regions.csv"
    lines = ["code,name"] + [f"{110000 + k * 100},测试地区{k:05d}{'长名' * 20}" for k in range(1, n)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_full_disk_during_a_large_import_says_the_disk_is_full(sqlite_db, tmp_path):
    db = sqlite_db
    actor = _admin(db)
    path = _regions(tmp_path, 3000)
    before = table_counts(db)
    _cap(db, 40)
    with pytest.raises(StorageFull) as exc:
        run_import(db, actor, "regions", path)
    assert "the disk is full" in exc.value.message and "nothing was written" in exc.value.message
    assert "savepoint" not in exc.value.message
    assert table_counts(db) == before


def test_the_command_line_says_the_disk_is_full(sqlite_db, tmp_path, monkeypatch, capsys):
    db = sqlite_db
    _admin(db)
    path = _regions(tmp_path, 3000)
    with db.engine.connect() as conn:
        pages = conn.execute(text("PRAGMA page_count")).scalar_one()
    import app.store.db as appdb

    real = appdb.sqlite_pragmas

    def capped(dbapi_conn, record):  # the command line opens its own engine: cap it there
        real(dbapi_conn, record)
        dbapi_conn.execute(f"PRAGMA max_page_count = {pages + 40}")
    monkeypatch.setattr(appdb, "sqlite_pragmas", capped)
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", PASSWORD)
    code = main(["--db", db.url, "--user", "admin", "import", "regions", str(path)])
    err = capsys.readouterr().err
    assert code == 1 and "the disk is full" in err and "savepoint" not in err and "Traceback" not in err
