"""Rules that two places used to answer differently (issue 23), each now answered once:
a missing VAT rate, a percentage's rounding, a hosting item's unit range, a credit's partial amount."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest
from sqlalchemy import delete

from app.domain.errors import RuleViolation, ValidationError
from models import TaxRate
from tests.billing.test_billing_world import make_world, rack_item, signed


def test_a_missing_vat_rate_is_refused_by_billing_the_contract_form_and_the_pdf_alike(db, admin, manager):
    """Billing refused a period without the rate while the contract form and the contract PDF quoted
    0 %: all three refuse now, with the same message (and that message says what to do)."""
    from app.documents.contract import contract_doc
    from app.services.billing import run_billing
    from app.services.contracts.totals import contract_totals, totals_of_contract, totals_of_draft

    w = make_world(db)
    items = [rack_item(w, 1, "6000")]
    c = signed(db, manager, admin, w, items, dt.date(2026, 10, 1), dt.date(2027, 9, 30))
    with db.session() as s:
        s.execute(delete(TaxRate).where(TaxRate.category == "idc"))
        s.commit()
    refusals = []
    for call in (lambda: run_billing(db, admin, period="2026-10"),
                 lambda: totals_of_contract(db, c.id),
                 lambda: totals_of_draft(db, items, dt.date(2026, 10, 1), dt.date(2027, 9, 30)),
                 lambda: contract_doc(db, c.number, language="zh"),
                 lambda: contract_doc(db, c.number, language="en")):
        with pytest.raises(RuleViolation) as info:
            call()
        refusals.append(info.value.message)
    assert {m.id for m in refusals} == {"tax.rate_none"}
    assert len(set(refusals)) == 1
    assert refusals[0].startswith("there is no tax rate for idc valid in 2026-10")
    assert "under settings" not in refusals[0] and "tax_rate" in refusals[0]
    # the pure totals refuse a category without a rate too, instead of quoting it at 0 %
    from app.services.contracts.totals import TotalsLine
    with pytest.raises(RuleViolation, match="no tax rate for idc valid in 2026-01"):
        contract_totals([TotalsLine("rack", "month", D("5000"), D(1), "idc")],
                        dt.date(2026, 1, 1), dt.date(2026, 12, 31), {"telecom": D("0.06")})
    # a contract dated before the first rate on record is told where the rates start
    with db.session() as s:
        s.add(TaxRate(category="idc", rate=D("0.06"), valid_from=dt.date(2027, 1, 1)))
        s.commit()
    with pytest.raises(RuleViolation) as info:
        totals_of_contract(db, c.id)
    assert info.value.message.id == "tax.rate_missing" and "start in 2027-01" in info.value.message


def test_a_percentage_is_rounded_alike_in_the_racks_list_and_on_the_room_floor(db, admin):
    """2.5 U of 40 U is 6.25 %: the Racks list (SQL) said 6.3 %, the room floor (Python) 6.2 %."""
    from app.domain.money import percent
    from app.read import queries
    from app.read.viewdata import room_layout
    from app.services.common import create_record
    from tests.support.builders import build_site

    ids = build_site(db, admin, racks=1)
    rack = ids["racks"][0]
    from app.services.common import update_record
    update_record(db, admin, "rack", rack, dict(u_height=40))
    half = create_record(db, admin, "device_type", dict(manufacturer="Acme", model="Half", slug="acme-half",
                                                       u_height=D("2.5"), is_full_depth=False, typical_power_w=100))
    create_record(db, admin, "device", dict(name="half-1", device_type_id=half, rack_id=rack, position=1,
                                            face="front"))
    floor = {r.id: r for r in room_layout(db, ids["room"]).racks}[rack]
    spec = queries.SPECS["rack"]
    col = [c.key for c in spec.columns].index("used_pct")
    listed = [row for rows in queries.fetch_all(db, spec) for row in rows]
    assert len(listed) == 1
    assert percent(D("2.5"), D(40)) == D("6.3")
    assert floor.utilisation_pct == D("6.3")
    assert D(str(listed[0][col + 1])) == D("6.3")


def test_a_hosting_items_unit_range_is_checked_against_the_racks_height(db, admin, manager):
    """A rack item's U range was checked against the rack's height, a hosting item's was not:
    U40–U50 in a 42U rack was accepted."""
    from app.services import contracts as C
    from models.choices import ItemKind, PriceUnit

    w = make_world(db)
    hosting = C.ItemSpec(kind=ItemKind.HOSTING, description="托管 U40–U50", unit_price=D("800"),
                         price_unit=PriceUnit.MONTH, rack_id=w.rack_ids[0], u_from=40, u_to=50)
    with pytest.raises(ValidationError) as info:
        C.create_contract(db, manager, subsidiary_id=w.subsidiary_id, customer_id=w.customer_id,
                          start_date=dt.date(2026, 10, 1), end_date=dt.date(2027, 9, 30), items=[hosting])
    assert info.value.errors == {"items[1].u_to": "the rack has 42U"}
    ok = C.ItemSpec(kind=ItemKind.HOSTING, description="托管 U40–U42", unit_price=D("800"),
                    price_unit=PriceUnit.MONTH, rack_id=w.rack_ids[0], u_from=40, u_to=42)
    assert C.create_contract(db, manager, subsidiary_id=w.subsidiary_id, customer_id=w.customer_id,
                             start_date=dt.date(2026, 10, 1), end_date=dt.date(2027, 9, 30), items=[ok]).id
