"""Imports in batches (issue 16): one SAVEPOINT and one audit append per batch, a batch whose write
fails checked again row by row, cancel keeps nothing; progress on a terminal only."""
from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from sqlalchemy import func, select

from app.audit.trail import verify_audit_chain
from app.importexport import IMPORT_BATCH, ImportFailed, batch_size, run_import
from app.domain.progress import TerminalProgress, terminal_progress
from app.services.common import create_record
from models import AuditEvent, AuditHead, GpuAsset, GpuModel
from tests.conftest import table_counts


def gpu_file(path: Path, n: int, *, bad: dict[int, dict] | None = None) -> Path:
    with open(path, "w", encoding="utf-8-sig", newline="") as f:
        w = csv.writer(f)
        w.writerow(["serial", "model", "state", "purchase_cost"])
        for i in range(n):
            row = {"serial": f"B-{i:05d}", "model": "A100 80GB", "state": "", "purchase_cost": "1000.00"}
            row.update((bad or {}).get(i, {}))
            w.writerow(list(row.values()))
    return path


@pytest.fixture
def model(db):
    with db.session() as s:  # the catalogue the migrations bring
        return s.execute(select(GpuModel.id).where(GpuModel.name == "A100 80GB")).scalar_one()


def test_a_file_of_several_batches_is_written_with_one_audit_event_per_row_and_a_sound_chain(db, admin, model,
                                                                                              tmp_path):
    n = IMPORT_BATCH * 2 + 7
    with db.session() as s:
        events = s.execute(select(func.count()).select_from(AuditEvent)).scalar_one()
    result = run_import(db, admin, "gpus", gpu_file(tmp_path / "g.csv", n))
    assert (result.created, result.updated, result.unchanged) == (n, 0, 0)
    with db.session() as s:
        assert s.execute(select(func.count()).select_from(GpuAsset)).scalar_one() == n
        assert s.execute(select(func.count()).select_from(AuditEvent)).scalar_one() == events + n + 1
        assert s.get(AuditHead, 1).seq == events + n + 1
        assert verify_audit_chain(s).ok
    again = run_import(db, admin, "gpus", tmp_path / "g.csv")  # the same file: nothing changes
    assert (again.created, again.updated, again.unchanged) == (0, 0, n)


def test_bad_rows_found_while_writing_in_later_batches_are_all_listed_and_nothing_is_written(db, admin, model,
                                                                                              tmp_path):
    create_record(db, admin, "gpu", {"serial": "B-00700", "gpu_model_id": model, "state": "received"})
    before = table_counts(db)
    # line = index + 2; row 700 moves an existing GPU (refused while writing, in the second batch),
    # row 1100 has a bad cost (refused while reading), row 1101 names an unknown model
    bad = {700: {"state": "available"}, 1100: {"purchase_cost": "abc"}, 1101: {"model": "Z9"}}
    with pytest.raises(ImportFailed) as exc:
        run_import(db, admin, "gpus", gpu_file(tmp_path / "g.csv", IMPORT_BATCH * 3, bad=bad))
    got = sorted((e.line, e.column) for e in exc.value.row_errors)
    assert got == [(702, "state"), (1102, "purchase_cost"), (1103, "model")]
    assert table_counts(db) == before


def test_a_cancelled_import_keeps_nothing_even_after_whole_batches(db, admin, model, tmp_path):
    before = table_counts(db)
    seen = []

    def cancelled():
        seen.append(1)
        return len(seen) > IMPORT_BATCH + 10  # past the first batch's SAVEPOINT

    result = run_import(db, admin, "gpus", gpu_file(tmp_path / "g.csv", IMPORT_BATCH * 2), cancelled=cancelled)
    assert result.cancelled and "nothing was imported" in result.summary()
    assert table_counts(db) == before

    class Stop(Exception):
        pass

    def progress(done, total):  # the console's Cancel raises from the progress hook
        if done == IMPORT_BATCH + 3:
            raise Stop()

    with pytest.raises(Stop):
        run_import(db, admin, "gpus", tmp_path / "g.csv", progress=progress)
    assert table_counts(db) == before


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_terminal_progress_only_on_a_terminal_with_rate_and_time_left():
    assert terminal_progress("importing gpus", stream=io.StringIO()) is None  # a pipe or a test: silent
    out = _Tty()
    p = terminal_progress("importing gpus", stream=out)
    assert isinstance(p, TerminalProgress)
    p.started -= 2.0  # two seconds ago
    p(500, 2000)
    p.close()
    text = out.getvalue()
    assert text.startswith("\rimporting gpus: 500 of 2,000 rows (25%)") and text.endswith("\n")
    assert "rows/s" in text and "left" in text


def test_a_huge_file_keeps_under_postgresqls_cached_subtransactions():
    assert batch_size(10) == batch_size(IMPORT_BATCH * 50) == IMPORT_BATCH
    assert -(-400_000 // batch_size(400_000)) <= 50 < 64
