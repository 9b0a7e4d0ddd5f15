"""Each bulk run leaves two lines in the program's log (app/store/logs.py logged_run): one when it
starts, one when it ends with its counts, time and outcome; a failure a person sees is logged with its
traceback. Read from the log file itself."""
from __future__ import annotations

import csv
import datetime as dt
import logging
import re

import pytest

from app.store import logs
from tests.conftest import PASSWORD
from tests.billing.test_billing_world import make_world, rack_item, signed


@pytest.fixture
def log_file(tmp_path, monkeypatch):
    """The program's log in a data directory of the test's own; the root logger as it was afterwards."""
    monkeypatch.setenv("IDC_CONSOLE_HOME", str(tmp_path / "home"))
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    levels = {name: logging.getLogger(name).level for name in logs.OWN_PACKAGES}
    monkeypatch.setattr(logs, "file_handler", None)
    path = logs.setup_logging()
    yield path
    for h in root.handlers:
        if h not in handlers:
            h.close()
    root.handlers[:] = handlers
    root.setLevel(level)
    for name, lv in levels.items():
        logging.getLogger(name).setLevel(lv)


def _lines(path, what):
    return [ln for ln in path.read_text(encoding="utf-8").splitlines() if f": {what} " in ln]


def test_billing_import_verify_and_reconcile_log_their_start_and_end(log_file, db, admin, manager, tmp_path,
                                                                    monkeypatch, capsys):
    from app.cli.main import main
    from app.importexport import run_import

    w = make_world(db)
    signed(db, manager, admin, w, [rack_item(w, 1, "6000")], dt.date(2026, 10, 1), dt.date(2027, 9, 30))
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", PASSWORD)
    for argv in (["billing", "run", "--period", "2026-10"], ["billing", "issue", "--period", "2026-10"],
                 ["audit", "verify"], ["audit", "reconcile"]):
        assert main(["--db", db.url, "--user", "admin", *argv]) == 0, capsys.readouterr().err
    regions = tmp_path / "regions.csv"
    with open(regions, "w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows([["code", "name", "parent"], ["350000", "福建省", ""]])
    run_import(db, admin, "regions", regions)

    run = _lines(log_file, "billing run")
    assert len(run) == 2 and "billing run started: period=2026-10 dry_run=False issue=False" in run[0]
    assert re.search(r"billing run done in \d+\.\d\d s: period=2026-10 lines=1 statements=1 .*issued=0", run[1])
    issue = _lines(log_file, "billing issue")
    assert len(issue) == 2 and "started: period=2026-10" in issue[0]
    assert re.search(r"billing issue done in \d+\.\d\d s: issued=1 skipped=0", issue[1])
    verify = _lines(log_file, "audit verify")
    assert len(verify) == 2 and re.search(r"audit verify done in .* s: ok=True events=\d+ head=\d+:", verify[1])
    reconcile = _lines(log_file, "audit reconcile")
    assert len(reconcile) == 2 and re.search(r"audit reconcile done in .*: ok=True rows=\d+", reconcile[1])
    imported = _lines(log_file, "import")
    assert len(imported) == 2 and "import started: kind=regions file=regions.csv dry_run=False" in imported[0]
    assert re.search(r"import done in .*: kind=regions rows=1 created=1 updated=0", imported[1])


def test_a_refused_run_and_an_upgrade_say_how_they_ended(log_file, db, admin, tmp_path, capsys):
    from app.cli.main import main
    from app.services.billing import run_billing
    from app.domain.errors import ValidationError

    with pytest.raises(ValidationError):
        run_billing(db, admin, period="2026-1")
    (start, end) = _lines(log_file, "billing run")
    assert "billing run started: period=2026-1" in start and " INFO " in start
    assert re.search(r"billing run refused after \d+\.\d\d s: period=2026-1 .*: period: ", end)
    assert main(["--db", str(tmp_path / "new.db"), "db", "upgrade"]) == 0
    upgrade = _lines(log_file, "db upgrade")
    assert len(upgrade) == 2 and "db upgrade started: revision=head database=" in upgrade[0]
    assert re.search(r"db upgrade done in \d+\.\d\d s", upgrade[1])


def test_a_failure_a_person_sees_is_logged_with_its_traceback(log_file, qtbot):
    from ui.kit.dialogs import refused_text

    def broken():
        raise OSError("the printer went away")
    try:
        broken()
    except OSError as exc:
        shown = refused_text(exc)
    assert shown == "The operation failed: the printer went away"
    text = log_file.read_text(encoding="utf-8")
    assert "ERROR ui.kit.dialogs: operation failed" in text
    assert "Traceback (most recent call last)" in text and "in broken" in text
