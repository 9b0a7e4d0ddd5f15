"""The database-wide settings on the users page: admin only, audited with the reason."""
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
