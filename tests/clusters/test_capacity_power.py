"""Capacity search and the power chain (issue 25): a maintenance window on a feed, panel, UPS or
PDU feeding a node's rack takes the node out when the desk's impact is an outage (a single-fed
rack, every supply of the server in the work) and leaves it offered, marked, when only the
redundancy is reduced (a dual-fed rack losing one side), degraded when the side kept cannot carry
the rack's load (offered last). Both backends.

The power: panel P1 (behind UPS-1) feeds A-01 side A (A-01 single-fed: h-01…h-04) and A-02 side A;
panel P2 (behind UPS-2) feeds A-02 side B (A-02 dual-fed: h-05…h-08). A PDU in A-02 on P2's feed
carries both supplies of h-05.
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest
from sqlalchemy import select

from app.services.capacity.search import CapacityRequest, search_capacity
from app.services.operations import maintenance as MW
from models import Device, DeviceType, GpuNode, PduFeed, PowerConnection, PowerFeed, PowerPanel, Rack, Room
from tests.billing.test_billing_world import cst
from tests.support.statements import statements_sent
from tests.clusters.test_capacity import END, START, fleet  # noqa: F401  (the fixture)


@pytest.fixture
def power(db, fleet):  # noqa: F811
    a01, a02 = fleet.rack_ids[:2]
    with db.session() as s:
        site_id = s.get(Room, s.get(Rack, a01).room_id).site_id
        p1 = PowerPanel(site_id=site_id, name="P1", ups="UPS-1")
        p2 = PowerPanel(site_id=site_id, name="P2", ups="UPS-2")
        s.add_all([p1, p2])
        s.flush()
        f1 = PowerFeed(power_panel_id=p1.id, rack_id=a01, name="A-01/A", side="A")
        f2 = PowerFeed(power_panel_id=p1.id, rack_id=a02, name="A-02/A", side="A")
        f3 = PowerFeed(power_panel_id=p2.id, rack_id=a02, name="A-02/B", side="B")
        s.add_all([f1, f2, f3])
        s.flush()
        t = DeviceType(manufacturer="X", model="PDU", slug="x-pdu", u_height=D(0), role="pdu")
        s.add(t)
        s.flush()
        pdu = Device(name="A-02-PDU-B", device_type_id=t.id, rack_id=a02)
        s.add(pdu)
        s.flush()
        pf = PduFeed(device_id=pdu.id, power_feed_id=f3.id)
        s.add(pf)
        s.flush()
        h05 = s.execute(select(Device).where(Device.name == "h-05")).scalar_one()
        s.add_all([PowerConnection(device_id=h05.id, port="PSU1", pdu_id=pf.id, outlet=1),
                   PowerConnection(device_id=h05.id, port="PSU2", pdu_id=pf.id, outlet=2)])
        s.commit()
        return {"f1": f1.id, "f2": f2.id, "f3": f3.id, "p1": p1.id, "site": site_id, "pdu": pdu.id}


def _search(db, count=64, **kw):
    return search_capacity(db, CapacityRequest(count=count, models=("H100 SXM 80GB",), scope="fabric",
                                               start=START, end=END, **kw))


def plan_window(db, admin, kind, target, day=10, **kw):
    return MW.plan_maintenance(db, admin, target_kind=kind, target=target, planned_start=cst(2026, 12, day, 9),
                               planned_end=cst(2026, 12, day, 17), title=f"{kind} work", **kw)


def _names(offer) -> set[str]:
    return {n.device for n in offer.nodes}


def test_a_feed_window_takes_out_a_single_fed_rack_and_is_named(db, fleet, power, admin):  # noqa: F811
    wid = plan_window(db, admin, "feed", power["f1"])
    r = _search(db)
    assert r.offers == () and "at most 32 GPUs are free in one fabric, 32 short" in r.shortfall
    assert f"8 × H100 SXM 80GB ({MW.reference(wid)})" not in r.shortfall
    assert f"32 × H100 SXM 80GB ({MW.reference(wid)})" in r.shortfall
    # the other rack is still offered; after the window, or the window cancelled, all 64 are
    assert _names(_search(db, 32).offers[0]) == {"h-05", "h-06", "h-07", "h-08"}
    after = search_capacity(db, CapacityRequest(count=64, models=("H100 SXM 80GB",), scope="fabric",
                                                start=dt.date(2026, 12, 11), end=dt.date(2027, 3, 10)))
    assert after.offers and after.offers[0].gpus == 64 and after.offers[0].reduced == ()
    MW.cancel_maintenance(db, admin, wid, "postponed")
    assert _search(db).offers[0].gpus == 64


def test_a_dual_fed_rack_losing_one_side_is_offered_marked(db, fleet, power, admin):  # noqa: F811
    wid = plan_window(db, admin, "ups", "UPS-2", site_id=power["site"])  # A-02 loses side B only
    # h-05: both supplies on the PDU behind side B: dark, though its rack is dual-fed
    r = _search(db)
    assert r.offers == () and "at most 56 GPUs are free in one fabric, 8 short" in r.shortfall
    o = _search(db, 56).offers[0]
    assert o.gpus == 56 and "h-05" not in _names(o)
    marked = {n.device for n in o.nodes if n.reduced == (MW.reference(wid),)}
    assert marked == {"h-06", "h-07", "h-08"} and o.reduced == (MW.reference(wid),)
    assert all(n.reduced == () for n in o.nodes if n.device not in marked)


def test_a_panel_window_outage_on_the_single_fed_rack_reduced_on_the_dual_fed(db, fleet, power, admin):  # noqa: F811
    wid = plan_window(db, admin, "panel", power["p1"])  # P1 feeds A-01 (its only feed) and A-02 side A
    r = _search(db)
    assert r.offers == () and "at most 32 GPUs are free in one fabric" in r.shortfall
    o = _search(db, 32).offers[0]
    assert _names(o) == {"h-05", "h-06", "h-07", "h-08"}
    assert all(n.reduced == (MW.reference(wid),) for n in o.nodes)


def test_a_pdu_window_takes_out_the_server_whose_every_supply_is_on_it(db, fleet, power, admin):  # noqa: F811
    wid = plan_window(db, admin, "pdu", power["pdu"])
    r = _search(db)
    assert r.offers == () and "at most 56 GPUs are free in one fabric, 8 short" in r.shortfall
    assert f"8 × H100 SXM 80GB ({MW.reference(wid)})" in r.shortfall
    o = _search(db, 56).offers[0]
    assert "h-05" not in _names(o) and all(n.reduced == () for n in o.nodes)


def test_both_sides_worked_on_at_the_same_time_darken_a_dual_fed_rack(db, fleet, power, admin):  # noqa: F811
    """A-02's side A and side B in two windows: alone each only reduces the redundancy; overlapping,
    the rack goes dark (named by both references); on different days it stays offered."""
    a = plan_window(db, admin, "feed", power["f2"])
    b = MW.plan_maintenance(db, admin, target_kind="feed", target=power["f3"], planned_start=cst(2026, 12, 10, 15),
                            planned_end=cst(2026, 12, 10, 20), title="side B")
    r = _search(db)
    assert r.offers == () and "at most 32 GPUs are free in one fabric, 32 short" in r.shortfall
    assert f"({MW.reference(a)} + {MW.reference(b)})" in r.shortfall
    MW.cancel_maintenance(db, admin, b, "moved a day")
    plan_window(db, admin, "feed", power["f3"], day=11)
    o = _search(db, 56).offers[0]  # h-05 is dark on the 11th (its PDU hangs on side B); A-02 stays up
    assert {"h-06", "h-07", "h-08"} <= _names(o)


def draw_servers(db, watts: int, b_side: dict | None = None) -> None:
    """The H100 servers draw `watts` each (their type's typical draw); side B's feed of A-02 rated
    as `b_side` says (voltage, amperage, phase)."""
    with db.session() as s:
        for t in s.execute(select(DeviceType).where(DeviceType.slug == "x-8gpu-h")).scalars():
            t.typical_power_w = watts
        if b_side:
            f3 = s.execute(select(PowerFeed).where(PowerFeed.name == "A-02/B")).scalar_one()
            for k, v in b_side.items():
                setattr(f3, k, v)
        s.commit()


def test_a_dual_fed_rack_whose_side_kept_cannot_carry_it_is_degraded_and_offered_last(db, fleet, power, admin):  # noqa: F811
    """A-02 loses side A; its four servers draw 10.2 kW each (40.8 kW): side B's 32 A feed at 220 V
    (7.04 kW, 80 %: 5.63 kW) cannot carry them: degraded, not reduced, and chosen after A-01's."""
    draw_servers(db, 10_200)
    wid = plan_window(db, admin, "feed", power["f2"])
    ref = MW.reference(wid)
    o = _search(db, 64).offers[0]
    assert {n.device for n in o.nodes if n.degraded == (ref,)} == {"h-05", "h-06", "h-07", "h-08"}
    assert all(n.reduced == () for n in o.nodes) and o.degraded == (ref,) and o.reduced == ()
    # A-01 with one node in maintenance has 3 free, A-02 4: racks together would take A-02 first;
    # degraded, it comes last
    with db.session() as s:
        node = s.execute(select(GpuNode).join(Device, Device.id == GpuNode.device_id).where(Device.name == "h-04")).scalar_one()
        node.maintenance = True
        s.commit()
    three = _search(db, 24).offers[0]
    assert _names(three) == {"h-01", "h-02", "h-03"} and three.degraded == ()


def test_the_same_rack_is_only_reduced_when_the_side_kept_carries_it(db, fleet, power, admin):  # noqa: F811
    """Side B's feed at 400 V three-phase 125 A (86.6 kW, 80 %: 69.3 kW) carries the 40.8 kW."""
    draw_servers(db, 10_200, {"voltage": 400, "amperage": 125, "phase": "three-phase"})
    wid = plan_window(db, admin, "feed", power["f2"])
    o = _search(db, 64).offers[0]
    marked = {n.device for n in o.nodes if n.reduced == (MW.reference(wid),)}
    assert marked == {"h-05", "h-06", "h-07", "h-08"} and o.degraded == ()


def test_many_open_windows_cost_the_statements_one_does(db, fleet, power, admin):  # noqa: F811
    """Windows on A-02's side A on twelve days (each alone: reduced redundancy): the search sends the
    statements it sends for one window, none of them longer (the windows are joined in SQL, not
    one condition each), and every window is named on the nodes it marks."""
    first = plan_window(db, admin, "feed", power["f2"])
    with statements_sent(db) as one:
        o = _search(db).offers[0]
    assert {n.device for n in o.nodes if n.reduced == (MW.reference(first),)} == {"h-05", "h-06", "h-07", "h-08"}
    refs = [MW.reference(first)] + [MW.reference(plan_window(db, admin, "feed", power["f2"], day=d)) for d in range(11, 22)]
    with statements_sent(db) as many:
        o = _search(db).offers[0]
    assert len(many) == len(one) and max(map(len, many)) == max(map(len, one))
    assert all(n.reduced == tuple(refs) for n in o.nodes if n.rack == "A-02")
