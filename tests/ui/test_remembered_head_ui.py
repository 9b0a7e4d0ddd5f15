"""The console's start warns when the audit trail is shorter than this computer last verified it."""
from __future__ import annotations

from PySide6.QtWidgets import QMessageBox
from sqlalchemy import text

from app.audit import state as audit_state
from ui.shell.main import warn_remembered_head

from tests.support.tamper_kit import drop_triggers, rehash


def test_start_warns_about_a_cut_trail(qtbot, db, admin, monkeypatch, tmp_path):
    monkeypatch.setenv("IDC_CONSOLE_HOME", str(tmp_path / "home"))
    warned = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: warned.append(a))
    with db.session() as s:
        assert audit_state.verify_and_remember(db, s).ok
    warn_remembered_head(db)
    assert warned == []
    drop_triggers(db)
    with db.engine.begin() as c:
        c.execute(text("DELETE FROM audit_event WHERE seq = 2"))
    rehash(db, 2)
    warn_remembered_head(db)
    (args,) = warned
    assert args[1] == "The audit trail was changed outside the program"
    assert "shorter than this computer last verified" in args[2]
