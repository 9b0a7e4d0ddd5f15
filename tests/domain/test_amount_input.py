"""Amounts typed by a person: one grammar (app.domain.money.parse_money) for payments, credits, deposits,
fapiao amounts, contract prices and import cells. ¥ and ￥ and thousands separators are accepted
everywhere alike; 1e400, NaN, Infinity and more digits than a column holds are refused with a field
error, never a traceback, and the refused write changes nothing."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest

from app.domain.clock import local_today
from app.domain.errors import ValidationError
from app.domain.money import AmountError, parse_decimal, parse_money
from app.services import billing as BS
from app.services import contracts as C
from app.services.receivables import deposits as DEP
from app.services import receivables as R
from models import Customer
from tests.conftest import table_counts
from tests.billing.test_billing_world import make_world, rack_item, signed

BAD = ["1e400", "NaN", "Infinity", "-inf", "1234567890123", "12.345", "1,20", "¥", "abc", "12 345"]


@pytest.mark.parametrize("text,value", [
    ("100", D("100")), ("¥100", D("100")), ("￥100", D("100")), (" ￥ 1,200.50 ", D("1200.50")),
    ("-¥100", D("-100")), ("¥-100", D("-100")), ("1,234,567.89", D("1234567.89")), (".5", D("0.5")),
    ("999999999999.99", D("999999999999.99")), (D("12.30"), D("12.30")), (1200, D("1200")), (12.5, D("12.5")),
])
def test_one_grammar_of_amounts(text, value):
    assert parse_money(text, places=2) == value


@pytest.mark.parametrize("text", BAD + [D("1e400"), D("NaN"), float("inf"), 10 ** 13])
def test_what_is_not_an_amount_is_refused_with_a_sentence(text):
    with pytest.raises(AmountError) as info:
        parse_money(text, places=2)
    message = str(info.value)
    assert "decimal" in message or "write digits" in message or "finite" in message


def test_a_plain_number_takes_no_currency_sign():
    assert parse_decimal("1,200") == D("1200")
    with pytest.raises(AmountError):
        parse_decimal("¥1,200")


def _world(db, admin, manager):
    w = make_world(db)
    c = signed(db, manager, admin, w, [rack_item(w, 1, "6000")], dt.date(2026, 9, 1), dt.date(2027, 8, 31))
    BS.run_billing(db, admin, "2026-09", issue=True)
    st = next(s for s in BS.list_statements(db) if s.kind == "statement")
    with db.session() as s:
        code = s.get(Customer, w.customer_id).credit_code
    return w, c, st, code


@pytest.mark.parametrize("bad", ["1e400", "NaN", "Infinity", "1234567890123", "12.345"])
def test_payments_credits_and_deposits_refuse_what_is_not_an_amount(db, admin, manager, tmp_path, bad):
    _w, _c, st, code = _world(db, admin, manager)
    with db.session() as s:
        line_id = BS.find_statement(s, st.number).lines[0].id
    before = table_counts(db)
    today = local_today()
    calls = [
        lambda: R.record_payment(db, admin, code, bad, today, "BR-1"),
        lambda: BS.credit_statement(db, admin, st.number, "wrong", line_ids=[line_id], amount=bad),
        lambda: DEP.receive_deposit(db, admin, code, bad),
    ]
    path = tmp_path / "receipts.csv"
    path.write_text(f"customer,date,amount,ref\n{code},{today},{bad},BR-2\n", encoding="utf-8")
    calls.append(lambda: R.import_payments(db, admin, path))
    for call in calls:
        with pytest.raises(ValidationError) as info:
            call()
        assert "amount" in info.value.message
    assert table_counts(db) == before


def test_the_same_amount_is_accepted_everywhere_alike(db, admin, manager):
    w, _c, st, code = _world(db, admin, manager)
    with db.session() as s:
        line_id = BS.find_statement(s, st.number).lines[0].id
    today = local_today()
    assert R.record_payment(db, admin, code, "￥1,200", today, "BR-1", allocate=False).amount == D("1200.00")
    credit = BS.credit_statement(db, admin, st.number, "goodwill", line_ids=[line_id], amount="¥1,200")
    assert credit.total == D("-1272.00")  # 1,200 + 6 % VAT 72, credited
    assert DEP.receive_deposit(db, admin, code, "￥1,200.50").amount == D("1200.50")
    item = rack_item(w, 2, "0")
    spec = C.ItemSpec(**{**item.__dict__, "unit_price": "¥1,200", "quantity": "1"})
    k = C.create_contract(db, manager, subsidiary_id=w.subsidiary_id, customer_id=w.customer_id,
                          start_date=dt.date(2026, 10, 1), end_date=dt.date(2027, 9, 30), items=[spec], title="价格")
    assert C.get_contract(db, k.id).items[0].unit_price == D("1200")


@pytest.mark.parametrize("bad", ["1e400", "NaN", "1,20", "12.34567", "12345678901"])
def test_contract_prices_refuse_what_is_not_a_price(db, admin, manager, bad):
    w = make_world(db)
    item = rack_item(w, 1, "0")
    spec = C.ItemSpec(**{**item.__dict__, "unit_price": bad})
    before = table_counts(db)
    with pytest.raises(ValidationError) as info:
        C.create_contract(db, manager, subsidiary_id=w.subsidiary_id, customer_id=w.customer_id,
                          start_date=dt.date(2026, 10, 1), end_date=dt.date(2027, 9, 30), items=[spec], title="价格")
    assert any("unit_price" in k for k in info.value.errors)
    assert table_counts(db) == before
