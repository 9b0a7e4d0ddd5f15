"""The list's Retire passes the reason the user typed to the service (it used to drop it)."""
from __future__ import annotations

from sqlalchemy import select

from app.services import dcim
from app.services.users import add_user
from models import AuditEvent, Device, User
from tests.support.builders import build_site, build_types


def _retire_from_the_list(qtbot, monkeypatch, db, actor, kind, record_id, reason):
    from PySide6.QtWidgets import QInputDialog
    from ui.kit.listview import ListPage
    page = ListPage(db, actor, kind)
    qtbot.addWidget(page)
    page.show()
    page.refresh()
    qtbot.waitUntil(lambda: page.model.rowCount() > 0, timeout=5000)
    row = next(r for r in range(page.model.rowCount()) if page.model.id_at(r) == record_id)
    page.view.selectRow(row)
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: (reason, True))
    page.retire_selected()

    def audited():
        with db.session() as s:
            return s.execute(select(AuditEvent.reason).where(AuditEvent.object_type == kind,
                                                             AuditEvent.action == f"{kind}.retire")).scalar()
    qtbot.waitUntil(lambda: audited() is not None, timeout=5000)
    return audited()


def test_retiring_a_device_from_the_list_audits_the_typed_reason(qtbot, monkeypatch, db, admin):
    w = build_site(db, admin)
    types = build_types(db, admin)
    dev = dcim.place_device(db, admin, dict(name="web-01", device_type_id=types["server"], rack_id=w["racks"][0],
                                            position=1, face="front", status="active"))
    assert _retire_from_the_list(qtbot, monkeypatch, db, admin, "device", dev, "电源损坏") == "电源损坏"
    with db.session() as s:
        assert s.get(Device, dev).status == "decommissioning"


def test_retiring_a_user_from_the_list_audits_the_typed_reason(qtbot, monkeypatch, db, admin):
    uid = add_user(db, admin, "leaver", "operator", "long-password-1").id
    assert _retire_from_the_list(qtbot, monkeypatch, db, admin, "user", uid, "离职") == "离职"
    with db.session() as s:
        assert s.get(User, uid).active is False

