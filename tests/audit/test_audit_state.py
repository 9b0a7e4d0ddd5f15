"""The audit head each computer remembers per database (app/audit/state.py)."""
from __future__ import annotations

import pytest
from sqlalchemy import text

from app.audit import state as audit_state
from app.audit.trail import verify_audit_chain
from app.services.common import create_record

from tests.support.tamper_kit import drop_triggers, rehash


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("IDC_CONSOLE_HOME", str(tmp_path / "home"))


def _events(db, admin, n=5, start=0):
    for i in range(start, start + n):
        create_record(db, admin, "gpu_model", dict(name=f"Test GPU {i}", vendor="NVIDIA", memory_gb=16,
                                                   form_factor="pcie"))


def _verify(db):
    with db.session() as s:
        return audit_state.verify_and_remember(db, s)


def test_identity_holds_no_user_or_password():
    a = audit_state.database_identity("postgresql+psycopg://alice:s3cret@db.example:5433/idc")
    b = audit_state.database_identity("postgresql+psycopg://bob:other@DB.example:5433/idc")
    assert a == b == "postgresql:db.example:5433/idc"
    assert "s3cret" not in str(audit_state.state_path("postgresql+psycopg://alice:s3cret@db.example/idc"))


def test_verify_remembers_the_head(db, admin):
    _events(db, admin)
    r = _verify(db)
    assert r.ok
    saved = audit_state.load(db.url)
    assert saved.head == r.head
    assert audit_state.check_at_start(db) is None
    _events(db, admin, 2, start=10)  # the program appends: still fine, and the newer head is remembered
    assert audit_state.check_at_start(db) is None
    r2 = _verify(db)
    assert r2.ok and audit_state.load(db.url).head == r2.head != r.head


def test_cut_tail_with_head_moved_back_is_caught(db, admin):
    _events(db, admin)
    assert _verify(db).ok
    drop_triggers(db)
    with db.engine.begin() as c:
        c.execute(text("DELETE FROM audit_event WHERE seq >= 6"))
    rehash(db, 6)  # moves the head back to #5: a plain verify passes
    with db.session() as s:
        assert verify_audit_chain(s).ok
    problem = audit_state.check_at_start(db)
    assert problem and "shorter" in problem and "#6–#7" in problem
    r = _verify(db)
    assert not r.ok and "shorter" in r.problem and r.bad_seq == 7
    assert audit_state.load(db.url).seq == 7  # kept, so the next verify says it again
    assert not _verify(db).ok


def test_rewritten_history_is_caught(db, admin):
    _events(db, admin)
    assert _verify(db).ok
    drop_triggers(db)
    with db.engine.begin() as c:
        c.execute(text("UPDATE audit_event SET object_label = 'forged' WHERE seq = 3"))
    rehash(db, 3)
    with db.session() as s:
        assert verify_audit_chain(s).ok
    problem = audit_state.check_at_start(db)
    assert problem and "rewritten and re-hashed" in problem
    assert not _verify(db).ok


def test_wiped_trail_is_caught(db, admin):
    _events(db, admin)
    assert _verify(db).ok
    drop_triggers(db)
    with db.engine.begin() as c:
        c.execute(text("DELETE FROM audit_event"))
    rehash(db)
    problem = audit_state.check_at_start(db)
    assert problem and "ends at #0" in problem


def test_cli_verify_exits_1_on_a_shorter_chain(db, admin, monkeypatch, capsys):
    from app.cli.main import main

    _events(db, admin)
    assert main(["--db", db.url, "audit", "verify"]) == 0
    drop_triggers(db)
    with db.engine.begin() as c:
        c.execute(text("DELETE FROM audit_event WHERE seq = 7"))
    rehash(db, 7)
    capsys.readouterr()
    assert main(["--db", db.url, "audit", "verify"]) == 1
    err = capsys.readouterr().err
    assert "shorter than this computer last verified" in err and "deleted outside the program" in err
