"""Every record's History tab (issue 9): its audit events newest first, a page at a time, names in
the reader's language, an event opening its detail; the same widget in a dialog for records shown
in a panel (contracts, statements)."""
from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication
from sqlalchemy import func, select

from app.audit.query import action_name, object_history
from app.services.common import update_record
from app.services.users import login
from models import AuditEvent, Contract, Device
from ui.shell.i18n import install_translators


def _events(db, object_type, object_id):
    with db.session() as s:
        return list(s.execute(select(AuditEvent.seq, AuditEvent.action).where(
            AuditEvent.object_type == object_type, AuditEvent.object_id == str(object_id))
            .order_by(AuditEvent.seq.desc())).all())


def test_object_history_pages_newest_first(demo_db):
    with demo_db.session() as s:
        cid = s.execute(select(Contract.id).order_by(Contract.id)).scalars().first()
    want = _events(demo_db, "contract", cid)
    assert len(want) >= 3
    first = object_history(demo_db, "contract", cid, limit=2)
    assert first.total == len(want) and first.more and [r.seq for r in first.rows] == [s for s, _a in want[:2]]
    rest = object_history(demo_db, "contract", cid, before_seq=first.rows[-1].seq, limit=100)
    assert [r.seq for r in first.rows + rest.rows] == [s for s, _a in want] and not rest.more
    zh = object_history(demo_db, "contract", cid, lang="zh", limit=100)
    assert [r.action_name for r in zh.rows] == [action_name(a, "contract", "zh") for _s, a in want]
    assert object_history(demo_db, "contract", 10 ** 9).total == 0


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_device_form_history_tab(qtbot, demo_db, lang):
    from ui.kit.forms import open_form
    install_translators(QApplication.instance(), lang)
    try:
        admin = login(demo_db, "admin", "demo1234")
        with demo_db.session() as s:
            dev = s.execute(select(Device).order_by(Device.id)).scalars().first()
            dev_id, version = dev.id, dev.version
        update_record(demo_db, admin, "device", dev_id, {"asset_tag": "HIST-0001"}, version)
        want = _events(demo_db, "device", dev_id)
        dlg = open_form(demo_db, admin, "device", dev_id)
        qtbot.addWidget(dlg)
        view = dlg.history_view
        tab = dlg.tabs.indexOf(view)
        assert tab == dlg.tabs.count() - 1
        dlg.show()
        dlg.tabs.setCurrentIndex(tab)
        qtbot.waitUntil(lambda: view.total is not None)
        assert dlg.tabs.tabText(tab) == ("History (%d)" if lang == "en" else "历史（%d）") % len(want)
        assert [view.seq_at(r) for r in range(view.table.rowCount())] == [s for s, _a in want]
        assert view.table.item(0, 2).text() == action_name("device.update", "device", lang)
        assert "HIST-0001" in view.table.item(0, 4).text()
        ev = view.open_event(0)
        assert ev is not None and ev.detail.seq == want[0][0] and ev.open_button is not None
        assert not ev.open_button.isVisible()
        ev.close()
    finally:
        install_translators(QApplication.instance(), "en")


def test_history_dialog_for_a_contract(qtbot, demo_db):
    from ui.kit.history import HistoryDialog
    with demo_db.session() as s:
        c = s.execute(select(Contract).order_by(Contract.id)).scalars().first()
        cid, number = c.id, c.number
        n = s.execute(select(func.count()).select_from(AuditEvent).where(
            AuditEvent.object_type == "contract", AuditEvent.object_id == str(cid))).scalar_one()
    dlg = HistoryDialog(demo_db, "contract", cid, number)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitUntil(lambda: dlg.view.total == n)
    assert dlg.view.table.rowCount() == n and number in dlg.windowTitle()
