"""The database-wide settings on the users page (admin only, audited), and one wording of refusals."""
from __future__ import annotations

from sqlalchemy import select

from models import AuditEvent


def test_the_four_eyes_setting_on_the_users_page(qtbot, monkeypatch, db, admin, operator):
    from ui.dialogs import ReasonDialog
    from ui.installsettings import FourEyesCheck
    from app.services.settings import four_eyes_required
    monkeypatch.setattr(ReasonDialog, "exec", lambda self: True)
    monkeypatch.setattr(ReasonDialog, "value", lambda self: ("一人公司", None))
    box = FourEyesCheck(db, admin)
    qtbot.addWidget(box)
    assert box.isChecked() and box.isEnabled()
    box.setChecked(False)
    assert not four_eyes_required(db)
    with db.session() as s:
        assert s.execute(select(AuditEvent.reason).where(AuditEvent.action == "setting.update")).scalar() == "一人公司"
    assert not FourEyesCheck(db, operator).isEnabled()


def test_every_panel_words_a_refusal_the_same(qtbot):
    """refused() was written three times (contracts, statements, billing runs): now one text."""
    from app.errors import RuleViolation, ValidationError
    from ui.dialogs import refused_text
    assert refused_text(ValidationError({"a": "x is required", "b": "y is not a number"})) == \
        "x is required; y is not a number"
    assert refused_text(RuleViolation("contract X is draft")) == "contract X is draft"
    assert refused_text(RuntimeError("disk full")) == "The operation failed: disk full"
