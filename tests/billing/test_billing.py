"""Billing worked examples: every figure is computed by hand in the table beside it.

Tax rates (seeded data): IDC 6 %, equipment leasing (GPU rental) 13 %. Amount and tax of each
line are rounded half-up to the fen; statement totals are sums of the lines.
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from app.domain.errors import PermissionDenied, RuleViolation, ValidationError
from app.services import billing as BS
from app.services import contracts as C
from models.choices import ItemKind, PriceUnit, StatementStatus
from tests.conftest import table_counts
from tests.billing.test_billing_world import add_readings, cst, gpu_item, make_world, rack_item, signed

D = Decimal
NOW = cst(2026, 11, 29, 12)  # "today" for credit notes
RUN_AT = cst(2026, 12, 1, 9)  # "today" for every run: October and November have ended


def lines_of(summary, contract_number=None):
    """(charge, quantity, unit_price, amount, tax) of every line the run wrote."""
    out = []
    for st in summary.statements:
        for ln in st.lines:
            if contract_number is None or ln.contract_number == contract_number:
                out.append((ln.charge, ln.quantity, ln.unit_price, ln.amount, ln.tax))
    return out


def run(db, actor, period, **kw):
    return BS.run_billing(db, actor, period, as_of=kw.pop("as_of", RUN_AT), **kw)


# --- monthly fees: proration by day ----------------------------------------------------------

def test_mid_month_start_and_mid_month_termination(db, admin, manager):
    """Rack A-01 at ¥6,000.00 a month, handed over on 16 September, terminated after 20 October.

    | period  | active days     | arithmetic             | amount   | tax 6 %                    |
    |---------|-----------------|------------------------|----------|----------------------------|
    | 2026-09 | 16–30 = 15 / 30 | 6000 × 15 / 30         | 3000.00  | 180.00                     |
    | 2026-10 | 1–20 = 20 / 31  | 6000 × 20 / 31 = 3870.967… | 3870.97 | 3870.97 × 0.06 = 232.2582 → 232.26 |
    | 2026-11 | none            |                        | no line  |                            |

    Each line multiplies out: quantity = the share of the month, with the decimals that give the
    amount: 15/30 = 0.5 × 6,000 = 3,000.00; 20/31 = 0.645161 × 6,000 = 3,870.966 → 3,870.97.
    """
    w = make_world(db)
    c = signed(db, manager, admin, w, [rack_item(w, 1, "6000", service_start=dt.date(2026, 9, 16))],
               dt.date(2026, 9, 1), dt.date(2027, 8, 31), at=cst(2026, 9, 16, 10))
    sep = run(db, admin, "2026-09")
    assert lines_of(sep) == [("fee", D("0.5"), D("6000"), D("3000.00"), D("180.00"))]
    assert "按日折算 15/30 天" in sep.statements[0].lines[0].description
    C.terminate_contract(db, admin, c.id, reason="客户退租", last_day=dt.date(2026, 10, 20), at=cst(2026, 10, 20, 18))
    octo = run(db, admin, "2026-10")
    assert lines_of(octo) == [("fee", D("0.645161"), D("6000"), D("3870.97"), D("232.26"))]
    st = octo.statements[0]
    assert (st.subtotal, st.tax, st.total) == (D("3870.97"), D("232.26"), D("4103.23"))
    assert st.total_in_words == "肆仟壹佰零叁元贰角叁分"
    assert run(db, admin, "2026-11").lines_created == 0


def test_february_in_a_leap_year(db, admin, manager):
    """Rack at ¥5,800.00 a month from 10 February 2028: February 2028 has 29 days.

    | period  | active days     | arithmetic      | amount  | tax 6 % |
    |---------|-----------------|-----------------|---------|---------|
    | 2028-02 | 10–29 = 20 / 29 | 5800 × 20 / 29  | 4000.00 | 240.00  |
    | 2028-03 | 31 / 31         | 5800            | 5800.00 | 348.00  |
    February's quantity: 20/29 = 0.689655 (× 5,800 = 3,999.999 → 4,000.00).
    """
    w = make_world(db)
    signed(db, manager, admin, w, [rack_item(w, 1, "5800")], dt.date(2028, 2, 10), dt.date(2029, 2, 9))
    feb = run(db, admin, "2028-02", as_of=cst(2028, 4, 1))
    assert lines_of(feb) == [("fee", D("0.689655"), D("5800"), D("4000.00"), D("240.00"))]
    assert "20/29" in feb.statements[0].lines[0].description
    mar = run(db, admin, "2028-03", as_of=cst(2028, 4, 1))
    assert lines_of(mar) == [("fee", D(1), D("5800"), D("5800.00"), D("348.00"))]


def test_yearly_price_is_billed_as_a_twelfth_prorated(db, admin, manager):
    """Maintenance at ¥36,000.00 a year (so ¥3,000.00 a month), from 11 September.

    | period  | active days     | arithmetic              | amount  | tax 6 % |
    |---------|-----------------|-------------------------|---------|---------|
    | 2026-09 | 11–30 = 20 / 30 | 36000 ÷ 12 × 20 / 30    | 2000.00 | 120.00  |
    | 2026-10 | 31 / 31         | 36000 ÷ 12              | 3000.00 | 180.00  |
    The line's unit price is the yearly price, its quantity the share of a year:
    20/30 ÷ 12 = 0.0555556 (× 36,000 = 2,000.0016 → 2,000.00); 1/12 = 0.0833333 (→ 2,999.9988 → 3,000.00).
    """
    w = make_world(db)
    item = C.ItemSpec(ItemKind.MAINTENANCE, "设备维保", D("36000"), PriceUnit.YEAR)
    signed(db, manager, admin, w, [item], dt.date(2026, 9, 11), dt.date(2027, 9, 10))
    sep = run(db, admin, "2026-09")
    assert lines_of(sep) == [("fee", D("0.0555556"), D("36000"), D("2000.00"), D("120.00"))]
    assert "按 1/12 月计" in sep.statements[0].lines[0].description
    assert lines_of(run(db, admin, "2026-10")) == [("fee", D("0.0833333"), D("36000"), D("3000.00"), D("180.00"))]


def test_english_contract_says_so_in_english(db, admin, manager):
    w = make_world(db)
    item = C.ItemSpec(ItemKind.MAINTENANCE, "Maintenance", D("36000"), PriceUnit.YEAR)
    signed(db, manager, admin, w, [item], dt.date(2026, 9, 11), dt.date(2027, 9, 10), language="en")
    desc = run(db, admin, "2026-09").statements[0].lines[0].description
    assert "billed as 1/12 a month" in desc and "prorated 20/30 days" in desc


def test_one_off_discount_and_bandwidth(db, admin, manager):
    """Installation once in the handover month; a monthly discount is a negative fee.

    | item                  | 2026-10 arithmetic   | amount   | tax                     |
    |-----------------------|----------------------|----------|-------------------------|
    | installation (one-off)| 2000 × 1             | 2000.00  | 120.00                  |
    | bandwidth 100 Mbps    | 50 × 100             | 5000.00  | 300.00 (telecom 6 %)    |
    | discount ¥500 / month | −500                 | −500.00  | −30.00                  |
    November: no installation line again.
    """
    w = make_world(db)
    items = [C.ItemSpec(ItemKind.ONE_OFF, "安装费", D("2000"), PriceUnit.ONE_OFF),
             C.ItemSpec(ItemKind.BANDWIDTH, "带宽", D("50"), PriceUnit.MBPS_MONTH, mbps=100),
             C.ItemSpec(ItemKind.DISCOUNT, "折扣", D("500"), PriceUnit.MONTH)]
    signed(db, manager, admin, w, items, dt.date(2026, 10, 1), dt.date(2027, 9, 30))
    octo = run(db, admin, "2026-10")
    assert [l[3:] for l in lines_of(octo)] == [(D("2000.00"), D("120.00")), (D("5000.00"), D("300.00")),
                                               (D("-500.00"), D("-30.00"))]
    assert octo.statements[0].total == D("6890.00")
    assert len(lines_of(run(db, admin, "2026-11"))) == 2


# --- GPU hours ------------------------------------------------------------------------------

def test_hourly_lease_across_a_month_boundary(db, admin, manager):
    """Two H100 at ¥12.50 per GPU-hour, handed over 31 Oct 20:30, returned 2 Nov 10:15 (Shanghai).

    | period  | metered                          | seconds   | started hours | amount          | tax 13 %                   |
    |---------|----------------------------------|-----------|---------------|-----------------|----------------------------|
    | 2026-10 | 2 × (20:30 → 24:00) = 2 × 3.5 h  | 25,200    | 7             | 7 × 12.5 = 87.50  | 11.375 → 11.38 (half-up) |
    | 2026-11 | 2 × (00:00 → 2 Nov 10:15) = 2 × 34.25 h | 246,600 | 68.5 → 69 | 69 × 12.5 = 862.50 | 112.125 → 112.13        |
    """
    w = make_world(db)
    c = signed(db, manager, admin, w, [gpu_item(w, [1, 2], "12.5")], dt.date(2026, 10, 31), dt.date(2027, 10, 30),
               at=cst(2026, 10, 31, 20, 30))
    C.terminate_contract(db, admin, c.id, reason="训练结束", at=cst(2026, 11, 2, 10, 15))
    octo = run(db, admin, "2026-10")
    assert lines_of(octo) == [("usage", D(7), D("12.5"), D("87.50"), D("11.38"))]
    assert "25,200" in octo.statements[0].lines[0].note
    nov = run(db, admin, "2026-11")
    assert lines_of(nov) == [("usage", D(69), D("12.5"), D("862.50"), D("112.13"))]


def test_per_minute_price(db, admin, manager):
    """One GPU at ¥0.30 per GPU-minute from 31 Oct 23:58:30 to midnight: 90 s → 2 started minutes = 0.60."""
    w = make_world(db)
    signed(db, manager, admin, w, [gpu_item(w, [1], "0.30", PriceUnit.GPU_MINUTE)], dt.date(2026, 10, 31),
           dt.date(2027, 10, 30), at=dt.datetime(2026, 10, 31, 15, 58, 30, tzinfo=dt.timezone.utc))
    assert lines_of(run(db, admin, "2026-10")) == [("usage", D(2), D("0.3"), D("0.60"), D("0.08"))]


def test_gpu_with_downtime_shows_the_credit(db, admin, manager):
    """One H100 at ¥20.00 per GPU-hour, leased all October; down 10 Oct 08:00–14:30.

    | what                 | seconds                      | started hours | amount                 | tax 13 %  |
    |----------------------|------------------------------|---------------|------------------------|-----------|
    | leased               | 31 × 86,400 = 2,678,400      | 744           | 744 × 20 = 14,880.00   | 1,934.40  |
    | down                 | 6.5 h = 23,400               |               |                        |           |
    | billable             | 2,655,000 = 737.5 h          | 738           |                        |           |
    | credit               |                              | 744 − 738 = 6 | −6 × 20 = −120.00      | −15.60    |
    Net 14,760.00 + tax 1,918.80 = 16,678.80.
    """
    w = make_world(db)
    signed(db, manager, admin, w, [gpu_item(w, [1], "20")], dt.date(2026, 9, 20), dt.date(2027, 9, 19))
    BS.record_downtime(db, admin, gpu_id=w.gpu_ids[0], start=cst(2026, 10, 10, 8), end=cst(2026, 10, 10, 14, 30),
                       reason="GPU 掉卡，更换 NVLink 桥")
    octo = run(db, admin, "2026-10")
    assert lines_of(octo) == [("usage", D(744), D("20"), D("14880.00"), D("1934.40")),
                              ("credit", D(-6), D("20"), D("-120.00"), D("-15.60"))]
    credit = octo.statements[0].lines[1]
    assert "故障停机抵扣 6.50 小时" in credit.description and "掉卡" in credit.note
    assert octo.statements[0].total == D("16678.80")


def test_monthly_gpu_downtime_credit(db, admin, manager):
    """One H100 at ¥31,000.00 a month, down 24 h in October (31 days = 2,678,400 s).

    | line   | arithmetic                        | amount     | tax 13 %  |
    |--------|-----------------------------------|------------|-----------|
    | fee    | 31000 × 1 × 31/31                 | 31,000.00  | 4,030.00  |
    | credit | −31000 × 86,400 / 2,678,400       | −1,000.00  | −130.00   |
    """
    w = make_world(db)
    signed(db, manager, admin, w, [gpu_item(w, [1], "31000", PriceUnit.MONTH)], dt.date(2026, 10, 1),
           dt.date(2027, 9, 30))
    BS.record_downtime(db, admin, gpu_id=w.gpu_ids[0], start=cst(2026, 10, 5), end=cst(2026, 10, 6), reason="过热")
    assert [l[0::3] for l in lines_of(run(db, admin, "2026-10"))] == [
        ("fee", D("31000.00")), ("credit", D("-1000.00"))]


def test_hybrid_over_and_under_commitment(db, admin, manager):
    """Commit ¥50,000.00 a month including 2,000 GPU-hours, ¥30.00 per GPU-hour beyond; all October.

    | contract | GPUs | used hours          | over                     | lines                               |
    |----------|------|---------------------|--------------------------|-------------------------------------|
    | over     | 4    | 4 × 744 = 2,976     | 2,976 − 2,000 = 976      | fee 50,000.00 (tax 6,500.00); overage 976 × 30 = 29,280.00 (tax 3,806.40) |
    | under    | 2    | 2 × 744 = 1,488     | max(0, 1,488 − 2,000) = 0 | fee 50,000.00 (tax 6,500.00); no overage line |
    """
    w = make_world(db)
    hybrid = dict(included_hours=D(2000), hourly_rate=D(30))
    over = signed(db, manager, admin, w, [gpu_item(w, [1, 2, 3, 4], "50000", PriceUnit.HYBRID, **hybrid)],
                  dt.date(2026, 10, 1), dt.date(2027, 9, 30))
    under = signed(db, manager, admin, w, [gpu_item(w, [5, 6], "50000", PriceUnit.HYBRID, **hybrid)],
                   dt.date(2026, 10, 1), dt.date(2027, 9, 30), customer_id=w.other_customer_id)
    octo = run(db, admin, "2026-10")
    assert lines_of(octo, over.number) == [("fee", D(1), D("50000"), D("50000.00"), D("6500.00")),
                                           ("overage", D(976), D("30"), D("29280.00"), D("3806.40"))]
    assert lines_of(octo, under.number) == [("fee", D(1), D("50000"), D("50000.00"), D("6500.00"))]
    under_fee = [ln for st in octo.statements for ln in st.lines if ln.contract_number == under.number][0]
    assert "已用 1488 GPU时" in under_fee.note


# --- power ----------------------------------------------------------------------------------

def daily_readings(start_day: int, n_days: int, first: int, per_day: int, month=10):
    base = cst(2026, month, start_day)
    return [(base + dt.timedelta(days=k), str(first + per_day * k)) for k in range(n_days)]


def test_power_overage_with_a_meter_reset(db, admin, manager):
    """Rack A-02: ¥5,000.00 a month, allowance 5 kW, ¥1.20 per kWh beyond; 150 kWh a day in October.

    Daily readings at 00:00. The meter was reset during 15 October: it reads 12,100 on the 15th
    and 150 on the 16th (150 kWh counted since the reset).

    | segment                       | readings                | kWh                 |
    |-------------------------------|-------------------------|---------------------|
    | 1 Oct → 15 Oct                | 10,000 → 12,100         | 2,100               |
    | reset, counted from zero      | 0 → 150                 | 150                 |
    | 16 Oct → 1 Nov                | 150 → 2,550             | 2,400               |
    | used                          |                         | 4,650 = 31 × 150    |
    | allowance                     | 5 kW × 744 h            | 3,720               |
    | over                          | 4,650 − 3,720           | 930 × 1.20 = 1,116.00 |
    | VAT                           | electricity 13 %        | 1,116.00 × 0.13 = 145.08 (the rent 5,000.00 × 0.06 = 300.00) |
    """
    w = make_world(db)
    c = signed(db, manager, admin, w, [rack_item(w, 2, "5000", power_allowance_kw=D(5), kwh_price=D("1.20"))],
               dt.date(2026, 10, 1), dt.date(2027, 9, 30))
    add_readings(db, w.rack_ids[1], daily_readings(1, 15, 10000, 150) + daily_readings(16, 17, 150, 150))
    octo = run(db, admin, "2026-10")
    assert lines_of(octo) == [("fee", D(1), D("5000"), D("5000.00"), D("300.00")),
                              ("power", D("930.000"), D("1.2"), D("1116.00"), D("145.08"))]
    power = octo.statements[0].lines[1]
    assert "复位" in power.note and "4650" in power.note and "3720" in power.note
    assert any("复位" in warning for warning in octo.warnings)
    del c


def test_metered_energy_is_taxed_as_electricity_and_a_rent_with_power_at_its_category(db, admin, manager):
    """Rack A-01 rents at ¥6,000.00 a month with 1 kW included and ¥1.20 a kWh beyond; rack A-03's
    hosting is priced ¥1.10 a kWh of its meter. Both meters read 100 kWh a day in October (3,100 kWh).

    | line             | arithmetic                         | amount   | VAT                                  |
    |------------------|------------------------------------|----------|--------------------------------------|
    | A-01 rent        | 6,000.00 × 1                       | 6,000.00 | IDC 6 %: 360.00                      |
    | A-01 over        | (3,100 − 1 kW × 744 h) × 1.20      | 2,827.20 | electricity 13 %: 367.536 → 367.54   |
    | A-03 by the kWh  | 3,100 × 1.10                       | 3,410.00 | electricity 13 %: 443.30             |

    Without an electricity rate in force the run is refused, naming it, and writes nothing.
    """
    from sqlalchemy import delete

    from models import TaxRate

    w = make_world(db)
    signed(db, manager, admin, w, [rack_item(w, 1, "6000", power_allowance_kw=D("1"), kwh_price=D("1.20")),
                                   C.ItemSpec(kind=ItemKind.HOSTING, description="A-03 托管用电", unit_price=D("1.10"),
                                              price_unit=PriceUnit.KWH, rack_id=w.rack_ids[2])],
           dt.date(2026, 10, 1), dt.date(2027, 9, 30))
    for n in (1, 3):
        add_readings(db, w.rack_ids[n - 1], [(cst(2026, 10, 1) + dt.timedelta(days=k), str(100 * k)) for k in range(32)])
    with db.session() as s:
        s.execute(delete(TaxRate).where(TaxRate.category == "electricity"))
        s.commit()
    before = table_counts(db)
    with pytest.raises(RuleViolation, match="no tax rate for electricity valid in 2026-10"):
        run(db, admin, "2026-10")
    assert table_counts(db) == before
    with db.session() as s:
        s.add(TaxRate(category="electricity", rate=D("0.13"), valid_from=dt.date(2019, 4, 1)))
        s.commit()
    octo = run(db, admin, "2026-10")
    assert [(ch, q, p, a, t) for ch, q, p, a, t in lines_of(octo)] == [
        ("fee", D(1), D("6000"), D("6000.00"), D("360.00")),
        ("power", D("2356.000"), D("1.2"), D("2827.20"), D("367.54")),
        ("power", D("3100.000"), D("1.1"), D("3410.00"), D("443.30"))]
    assert [ln.tax_rate for st in octo.statements for ln in st.lines] == [D("0.06"), D("0.13"), D("0.13")]
    st = octo.statements[0]
    assert (st.subtotal, st.tax, st.total) == (D("12237.20"), D("1170.84"), D("13408.04"))


def test_meter_gap_holds_the_power_line_until_readings_arrive(db, admin, manager):
    """Readings missing 10–14 October (9th to 15th): the fee is billed, power is held and reported; once the
    readings are imported, the next run bills the power line and nothing else."""
    w = make_world(db)
    signed(db, manager, admin, w, [rack_item(w, 3, "5000", power_allowance_kw=D(5), kwh_price=D("1.20"))],
           dt.date(2026, 10, 1), dt.date(2027, 9, 30))
    every = daily_readings(1, 32, 0, 100)  # 100 kWh a day → 3,100 kWh < 3,720 allowance
    add_readings(db, w.rack_ids[2], every[:9] + every[14:])
    first = run(db, admin, "2026-10")
    assert [l[0] for l in lines_of(first)] == ["fee"]
    assert first.held == 1 and "readings missing from 2026-10-09 00:00 to 2026-10-15 00:00" in first.warnings[0]
    BS.import_meter_readings(db, admin, [{"rack": "A-03", "read_at": t.isoformat(), "kwh_total": v} for t, v in every])
    second = run(db, admin, "2026-10")
    assert second.skipped_existing == 1 and second.statements_extended == 1
    assert lines_of(second) == [("fee", D(1), D("5000"), D("5000.00"), D("300.00")),
                                ("power", D("0.000"), D("1.2"), D("0.00"), D("0.00"))]


def test_meter_import_from_csv_is_all_or_nothing(db, admin, operator, auditor, tmp_path):
    w = make_world(db)
    good = tmp_path / "m.csv"
    good.write_text("rack,read_at,kwh_total\nA-01,2026-10-01T00:00,100\nGZ1/A/A-01,2026-10-02 00:00,250.5\n",
                    encoding="utf-8")
    assert BS.import_meter_readings(db, operator, good) == BS.MeterImport(2, 0, 1)
    assert BS.import_meter_readings(db, operator, good) == BS.MeterImport(0, 2, 1)
    bad = tmp_path / "bad.csv"
    bad.write_text("rack,read_at,kwh_total\nA-01,2026-10-03T00:00,300\nB-99,2026-10-03,1\nA-01,2026-10-02T00:00,999\n")
    before = table_counts(db)
    with pytest.raises(ValidationError) as exc:
        BS.import_meter_readings(db, operator, bad)
    assert set(exc.value.errors) == {"line 3", "line 4"}
    with pytest.raises(PermissionDenied):
        BS.import_meter_readings(db, auditor, good)
    assert table_counts(db) == before
    del w


# --- idempotence, issuing, immutability, credit notes -------------------------------------

def _two_customers(db, admin, manager):
    w = make_world(db)
    signed(db, manager, admin, w, [rack_item(w, 1, "6000")], dt.date(2026, 10, 1), dt.date(2027, 9, 30))
    signed(db, manager, admin, w, [rack_item(w, 2, "5000")], dt.date(2026, 10, 1), dt.date(2027, 9, 30),
           customer_id=w.other_customer_id)
    return w


def test_a_second_run_creates_nothing_and_says_so(db, admin, manager):
    _two_customers(db, admin, manager)
    dry = run(db, admin, "2026-10", dry_run=True)
    counts = table_counts(db)
    assert dry.lines_created == 2 and dry.statements_created == 2 and counts == table_counts(db)
    first = run(db, admin, "2026-10")
    assert (first.statements_created, first.lines_created, first.total) == (2, 2, D("11660.00"))
    assert [(s.subtotal, s.total) for s in first.statements] == [(D("6000.00"), D("6360.00")),
                                                                  (D("5000.00"), D("5300.00"))]
    before = {k: v for k, v in table_counts(db).items() if k.startswith("statement")}
    second = run(db, admin, "2026-10")
    assert (second.lines_created, second.statements_created, second.skipped_existing) == (0, 0, 2)
    assert "nothing to bill, every line already exists" in second.describe()
    assert {k: v for k, v in table_counts(db).items() if k.startswith("statement")} == before


def test_run_reports_progress_and_can_be_cancelled(db, admin, manager):
    _two_customers(db, admin, manager)
    seen = []
    before = table_counts(db)
    out = run(db, admin, "2026-10", progress=lambda d, t: seen.append((d, t)), cancelled=lambda: len(seen) >= 1)
    assert out.cancelled and seen == [(1, 2)] and table_counts(db) == before
    run(db, admin, "2026-10", progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (2, 2)


def test_only_admins_run_billing(db, admin, manager, auditor):
    _two_customers(db, admin, manager)
    before = table_counts(db)
    with pytest.raises(PermissionDenied, match="run billing"):
        run(db, manager, "2026-10")
    with pytest.raises(PermissionDenied):
        BS.issue_statements(db, auditor, period="2026-10")
    assert run(db, auditor, "2026-10", dry_run=True).lines_created == 2  # a preview is a read
    with pytest.raises(ValidationError, match="YYYY-MM"):
        run(db, admin, "2026-13")
    with pytest.raises(ValidationError, match="has not begun"):
        run(db, admin, "2027-01")
    assert table_counts(db) == before


def test_issue_numbers_statements_and_issued_ones_never_change(db, admin, manager):
    _two_customers(db, admin, manager)
    summary = run(db, admin, "2026-10", issue=True)
    assert summary.issued == ("GZ-202610-000001", "GZ-202610-000002")
    st = BS.get_statement(db, "GZ-202610-000001")
    assert st.status == StatementStatus.ISSUED and st.issued_at is not None
    # the service refuses …
    with pytest.raises(RuleViolation, match="credit note"):
        BS.delete_draft(db, admin, st.number, reason="重开")
    assert BS.issue_statements(db, admin, period="2026-10").issued == ()
    # … and so does the database, to anyone with SQL
    for sql in ("UPDATE statement SET total = 1 WHERE number = 'GZ-202610-000001'",
                "UPDATE statement_line SET amount = 1 WHERE statement_id = %d" % st.id,
                "DELETE FROM statement_line WHERE statement_id = %d" % st.id,
                "DELETE FROM statement WHERE id = %d" % st.id):
        with db.engine.connect() as conn, pytest.raises(DBAPIError, match="issued statement cannot be changed"):
            conn.execute(text(sql))
    # the fapiao number may still be recorded
    assert BS.record_fapiao(db, admin, st.number, "44001234567890123456").fapiao_no == "44001234567890123456"
    # November statements number from 1 again in their own month
    assert run(db, admin, "2026-11", issue=True).issued == ("GZ-202611-000001", "GZ-202611-000002")


def test_credit_note(db, admin, manager):
    """Crediting GZ-202610-000001 (rack ¥6,000.00 + tax ¥360.00) in full on 29 November.

    | document              | line                 | amount     | tax      | total      |
    |-----------------------|----------------------|------------|----------|------------|
    | GZ-202610-000001      | fee                  | 6,000.00   | 360.00   | 6,360.00   |
    | GZ-CN-202611-000001   | cn-fee (reversal)    | −6,000.00  | −360.00  | −6,360.00  |
    """
    _two_customers(db, admin, manager)
    run(db, admin, "2026-10", issue=True)
    draft_ids = [s.id for s in BS.list_statements(db, period="2026-10")]
    with pytest.raises(ValidationError, match="says why"):
        BS.credit_statement(db, admin, "GZ-202610-000001", reason="")
    cn = BS.credit_statement(db, admin, "GZ-202610-000001", reason="机柜交付延迟，十月全免", at=NOW)
    assert (cn.number, cn.kind, cn.status, cn.original_number) == (
        "GZ-CN-202611-000001", "credit_note", StatementStatus.ISSUED, "GZ-202610-000001")
    assert [(l.charge, l.amount, l.tax) for l in cn.lines] == [("cn-fee", D("-6000.00"), D("-360.00"))]
    assert (cn.subtotal, cn.tax, cn.total) == (D("-6000.00"), D("-360.00"), D("-6360.00"))
    assert cn.total_in_words.startswith("负陆仟叁佰陆拾元")
    assert BS.get_statement(db, "GZ-202610-000001").credit_notes == ("GZ-CN-202611-000001",)
    before = table_counts(db)
    with pytest.raises(RuleViolation, match="already credited by GZ-CN-202611-000001"):
        BS.credit_statement(db, admin, "GZ-202610-000001", reason="again", at=NOW)
    with pytest.raises(RuleViolation, match="a credit note is not credited again"):
        BS.credit_statement(db, admin, cn.number, reason="a credit of a credit", at=NOW)
    assert table_counts(db) == before
    # the second customer's statement is credited with the next credit-note number
    assert BS.credit_statement(db, admin, "GZ-202610-000002", reason="调价", at=NOW).number == "GZ-CN-202611-000002"
    assert len(draft_ids) == 2


def test_delete_draft_lets_the_next_run_bill_afresh(db, admin, manager):
    _two_customers(db, admin, manager)
    first = run(db, admin, "2026-10")
    BS.delete_draft(db, admin, first.statements[0].id, reason="合同价格录错，重算")
    again = run(db, admin, "2026-10")
    assert (again.lines_created, again.skipped_existing) == (1, 1)


def test_amendment_month_bills_both_prices(db, admin, manager):
    """¥6,000.00 until 15 October, ¥6,600.00 from 16 October (amendment R2).

    | revision | days         | arithmetic         | amount   |
    |----------|--------------|--------------------|----------|
    | 1        | 1–15 = 15/31 | 6000 × 15 / 31     | 2903.23  |
    | 2        | 16–31 = 16/31| 6600 × 16 / 31     | 3406.45  |
    """
    w = make_world(db)
    old = signed(db, manager, admin, w, [rack_item(w, 1, "6000")], dt.date(2026, 9, 1), dt.date(2027, 8, 31))
    new = C.amend_contract(db, manager, old.id, effective_date=dt.date(2026, 10, 16), reason="调价",
                           items=[rack_item(w, 1, "6600")])
    C.submit_contract(db, manager, new.id)
    C.approve_contract(db, admin, new.id)
    C.activate_contract(db, admin, new.id, at=cst(2026, 10, 16))
    octo = run(db, admin, "2026-10")
    assert [l[3] for l in lines_of(octo, old.number)] == [D("2903.23")]
    assert [l[3] for l in lines_of(octo, new.number)] == [D("3406.45")]
    assert len(octo.statements) == 1  # one statement per customer and month


def test_downtime_recording_is_checked(db, admin, operator, auditor):
    w = make_world(db)
    with pytest.raises(ValidationError, match="one of them"):
        BS.record_downtime(db, operator, start=cst(2026, 10, 1), reason="x")
    with pytest.raises(PermissionDenied):
        BS.record_downtime(db, auditor, gpu_id=w.gpu_ids[0], start=cst(2026, 10, 1), reason="x")
    did = BS.record_downtime(db, operator, gpu_id=w.gpu_ids[0], start=cst(2026, 10, 1), reason="掉卡")
    with pytest.raises(ValidationError, match="before the start"):
        BS.end_downtime(db, operator, did, cst(2026, 9, 1))
    BS.end_downtime(db, operator, did, cst(2026, 10, 2))
    with pytest.raises(RuleViolation, match="already ended"):
        BS.end_downtime(db, operator, did, cst(2026, 10, 3))


def test_a_contract_ended_before_activation_bills_nothing(db, admin, manager):
    w = make_world(db)
    c = signed(db, manager, admin, w, [rack_item(w, 1, "6000")], dt.date(2026, 10, 1), dt.date(2027, 9, 30),
               activate=False)
    C.terminate_contract(db, admin, c.id, reason="客户未签约", at=cst(2026, 10, 5))
    assert run(db, admin, "2026-10").lines_created == 0


def test_suspended_contract_is_still_billed(db, admin, manager):
    """Suspension holds the rack for the customer, so its fee runs on: 6,000.00 for October."""
    w = make_world(db)
    c = signed(db, manager, admin, w, [rack_item(w, 1, "6000")], dt.date(2026, 10, 1), dt.date(2027, 9, 30))
    C.suspend_contract(db, admin, c.id, reason="欠费")
    assert [l[3] for l in lines_of(run(db, admin, "2026-10"))] == [D("6000.00")]
