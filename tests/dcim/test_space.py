"""Leasable space (issue 15): U-range leases, cages, activation refusals, placement, freeing."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from sqlalchemy import select

from app.domain.clock import local_today
from app.domain.errors import RuleViolation
from app.services import contracts as C
from app.read.space import rack_space
from app.services import space as S
from app.services.dcim import cancel_reservation, place_device, reserve_units
from models import AuditEvent, Device, Rack, SpaceLease
from models.choices import ContractStatus, ItemKind, PriceUnit, RackStatus
from tests.support.builders import build_types
from tests.conftest import table_counts
from tests.billing.test_billing_world import cst, make_world, signed

D = Decimal
TODAY = local_today()
START, END = TODAY - dt.timedelta(days=30), TODAY + dt.timedelta(days=334)


def u_item(w, rack_n: int, u_from: int, u_to: int, price="3000", **kw) -> C.ItemSpec:
    return C.ItemSpec(kind=ItemKind.RACK, description=f"机柜 A-{rack_n:02d} U{u_from}-U{u_to}", unit_price=D(price),
                      price_unit=PriceUnit.MONTH, rack_id=w.rack_ids[rack_n - 1], u_from=u_from, u_to=u_to, **kw)


def _sign(db, manager, admin, w, items, customer_id, start=START, end=END):
    return signed(db, manager, admin, w, items, start, end, customer_id=customer_id,
                  at=cst(start.year, start.month, start.day, 9))


def _leases(db):
    with db.session() as s:
        return [(l.rack_id, l.customer_id, l.u_from, l.u_to, l.start_date, l.end_date)
                for l in s.execute(select(SpaceLease).order_by(SpaceLease.id)).scalars()]


@pytest.fixture
def world(db):
    return make_world(db, n_customers=3)


def _customers(db, w):
    from models import Customer
    with db.session() as s:
        return sorted(s.execute(select(Customer.id)).scalars())


def test_two_customers_share_a_rack_and_a_third_is_refused_on_an_overlapping_day(db, admin, manager, world):
    a, b, c3 = _customers(db, world)
    # X: the lower half (U1–U21); Y: the upper half (U22–U42) of the same rack, same term.
    _sign(db, manager, admin, world, [u_item(world, 1, 1, 21)], a)
    _sign(db, manager, admin, world, [u_item(world, 1, 22, 42)], b)
    assert [(l[2], l[3]) for l in _leases(db)] == [(1, 21), (22, 42)]
    with db.session() as s:
        assert s.get(Rack, world.rack_ids[0]).status == RackStatus.AVAILABLE  # not leased whole
    # A third customer wants U20–U23 for one month starting on the last day of X's and Y's term:
    # refused when the draft is saved, as activation would (the same check, app/services/contracts/)
    before = table_counts(db)
    with pytest.raises(RuleViolation) as err:
        C.create_contract(db, manager, subsidiary_id=world.subsidiary_id, customer_id=c3,
                          start_date=END, end_date=END + dt.timedelta(days=30), items=[u_item(world, 1, 20, 23)])
    msg = err.value.message
    assert "the contract cannot be saved" in msg
    assert "U1–U21 of rack A/A-01 are leased to 星河智算1号" in msg and "U22–U42" in msg
    assert table_counts(db) == before
    # The day after X's and Y's term it is free: the same range from END + 1 activates.
    later = C.create_contract(db, manager, subsidiary_id=world.subsidiary_id, customer_id=c3,
                              start_date=END + dt.timedelta(days=1), end_date=END + dt.timedelta(days=30),
                              items=[u_item(world, 1, 20, 23)])
    C.submit_contract(db, manager, later.id)
    C.approve_contract(db, admin, later.id)
    assert C.activate_contract(db, admin, later.id, at=cst(END.year, END.month, END.day, 9)).status == \
        ContractStatus.ACTIVE


def test_a_reservation_of_another_customer_refuses_the_lease_until_cancelled(db, admin, manager, world):
    a, b, _ = _customers(db, world)
    res = reserve_units(db, manager, world.rack_ids[1], b, "front", 10, 12, START)
    with pytest.raises(RuleViolation, match="U10–U12 \\(front\\) of rack A/A-02 are reserved for 星河智算2号"):
        C.create_contract(db, manager, subsidiary_id=world.subsidiary_id, customer_id=a,
                          start_date=START, end_date=END, items=[u_item(world, 2, 1, 20)])
    cancel_reservation(db, manager, res, "客户放弃预留")
    draft = C.create_contract(db, manager, subsidiary_id=world.subsidiary_id, customer_id=a,
                              start_date=START, end_date=END, items=[u_item(world, 2, 1, 20)])
    C.submit_contract(db, manager, draft.id)
    C.approve_contract(db, admin, draft.id)
    assert C.activate_contract(db, admin, draft.id).status == ContractStatus.ACTIVE


def test_a_device_of_one_customer_is_refused_in_the_others_range(db, admin, manager, world):
    a, b, _ = _customers(db, world)
    types = build_types(db, admin)
    _sign(db, manager, admin, world, [u_item(world, 1, 1, 21)], a)
    _sign(db, manager, admin, world, [u_item(world, 1, 22, 42)], b)
    rack = world.rack_ids[0]

    def put(name, owner, position):
        return place_device(db, admin, dict(name=name, device_type_id=types["server"], rack_id=rack,
                                            position=position, face="front", owner_customer_id=owner))

    put("a-srv-1", a, 5)  # X's server in X's range
    before = table_counts(db)
    with pytest.raises(RuleViolation) as err:
        put("b-srv-1", b, 10)  # Y's server in X's range
    assert "U1–U21 of rack A/A-01 are leased to 星河智算1号有限公司" in err.value.message
    with pytest.raises(RuleViolation, match="U21.*leased to 星河智算1号"):
        put("b-srv-2", b, 21)  # 2U at U21 straddles both ranges
    with pytest.raises(RuleViolation, match="provider's equipment goes into unleased units only"):
        put("own-srv", None, 30)
    assert table_counts(db) == before
    put("b-srv-3", b, 30)  # Y's server in Y's range
    with pytest.raises(RuleViolation, match="cannot be reserved: U22–U42 of rack A/A-01 are leased to 星河智算2号"):
        reserve_units(db, manager, rack, a, "front", 40, 41, TODAY)
    # An unleased rack takes the provider's own equipment, and another customer's reservation refuses it.
    reserve_units(db, manager, world.rack_ids[2], b, "front", 1, 4, START)
    place_device(db, admin, dict(name="own-1", device_type_id=types["server"], rack_id=world.rack_ids[2],
                                 position=10, face="front"))
    with pytest.raises(RuleViolation, match="reserved for 星河智算2号.*cancel the reservation"):
        place_device(db, admin, dict(name="own-2", device_type_id=types["server"], rack_id=world.rack_ids[2],
                                     position=3, face="front"))
    # Renaming a device that stays where it is is not re-checked.
    with db.session() as s:
        dev = s.execute(select(Device).where(Device.name == "a-srv-1")).scalar_one()
    from app.services.dcim import update_device
    update_device(db, admin, dev.id, {"name": "a-srv-1b"})


def test_a_cage_of_four_racks_is_leased_as_one_item_and_ending_frees_it(db, admin, manager, world):
    a, b, _ = _customers(db, world)
    with db.session() as s:
        room_id = s.get(Rack, world.rack_ids[0]).room_id
    cage = S.create_cage(db, admin, room_id, "Cage-1", list(world.rack_ids[:4]))
    item = C.ItemSpec(kind=ItemKind.RACK, description="笼位 Cage-1（4 柜）", unit_price=D("24000"),
                      price_unit=PriceUnit.MONTH, cage_id=cage)
    c = _sign(db, manager, admin, world, [item], a)
    assert len(c.items) == 1 and c.items[0].cage_id == cage
    leases = _leases(db)
    assert sorted(l[0] for l in leases) == sorted(world.rack_ids[:4]) and {(l[2], l[3]) for l in leases} == {(1, 42)}
    with db.session() as s:
        space = rack_space(s, list(world.rack_ids[:4]), TODAY)
        assert {(r.leased_u, r.free_u) for r in space.values()} == {(42, 0)}
        assert {(r.status, r.customer_id) for r in s.execute(select(Rack).where(Rack.cage_id == cage)).scalars()} \
            == {(RackStatus.LEASED, a)}  # the cage's racks read as leased whole
    # Another customer wants one rack of the cage: refused.
    with pytest.raises(RuleViolation, match="U1–U42 of rack A/A-03 are leased to 星河智算1号"):
        C.create_contract(db, manager, subsidiary_id=world.subsidiary_id, customer_id=b,
                          start_date=START, end_date=END, items=[u_item(world, 3, 1, 10)])
    # Ending the cage's contract frees its racks from the next day.
    C.terminate_contract(db, admin, c.id, reason="客户退租", at=cst(TODAY.year, TODAY.month, TODAY.day, 18))
    assert {l[5] for l in _leases(db)} == {TODAY}
    with db.session() as s:
        assert {r.status for r in s.execute(select(Rack).where(Rack.cage_id == cage)).scalars()} == {RackStatus.AVAILABLE}
    with db.session() as s:
        assert {r.leased_u for r in rack_space(s, list(world.rack_ids[:4]), TODAY + dt.timedelta(days=1)).values()} == {0}
        actions = [e.action for e in s.execute(select(AuditEvent).where(AuditEvent.object_type == "space_lease"))
                   .scalars()]
    assert actions.count("space.lease") == 4 and actions.count("space.release") == 4
    later = C.create_contract(db, manager, subsidiary_id=world.subsidiary_id, customer_id=b,
                              start_date=TODAY + dt.timedelta(days=1), end_date=END, items=[u_item(world, 3, 1, 10)])
    C.submit_contract(db, manager, later.id)
    C.approve_contract(db, admin, later.id)
    assert C.activate_contract(db, admin, later.id).status == ContractStatus.ACTIVE


def test_a_whole_rack_item_still_leases_the_rack_whole(db, admin, manager, world):
    a, b, _ = _customers(db, world)
    _sign(db, manager, admin, world, [C.ItemSpec(ItemKind.RACK, "整柜", D("6000"), PriceUnit.MONTH,
                                                 rack_id=world.rack_ids[4])], a)
    with db.session() as s:
        rack = s.get(Rack, world.rack_ids[4])
        assert (rack.status, rack.customer_id) == (RackStatus.LEASED, a)
        assert rack_space(s, [rack.id], TODAY)[rack.id].leased_u == 42
    with pytest.raises(RuleViolation, match="U1–U42 of rack A/A-05 are leased to"):
        C.create_contract(db, manager, subsidiary_id=world.subsidiary_id, customer_id=b,
                          start_date=START, end_date=END, items=[u_item(world, 5, 40, 42)])


def test_direct_lease_is_refused_like_activation(db, admin, manager, world):
    a, b, _ = _customers(db, world)
    S.lease_space(db, manager, customer_id=a, rack_id=world.rack_ids[5], u_from=1, u_to=14, face=None,
                  start_date=START, end_date=END)
    before = table_counts(db)
    with pytest.raises(RuleViolation, match="U1–U14 of rack A/A-06 are leased to 星河智算1号"):
        S.lease_space(db, manager, customer_id=b, rack_id=world.rack_ids[5], u_from=14, u_to=28,
                      start_date=END, end_date=None)
    assert table_counts(db) == before
    S.lease_space(db, manager, customer_id=b, rack_id=world.rack_ids[5], u_from=15, u_to=28,
                  start_date=START, end_date=None)


def test_migration_keeps_a_rack_leased_whole_leased_whole(db, admin, manager, world):
    """Migration 0012's data step on data from before it: racks marked leased to a customer,
    one under a live contract and one with no contract, and no lease rows."""
    import importlib.util
    from pathlib import Path

    from alembic.migration import MigrationContext
    from alembic.operations import Operations
    from sqlalchemy import delete

    a, _, _ = _customers(db, world)
    _sign(db, manager, admin, world, [C.ItemSpec(ItemKind.RACK, "整柜", D("6000"), PriceUnit.MONTH,
                                                 rack_id=world.rack_ids[0])], a)
    with db.session() as s:
        s.execute(delete(SpaceLease))
        s.get(Rack, world.rack_ids[1]).status, s.get(Rack, world.rack_ids[1]).customer_id = RackStatus.LEASED, a
        s.commit()
    path = Path(C.__file__).parents[3] / "models/migrations/versions/0012_leasable_space.py"
    spec = importlib.util.spec_from_file_location("m0012", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    with db.engine.begin() as conn, Operations.context(MigrationContext.configure(conn)):
        mod._whole_racks_stay_leased()
    with db.session() as s:
        rows = {l.rack_id: l for l in s.execute(select(SpaceLease)).scalars()}
        assert set(rows) == {world.rack_ids[0], world.rack_ids[1]}
        held = rows[world.rack_ids[0]]
        assert (held.customer_id, held.u_from, held.u_to, held.face, held.start_date, held.end_date) == \
            (a, 1, 42, None, START, END)
        assert held.contract_item_id is not None
        assert rows[world.rack_ids[1]].end_date is None and rows[world.rack_ids[1]].u_to == 42


def test_import_and_export_leases_with_refusals_and_audit(db, admin, manager, world, tmp_path):
    import csv

    from app.importexport import ImportFailed, export_rows, run_import

    a, b, c3 = _customers(db, world)
    with db.session() as s:
        room_id = s.get(Rack, world.rack_ids[0]).room_id
        names = {c.id: c.name for c in s.execute(select(__import__("models").Customer)).scalars()}
    S.create_cage(db, admin, room_id, "Cage-9", list(world.rack_ids[2:6]))
    head = ["site", "location", "rack", "u_from", "u_to", "face", "customer", "start", "end", "cage", "note"]
    good = tmp_path / "leases.csv"
    with good.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(head)
        w.writerow(["GZ1", "A", "A-01", 1, 21, "", names[a], START, END, "", "半柜"])
        w.writerow(["GZ1", "A", "A-01", 22, 42, "front", names[b], START, "", "", ""])
        w.writerow(["", "", "", "", "", "", names[b], START, END, "Cage-9", "笼位"])
    res = run_import(db, admin, "leases", good)
    assert (res.rows, res.created) == (3, 3)
    assert len(_leases(db)) == 6  # two halves and the cage's four racks
    headers, rows = export_rows(db, "leases")
    rows = list(rows)
    assert headers == head and len(rows) == 6
    assert rows[0][:9] == ["GZ1", "A", "A-01", 1, 21, None, names[a], START, END]
    assert {r[9] for r in rows[2:]} == {"Cage-9"}
    # Export → import again: nothing new.
    again = tmp_path / "again.csv"
    with again.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(headers)
        for r in rows:
            w.writerow(["" if v is None else v for v in r])
    assert run_import(db, admin, "leases", again).created == 0
    # A third customer over an overlapping day: the row is refused and nothing is written.
    bad = tmp_path / "bad.csv"
    with bad.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(head)
        w.writerow(["GZ1", "A", "A-02", 1, 10, "", names[b], START, END, "", ""])
        w.writerow(["GZ1", "A", "A-01", 20, 23, "rear", names[c3], END, "", "", ""])
    before = table_counts(db)
    with pytest.raises(ImportFailed) as err:
        run_import(db, admin, "leases", bad)
    assert "line 3" in err.value.message and "leased to" in err.value.message
    assert table_counts(db) == before
    with db.session() as s:
        assert s.execute(select(AuditEvent).where(AuditEvent.action == "space.lease")).scalars().all()


def test_space_commands(db, admin, manager, world, capsys, monkeypatch):
    from app.cli.main import main

    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", "correct-horse-1")
    url = db.engine.url.render_as_string(hide_password=False)
    a, _, _ = _customers(db, world)
    [lease] = S.lease_space(db, manager, customer_id=a, rack_id=world.rack_ids[0], u_from=1, u_to=10,
                            start_date=START, end_date=None)
    assert main(["--db", url, "--user", "admin", "space", "show", "A-01"]) == 0
    out = capsys.readouterr().out
    assert f"lease {lease}: U1–U10 (both faces) 星河智算1号" in out and "leased 10, reserved 0, used 0, free 32" in out
    assert main(["--db", url, "--user", "admin", "space", "cage", "create", "Cage-X", "A-05", "A-06"]) == 0
    assert "holds 2 rack(s)" in capsys.readouterr().out
    assert main(["--db", url, "--user", "admin", "space", "end", str(lease), "--last-day", str(TODAY),
                 "--reason", "客户退租"]) == 0
    with db.session() as s:
        assert s.get(SpaceLease, lease).end_date == TODAY
        assert {r.cage_id is not None for r in s.execute(select(Rack).where(Rack.name.in_(["A-05", "A-06"])))
                .scalars()} == {True}
    assert main(["--db", url, "--user", "admin", "space", "end", str(lease), "--last-day", str(START - dt.timedelta(days=1)),
                 "--reason", "x"]) == 1
    assert "the lease starts on" in capsys.readouterr().err
