"""The program's log: a rotating file in the data directory, set up by the command line."""
from __future__ import annotations

import logging
import logging.handlers

import pytest

from app.store import logs


@pytest.fixture
def fresh_logging(tmp_path, monkeypatch):
    """A data directory of the test's own; the root logger as it was afterwards."""
    monkeypatch.setenv("IDC_CONSOLE_HOME", str(tmp_path / "home"))
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    levels = {name: logging.getLogger(name).level for name in logs.OWN_PACKAGES}
    monkeypatch.setattr(logs, "file_handler", None)
    yield tmp_path / "home"
    for h in root.handlers:
        if h not in handlers:
            h.close()
    root.handlers[:] = handlers
    root.setLevel(level)
    for name, lv in levels.items():
        logging.getLogger(name).setLevel(lv)


def test_a_rotating_file_in_the_data_directory_made_on_the_first_record(fresh_logging):
    path = logs.setup_logging()
    assert path == fresh_logging / "logs" / "idc-console.log"
    assert not fresh_logging.exists()          # nothing logged yet: the data directory is left alone
    ours = [h for h in logging.getLogger().handlers if isinstance(h, logging.handlers.RotatingFileHandler)
            and h.baseFilename == str(path)]
    assert len(ours) == 1 and ours[0].maxBytes == logs.MAX_BYTES and ours[0].backupCount == logs.BACKUPS
    logging.getLogger("app.test").warning("rack %s is over its power budget", "A01")
    text = path.read_text(encoding="utf-8")
    assert "WARNING app.test: rack A01 is over its power budget" in text
    assert text[:19].count("-") == 2 and text[19] == "Z"   # UTC, as stored
    assert logs.setup_logging() == path                     # once: a second call adds no handler
    assert len([h for h in logging.getLogger().handlers if h is ours[0]]) == 1
    assert logs.current_log_path() == path


def test_the_command_line_sets_up_the_file_and_logs_only_what_is_worth_a_line(fresh_logging, tmp_path, capsys):
    from app.cli.main import main

    assert main(["--db", str(tmp_path / "x.db"), "db", "upgrade"]) == 0
    upgrade = logs.log_path().read_text(encoding="utf-8").splitlines()   # a bulk run: its start and its end
    assert [ln.split(": ", 1)[1].split(" in ")[0].split(":")[0] for ln in upgrade] == [
        "db upgrade started", "db upgrade done"]
    logging.getLogger("app.services.billing").info("statement %s issued", "GZ-202610-000001")
    logging.getLogger("alembic.runtime.migration").info("Context impl SQLiteImpl.")   # a library's chatter
    text = logs.log_path().read_text(encoding="utf-8")
    assert "INFO app.services.billing: statement GZ-202610-000001 issued" in text and "SQLiteImpl" not in text
