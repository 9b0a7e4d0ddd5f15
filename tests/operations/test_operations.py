"""The operations desk's use cases on both backends: a breach -> the exact credit on the statement by
the contract's rule (worked by hand), four eyes, escalation of an unacknowledged P1, refusals."""
import datetime as dt
from decimal import Decimal as D

import pytest
from sqlalchemy import func, select

from app.domain.errors import PermissionDenied, RuleViolation, ValidationError
from app.services import billing as BS
from app.services.operations import credits as CR
from app.services.operations import oncall as OC
from app.services.operations import sla as SV
from app.services.operations import tickets as TK
from app.read.settings import TICKET_ATTACHMENT_KB
from app.services.settings import change_setting
from models import Notification, Site, SlaBreach, SlaCredit, Ticket
from models.choices import PriceUnit, TicketObjectType
from tests.conftest import make_user
from tests.billing.test_billing_world import cst, gpu_item, make_world, signed


@pytest.fixture
def world(db, admin, manager):
    w = make_world(db, n_racks=2, n_gpus=8)
    # 8 × H100 at 9,000.00 per GPU-month: the item's monthly fee is 72,000.00
    c = signed(db, manager, admin, w, [gpu_item(w, [1, 2, 3, 4, 5, 6, 7, 8], "9000", PriceUnit.MONTH)],
               dt.date(2026, 9, 20), dt.date(2027, 9, 19))
    # 5 % of the fee per breach, at most 8 % a month
    CR.set_credit_rule(db, admin, c.id, breach_percent="5", monthly_cap_percent="8", promised_availability="99.9")
    with db.session() as s:
        site_id = s.execute(select(Site.id)).scalar()
    return w, c, site_id


def test_a_p1_breach_becomes_the_exact_credit_on_the_statement(db, admin, operator, world, tmp_path):
    w, c, site_id = world
    pre = TK.prefill_for(db, TicketObjectType.GPU, w.gpu_ids[0], at=cst(2026, 10, 10, 3))
    assert (pre.contract_id, pre.customer_id) == (c.id, w.customer_id)
    t = TK.open_ticket(db, operator, title="GPU server down", priority="P1", customer_id=pre.customer_id,
                       contract_id=pre.contract_id, site_id=site_id, channel="phone",
                       objects=[(TicketObjectType.GPU, w.gpu_ids[0])], at=cst(2026, 10, 10, 3))
    assert t.number == f"T-2026-{t.id:06d}"
    # on-site service level, P1: acknowledge 15 min, on site 30, resolve 240 (migration 0031's defaults)
    TK.acknowledge(db, operator, t.id, at=cst(2026, 10, 10, 3, 20))          # 20 min: ack missed at 03:15
    TK.move_ticket(db, operator, t.id, "on_site", at=cst(2026, 10, 10, 3, 40))  # 40 min: on site missed at 03:30
    TK.record_ticket_downtime(db, operator, t.id, start=cst(2026, 10, 10, 3), end=cst(2026, 10, 10, 6))
    TK.move_ticket(db, operator, t.id, "resolved", note="GPU 更换", at=cst(2026, 10, 10, 6))  # 180 min: met
    swept = SV.check_sla(db, operator, now=cst(2026, 10, 10, 6, 5))
    assert sorted((m, at) for _n, m, at in swept.breaches) == [("ack", cst(2026, 10, 10, 3, 15)),
                                                              ("onsite", cst(2026, 10, 10, 3, 30))]
    assert SV.check_sla(db, operator, now=cst(2026, 10, 10, 7)).breaches == ()   # recorded once
    credits = sorted(CR.list_credits(db), key=lambda r: r.id)
    # | breach | 5 % of 72,000.00 | cap 8 % = 5,760.00 | credit   |
    # | ack    | 3,600.00         | 5,760.00 left      | 3,600.00 |
    # | onsite | 3,600.00         | 2,160.00 left      | 2,160.00 |
    assert [(r.amount, r.state, r.period) for r in credits] == [(D("3600.00"), "proposed", "2026-10"),
                                                              (D("2160.00"), "proposed", "2026-10")]
    with pytest.raises(PermissionDenied):
        CR.approve_credit(db, operator, credits[0].id)
    for r in credits:
        CR.approve_credit(db, admin, r.id)
    out = BS.run_billing(db, admin, "2026-10", as_of=cst(2026, 11, 2))
    lines = {ln.charge: ln for st in out.statements for ln in st.lines}
    assert lines["fee"].amount == D("72000.00")
    # the ticket's 3 down hours of GPU 1 through the one downtime rule: 9,000 × 10,800 s / 2,678,400 s = 36.29
    assert lines["credit"].amount == D("-36.29")
    sla = lines["sla_credit"]
    assert (sla.amount, sla.quantity, sla.unit_price) == (D("-5760.00"), D("-1"), D("5760.0000"))
    assert t.number in sla.description
    # the customer's monthly SLA report, both languages: the ticket, its breaches, the credits
    import subprocess
    from app.documents import print_document
    for lang, words in (("zh", ("月度 SLA 服务报告", "响应", "5,760.00")), ("en", ("Monthly SLA report", "Acknowledge",
                                                                               "5,760.00"))):
        out = print_document(db, admin, "sla", f"{w.customer_id}@2026-10", tmp_path / f"sla-{lang}.pdf",
                             language=lang, ).path
        text = " ".join(subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True).stdout.split())
        assert t.number in text and all(word in text for word in words), text


def test_four_eyes_and_reject(db, admin, operator, world):
    w, c, site_id = world
    other = make_user(db, admin, "admin2", "admin", "管理员 二")
    t = TK.open_ticket(db, operator, title="slow", priority="P2", contract_id=c.id, customer_id=w.customer_id,
                       objects=[(TicketObjectType.GPU, w.gpu_ids[1])], at=cst(2026, 10, 12, 9))
    SV.check_sla(db, admin, now=cst(2026, 10, 12, 9, 31))          # P2 ack 30 min: missed at 09:30
    (cr,) = CR.list_credits(db)
    assert (cr.amount, cr.proposed_by) == (D("3600.00"), "admin")
    with db.session() as s:
        before = s.get(SlaCredit, cr.id).state
    with pytest.raises(RuleViolation, match="four eyes"):
        CR.approve_credit(db, admin, cr.id)
    with db.session() as s:
        assert s.get(SlaCredit, cr.id).state == before == "proposed"
    with pytest.raises(ValidationError):
        CR.reject_credit(db, other, cr.id, "")
    CR.reject_credit(db, other, cr.id, "客户同意不计")
    assert CR.list_credits(db)[0].state == "rejected"
    assert t.number


def test_an_unacknowledged_p1_escalates_to_the_secondary_then_the_site_manager(db, admin, operator, world):
    w, c, site_id = world
    second = make_user(db, admin, "op2", "operator", "运维 小李")
    OC.set_shift(db, operator, week=dt.date(2026, 10, 10), site_id=site_id, primary_id=operator.id,
                 secondary_id=second.id, manager_id=admin.id, phone="13800000000", handover_note="A 列 PDU 告警")
    assert [s.primary for s in OC.on_call_now(db, cst(2026, 10, 10, 3))] == ["运维 小王"]
    t = TK.open_ticket(db, operator, title="整机宕机", priority="P1", contract_id=c.id, site_id=site_id,
                       customer_id=w.customer_id, at=cst(2026, 10, 10, 3))
    assert SV.check_sla(db, operator, now=cst(2026, 10, 10, 3, 10)).escalations == ()
    assert SV.check_sla(db, operator, now=cst(2026, 10, 10, 3, 16)).escalations == ((t.number, 1),)
    assert [n.reason for n in OC.notifications_for(db, second.id)] == ["escalation_1"]
    assert OC.notifications_for(db, admin.id) == []
    assert SV.check_sla(db, operator, now=cst(2026, 10, 10, 3, 31)).escalations == ((t.number, 2),)
    assert [n.reason for n in OC.notifications_for(db, admin.id)] == ["escalation_2"]
    assert SV.check_sla(db, operator, now=cst(2026, 10, 10, 3, 50)).escalations == ()   # recorded once
    with db.session() as s:
        assert s.get(Ticket, t.id).escalation == 2
        assert s.execute(select(func.count()).select_from(Notification)).scalar() == 5  # 2 at level 1, 3 at level 2
        assert s.execute(select(func.count()).select_from(SlaBreach)).scalar() == 2   # ack (03:15), on site (03:30)


def test_refusals_change_nothing(db, admin, operator, manager, auditor, world):
    w, c, site_id = world
    with pytest.raises(PermissionDenied):
        TK.open_ticket(db, auditor, title="x")
    with pytest.raises(ValidationError) as e:
        TK.open_ticket(db, manager, title=" ", kind="remote_hands")
    assert set(e.value.errors) >= {"title", "task"}
    t = TK.open_ticket(db, manager, title="请重启 A-01 的服务器", kind="remote_hands", task="reboot",
                       urgency="standard", customer_id=w.customer_id, at=cst(2026, 10, 10, 9))
    with pytest.raises(PermissionDenied):
        TK.acknowledge(db, manager, t.id)
    with pytest.raises(RuleViolation, match="can move to"):
        TK.move_ticket(db, operator, t.id, "closed", at=cst(2026, 10, 10, 9, 5))
    with pytest.raises(ValidationError, match="what was done"):
        TK.move_ticket(db, operator, t.id, "resolved", at=cst(2026, 10, 10, 9, 5))
    change_setting(db, admin, TICKET_ATTACHMENT_KB, 1)
    with pytest.raises(RuleViolation, match="up to 1 KB"):
        TK.attach(db, operator, t.id, "photo.jpg", b"x" * 2048)
    TK.attach(db, operator, t.id, "photo.jpg", b"x" * 1000, at=cst(2026, 10, 10, 9, 10))
    TK.move_ticket(db, operator, t.id, "resolved", note="已重启", at=cst(2026, 10, 10, 9, 30))
    with pytest.raises(RuleViolation, match="more than 7 days"):
        TK.reopen_ticket(db, operator, t.id, "又宕了", at=cst(2026, 10, 18, 9))
    TK.reopen_ticket(db, operator, t.id, "又宕了", at=cst(2026, 10, 11, 9))
    view = TK.get_ticket(db, t.number)
    assert view.state == "in_progress"
    assert [e.kind for e in view.events] == ["open", "attach", "state", "state"]
    assert len(view.attachments) == 1


def test_an_administrator_adds_a_year_of_working_days_by_import(db, admin, operator, tmp_path):
    from app.domain.errors import DomainError
    from app.importexport import run_import
    from models import HolidayDay
    path = tmp_path / "2028.csv"
    path.write_text("day,off,name,source\n2028-01-01,true,元旦,国办发明电〔2027〕x号\n2028-01-29,false,春节,同上\n",
                    encoding="utf-8")
    with pytest.raises(DomainError):
        run_import(db, operator, "holidays", path)          # operators do not set the calendar
    with db.session() as s:
        assert s.get(HolidayDay, dt.date(2028, 1, 1)) is None
    run_import(db, admin, "holidays", path)
    with db.session() as s:
        assert (s.get(HolidayDay, dt.date(2028, 1, 1)).off, s.get(HolidayDay, dt.date(2028, 1, 29)).off) == (True, False)
        # the migration's 2026 schedule: National Day off, Saturday 10 October a working day (调休)
        assert (s.get(HolidayDay, dt.date(2026, 10, 1)).off, s.get(HolidayDay, dt.date(2026, 10, 10)).off) == (True, False)
