"""Read models behind the rack elevation, room floor, dashboard, coverage tree and site plot.

The estate is written straight through the ORM (these are reads; the rules that guard writes
are tested with their services). Figures are worked out by hand in the comments.
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from sqlalchemy import select

from app.read import viewdata as vd
from models import (Contract, Coverage, Customer, Device, DeviceType, GpuAsset, GpuModel, Rack,
                    RackReservation, Region, Room, Site, Statement, Subsidiary)

TODAY = dt.date(2026, 11, 30)


def build_estate(db) -> dict[str, int]:
    ids: dict[str, int] = {}
    with db.session() as s:
        s.add_all([
            Region(code="350000", name="福建省", level=1),
            Region(code="350100", name="福州市", level=2, parent_code="350000"),
            Region(code="350102", name="鼓楼区", level=3, parent_code="350100"),
            Region(code="350200", name="厦门市", level=2, parent_code="350000"),
            Region(code="460000", name="海南省", level=1),
            Region(code="460100", name="海口市", level=2, parent_code="460000"),
            Region(code="460105", name="秀英区", level=3, parent_code="460100"),
            Region(code="460108", name="美兰区", level=3, parent_code="460100"),
            Region(code="440000", name="广东省", level=1),
            Region(code="440300", name="深圳市", level=2, parent_code="440000"),
        ])
        s.flush()
        fz = Subsidiary(code="FZ", name="福州总部", credit_code="91350100MA00000001")
        sz = Subsidiary(code="SZ", name="深圳分公司", credit_code="91440300MA00000002")
        s.add_all([fz, sz])
        s.flush()
        fz1 = Site(code="FZ1", name="福州一号机房", subsidiary_id=fz.id, region_code="350102",
                   latitude=Decimal("26.08"), longitude=Decimal("119.30"), power_capacity_kw=Decimal("0"))
        sz1 = Site(code="SZ1", name="深圳南山机房", subsidiary_id=sz.id, region_code="440300",
                   latitude=Decimal("22.54"), longitude=Decimal("113.93"), power_capacity_kw=Decimal("500"))
        nowhere = Site(code="XX1", name="待定机房", subsidiary_id=sz.id, region_code="440300")
        s.add_all([fz1, sz1, nowhere])
        s.flush()
        s.add_all([
            Coverage(subsidiary_id=fz.id, site_id=fz1.id, region_code="350000", service_level="onsite",
                     response_hours=4),
            Coverage(subsidiary_id=fz.id, site_id=fz1.id, region_code="350100", service_level="onsite",
                     response_hours=2),
            Coverage(subsidiary_id=sz.id, site_id=sz1.id, region_code="460100", service_level="remote",
                     response_hours=8),
            Coverage(subsidiary_id=sz.id, site_id=None, region_code="460108", service_level="partner",
                     response_hours=24),
        ])
        c1 = Customer(name="星河智算科技有限公司", credit_code="91350100MA0000000A")
        c2 = Customer(name="海风渲染工作室", credit_code="91460100MA0000000B")
        s.add_all([c1, c2])
        s.flush()
        room = Room(site_id=fz1.id, name="A101", grid_rows=3, grid_cols=4)
        s.add(room)
        s.flush()
        a01 = Rack(room_id=room.id, name="A01", u_height=42, power_capacity_kw=Decimal("8"), status="leased",
                   customer_id=c1.id, grid_row=0, grid_col=0)
        a02 = Rack(room_id=room.id, name="A02", u_height=42, power_capacity_kw=Decimal("10"),
                   grid_row=0, grid_col=1)
        a03 = Rack(room_id=room.id, name="A03", u_height=48, power_capacity_kw=Decimal("6"))
        gone = Rack(room_id=room.id, name="Z99", u_height=42, power_capacity_kw=Decimal("5"),
                    status="decommissioned", grid_row=2, grid_col=3)
        s.add_all([a01, a02, a03, gone])
        s.flush()
        gpu_t = DeviceType(manufacturer="Supermicro", model="SYS-821GE", slug="sm-821", u_height=Decimal(8),
                           is_full_depth=True, typical_power_w=6000, role="gpu_server", gpu_slots=8)
        srv_t = DeviceType(manufacturer="Dell", model="R750", slug="r750", u_height=Decimal(2),
                           is_full_depth=True, typical_power_w=500)
        sw_t = DeviceType(manufacturer="Nvidia", model="QM9700", slug="qm9700", u_height=Decimal(1),
                          is_full_depth=False, typical_power_w=200, role="switch")
        half_t = DeviceType(manufacturer="Acme", model="KVM", slug="kvm", u_height=Decimal("0.5"),
                            is_full_depth=False, typical_power_w=100)
        patch_t = DeviceType(manufacturer="Acme", model="Patch 24", slug="patch", u_height=Decimal(1),
                             is_full_depth=False, typical_power_w=None)
        pdu_t = DeviceType(manufacturer="APC", model="PDU", slug="pdu", u_height=Decimal(0),
                           is_full_depth=False, typical_power_w=0)
        s.add_all([gpu_t, srv_t, sw_t, half_t, patch_t, pdu_t])
        s.flush()
        devs = dict(
            gpu=Device(name="gpu-fz-001", device_type_id=gpu_t.id, rack_id=a01.id, position=Decimal(1), face="front"),
            srv=Device(name="客户服务器-01", device_type_id=srv_t.id, rack_id=a01.id, position=Decimal(10),
                       face="front", owner_customer_id=c2.id),
            kvm=Device(name="kvm-1", device_type_id=half_t.id, rack_id=a01.id, position=Decimal("20.5"),
                       face="front", owner_customer_id=c1.id),
            sw=Device(name="ib-sw-1", device_type_id=sw_t.id, rack_id=a01.id, position=Decimal(42), face="front",
                      owner_customer_id=c1.id),
            patch=Device(name="patch-1", device_type_id=patch_t.id, rack_id=a01.id, position=Decimal(40),
                         face="rear"),
            pdu=Device(name="pdu-a", device_type_id=pdu_t.id, rack_id=a01.id),
            old=Device(name="old-srv", device_type_id=srv_t.id, rack_id=a01.id, position=Decimal(30),
                       face="rear", status="decommissioning"),
            a02srv=Device(name="srv-a02", device_type_id=srv_t.id, rack_id=a02.id, position=Decimal(1),
                          face="front"),
        )
        s.add_all(devs.values())
        s.flush()
        s.add_all([
            RackReservation(rack_id=a01.id, customer_id=c2.id, face="front", u_from=30, u_to=33,
                            start_date=TODAY, end_date=TODAY + dt.timedelta(days=60)),
            RackReservation(rack_id=a01.id, customer_id=c2.id, face="rear", u_from=12, u_to=13,
                            start_date=TODAY, status="cancelled"),
            RackReservation(rack_id=a01.id, customer_id=c1.id, face="front", u_from=35, u_to=36,
                            start_date=TODAY - dt.timedelta(days=90), end_date=TODAY - dt.timedelta(days=1)),
        ])
        h100 = s.execute(select(GpuModel).where(GpuModel.name == "H100 SXM 80GB")).scalar_one()
        a100 = s.execute(select(GpuModel).where(GpuModel.name == "A100 80GB")).scalar_one()
        for slot in range(1, 9):
            s.add(GpuAsset(serial=f"H100-{slot}", gpu_model_id=h100.id, device_id=devs["gpu"].id, slot=slot,
                           state="leased" if slot <= 6 else "available"))
        for i in range(3):
            s.add(GpuAsset(serial=f"A100-{i}", gpu_model_id=a100.id, state="ordered"))
        for n, (days, status) in enumerate([(10, "active"), (45, "suspended"), (80, "active"),
                                            (120, "active"), (5, "draft"), (-3, "active")]):
            end = TODAY + dt.timedelta(days=days)
            s.add(Contract(number=f"HT-{n}", subsidiary_id=fz.id, customer_id=c1.id, status=status,
                           start_date=end - dt.timedelta(days=365), end_date=end))
        s.add_all([
            Statement(number="ST-1", subsidiary_id=fz.id, customer_id=c1.id, period="2026-09", status="issued",
                      subtotal=Decimal("1000.00"), tax=Decimal("60.00"), total=Decimal("1060.00")),
            Statement(number="ST-2", subsidiary_id=fz.id, customer_id=c2.id, period="2026-09", status="issued",
                      subtotal=Decimal("500.00"), tax=Decimal("30.00"), total=Decimal("530.00")),
            Statement(number="CN-1", kind="credit_note", subsidiary_id=fz.id, customer_id=c2.id,
                      period="2026-10", status="issued", subtotal=Decimal("-100.00"), tax=Decimal("-6.00"),
                      total=Decimal("-106.00")),
            Statement(subsidiary_id=fz.id, customer_id=c1.id, period="2026-10", status="draft",
                      subtotal=Decimal("999.00"), tax=Decimal("0"), total=Decimal("999.00")),
        ])
        s.commit()
        ids.update(room=room.id, a01=a01.id, a02=a02.id, a03=a03.id, c1=c1.id, c2=c2.id, fz1=fz1.id,
                   sz1=sz1.id, **{f"dev_{k}": v.id for k, v in devs.items()})
    return ids


@pytest.fixture
def estate(db):
    return build_estate(db)


def test_rack_elevation(db, estate):
    e = vd.rack_elevation(db, estate["a01"], today=TODAY)
    assert (e.name, e.site_code, e.room_name, e.u_height, e.status) == ("A01", "FZ1", "A101", 42, "leased")
    assert e.lessee_name == "星河智算科技有限公司"
    assert e.power_capacity_kw == Decimal("8.00")
    # 6000 + 500 + 100 + 200 + 0 (patch, no figure) + 0 (PDU); the decommissioning server is left out
    assert e.typical_draw_kw == Decimal("6.80")
    assert e.power_pct == Decimal("85.0")
    assert len(e.devices) == 7
    assert {d.name for d in e.mounted} == {"gpu-fz-001", "客户服务器-01", "kvm-1", "ib-sw-1", "patch-1", "old-srv"}
    assert [d.name for d in e.unmounted] == ["pdu-a"]
    kvm = e.device(estate["dev_kvm"])
    assert (kvm.position, kvm.height, kvm.full_depth, kvm.owner_name) == (Decimal("20.5"), Decimal("0.5"), False,
                                                                          "星河智算科技有限公司")
    gpu = e.device(estate["dev_gpu"])
    assert gpu.owner_name is None and gpu.colour == vd.FLEET_COLOUR and gpu.model == "Supermicro SYS-821GE"
    assert gpu.occupies("rear") and not kvm.occupies("rear")
    # front: 42 - gpu 8 - server 2 - kvm's unit 20 - switch 1 - old full-depth server 2 (still mounted) = 28
    assert len(e.free_front) == 28 and 30 not in e.free_front and 20 not in e.free_front and 9 in e.free_front and 42 not in e.free_front
    # rear: 42 - gpu 8 - server 2 (full depth) - patch 1 - old server 2 = 29
    assert len(e.free_rear) == 29 and 40 not in e.free_rear and 20 in e.free_rear
    # only the active, unexpired reservation
    assert [(r.customer_name, r.face, r.u_from, r.u_to) for r in e.reservations] == [("海风渲染工作室", "front", 30, 33)]


def test_free_units_ignores_the_device_being_moved(db, estate):
    e = vd.rack_elevation(db, estate["a01"], today=TODAY)
    free = vd.free_units(e.u_height, e.devices, "front", ignore_id=estate["dev_srv"])
    assert 10 in free and 11 in free and len(free) == 30


def test_rack_elevation_unknown_rack(db):
    from app.domain.errors import NotFound
    with pytest.raises(NotFound):
        vd.rack_elevation(db, 999)


def test_room_layout(db, estate):
    room = vd.room_layout(db, estate["room"])
    assert (room.name, room.site_code, room.grid_rows, room.grid_cols) == ("A101", "FZ1", 3, 4)
    by_name = {r.name: r for r in room.racks}
    assert set(by_name) == {"A01", "A02", "A03", "Z99"}
    a01 = by_name["A01"]
    # mounted, whatever the status: 8 + 2 + 0.5 + 1 + 1 + 2 = 14.5 U of 42
    assert a01.used_units == Decimal("14.5") and a01.utilisation_pct == Decimal("34.5")
    assert a01.typical_draw_kw == Decimal("6.80") and a01.power_pct == Decimal("85.0")
    assert a01.lessee_name == "星河智算科技有限公司" and a01.device_count == 7
    assert a01.status_colour == "#3f51b5"
    a02 = by_name["A02"]
    assert (a02.used_units, a02.utilisation_pct, a02.power_pct) == (Decimal("2.0"), Decimal("4.8"), Decimal("5.0"))
    a03 = by_name["A03"]
    assert (a03.used_units, a03.utilisation_pct, a03.device_count) == (Decimal("0.0"), Decimal("0"), 0)
    assert [r.name for r in room.unplaced] == ["A03"]


def test_dashboard(db, estate):
    d = vd.dashboard_data(db, today=TODAY)
    sites = {x.code: x for x in d.sites}
    assert set(sites) == {"FZ1", "SZ1", "XX1"}
    fz = sites["FZ1"]
    # three live racks (the decommissioned one left out): 42 + 42 + 48 = 132 U, 8 + 10 + 6 = 24 kW
    # 14.5 U in A01 + 2 U in A02 = 16.5 U of 132
    assert (fz.racks, fz.units_total, fz.units_used) == (3, 132, Decimal("16.5"))
    assert fz.utilisation_pct == Decimal("12.5")
    assert fz.power_capacity_kw == Decimal("24.00")       # site figure unset: the racks' sum
    assert fz.typical_draw_kw == Decimal("7.30") and fz.power_pct == Decimal("30.4")
    sz = sites["SZ1"]
    assert (sz.racks, sz.units_total, sz.utilisation_pct, sz.power_capacity_kw) == (0, 0, Decimal("0"), Decimal("500.00"))
    assert d.gpu_count("H100 SXM 80GB", "leased") == 6
    assert d.gpu_count("H100 SXM 80GB", "available") == 2
    assert d.gpu_count("A100 80GB", "ordered") == 3
    assert d.gpu_total == 11 and d.gpu_models == ("A100 80GB", "H100 SXM 80GB")
    assert d.gpu_states == ("ordered", "available", "leased")
    # live contracts ending in 10, 45, 80 days; not the draft, not the one 120 days out, not the lapsed one
    assert (d.ending_30, d.ending_60, d.ending_90) == (1, 2, 3)
    assert [(c.number, c.days_left) for c in d.ending_soon] == [("HT-0", 10), ("HT-1", 45), ("HT-2", 80)]
    # issued only; the credit note subtracts
    assert [(r.period, r.net, r.gross) for r in d.revenue] == [
        ("2026-09", Decimal("1500.00"), Decimal("1590.00")), ("2026-10", Decimal("-100.00"), Decimal("-106.00"))]


def test_dashboard_empty(db):
    d = vd.dashboard_data(db, today=TODAY)
    assert d.sites == () and d.gpu_fleet == () and d.revenue == () and d.ending_90 == 0 and d.gpu_total == 0


def test_region_tree_and_inherited_coverage(db, estate):
    provinces = vd.region_tree(db)
    assert [(p.code, p.name, p.child_count) for p in provinces] == [
        ("350000", "福建省", 2), ("440000", "广东省", 1), ("460000", "海南省", 1)]
    fj = provinces[0]
    assert [c.subsidiary_code for c in fj.coverage] == ["FZ"] and not fj.coverage[0].inherited
    assert not provinces[1].covered and not provinces[2].covered
    cities = {c.name: c for c in vd.region_tree(db, "350000")}
    # Fuzhou's own entry (2 h) shadows the province's for the same subsidiary and site; Xiamen inherits
    assert [(c.region_code, c.response_hours, c.inherited) for c in cities["福州市"].coverage] == [("350100", 2, False)]
    assert [(c.region_code, c.inherited) for c in cities["厦门市"].coverage] == [("350000", True)]
    districts = vd.region_tree(db, "460100")
    by = {n.name: n for n in districts}
    # 美兰区 has its own partner entry first, then Haikou's (inherited); 秀英区 only Haikou's
    assert [(c.service_level, c.inherited) for c in by["美兰区"].coverage] == [("partner", False), ("remote", True)]
    assert [(c.site_code, c.inherited) for c in by["秀英区"].coverage] == [("SZ1", True)]
    assert by["秀英区"].child_count == 0


def test_coverage_for_and_find(db, estate):
    cov = vd.coverage_for(db, "350102")
    assert cov.full_name == "福建省福州市鼓楼区"
    assert [(c.subsidiary_name, c.site_name, c.region_code, c.inherited) for c in cov.coverage] == [
        ("福州总部", "福州一号机房", "350100", True)]
    assert vd.coverage_for(db, "440300").coverage == ()
    assert vd.coverage_for(db, "999999") is None
    assert vd.find_regions(db, "4601") == (("460100", "海口市", 2), ("460105", "秀英区", 3), ("460108", "美兰区", 3))
    assert vd.find_regions(db, "美兰") == (("460108", "美兰区", 3),)
    assert vd.find_regions(db, "  ") == ()
    assert vd.region_path(db, "460108") == ("460000", "460100", "460108")


def test_site_points(db, estate):
    plot = vd.site_points(db)
    assert [p.code for p in plot.sites] == ["FZ1", "SZ1"] and plot.unplotted_sites == ("XX1",)
    served = {(x.site_id, x.region_code): x for x in plot.served}
    # FZ covers Fujian province (its capital Fuzhou); SZ1 covers Haikou; 美兰区 entry has no site:
    # drawn from every plotted site of the subsidiary (SZ1; XX1 has no coordinates)
    assert set(served) == {(estate["fz1"], "350000"), (estate["fz1"], "350100"), (estate["sz1"], "460100"),
                           (estate["sz1"], "460108")}
    assert served[(estate["fz1"], "350000")].latitude == pytest.approx(26.074)
    assert not served[(estate["sz1"], "460108")].approximate


def test_region_centre_fallbacks():
    assert vd.region_centre("460108") == ((20.030, 110.366), False)
    assert vd.region_centre("350102") == ((26.074, 119.296), True)     # its city, Fuzhou
    assert vd.region_centre("350999")[1] is True                        # province capital
    assert vd.region_centre("810000") is None


@pytest.mark.parametrize("code", ["350000", "350100", "350102", "350200", "460100", "460105", "460108", "440300"])
def test_coverage_agrees_with_the_service(db, estate, code):
    """The tree's answer and app.services.reference.who_serves name the same subsidiaries, sites and sources."""
    from app.services.reference import who_serves

    ours = {(c.subsidiary_code, c.site_code, c.region_code) for c in vd.coverage_for(db, code).coverage}
    theirs = {(a.subsidiary_code, a.site_code, a.covered_via) for a in who_serves(db, code)}
    assert ours == theirs


def test_dashboard_card_and_chart_count_the_same_contracts_ending(demo_db):
    """The "Ending in 30/60/90 days" card and the "Contracts ending" chart both count live
    contracts (active or suspended): they showed 2/3/3 and 2/3/5 on the demo data."""
    from app.read import queries
    from app.domain.rating import local_today
    today = local_today()
    card = queries.summary(demo_db, today).contracts_ending
    chart = vd.dashboard_data(demo_db, today)
    assert (card[30], card[60], card[90]) == (chart.ending_30, chart.ending_60, chart.ending_90)
    assert chart.ending_90 > 0


def test_the_dashboard_counts_the_gpus_by_state_from_its_fleet_chart(demo_db):
    """The main window groups the GPUs once: the summary read without its own count, completed from
    the fleet chart's counts by model and state, is the summary that counts them itself."""
    from app.read import queries
    from app.domain.rating import local_today
    today = local_today()
    whole = queries.summary(demo_db, today)
    lean = queries.summary(demo_db, today, count_gpus=False)
    assert lean.gpus == 0 and lean.gpus_by_state == {}
    assert vd.counted_by_fleet(lean, vd.dashboard_data(demo_db, today)) == whole and whole.gpus > 0


@pytest.mark.parametrize("code", ["350102", "460108", "460105"])
def test_who_serves_is_one_rule_in_the_same_order(db, estate, code):
    """The tree's list sorted by response time is the service's answer, entry for entry."""
    from app.services.reference import who_serves

    ours = [(c.subsidiary_code, c.site_code, c.region_code, c.response_hours)
            for c in sorted(vd.coverage_for(db, code).coverage, key=lambda c: (c.response_hours, c.subsidiary_code))]
    theirs = [(a.subsidiary_code, a.site_code, a.covered_via, a.response_hours) for a in who_serves(db, code)]
    assert ours == theirs and ours
