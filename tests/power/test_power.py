"""The power chain (issue 15): the 80 % rule, the N-redundancy check, circuits billed from the
handover, circuit meter readings, and the power-panels / power-feeds import round trip."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from sqlalchemy import select

from app.domain.errors import RuleViolation, ValidationError
from app.services import billing as BS
from app.services import contracts as C
from app.read import power as RP
from app.services import power as P
from app.services.common import create_record
from app.services.dcim import place_device
from app.services.contracts.handover import record_handover
from app.read.settings import POWER_LIMIT_PCT
from app.services.settings import change_setting
from models import AuditEvent
from models.choices import ItemKind, PriceUnit, RedundancyState
from models.power import PowerFeed, PowerPanel
from tests.billing.test_billing_world import cst, make_world, signed

D = Decimal


@pytest.fixture
def chain(db, admin):
    """Rack A-01 fed by A and B feeds of 16 A / 220 V (3,520 W each; 80 %: 2,816 W), one PDU on each."""
    w = make_world(db, n_racks=2)
    with db.session() as s:
        from models import Rack
        rack = s.get(Rack, w.rack_ids[0])
        site_id, room_id = rack.room.site_id, rack.room_id
    panel_a = P.create_panel(db, admin, dict(site_id=site_id, room_id=room_id, name="PP-A", ups="UPS-1"))
    panel_b = P.create_panel(db, admin, dict(site_id=site_id, room_id=room_id, name="PP-B", ups="UPS-2"))
    feed_a = P.create_feed(db, admin, dict(power_panel_id=panel_a, rack_id=w.rack_ids[0], name="A-01-A",
                                           side="A", amperage=16))
    feed_b = P.create_feed(db, admin, dict(power_panel_id=panel_b, rack_id=w.rack_ids[0], name="A-01-B",
                                           type="redundant", amperage=16))
    pdu_type = create_record(db, admin, "device_type", dict(manufacturer="APC", model="AP8853", slug="apc-ap8853",
                                                            u_height=0, role="pdu"))
    server = create_record(db, admin, "device_type", dict(manufacturer="Dell", model="R760", slug="dell-r760",
                                                          u_height=1, is_full_depth=False, typical_power_w=700))
    pdus = {}
    for side, feed in (("A", feed_a), ("B", feed_b)):
        pdus[side] = place_device(db, admin, dict(name=f"PDU-{side}", device_type_id=pdu_type, rack_id=w.rack_ids[0]))
        P.attach_pdu(db, admin, pdus[side], feed, outlets=24)
    return dict(w=w, rack=w.rack_ids[0], feeds=(feed_a, feed_b), pdus=pdus, server=server, panels=(panel_a, panel_b))


def add_servers(db, admin, chain, n, *, first=1, sides=("A", "B")):
    ids = []
    for k in range(first, first + n):
        dev = place_device(db, admin, dict(name=f"srv-{k:02d}", device_type_id=chain["server"], rack_id=chain["rack"],
                                           position=k, face="front"))
        for port, side in enumerate(sides, start=1):
            P.connect_supply(db, admin, dev, f"PSU{port}", chain["pdus"][side], k)
        ids.append(dev)
    return ids


def _check(db, chain) -> RP.RackPower:
    return RP.rack_power_of(db, chain["rack"])


def test_dual_supplies_are_redundant_until_one_side_cannot_carry_the_other(db, admin, chain):
    add_servers(db, admin, chain, 3)  # 2,100 W: 1,050 W a side; with A lost, B carries 2,100 W ≤ 2,816 W
    rp = _check(db, chain)
    assert rp.redundancy == RedundancyState.OK and rp.ok
    assert [(f.side, f.load_w, f.failover_w) for f in rp.feeds] == [("A", D(1050), D(2100)), ("B", D(1050), D(2100))]
    add_servers(db, admin, chain, 2, first=4)  # 3,500 W: 1,750 W a side (fine) but 3,500 W > 2,816 W on failover
    rp = _check(db, chain)
    assert rp.redundancy == RedundancyState.FAIL and not rp.over_limit
    assert any("with side A lost, feed PP-B/A-01-B (B) would carry 3.50 kW" in p for p in rp.problems)
    room = RP.room_power(db, rp.room_id)
    assert room.count(RedundancyState.FAIL) == 1


def test_side_a_load_that_b_cannot_carry_fails_even_with_a_light_b_side(db, admin, chain):
    """Side A alone carries single-corded servers: losing A darkens them, so the rack is not redundant."""
    add_servers(db, admin, chain, 1)                     # redundant 700 W
    add_servers(db, admin, chain, 2, first=2, sides=("A",))  # 1,400 W on A only
    rp = _check(db, chain)
    assert rp.redundancy == RedundancyState.FAIL and rp.single_corded == 2
    assert rp.lost_w["A"] == D(1400) and rp.lost_w["B"] == 0
    assert any("with side A lost, 1.40 kW" in p for p in rp.problems)


def test_the_80_percent_rule_and_its_setting(db, admin, chain):
    add_servers(db, admin, chain, 3, sides=("A",))  # 2,100 W on a 3,520 W feed: 59.7 %
    assert not _check(db, chain).over_limit
    add_servers(db, admin, chain, 2, first=4, sides=("A",))  # 3,500 W: 99.4 % > 80 %
    rp = _check(db, chain)
    assert [f.label for f in rp.over_limit] == ["PP-A/A-01-A"] and not rp.ok
    assert rp.feeds[0].pct == D("99.4") and rp.feeds[0].limit_w == D("2816")
    with db.session() as s:  # the feed's own max_utilization (NetBox's) is a limit too: the lower one rules
        s.get(PowerFeed, chain["feeds"][0]).max_utilization = 100
        s.commit()
    assert [f.label for f in _check(db, chain).over_limit] == ["PP-A/A-01-A"]  # the setting's 80 % rules
    change_setting(db, admin, POWER_LIMIT_PCT, 100, reason="breakers rated for continuous load")
    rp = _check(db, chain)
    assert not rp.over_limit and [f.limit_pct for f in rp.feeds] == [100, 80]
    with pytest.raises(ValidationError):
        change_setting(db, admin, POWER_LIMIT_PCT, 0)


def test_supplies_and_pdus_are_checked(db, admin, chain):
    srv = add_servers(db, admin, chain, 1)[0]
    with pytest.raises(RuleViolation, match="already feeds srv-01"):
        P.connect_supply(db, admin, srv, "PSU3", chain["pdus"]["A"], 1)
    with pytest.raises(ValidationError):
        P.connect_supply(db, admin, srv, "PSU3", chain["pdus"]["A"], 25)
    with pytest.raises(RuleViolation, match="not a PDU"):
        P.attach_pdu(db, admin, srv, chain["feeds"][0])
    with db.session() as s:
        assert s.execute(select(AuditEvent).where(AuditEvent.action == "power.connect")).first() is not None


def _circuit_item(w, quantity=2, price="800", **kw):
    return C.ItemSpec(kind=ItemKind.POWER, description="2 × 32 A / 230 V 电力回路", unit_price=D(price),
                      price_unit=PriceUnit.MONTH, quantity=D(quantity), rack_id=w.rack_ids[0], **kw)


def test_circuits_are_billed_from_the_handover_fee_and_metered_energy(db, admin, manager, chain):
    """Two circuits at ¥800.00 each a month plus ¥1.00 a kWh, handed over on 11 October.

    | line   | arithmetic                                         | amount  |
    |--------|----------------------------------------------------|---------|
    | fee    | 800 × 2 × 21/31 = 1,083.870…                       | 1083.87 | VAT 6 % (IDC): 65.0322 → 65.03
    | power  | A: 1,000 → 1,210; B: 50 → 260 = 420 kWh × 1.00     | 420.00  | VAT 13 % (electricity): 54.60
    Readings before the handover (1 October) are not billed.
    """
    w = chain["w"]
    c = signed(db, manager, admin, w, [_circuit_item(w, kwh_price=D("1.00"), service_start=dt.date(2026, 10, 11))],
               dt.date(2026, 10, 1), dt.date(2027, 9, 30), at=cst(2026, 10, 1, 9))
    item_id = c.items[0].id if hasattr(c.items[0], "id") else None
    with db.session() as s:
        from models import ContractItem
        item_id = s.execute(select(ContractItem.id).where(ContractItem.kind == ItemKind.POWER)).scalar_one()
    assert P.sell_circuits(db, manager, item_id, list(chain["feeds"])) == 2
    days = [dt.date(2026, 10, 11) + dt.timedelta(days=k) for k in range(22)]  # daily, 11 Oct … 1 Nov
    readings = ([{"circuit": "GZ1/PP-A/A-01-A", "read_at": "2026-10-01T00:00", "kwh_total": "500"}]
                + [{"circuit": "GZ1/PP-A/A-01-A", "read_at": f"{d}T00:00", "kwh_total": str(1000 + 10 * k)}
                   for k, d in enumerate(days)]
                + [{"circuit": "PP-B/A-01-B", "read_at": f"{d} 00:00", "kwh_total": str(50 + 10 * k)}
                   for k, d in enumerate(days)])
    assert P.import_circuit_readings(db, admin, readings) == P.ReadingImport(45, 0, 2)
    sep = BS.run_billing(db, admin, "2026-10", as_of=cst(2026, 12, 1, 9))
    assert sep.lines_created == 0  # not handed over yet: nothing billed
    record_handover(db, admin, c.number, 1, cst(2026, 10, 11, 10), "配电验收单 PD-0011")
    octo = BS.run_billing(db, admin, "2026-10", as_of=cst(2026, 12, 1, 9))
    lines = [(ln.charge, ln.quantity, ln.unit_price, ln.amount) for st in octo.statements for ln in st.lines]
    assert not octo.warnings, octo.warnings
    assert lines == [("fee", D("1.35484"), D("800"), D("1083.87")), ("power", D("420.000"), D("1"), D("420.00"))]
    # the circuits' fee is the IDC service; their metered energy is electricity
    assert [(ln.tax_rate, ln.tax) for st in octo.statements for ln in st.lines] == [
        (D("0.06"), D("65.03")), (D("0.13"), D("54.60"))]
    note = octo.statements[0].lines[1].note
    assert "PP-A/A-01-A 1000.000 → 1210.000 = 210.000 kWh" in note


def test_circuit_readings_refuse_a_drop_without_reset_and_a_circuit_sold_twice(db, admin, manager, chain):
    rows = [{"circuit": "PP-A/A-01-A", "read_at": "2026-10-01T00:00", "kwh_total": "500"},
            {"circuit": "PP-A/A-01-A", "read_at": "2026-10-02T00:00", "kwh_total": "400"},
            {"circuit": "PP-A/NOPE", "read_at": "2026-10-02T00:00", "kwh_total": "1"}]
    with pytest.raises(ValidationError) as exc:
        P.import_circuit_readings(db, admin, rows)
    assert set(exc.value.errors) == {"line 3", "line 4"}
    rows[1]["reset"] = "1"
    assert P.import_circuit_readings(db, admin, rows[:2]).imported == 2
    w = chain["w"]
    signed(db, manager, admin, w, [_circuit_item(w, quantity=1)], dt.date(2026, 10, 1), dt.date(2027, 9, 30))
    signed(db, manager, admin, w, [_circuit_item(w, quantity=1)], dt.date(2026, 10, 1), dt.date(2027, 9, 30),
           customer_id=w.other_customer_id)
    with db.session() as s:
        from models import ContractItem
        first, second = s.execute(select(ContractItem.id).where(ContractItem.kind == ItemKind.POWER)
                                  .order_by(ContractItem.id)).scalars().all()
    P.sell_circuits(db, manager, first, [chain["feeds"][0]])
    with pytest.raises(RuleViolation, match="is sold by contract"):
        P.sell_circuits(db, manager, second, [chain["feeds"][0]])
    with pytest.raises(RuleViolation, match="sells 1 circuit"):
        P.sell_circuits(db, manager, second, list(chain["feeds"]))


def test_power_panels_and_feeds_round_trip_through_import_and_export(db, admin, chain, tmp_path):
    from app.importexport import export_rows, run_import

    for kind in ("power-panels", "power-feeds", "pdus"):
        path = tmp_path / f"{kind}.csv"
        headers, rows = export_rows(db, kind)
        rows = list(rows)
        assert rows
        import csv
        with path.open("w", newline="", encoding="utf-8") as fh:
            wr = csv.writer(fh)
            wr.writerow(headers)
            wr.writerows(rows)
        result = run_import(db, admin, kind, path)
        assert result.created == 0 and result.updated == 0, result
    # NetBox's columns create new ones; a redundant feed is side B
    feeds = tmp_path / "netbox-feeds.csv"
    feeds.write_text("site,power_panel,rack,name,status,type,supply,phase,voltage,amperage,max_utilization\n"
                     "GZ1,PP-B,A-02,A-02-B,active,redundant,ac,single-phase,230,32,80\n", encoding="utf-8")
    result = run_import(db, admin, "power-feeds", feeds)
    assert result.created == 1, result
    with db.session() as s:
        f = s.execute(select(PowerFeed).where(PowerFeed.name == "A-02-B")).scalar_one()
        assert (f.side, f.voltage, f.amperage, f.type) == ("B", 230, 32, "redundant")
        assert s.execute(select(AuditEvent).where(AuditEvent.action == "power_feed.create",
                                                  AuditEvent.object_label == "PP-B/A-02-B")).first()
        assert s.execute(select(PowerPanel).where(PowerPanel.name == "PP-A")).scalar_one().ups == "UPS-1"


def test_migration_turns_each_racks_power_figures_into_one_feed(demo_db):
    """Down to 0015 (the power chain goes) and up again: every rack gets one side-A feed from a legacy
    panel of its room, its breaker the rack's breaker limit (the demo's: capacity × 1.25) in amperes."""
    import math

    from sqlalchemy import func

    from models import Rack

    db = demo_db
    db.downgrade("0015")
    db.upgrade()
    with db.session() as s:
        racks = s.execute(select(Rack)).scalars().all()
        feeds = {f.rack_id: f for f in s.execute(select(PowerFeed)).scalars()}
        assert len(feeds) == len(racks) == s.execute(select(func.count(PowerFeed.id))).scalar_one()
        for rack in racks:
            f = feeds[rack.id]
            assert (f.side, f.type, f.voltage, f.name) == ("A", "primary", 220, rack.name)
            assert f.amperage == math.ceil(rack.breaker_limit_kw * 1000 / 220)
            assert s.get(PowerPanel, f.power_panel_id).name.endswith(" legacy")
    rp = RP.rack_power_of(db, racks[0].id)
    assert rp.redundancy == RedundancyState.SINGLE and len(rp.feeds) == 1


def test_the_checks_and_the_setting_from_the_command_line(db, admin, chain, capsys, monkeypatch, tmp_path):
    from app.cli.main import main
    from tests.conftest import PASSWORD

    url = db.engine.url.render_as_string(hide_password=False)
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", PASSWORD)
    add_servers(db, admin, chain, 3)
    assert main(["--db", url, "power", "check", "GZ1/A/A-01"]) == 0
    assert "A/A-01: 2.10 kW; Redundant" in capsys.readouterr().out
    assert main(["--db", url, "--user", "admin", "power", "connect", "srv-01", "PSU3", "PDU-A", "9"]) == 0
    add_servers(db, admin, chain, 2, first=4)
    assert main(["--db", url, "power", "check", "--site", "GZ1"]) == 1
    out = capsys.readouterr().out
    assert "failing 1" in out and "with side A lost, feed PP-B/A-01-B (B) would carry 3.50 kW" in out
    assert main(["--db", url, "--user", "admin", "settings", "set", "power_breaker_limit_pct", "abc"]) == 1
    assert main(["--db", url, "--user", "admin", "settings", "set", "power_breaker_limit_pct", "100",
                 "--reason", "continuous-rated breakers"]) == 0
    capsys.readouterr()
    assert main(["--db", url, "settings", "show"]) == 0
    assert "power_breaker_limit_pct\t100" in capsys.readouterr().out
    csv = tmp_path / "r.csv"
    csv.write_text("circuit,read_at,kwh_total\nGZ1/PP-A/A-01-A,2026-10-01T00:00,1\n", encoding="utf-8")
    assert main(["--db", url, "--user", "admin", "power", "readings", str(csv)]) == 0
    assert "imported 1 circuit reading(s) for 1 circuit(s)" in capsys.readouterr().out


def test_circuit_readings_follow_the_rack_meters_rules(db, admin, chain):
    """One import for every cumulative meter (services/billing/meters.import_counter_readings): a new
    reading above a stored later one would make that one a drop, refused for circuits as for racks;
    a stored reading is never overwritten; the same reading again is unchanged."""
    later = {"circuit": "PP-A/A-01-A", "read_at": "2026-10-10T00:00", "kwh_total": "900"}
    assert P.import_circuit_readings(db, admin, [later]) == P.ReadingImport(1, 0, 1)
    with pytest.raises(ValidationError) as exc:
        P.import_circuit_readings(db, admin, [{"circuit": "PP-A/A-01-A", "read_at": "2026-10-05T00:00",
                                               "kwh_total": "950"}])
    assert "above the stored reading after it" in exc.value.errors["line 2"]
    with pytest.raises(ValidationError) as exc:
        P.import_circuit_readings(db, admin, [dict(later, kwh_total="901")])
    assert "it is not overwritten" in exc.value.errors["line 2"]
    assert P.import_circuit_readings(db, admin, [later]) == P.ReadingImport(0, 1, 1)
