"""A contract's totals, worked by hand (app.services.contracts.totals): the figures the form, the detail panel
and the contract PDF show."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

from app.services.contracts.totals import TotalsLine, contract_totals

RATES = {"idc": D("0.06"), "telecom": D("0.06"), "equipment_lease": D("0.13")}
YEAR = (dt.date(2026, 1, 1), dt.date(2026, 12, 31))


def test_a_year_of_a_rack_eight_gpus_and_a_set_up_fee():
    # | line                 | per month  | VAT rate | VAT per month | term (12 months)           |
    # | rack A01             |  5,000.00  |  6 %     |    300.00     |  60,000.00 + 3,600.00 VAT  |
    # | 8 × H100 at 9,000.00 | 72,000.00  | 13 %     |  9,360.00     | 864,000.00 + 112,320.00    |
    # | set-up (one-off)     |            |  6 %     |               |   2,000.00 + 120.00        |
    # term 926,000.00 + VAT 116,040.00 = 1,042,040.00
    t = contract_totals([TotalsLine("rack", "month", D("5000"), D(1), "idc"),
                         TotalsLine("gpu", "month", D("9000"), D(8)),      # GPU: equipment lease by default
                         TotalsLine("one_off", "one_off", D("2000"), D(1), "idc")], *YEAR, RATES)
    assert (t.monthly, t.one_off, t.term_value, t.vat, t.total) == (
        D("77000.00"), D("2000.00"), D("926000.00"), D("116040.00"), D("1042040.00"))
    assert t.in_words == "壹佰零肆万贰仟零肆拾元整" and not t.usage_based


def test_a_late_handover_is_prorated_by_day_and_yearly_is_a_twelfth():
    # GPUs handed over on 15 January: January is 17/31 of 72,000.00 = 39,483.87 (VAT 5,132.90),
    # then 11 full months 792,000.00 (VAT 102,960.00).
    t = contract_totals([TotalsLine("gpu", "month", D("9000"), D(8), service_start=dt.date(2026, 1, 15))],
                        *YEAR, RATES)
    assert (t.term_value, t.vat) == (D("831483.87"), D("108092.90"))
    assert t.total == D("939576.77") and t.in_words == "玖拾叁万玖仟伍佰柒拾陆元柒角柒分"
    # a yearly price of 120,000.00 is 10,000.00 a month; a discount subtracts
    t = contract_totals([TotalsLine("maintenance", "year", D("120000"), D(1), "idc"),
                         TotalsLine("discount", "month", D("1000"), D(1), "idc")], *YEAR, RATES)
    assert (t.monthly, t.term_value, t.vat) == (D("9000.00"), D("108000.00"), D("6480.00"))


def test_usage_is_flagged_not_counted():
    t = contract_totals([TotalsLine("gpu", "gpu_hour", D("12.5"), D(8))], *YEAR, RATES)
    assert (t.monthly, t.term_value, t.total) == (D("0.00"), D("0.00"), D("0.00")) and t.usage_based
    assert t.in_words == "零元整"


def test_energy_is_quoted_at_the_electricity_rate_and_left_out_of_the_totals(db, admin, manager):
    """Rack A-01 at ¥6,000.00 a month with 1 kW included and ¥1.20 a kWh beyond, and hosting priced
    ¥1.10 a kWh of rack A-03's meter, October 2026 to September 2027 (12 months).

    | item           | rate column      | note / terms                           | in the totals             |
    |----------------|------------------|----------------------------------------|---------------------------|
    | A-01 rent      | 6 % (its IDC)    | ¥1.20/kWh beyond, taxed as 售电 13 %   | 72,000.00 + VAT 4,320.00  |
    | A-03 by kWh    | 13 % electricity |                                        | usage: not counted        |

    The billing terms list 6 % and 13 % and say metered energy is taxed as electricity.
    """
    from app.services.contracts.totals import totals_of_contract
    from app.documents.contract import contract_doc
    from app.services import contracts as C
    from models.choices import ItemKind, PriceUnit
    from tests.billing.test_billing_world import make_world, rack_item, signed

    w = make_world(db)
    c = signed(db, manager, admin, w, [rack_item(w, 1, "6000", power_allowance_kw=D("1"), kwh_price=D("1.20")),
                                       C.ItemSpec(kind=ItemKind.HOSTING, description="A-03 托管用电", unit_price=D("1.10"),
                                                  price_unit=PriceUnit.KWH, rack_id=w.rack_ids[2])],
               dt.date(2026, 10, 1), dt.date(2027, 9, 30))
    t = totals_of_contract(db, c.id)
    assert (t.monthly, t.term_value, t.vat, t.total, t.usage_based) == (
        D("6000.00"), D("72000.00"), D("4320.00"), D("76320.00"), True)
    zh, en = contract_doc(db, c.number, language="zh"), contract_doc(db, c.number, language="en")
    assert [row.tax_rate for row in zh.items] == [D("0.06"), D("0.13")]
    assert "¥1.20/kWh（按售电计税 13%）" in zh.items[0].note
    assert "¥1.20/kWh beyond (VAT 13%, as electricity)" in en.items[0].note
    assert any("按售电计征增值税 13%" in term for term in zh.billing_terms)
    assert any(term.endswith("（6%、13%）。") for term in zh.billing_terms)
    assert any("taxed as the sale of electricity at 13%" in term for term in en.billing_terms)


def test_an_hourly_draft_shows_what_full_use_bills():
    """8 × RTX 4090 at ¥2.80 a GPU-hour, 1–30 April 2026 (30 days = 720 h): 8 × 720 × 2.80 =
    16,128.00, VAT 13 % 2,096.64, expected 18,224.64; the fixed totals stay ¥0.00."""
    t = contract_totals([TotalsLine("gpu", "gpu_hour", D("2.80"), D(8), "equipment_lease")],
                        dt.date(2026, 4, 1), dt.date(2026, 4, 30), {"equipment_lease": D("0.13")})
    assert (t.total, t.expected_usage, t.expected_total) == (D("0.00"), D("16128.00"), D("18224.64"))
    assert t.expected_in_words == "壹万捌仟贰佰贰拾肆元陆角肆分"


def test_a_hybrid_commitment_is_the_whole_items_as_billed():
    """Hybrid, 8 GPUs: commitment ¥40,000 a month for the item incl. 4,000 h, ¥9 an hour beyond; a
    full April uses 8 × 720 = 5,760 h: 1,760 h over = 15,840.00; the commitment counts once (not × 8)."""
    t = contract_totals([TotalsLine("gpu", "hybrid", D("40000"), D(8), "equipment_lease",
                                    included_hours=D("4000"), hourly_rate=D("9"))],
                        dt.date(2026, 4, 1), dt.date(2026, 4, 30), {"equipment_lease": D("0.13")})
    assert (t.monthly, t.term_value, t.expected_usage) == (D("40000.00"), D("40000.00"), D("15840.00"))
