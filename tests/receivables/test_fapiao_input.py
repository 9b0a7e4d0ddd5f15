"""A fapiao as typed: one rule for its number wherever it is recorded, and its tax at the statement's
rate (a typing error such as ¥50 tax on ¥100 of a 6 % statement is refused, nothing written)."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest

from app.domain.clock import local_today
from app.domain.errors import ValidationError
from app.services import billing as BS
from app.services.receivables import fapiao as FP
from tests.conftest import table_counts
from tests.billing.test_billing_world import make_world, rack_item, signed


@pytest.fixture
def statement(db, admin, manager):
    w = make_world(db)
    signed(db, manager, admin, w, [rack_item(w, 1, "6000")], dt.date(2026, 9, 1), dt.date(2027, 8, 31))
    BS.run_billing(db, admin, "2026-09", issue=True)
    (st,) = [s for s in BS.list_statements(db) if s.kind == "statement"]
    assert (st.subtotal, st.tax, st.total) == (D("6000.00"), D("360.00"), D("6360.00"))
    return st


@pytest.mark.parametrize("number", ["=1+1", "1234567", "x" * 33, "4400 1234", "发票12345678", "'44001234"])
def test_billing_fapiao_and_fapiao_add_share_one_number_rule(db, admin, statement, number):
    before = table_counts(db)
    with pytest.raises(ValidationError) as a:
        BS.record_fapiao(db, admin, statement.number, number)
    with pytest.raises(ValidationError) as b:
        FP.add_fapiao(db, admin, statement.number, number, local_today(), "100", "6")
    assert a.value.errors["fapiao_no"] == b.value.errors["number"]
    assert "8 to 32 digits or letters" in a.value.errors["fapiao_no"]
    assert table_counts(db) == before


def test_a_good_number_is_recorded_by_both(db, admin, statement):
    assert BS.record_fapiao(db, admin, statement.number, "44001234").fapiao_no == "44001234"
    assert FP.add_fapiao(db, admin, statement.number, "26442000000000000101", local_today(), "100", "6").tax == D("6")


@pytest.mark.parametrize("amount,tax", [("100", "50"), ("100", "13"), ("6000", "0"), ("5000", "300.02")])
def test_a_fapiao_tax_off_the_statement_rate_is_refused(db, admin, statement, amount, tax):
    before = table_counts(db)
    with pytest.raises(ValidationError) as info:
        FP.add_fapiao(db, admin, statement.number, "26442000000000000101", local_today(), amount, tax)
    message = info.value.errors["tax"]
    assert "6 %" in message and statement.number in message
    assert table_counts(db) == before


@pytest.mark.parametrize("amount,tax", [
    ("100", "6"),           # 100 × 6 % = 6.00
    ("100.10", "6.01"),     # 100.10 × 6 % = 6.006 → 6.01 (half-up)
    ("100.10", "6.00"),     # the same fapiao in two lines, each rounded: a fen either way per line
    ("6000", "360"),        # the whole statement
])
def test_a_fapiao_tax_at_the_statement_rate_is_accepted(db, admin, statement, amount, tax):
    f = FP.add_fapiao(db, admin, statement.number, "26442000000000000101", local_today(), amount, tax)
    assert (f.amount, f.tax) == (D(amount).quantize(D("0.01")), D(tax).quantize(D("0.01")))
