"""Maintenance windows: the impact worked out from the power chain and the leases, the notice
period, the SLA exclusion (both backends, on the demo's A/B row)."""
from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select

from models import MaintenanceWindow, PowerFeed, PowerPanel, Rack, SpaceLease
from models.choices import ImpactLevel, MaintenanceState, MaintenanceTarget

from app.domain.errors import PermissionDenied, RuleViolation, ValidationError
from app.services.operations import maintenance as M
from app.services.operations.maintenance_sla import maintenance_excluded
from app.services.users import login
from tests.conftest import table_counts

UTC = dt.timezone.utc


def _demo_window(db):
    with db.session() as s:
        return s.execute(select(MaintenanceWindow).where(MaintenanceWindow.target_kind == MaintenanceTarget.PANEL)
                         ).scalars().one()


def _rack_customer(db, name):
    with db.session() as s:
        rack = s.execute(select(Rack).join(PowerFeed, PowerFeed.rack_id == Rack.id)
                         .join(PowerPanel, PowerPanel.id == PowerFeed.power_panel_id)
                         .where(PowerPanel.name == "PP-A", Rack.name == name)).scalars().first()
        lease = s.execute(select(SpaceLease).where(SpaceLease.rack_id == rack.id)).scalars().first()
        return rack.id, lease.customer_id


def test_ab_row_panel_maintenance_reduces_dual_fed_and_cuts_single_fed(demo_db):
    w = _demo_window(demo_db)
    assert w.state == MaintenanceState.CONFIRMED and w.noticed_at is not None and not w.emergency
    dual_rack, dual_customer = _rack_customer(demo_db, "A01")
    single_rack, single_customer = _rack_customer(demo_db, "A03")
    rows = {(i.customer_id, i.object_type, i.object_id): i for i in M.impact_of(demo_db, w.id)}
    assert rows[(dual_customer, "rack", dual_rack)].impact == ImpactLevel.REDUCED
    assert rows[(single_customer, "rack", single_rack)].impact == ImpactLevel.OUTAGE
    assert rows[(single_customer, "rack", single_rack)].contract_id is not None  # the contract behind the lease
    # the row's own racks are the provider's (no lease): nobody else is affected
    assert {i.customer_id for i in rows.values()} == {dual_customer, single_customer}
    # worked out, not typed: the same answer afresh from the chain
    assert {(i.customer_id, i.object_id, i.impact) for i in M.impact_now(demo_db, w.id)} == \
        {(i.customer_id, i.object_id, i.impact) for i in rows.values()}
    row = M.window(demo_db, w.id)
    assert row.in_time and row.customers == 2 and row.worst == ImpactLevel.OUTAGE


def test_one_feed_of_a_dual_fed_rack_and_the_b_panel(demo_db):
    admin = login(demo_db, "admin", "demo1234")
    dual_rack, dual_customer = _rack_customer(demo_db, "A01")
    single_rack, single_customer = _rack_customer(demo_db, "A03")
    with demo_db.session() as s:
        feed_b = s.execute(select(PowerFeed.id).where(PowerFeed.rack_id == dual_rack, PowerFeed.side == "B")).scalar_one()
        panel_b = s.execute(select(PowerPanel.id).where(PowerPanel.name == "PP-B")).scalar_one()
    start = dt.datetime.now(UTC) + dt.timedelta(days=10)
    wid = M.plan_maintenance(demo_db, admin, target_kind="feed", target=feed_b, planned_start=start,
                             planned_end=start + dt.timedelta(hours=2), title="B feed swap")
    assert [(i.customer_id, i.impact) for i in M.impact_of(demo_db, wid)] == [(dual_customer, ImpactLevel.REDUCED)]
    wid = M.plan_maintenance(demo_db, admin, target_kind="panel", target=panel_b, planned_start=start,
                             planned_end=start + dt.timedelta(hours=2), title="PP-B")
    assert single_customer not in {i.customer_id for i in M.impact_of(demo_db, wid)}  # A03 has no B side


def test_notice_period_checked_on_confirm_and_the_sla_exclusion(demo_db):
    op = login(demo_db, "wanglei", "demo1234")
    w = _demo_window(demo_db)
    single_rack, single_customer = _rack_customer(demo_db, "A03")
    contract_id = next(i.contract_id for i in M.impact_of(demo_db, w.id) if i.customer_id == single_customer)
    month = (w.planned_start - dt.timedelta(days=20), w.planned_start + dt.timedelta(days=20))
    assert maintenance_excluded(demo_db, contract_id, *month) == [(w.planned_start, w.planned_end)]
    # clipped to the period asked
    mid = w.planned_start + dt.timedelta(hours=1)
    assert maintenance_excluded(demo_db, contract_id, mid, month[1]) == [(mid, w.planned_end)]
    # planned work 24 h ahead cannot be confirmed (72 h notice); nothing changes
    with demo_db.session() as s:
        panel_a = s.execute(select(PowerPanel.id).where(PowerPanel.name == "PP-A")).scalar_one()
    soon = dt.datetime.now(UTC) + dt.timedelta(hours=24)
    late = M.plan_maintenance(demo_db, op, target_kind="panel", target=panel_a, planned_start=soon,
                              planned_end=soon + dt.timedelta(hours=1), title="late")
    before = table_counts(demo_db)
    with pytest.raises(RuleViolation, match="at least 72 h"):
        M.confirm_maintenance(demo_db, op, late)
    assert table_counts(demo_db) == before
    # emergency work may be confirmed late, and counts against the SLA (not excluded)
    em = M.plan_maintenance(demo_db, op, target_kind="panel", target=panel_a, planned_start=soon,
                            planned_end=soon + dt.timedelta(hours=1), title="smoke at PP-A", emergency=True,
                            emergency_reason="burning smell at the breaker")
    M.confirm_maintenance(demo_db, op, em)
    M.start_maintenance(demo_db, op, em, at=soon)
    M.complete_maintenance(demo_db, op, em, at=soon + dt.timedelta(minutes=40))
    spans = maintenance_excluded(demo_db, contract_id, soon - dt.timedelta(days=1), soon + dt.timedelta(days=1))
    assert spans == []
    assert M.window(demo_db, em).state == MaintenanceState.COMPLETED


def test_lifecycle_rules_and_refusals(demo_db):
    op = login(demo_db, "wanglei", "demo1234")
    am = login(demo_db, "lina", "demo1234")
    w = _demo_window(demo_db)
    with pytest.raises(PermissionDenied):
        M.cancel_maintenance(demo_db, am, w.id, "no")
    with pytest.raises(ValidationError) as exc:
        M.plan_maintenance(demo_db, op, target_kind="panel", target=1, planned_start=w.planned_end,
                           planned_end=w.planned_start, title="x", emergency=True)
    assert {"planned_end", "emergency_reason"} <= set(exc.value.errors)
    with pytest.raises(RuleViolation, match="cannot become completed"):
        M.complete_maintenance(demo_db, op, w.id)
    new = M.reschedule_maintenance(demo_db, op, w.id, w.planned_start + dt.timedelta(days=7),
                                   w.planned_end + dt.timedelta(days=7), "UPS vendor asked for another week")
    assert M.window(demo_db, w.id).state == MaintenanceState.RESCHEDULED
    moved = M.window(demo_db, new)
    assert moved.state == MaintenanceState.TENTATIVE and moved.customers == 2 and not moved.in_time


def test_notice_pdf_per_customer_in_both_languages(demo_db, tmp_path):
    import subprocess

    from app.documents.printing import print_notice

    admin = login(demo_db, "admin", "demo1234")
    w = _demo_window(demo_db)
    _rack, single_customer = _rack_customer(demo_db, "A03")
    _rack, dual_customer = _rack_customer(demo_db, "A01")
    texts = {}
    for lang in ("zh", "en"):
        out = tmp_path / f"notice-{lang}.pdf"
        assert print_notice(demo_db, admin, w.id, single_customer, out, lang).pages == 1
        texts[lang] = " ".join(subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True).stdout.split())
    local = w.planned_start.astimezone(dt.timezone(dt.timedelta(hours=8))).strftime("%Y-%m-%d %H:%M")
    assert "维护通知" in texts["zh"] and "中断" in texts["zh"] and "A 机房/A03" in texts["zh"] and local in texts["zh"]
    assert "Maintenance notice" in texts["en"] and "Outage" in texts["en"] and local in texts["en"]
    assert "72" in texts["zh"] and "Asia/Shanghai" in texts["en"]
    out = tmp_path / "dual.pdf"
    print_notice(demo_db, admin, w.id, dual_customer, out, "zh")
    dual = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True).stdout
    assert "冗余降低" in dual and "A03" not in dual  # each customer sees only its own
    with pytest.raises(RuleViolation, match="does not affect"):
        print_notice(demo_db, admin, w.id, 1, tmp_path / "none.pdf", "zh")
