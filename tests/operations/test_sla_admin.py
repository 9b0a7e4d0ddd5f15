"""An administrator sets the SLA: targets per priority of a service level or of one contract, and a
calendar's hours. The service validates (nothing written on a refusal), audits each row, refuses other
roles, and the clocks read the new targets at once; the Operations page's dialog (Ctrl+Shift+L) does
the same through the real widgets, both languages."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog
from sqlalchemy import select

from models import AuditEvent, SlaCalendar, SlaTarget, Ticket
from models.choices import TicketState

from app.domain.errors import PermissionDenied, ValidationError
from app.services.operations import sla_admin as A
from app.services.operations.sla import ticket_sla
from app.services.users import login
from tests.operations.conftest import rows_of


def _audits(db, action):
    with db.session() as s:
        return s.execute(select(AuditEvent).where(AuditEvent.action == action)).scalars().all()


def test_a_service_levels_targets_are_set_audited_and_refused_whole(db, admin, operator):
    before = {t.priority: t for t in A.targets_of(db, service_level="remote")}
    assert set(before) == {"P1", "P2", "P3", "P4"}
    cal = before["P1"].calendar_id
    assert A.set_targets(db, admin, {"P1": {"calendar_id": cal, "ack_minutes": "10", "onsite_minutes": "",
                                            "resolve_minutes": 180}}, service_level="remote") == 1
    now = {t.priority: t for t in A.targets_of(db, service_level="remote")}
    assert (now["P1"].ack_minutes, now["P1"].onsite_minutes, now["P1"].resolve_minutes) == (10, None, 180)
    assert now["P2"] == before["P2"]
    assert len(_audits(db, "sla_target.set")) == 1
    # the same values again change nothing and write no audit event
    assert A.set_targets(db, admin, {"P1": {"calendar_id": cal, "ack_minutes": 10, "onsite_minutes": None,
                                            "resolve_minutes": 180}}, service_level="remote") == 0
    # a bad row refuses the whole call: P2's good values are not written either
    rows = rows_of(db, AuditEvent)
    with pytest.raises(ValidationError) as e:
        A.set_targets(db, admin, {"P2": {"calendar_id": cal, "ack_minutes": 5, "resolve_minutes": 60},
                                  "P3": {"calendar_id": cal, "ack_minutes": 90, "resolve_minutes": 30},
                                  "P4": {"calendar_id": cal, "ack_minutes": "soon", "resolve_minutes": 30}},
                      service_level="remote")
    assert set(e.value.errors) == {"P3.resolve_minutes", "P4.ack_minutes"}
    assert {t.priority: t for t in A.targets_of(db, service_level="remote")}["P2"] == before["P2"]
    assert rows_of(db, AuditEvent) == rows
    with pytest.raises(PermissionDenied):
        A.set_targets(db, operator, {"P1": {"calendar_id": cal, "ack_minutes": 1, "resolve_minutes": 2}},
                      service_level="remote")
    with pytest.raises(ValidationError):
        A.set_targets(db, admin, {}, service_level="remote", contract_id=1)


def test_a_calendars_hours_are_checked_and_audited(db, admin, operator):
    business = next(c for c in A.calendars(db) if c.mode == "business")
    with pytest.raises(ValidationError) as e:
        A.set_calendar(db, admin, business.id, mode="business", hours="mon 18:00-09:00", follows_holidays=True)
    assert "hours" in e.value.errors
    with pytest.raises(ValidationError):
        A.set_calendar(db, admin, business.id, mode="business", hours="", follows_holidays=True)
    with pytest.raises(PermissionDenied):
        A.set_calendar(db, operator, business.id, mode="7x24", hours=None, follows_holidays=False)
    assert A.set_calendar(db, admin, business.id, mode="business", hours="mon 08:30-17:30; sat 09:00-12:00",
                          follows_holidays=False)
    with db.session() as s:
        c = s.get(SlaCalendar, business.id)
        assert (c.hours, c.follows_holidays) == ("mon 08:30-17:30; sat 09:00-12:00", False)
    assert len(_audits(db, "sla_calendar.update")) == 1
    assert not A.set_calendar(db, admin, business.id, mode="business", hours="mon 08:30-17:30; sat 09:00-12:00",
                              follows_holidays=False)


def test_a_contracts_own_target_moves_its_open_tickets_clock_at_once(demo_db):
    admin = login(demo_db, "admin", "demo1234")
    with demo_db.session() as s:
        t = s.execute(select(Ticket).where(Ticket.contract_id.is_not(None), Ticket.state.in_(TicketState.OPEN))
                      .order_by(Ticket.id)).scalars().first()
    assert t is not None
    old = ticket_sla(demo_db, t.id).clocks["resolve"]
    assert (t.contract_id, ) in {(cid, ) for cid, _n, _c in A.contract_choices(demo_db)}
    cal = A.calendars(demo_db)[0].id
    wanted = old.target_minutes + 777
    A.set_targets(demo_db, admin, {t.priority: {"calendar_id": cal, "ack_minutes": 1, "onsite_minutes": None,
                                                "resolve_minutes": wanted}}, contract_id=t.contract_id)
    own = {r.priority: r for r in A.targets_of(demo_db, contract_id=t.contract_id)}
    assert own[t.priority].own and own[t.priority].resolve_minutes == wanted
    assert ticket_sla(demo_db, t.id).clocks["resolve"].target_minutes == wanted
    with demo_db.session() as s:
        assert s.execute(select(SlaTarget).where(SlaTarget.contract_id == t.contract_id)).scalars().all()
    # a level's row and a calendar changed too: the trail explains every row (audit reconcile)
    level = A.targets_of(demo_db, service_level="onsite")[0]
    A.set_targets(demo_db, admin, {level.priority: {"calendar_id": level.calendar_id, "ack_minutes": level.ack_minutes,
                                                    "onsite_minutes": level.onsite_minutes,
                                                    "resolve_minutes": level.resolve_minutes + 1}},
                  service_level="onsite")
    business = next(c for c in A.calendars(demo_db) if c.mode == "business")
    A.set_calendar(demo_db, admin, business.id, mode="business", hours="mon 08:00-20:00", follows_holidays=True)
    from app.audit.reconcile import reconcile
    with demo_db.session() as s:
        r = reconcile(s)
    assert r.ok, [d.describe() for d in r.differences[:5]]
    assert r.unexplained == {}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_dialog_on_the_operations_page_saves_and_refuses(qtbot, db, admin, operator, language, lang):
    from ui.pages.operations import OperationsPage
    language(lang)
    page = OperationsPage(db, admin)
    qtbot.addWidget(page)
    page.show()
    qtbot.waitExposed(page)
    page.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is page)
    assert page.sla_button.isEnabled()
    qtbot.keyClick(page, Qt.Key_L, Qt.ControlModifier | Qt.ShiftModifier)
    dlg = page.findChild(QDialog, "slaAdminDialog")
    assert dlg is not None                                   # the shortcut opened it
    qtbot.waitExposed(dlg)
    assert dlg.windowTitle() == ("SLA 目标与日历" if lang == "zh" else "SLA targets and calendars")
    assert dlg.table.rowCount() == 4
    dlg.scope.setCurrentIndex(dlg.scope.findData("level:partner"))
    dlg.table.item(0, 2).setText("7")                        # P1: acknowledge within 7 minutes
    assert dlg.save()
    assert {t.priority: t for t in A.targets_of(db, service_level="partner")}["P1"].ack_minutes == 7
    dlg.table.item(1, 2).setText("0")                        # refused, shown, nothing written
    rows = rows_of(db, AuditEvent)
    assert not dlg.save()
    assert dlg.error.isVisible() and dlg.error.text()
    assert (("分钟" in dlg.error.text()) == (lang == "zh"))
    assert rows_of(db, AuditEvent) == rows
    dlg.tabs.setCurrentIndex(1)
    dlg.calendar.setCurrentIndex(dlg.calendar.findData(next(c.id for c in A.calendars(db) if c.mode == "business")))
    dlg.hours.setText("mon nine to five")
    assert not dlg.save() and dlg.error.isVisible()
    dlg.hours.setText("mon 09:00-17:00")
    assert dlg.save()
    assert any(c.hours == "mon 09:00-17:00" for c in A.calendars(db))
    dlg.close()
    other = OperationsPage(db, operator)
    qtbot.addWidget(other)
    assert not other.sla_button.isEnabled() and other.edit_sla() is None
