"""Random contracts through the whole billing cycle (hypothesis), on SQLite and PostgreSQL.

Each example: a fresh database; one contract with random items (racks by the month or year,
discounts, bandwidth, GPUs by the hour, month or hybrid, a rack with metered power), a random
activation and a random later handover, GPU downtime, a meter reset; months billed at their end
after random refused attempts before it. Checked:
- every line multiplies out (quantity × unit price = amount to the fen);
- statement totals are the sums of their lines;
- a run is idempotent;
- billing a month once at its end equals billing it after any number of refused attempts
  (the refusals write nothing, and the run writes what the dry run at the end showed);
- a credit note and its original net to zero;
- after credit + rebill the customer is charged exactly the corrected amount.
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from app.domain import rating as B
from app.domain.errors import ValidationError
from app.services import billing as BS
from app.services import contracts as C
from app.services.contracts import handover as H
from app.services.users import add_user, login
from models import ContractItem
from models.choices import ItemKind, PriceUnit, StatementKind, StatementStatus
from tests.conftest import BACKENDS, PASSWORD, drop_db, make_db, table_counts
from tests.billing.test_billing_world import add_readings, cst, gpu_item, make_world, rack_item

D = Decimal
PERIODS = ("2026-09", "2026-10", "2026-11")
prices = st.decimals(min_value=D("0.0001"), max_value=D("99999999.9999"), places=4)


@st.composite
def contracts(draw):
    start = dt.date(2026, 9, 1) + dt.timedelta(days=draw(st.integers(0, 45)))
    kinds = draw(st.lists(st.sampled_from(["month", "year", "discount", "mbps", "hour", "gpu_month", "hybrid",
                                            "power"]), min_size=1, max_size=4, unique=True))
    return dict(
        start=start,
        kinds=kinds,
        prices=[draw(prices) for _ in kinds],
        activate_hours=draw(st.integers(-48, 24 * 20)),  # activation relative to the start, in hours
        handover_later=draw(st.one_of(st.none(), st.integers(1, 24 * 30))),  # a corrected, later handover
        down=draw(st.one_of(st.none(), st.tuples(st.integers(0, 24 * 60), st.integers(1, 24 * 5)))),
        reset_day=draw(st.one_of(st.none(), st.integers(2, 80))),
        refused=draw(st.lists(st.tuples(st.sampled_from(PERIODS), st.integers(0, 27 * 24)), max_size=4)),
        new_price=draw(prices),
    )


def _items(w, spec):
    out, gpu = [], 1
    for kind, price in zip(spec["kinds"], spec["prices"]):
        p = str(price)
        if kind == "month":
            out.append(rack_item(w, 1, p))
        elif kind == "year":
            out.append(rack_item(w, 2, p, price_unit=PriceUnit.YEAR))
        elif kind == "power":
            out.append(rack_item(w, 3, p, power_allowance_kw=D("2"), kwh_price=D("1.15")))
        elif kind == "discount":
            out.append(C.ItemSpec(ItemKind.DISCOUNT, "折扣", price, PriceUnit.MONTH))
        elif kind == "mbps":
            out.append(C.ItemSpec(ItemKind.BANDWIDTH, "带宽", price, PriceUnit.MBPS_MONTH, mbps=100))
        elif kind == "hour":
            out.append(gpu_item(w, [gpu, gpu + 1], p))
            gpu += 2
        elif kind == "gpu_month":
            out.append(gpu_item(w, [gpu], p, PriceUnit.MONTH))
            gpu += 1
        else:
            out.append(gpu_item(w, [gpu, gpu + 1], p, PriceUnit.HYBRID, included_hours=D(500), hourly_rate=D("3.5")))
            gpu += 2
    return out


def _statement_counts(db):
    return {k: v for k, v in table_counts(db).items() if k.startswith("statement")}


def _check_statements(db):
    for s in BS.list_statements(db):
        for ln in s.lines:
            assert B.multiplies_out(ln.quantity, ln.unit_price, ln.amount), ln
        assert s.subtotal == sum((ln.amount for ln in s.lines), D("0.00"))
        assert s.tax == sum((ln.tax for ln in s.lines), D("0.00"))
        assert s.total == s.subtotal + s.tax


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.function_scoped_fixture])
@given(spec=contracts())
def test_random_contracts_bill_consistently(backend, spec, tmp_path_factory, pg_template):
    db = make_db(backend, tmp_path_factory.mktemp("random"), pg_template)
    try:
        _cycle(db, spec)
    finally:
        drop_db(db)


def _cycle(db, spec):
    add_user(db, None, "admin", "admin", PASSWORD, "管理员")
    admin = login(db, "admin", PASSWORD)
    add_user(db, admin, "am", "account_manager", PASSWORD, "客户经理")
    manager = login(db, "am", PASSWORD)
    w = make_world(db)
    start = spec["start"]
    c = C.create_contract(db, manager, subsidiary_id=w.subsidiary_id, customer_id=w.customer_id, start_date=start,
                          end_date=start + dt.timedelta(days=364), items=_items(w, spec), title="随机合同")
    C.submit_contract(db, manager, c.id)
    C.approve_contract(db, admin, c.id)
    activated = cst(start.year, start.month, start.day) + dt.timedelta(hours=spec["activate_hours"])
    C.activate_contract(db, admin, c.id, at=activated)
    n_items = len(spec["kinds"])
    for pos in range(1, n_items + 1):  # items planned after an early activation await their handover
        later = spec["handover_later"]
        when = max(activated, cst(start.year, start.month, start.day)) + dt.timedelta(hours=later or 0)
        if later is not None or not [h for h in H.handovers(db, c.number) if h.position == pos][0].handover_at:
            H.record_handover(db, admin, c.number, pos, when, "随机交接", now=cst(2027, 1, 1))
    if spec["down"] is not None:
        begin = cst(2026, 9, 1) + dt.timedelta(hours=spec["down"][0])
        BS.record_downtime(db, admin, gpu_id=w.gpu_ids[0], start=begin,
                           end=begin + dt.timedelta(hours=spec["down"][1]), reason="随机故障")
    if "power" in spec["kinds"]:
        rows, kwh = [], D(5000)
        for k in range(100):
            day = cst(2026, 9, 1) + dt.timedelta(days=k)
            if spec["reset_day"] == k:
                kwh = D(0)
            rows.append((day, str(kwh)))
            kwh += D("55.5")
        add_readings(db, w.rack_ids[2], rows)

    # earlier attempts inside a month are refused and write nothing
    for period, hours in spec["refused"]:
        p = B.Period.parse(period)
        before = table_counts(db)
        with pytest.raises(ValidationError, match="has not ended"):
            BS.run_billing(db, admin, period, as_of=p.start + dt.timedelta(hours=hours))
        assert table_counts(db) == before

    end_of = {p: B.Period.parse(p).end + dt.timedelta(hours=1) for p in PERIODS}
    for period in PERIODS:
        preview = BS.run_billing(db, admin, period, as_of=end_of[period], dry_run=True)
        real = BS.run_billing(db, admin, period, as_of=end_of[period], issue=True)
        key = lambda s: sorted((ln.contract_item_id, ln.charge, ln.quantity, ln.unit_price, ln.amount, ln.tax)  # noqa: E731
                               for st_ in s.statements for ln in st_.lines)
        assert key(real) == key(preview) and real.pending_drafts == 0
        counts = _statement_counts(db)
        again = BS.run_billing(db, admin, period, as_of=end_of[period])
        assert again.lines_created == 0 and _statement_counts(db) == counts  # (only the run's audit event)
    _check_statements(db)

    # credit a month's statement in full after correcting a price, then rebill
    issued = [s for s in BS.list_statements(db, status=StatementStatus.ISSUED) if s.kind == StatementKind.STATEMENT]
    if not issued:
        return
    target = issued[-1]
    period = target.period
    with db.session() as s:
        item = s.execute(select(ContractItem).where(ContractItem.id == target.lines[0].contract_item_id)).scalar_one()
        item.unit_price = spec["new_price"]
        s.commit()
    cn = BS.credit_statement(db, admin, target.number, "更正", at=end_of[period])
    assert cn.total == -target.total and cn.subtotal == -target.subtotal and cn.tax == -target.tax
    corrected = BS.run_billing(db, admin, period, as_of=end_of[period], dry_run=True)
    rebill = BS.rebill_statement(db, admin, target.number, issue=True, as_of=end_of[period])
    assert rebill.total == corrected.total
    assert all(st_.rebills_id == target.id for st_ in rebill.statements)
    charged = sum(s.total for s in BS.list_statements(db, period=period) if s.status == StatementStatus.ISSUED)
    others = sum(s.total for s in issued if s.period == period and s.id != target.id)
    assert charged == others + corrected.total  # the customer pays exactly the corrected amount
    _check_statements(db)
    assert BS.run_billing(db, admin, period, as_of=end_of[period]).lines_created == 0
