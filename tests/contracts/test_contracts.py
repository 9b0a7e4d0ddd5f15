"""Contracts: numbering, the lifecycle and its refusals, leasing on activation, renewal, amendment."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from sqlalchemy import select

from app.domain.clock import local_today
from app.domain.errors import PermissionDenied, RuleViolation, ValidationError
from app.services import contracts as C
from models import AuditEvent, GpuAsset, GpuHistory, GpuLease, Rack
from models.choices import ContractStatus, GpuState, ItemKind, PriceUnit, RackStatus
from tests.conftest import table_counts
from tests.billing.test_billing_world import cst, gpu_item, make_world, rack_item, signed

D = Decimal
START, END = dt.date(2026, 9, 1), dt.date(2027, 8, 31)


def _draft(db, manager, w, items=None, **kw):
    return C.create_contract(db, manager, subsidiary_id=w.subsidiary_id, customer_id=kw.pop("customer_id", w.customer_id),
                             start_date=kw.pop("start", START), end_date=kw.pop("end", END),
                             items=items or [rack_item(w, 1, "6000")], **kw)


def test_numbers_are_per_subsidiary_and_gapless(db, admin, manager):
    w = make_world(db)
    year = local_today().year
    a = _draft(db, manager, w)
    b = _draft(db, manager, w, items=[rack_item(w, 2, "6000")])
    assert (a.number, b.number) == (f"GZ-{year}-0001", f"GZ-{year}-0002")
    # a refused draft takes no number: the next one is still 0003
    with pytest.raises(ValidationError):
        _draft(db, manager, w, items=[rack_item(w, 3, "-1")])
    assert _draft(db, manager, w, items=[rack_item(w, 3, "1")]).number == f"GZ-{year}-0003"


def test_every_item_kind_can_be_drafted(db, admin, manager):
    w = make_world(db)
    items = [
        rack_item(w, 1, "6000", power_allowance_kw=D("5"), kwh_price=D("1.2")),
        C.ItemSpec(ItemKind.HOSTING, "托管 A-02 U10-U13", D("800"), PriceUnit.MONTH, quantity=D(4),
                   rack_id=w.rack_ids[1], u_from=10, u_to=13),
        C.ItemSpec(ItemKind.GPU, "H100 × 2 包月", D("45000"), PriceUnit.MONTH, quantity=D(2), gpu_model_id=w.h100_id),
        gpu_item(w, [3, 4], "30", PriceUnit.HYBRID, included_hours=D(1000), hourly_rate=D(32)),
        C.ItemSpec(ItemKind.BANDWIDTH, "带宽 100 Mbps", D("50"), PriceUnit.MBPS_MONTH, mbps=100),
        C.ItemSpec(ItemKind.MAINTENANCE, "维保", D("36000"), PriceUnit.YEAR),
        C.ItemSpec(ItemKind.ONE_OFF, "安装费", D("2000"), PriceUnit.ONE_OFF),
        C.ItemSpec(ItemKind.DISCOUNT, "首年折扣", D("500"), PriceUnit.MONTH),
    ]
    c = _draft(db, manager, w, items=items)
    assert [i.kind for i in c.items] == [i.kind for i in items]
    gpu = c.items[2]
    assert gpu.tax_category == "equipment_lease" and c.items[4].tax_category == "telecom"
    assert c.items[3].gpu_ids == (w.gpu_ids[2], w.gpu_ids[3])


@pytest.mark.parametrize("spec, field", [
    (dict(kind=ItemKind.RACK, price_unit=PriceUnit.GPU_HOUR), "price_unit"),
    (dict(kind=ItemKind.RACK, rack_id=None), "rack_id"),
    (dict(kind=ItemKind.GPU, price_unit=PriceUnit.HYBRID, rack_id=None, gpu_model_id=1), "included_hours"),
    (dict(kind=ItemKind.RACK, power_allowance_kw=D(5)), "power_allowance_kw"),
    (dict(service_start=dt.date(2026, 8, 1)), "service_start"),
])
def test_invalid_items_are_refused_and_nothing_is_written(db, admin, manager, spec, field):
    w = make_world(db)
    base = dict(kind=ItemKind.RACK, description="x", unit_price=D(1), price_unit=PriceUnit.MONTH, rack_id=w.rack_ids[0])
    before = table_counts(db)
    with pytest.raises(ValidationError) as exc:
        _draft(db, manager, w, items=[C.ItemSpec(**{**base, **spec})])
    assert any(k.endswith(field) for k in exc.value.errors), exc.value.errors
    assert table_counts(db) == before


def test_wrong_role_is_refused_and_leaves_the_database_unchanged(db, admin, manager, auditor):
    w = make_world(db)
    c = _draft(db, manager, w)
    before = table_counts(db)
    with pytest.raises(PermissionDenied, match="may not draft contracts"):
        _draft(db, auditor, w)
    C.submit_contract(db, manager, c.id)
    before = table_counts(db)
    with pytest.raises(PermissionDenied, match="approve contracts"):
        C.approve_contract(db, manager, c.id)
    with pytest.raises(PermissionDenied):
        C.activate_contract(db, manager, c.id)
    assert table_counts(db) == before


def test_wrong_transition_is_refused_and_leaves_the_database_unchanged(db, admin, manager):
    w = make_world(db)
    c = _draft(db, manager, w)
    before = table_counts(db)
    with pytest.raises(RuleViolation, match="is draft; it cannot become active"):
        C.activate_contract(db, admin, c.id)
    with pytest.raises(RuleViolation, match="cannot become approved"):
        C.approve_contract(db, admin, c.id)
    with pytest.raises(ValidationError, match="reason"):
        C.terminate_contract(db, admin, c.id, reason="")
    assert table_counts(db) == before
    assert C.get_contract(db, c.id).status == ContractStatus.DRAFT


def test_reject_sends_back_to_draft_with_a_reason_and_every_move_is_audited(db, admin, manager):
    w = make_world(db)
    c = _draft(db, manager, w)
    C.submit_contract(db, manager, c.id)
    with pytest.raises(ValidationError):
        C.reject_contract(db, admin, c.id, reason=" ")
    c = C.reject_contract(db, admin, c.id, reason="价格低于底价")
    assert c.status == ContractStatus.DRAFT
    c = C.update_draft(db, manager, c.id, c.version, items=[rack_item(w, 1, "6500")])
    assert c.items[0].unit_price == D("6500")
    C.submit_contract(db, manager, c.id)
    C.approve_contract(db, admin, c.id)
    with pytest.raises(RuleViolation, match="only drafts can be edited"):
        C.update_draft(db, manager, c.id, items=[rack_item(w, 1, "1")])
    with db.session() as s:
        actions = [a for (a,) in s.execute(select(AuditEvent.action).where(AuditEvent.object_type == "contract")
                                           .order_by(AuditEvent.seq))]
        reasons = s.execute(select(AuditEvent.reason).where(AuditEvent.action == "contract.reject")).scalars().all()
    assert actions == ["contract.create", "contract.submit", "contract.reject", "contract.update",
                       "contract.submit", "contract.approve"]
    assert reasons == ["价格低于底价"]


def test_activation_leases_racks_and_gpus_and_termination_releases_them(db, admin, manager):
    w = make_world(db)
    items = [rack_item(w, 1, "6000"),
             gpu_item(w, [1, 2], "12.5", service_start=dt.date(2026, 9, 10)),
             C.ItemSpec(ItemKind.GPU, "H100 × 3 包月", D("45000"), PriceUnit.MONTH, quantity=D(3), gpu_model_id=w.h100_id)]
    c = signed(db, manager, admin, w, items, START, END, at=cst(2026, 9, 5, 9))
    assert c.status == ContractStatus.ACTIVE
    assert len(c.items[2].gpu_ids) == 3  # model × quantity got named GPUs at activation
    with db.session() as s:
        rack = s.get(Rack, w.rack_ids[0])
        assert (rack.status, rack.customer_id) == (RackStatus.LEASED, w.customer_id)
        leased = s.execute(select(GpuAsset).where(GpuAsset.state == GpuState.LEASED)).scalars().all()
        assert len(leased) == 5 and {g.customer_id for g in leased} == {w.customer_id}
        starts = {l.gpu_id: l.start for l in s.execute(select(GpuLease)).scalars()}
        # named GPUs are handed over on their service start, the others at activation
        assert starts[w.gpu_ids[0]] == cst(2026, 9, 10)
        assert starts[c.items[2].gpu_ids[0]] == cst(2026, 9, 5, 9)
        assert s.execute(select(GpuHistory).where(GpuHistory.to_state == GpuState.LEASED)).scalars().all()
    c = C.terminate_contract(db, admin, c.id, reason="客户退租", at=cst(2026, 10, 20, 18))
    assert c.status == ContractStatus.TERMINATED
    assert all(i.service_end == dt.date(2026, 10, 20) for i in c.items)
    with db.session() as s:
        rack = s.get(Rack, w.rack_ids[0])
        assert (rack.status, rack.customer_id) == (RackStatus.AVAILABLE, None)
        assert not s.execute(select(GpuAsset).where(GpuAsset.state == GpuState.LEASED)).scalars().all()
        assert {l.end for l in s.execute(select(GpuLease)).scalars()} == {cst(2026, 10, 20, 18)}


def test_activation_refuses_a_gpu_leased_to_another_customer(db, admin, manager):
    w = make_world(db)
    # approved while H100-0001 was free; another customer's contract took it before activation
    c = signed(db, manager, admin, w, [rack_item(w, 1, "6000"), gpu_item(w, [1, 2], "10")], START, END, activate=False)
    signed(db, manager, admin, w, [gpu_item(w, [1], "10")], START, END, customer_id=w.other_customer_id)
    before = table_counts(db)
    with pytest.raises(RuleViolation, match="H100-0001 is leased"):
        C.activate_contract(db, admin, c.id)
    assert table_counts(db) == before
    with db.session() as s:
        assert s.get(Rack, w.rack_ids[0]).status == RackStatus.AVAILABLE


def test_not_enough_gpus_of_a_model(db, admin, manager):
    w = make_world(db, n_gpus=3)
    c = signed(db, manager, admin, w, [C.ItemSpec(ItemKind.GPU, "H100 × 3", D("1"), PriceUnit.MONTH, quantity=D(3),
                                                  gpu_model_id=w.h100_id)], START, END, activate=False)
    with db.session() as s:  # one of the three goes to maintenance after approval
        s.get(GpuAsset, w.gpu_ids[2]).state = GpuState.MAINTENANCE
        s.commit()
    with pytest.raises(RuleViolation, match="needs 3 × H100 SXM 80GB, but only 2 are available"):
        C.activate_contract(db, admin, c.id)


def test_expire_waits_for_the_end_date(db, admin, manager):
    w = make_world(db)
    c = signed(db, manager, admin, w, [rack_item(w, 1, "6000")], START, END)
    with pytest.raises(RuleViolation, match="runs until 2027-08-31"):
        C.expire_contract(db, admin, c.id)
    short = signed(db, manager, admin, w, [rack_item(w, 2, "6000")], START, dt.date(2026, 10, 31))
    assert C.expire_contract(db, admin, short.id).status == ContractStatus.EXPIRED
    with db.session() as s:
        assert s.get(Rack, w.rack_ids[1]).status == RackStatus.AVAILABLE


def test_suspend_and_resume(db, admin, manager):
    w = make_world(db)
    c = signed(db, manager, admin, w, [rack_item(w, 1, "6000")], START, END)
    c = C.suspend_contract(db, admin, c.id, reason="欠费")
    assert c.status == ContractStatus.SUSPENDED
    assert C.resume_contract(db, admin, c.id).status == ContractStatus.ACTIVE


def test_renewal_takes_over_racks_and_gpus_without_releasing_them(db, admin, manager):
    w = make_world(db)
    old = signed(db, manager, admin, w, [rack_item(w, 1, "6000"), gpu_item(w, [1], "10")], START,
                 dt.date(2026, 10, 31))
    new = C.renew_contract(db, manager, old.id, start_date=dt.date(2026, 11, 1), end_date=dt.date(2027, 10, 31))
    assert new.renewal_of_id == old.id and new.number != old.number and new.status == ContractStatus.DRAFT
    C.submit_contract(db, manager, new.id)
    C.approve_contract(db, admin, new.id)
    C.activate_contract(db, admin, new.id, at=cst(2026, 11, 1))
    C.expire_contract(db, admin, old.id, at=cst(2026, 11, 1))
    with db.session() as s:
        assert s.get(Rack, w.rack_ids[0]).status == RackStatus.LEASED
        gpu = s.get(GpuAsset, w.gpu_ids[0])
        assert gpu.state == GpuState.LEASED
        leases = s.execute(select(GpuLease).order_by(GpuLease.id)).scalars().all()
        assert [(l.start, l.end) for l in leases] == [(cst(2026, 9, 1), cst(2026, 11, 1)), (cst(2026, 11, 1), None)]


def test_amendment_changes_prices_from_its_effective_date(db, admin, manager):
    w = make_world(db)
    old = signed(db, manager, admin, w, [rack_item(w, 1, "6000")], START, END)
    with pytest.raises(RuleViolation, match="only drafts"):
        C.update_draft(db, manager, old.id, items=[rack_item(w, 1, "6600")])
    amend = C.amend_contract(db, manager, old.id, effective_date=dt.date(2026, 10, 16), reason="扩容调价",
                             items=[rack_item(w, 1, "6600")])
    assert (amend.number, amend.revision, amend.amends_id) == (old.number + "-R2", 2, old.id)
    assert amend.items[0].service_start == dt.date(2026, 10, 16)
    C.submit_contract(db, manager, amend.id)
    C.approve_contract(db, admin, amend.id)
    C.activate_contract(db, admin, amend.id)
    old = C.get_contract(db, old.id)
    assert old.status == ContractStatus.EXPIRED and old.items[0].service_end == dt.date(2026, 10, 15)
    with db.session() as s:
        assert s.get(Rack, w.rack_ids[0]).status == RackStatus.LEASED


def test_contracts_due_bands(db, admin, manager):
    w = make_world(db)
    today = dt.date(2026, 11, 29)
    for n, days in ((1, 20), (2, 50), (3, 100), (4, 200)):
        signed(db, manager, admin, w, [rack_item(w, n, "1")], START, today + dt.timedelta(days=days))
    due = C.contracts_due(db, 180, today=today)
    assert [(d.days_left, d.alert) for d in due] == [(20, 30), (50, 60), (100, 180)]
    assert [d.days_left for d in C.contracts_due(db, 30, today=today)] == [20]
