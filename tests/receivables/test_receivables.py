"""Receivables: payment terms and due dates, receipts, allocation, reversal, import, export, aging."""
from __future__ import annotations

import csv
import datetime as dt
from decimal import Decimal as D

import pytest
from sqlalchemy import func, select

from app.domain.clock import local_date, local_today
from app.domain.errors import RuleViolation, ValidationError
from app.services import billing as BS
from app.services import receivables as R
from app.importexport import run_export
from models import AuditEvent, Customer, Payment, PaymentAllocation
from tests.conftest import PASSWORD
from tests.billing.test_billing_world import make_world, rack_item, signed


def _two_months(db, admin, manager, days=15):
    w = make_world(db)
    c = signed(db, manager, admin, w, [rack_item(w, 1, "6000")], dt.date(2026, 9, 1), dt.date(2027, 8, 31))
    R.set_payment_terms(db, manager, c.number, days, f"月结 {days} 天")
    for period in ("2026-09", "2026-10"):
        BS.run_billing(db, admin, period, issue=True)
    sts = sorted((s for s in BS.list_statements(db) if s.kind == "statement"), key=lambda s: s.period)
    with db.session() as s:
        cust = s.get(Customer, w.customer_id)
        return w, c, sts, cust.credit_code, cust.name


def _open(db, number):
    with db.session() as s:
        return R.statement_open_amount(s, BS.find_statement(s, number))


def test_due_date_from_payment_terms_and_default(db, admin, manager):
    w, c, sts, code, _name = _two_months(db, admin, manager, days=15)
    with db.session() as s:
        for info in sts:
            st = BS.find_statement(s, info.number)
            assert st.due_date == local_date(st.issued_at) + dt.timedelta(days=15)
    # a contract with the default terms: 30 days
    c2 = signed(db, manager, admin, w, [rack_item(w, 2, "1000")], dt.date(2026, 10, 1), dt.date(2027, 9, 30),
                customer_id=w.other_customer_id if hasattr(w, "other_customer_id") else None)
    BS.run_billing(db, admin, "2026-10", issue=True)
    with db.session() as s:
        st = [BS.find_statement(s, x.number) for x in BS.list_statements(db)
              if x.kind == "statement" and x.total == D("1060.00")][0]
        assert st.due_date == local_date(st.issued_at) + dt.timedelta(days=30)
    with pytest.raises(ValidationError, match="0 to 365"):
        R.set_payment_terms(db, manager, c2.number, 400)


def test_receipt_allocation_credit_and_reversal(db, admin, manager):
    w, c, (sep, oct_), code, name = _two_months(db, admin, manager)
    assert sep.total == oct_.total == D("6360.00")
    today = local_today()
    p1 = R.record_payment(db, admin, code, "8000", today, "BR-001")
    assert p1.allocations == ((sep.number, D("6360.00")), (oct_.number, D("1640.00")))
    assert p1.unallocated == 0
    p2 = R.record_payment(db, admin, name, "5000.00", today.isoformat(), "BR-002", allocate=False)
    assert p2.unallocated == D("5000.00") and p2.allocations == ()
    p2 = R.allocate_payment(db, admin, "BR-002", oct_.number)
    assert p2.allocations == ((oct_.number, D("4720.00")),) and p2.unallocated == D("280.00")
    assert _open(db, oct_.number) == 0
    with pytest.raises(RuleViolation, match="settled"):
        R.allocate_payment(db, admin, f"P{p2.id}", oct_.number)
    with pytest.raises(RuleViolation, match="already recorded"):
        R.record_payment(db, admin, code, "1", today, "BR-001")

    R.reverse_payment(db, admin, "BR-001", "booked to the wrong customer")
    assert _open(db, sep.number) == D("6360.00") and _open(db, oct_.number) == D("1640.00")
    with pytest.raises(RuleViolation, match="already reversed"):
        R.reverse_payment(db, admin, "BR-001", "again")
    with pytest.raises(RuleViolation, match="reversed"):
        R.allocate_payment(db, admin, "BR-001", sep.number)
    b = R.customer_balance(db, code)
    assert (b.billed, b.received, b.balance, b.open_statements, b.credit) == (
        D("12720.00"), D("5000.00"), D("7720.00"), D("8000.00"), D("280.00"))
    # the receipt is never edited: the counter-entry nets it
    with db.session() as s:
        amounts = sorted(s.execute(select(Payment.kind, Payment.amount).where(Payment.bank_ref == "BR-001")).all())
        assert amounts == [("receipt", D("8000.00")), ("reversal", D("-8000.00"))]
        assert s.execute(select(func.sum(PaymentAllocation.amount))).scalar() == D("4720.00")
        actions = set(s.execute(select(AuditEvent.action).where(AuditEvent.object_type == "payment")).scalars())
        assert {"payment.add", "payment.allocate", "payment.reverse"} <= actions

    # aging: both statements due 15 days after issue
    due = today + dt.timedelta(days=15)
    ag = R.aging(db, due)
    assert [(r.customer, r.buckets["not_due"], r.credit) for r in ag.rows] == [(name, D("8000.00"), D("280.00"))]
    ag = R.aging(db, due + dt.timedelta(days=31))
    assert ag.rows[0].buckets["d31_60"] == D("8000.00") and ag.totals()["d31_60"] == D("8000.00")
    assert R.overdue_customers(db, 30, due + dt.timedelta(days=31)) == [(name, D("8000.00"), 31)]
    assert R.overdue_customers(db, 31, due + dt.timedelta(days=31)) == []


def test_refusals(db, admin, manager, operator):
    w, c, (sep, oct_), code, name = _two_months(db, admin, manager)
    with pytest.raises(ValidationError) as e:
        R.record_payment(db, admin, code, "-5", local_today() + dt.timedelta(days=1), "", method="barter")
    assert set(e.value.errors) == {"amount", "date", "ref", "method"}
    with pytest.raises(ValidationError, match="fen"):
        R.record_payment(db, admin, code, "1.001", local_today(), "X1")
    p = R.record_payment(db, admin, code, "100", local_today(), "X2", allocate=False)
    with pytest.raises(RuleViolation, match="has ¥100.00 left"):
        R.allocate_payment(db, admin, "X2", sep.number, "100.01")
    from app.domain.errors import PermissionDenied
    with pytest.raises(PermissionDenied):
        R.record_payment(db, operator, code, "1", local_today(), "X3")
    assert p.unallocated == D("100.00")


def test_import_all_or_nothing_then_export(db, admin, manager, tmp_path):
    w, c, (sep, oct_), code, name = _two_months(db, admin, manager)
    today = local_today().isoformat()
    bad = tmp_path / "bank.csv"
    bad.write_text(f"客户,到账日期,金额,流水号,付款户名\n{code},{today},6360.00,IMP-1,{name}\n"
                   f"nobody,{today},1.00,IMP-2,\n{code},2026-02-30,x,IMP-1,\n", encoding="utf-8")
    with pytest.raises(ValidationError) as e:
        R.import_payments(db, admin, bad)
    assert set(e.value.errors) == {"row 3", "row 4"}
    assert "nobody" in e.value.errors["row 3"] and "2026-02-30" in e.value.errors["row 4"]
    with db.session() as s:
        assert s.execute(select(func.count(Payment.id))).scalar() == 0
    from openpyxl import Workbook
    wb = Workbook()
    ws = wb.active
    ws.append(["customer", "date", "amount", "ref", "method"])
    ws.append([code, dt.datetime.combine(local_today(), dt.time()), 6360, "IMP-1", "transfer"])
    ws.append([name, local_today(), D("7000.00"), "IMP-2", None])
    good = tmp_path / "bank.xlsx"
    wb.save(good)
    result = R.import_payments(db, admin, good)
    assert result.total == D("13360.00")
    assert _open(db, sep.number) == 0 and _open(db, oct_.number) == 0
    assert R.customer_balance(db, code).credit == D("640.00")
    with pytest.raises(ValidationError, match="already recorded"):
        R.import_payments(db, admin, good)

    out = tmp_path / "payments.csv"
    assert run_export(db, admin, "payments", out).rows == 2
    with open(out, encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    assert [(r["ref"], r["amount"], r["allocated"], r["unallocated"], r["statements"]) for r in rows] == [
        ("IMP-1", "6360.00", "6360.00", "0.00", sep.number),
        ("IMP-2", "7000.00", "6360.00", "640.00", oct_.number)]


@pytest.fixture
def cli(db, admin, monkeypatch, capsys):
    from app.cli.main import main
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", PASSWORD)

    def call(*argv, user="admin"):
        code = main(["--db", db.url] + (["--user", user] if user else []) + list(argv))
        out = capsys.readouterr()
        return code, out.out, out.err
    return call


def test_cli_payments(db, admin, manager, cli, tmp_path):
    w, c, (sep, oct_), code, name = _two_months(db, admin, manager)
    today = local_today().isoformat()
    rc, out, err = cli("payments", "add", "--customer", code, "--amount", "7000", "--date", today, "--ref", "CLI-1")
    assert rc == 0, err
    assert f"allocated ¥6,360.00 to {sep.number}" in out and f"allocated ¥640.00 to {oct_.number}" in out
    rc, out, err = cli("payments", "add", "--customer", name, "--amount", "100", "--date", today, "--ref", "CLI-2",
                       "--method", "cash", "--hold")
    assert rc == 0 and "¥100.00 left as the customer's credit balance" in out, err
    rc, out, err = cli("payments", "allocate", "CLI-2", oct_.number, "--amount", "60.5")
    assert rc == 0 and f"allocated ¥60.50 to {oct_.number}" in out, err
    rc, out, err = cli("payments", "reverse", "CLI-1", "--reason", "wrong account")
    assert rc == 0 and "reversed payment" in out, err
    rc, out, err = cli("payments", "reverse", "CLI-1", "--reason", "again")
    assert rc == 1 and "already reversed" in err
    rc, out, err = cli("payments", "balance", code, user=None)
    assert rc == 0 and "balance ¥12,620.00" in out and "credit ¥39.50" in out, err
    f = tmp_path / "bank.csv"
    f.write_text(f"customer,date,amount,ref\n{code},{today},12659.50,CLI-3\n")
    rc, out, err = cli("payments", "import", str(f))
    assert rc == 0 and "imported 1 receipt(s), ¥12,659.50" in out, err
    rc, out, err = cli("export", "payments", "--format", "xlsx", "-o", str(tmp_path / "p.xlsx"))
    assert rc == 0, err
    from openpyxl import load_workbook
    ws = load_workbook(tmp_path / "p.xlsx").active
    assert ws.max_row == 5  # header, two receipts, one reversal, the import
    rc, out, err = cli("payments", "balance", code, user=None)
    assert rc == 0 and "balance ¥-39.50" in out and "credit ¥39.50" in out, out


def test_reports_aging_account_and_statement_pdf(db, admin, manager, cli, tmp_path):
    from tests.documents.test_reports import pdftext
    w, c, (sep, oct_), code, name = _two_months(db, admin, manager)
    today = local_today()
    R.record_payment(db, admin, code, "7000", today, "RP-1")
    as_of = today + dt.timedelta(days=50)
    rc, out, err = cli("report", "aging", "--as-of", as_of.isoformat(), "-o", str(tmp_path / "aging.pdf"))
    assert rc == 0, err
    text = pdftext(tmp_path / "aging.pdf")
    assert "应收账款账龄分析表" in text and "5,720.00" in text and name in text
    rc, out, err = cli("report", "aging", "--as-of", as_of.isoformat(), "-o", str(tmp_path / "aging.xlsx"))
    assert rc == 0, err
    from openpyxl import load_workbook
    ws = load_workbook(tmp_path / "aging.xlsx").active
    row = [c.value for c in ws[3]]
    assert row[1] == name and D(str(row[4])) == D("5720.00") and D(str(row[7])) == D("5720.00")
    rc, out, err = cli("report", "account", code, "--from", (today - dt.timedelta(days=1)).isoformat(),
                       "--to", today.isoformat(), "-o", str(tmp_path / "account.pdf"))
    assert rc == 0 and "closing balance ¥5,720.00" in out, err
    text = pdftext(tmp_path / "account.pdf")
    for word in ("往来对账单", "期初余额", "期末余额", "客户（盖章）", sep.number, "RP-1", "5,720.00"):
        assert word in text, word
    rc, out, err = cli("report", "statement", oct_.number, "-o", str(tmp_path / "statement.pdf"))
    assert rc == 0, err
    text = pdftext(tmp_path / "statement.pdf")
    due = (today + dt.timedelta(days=15)).isoformat()
    for word in ("人民币陆仟叁佰陆拾元整", "付款信息", "月结 15 天", "客户确认", "客户（盖章）"):
        assert word in text.replace("\n", ""), word
    assert due in text or due.replace("-", "") in text or f"{today + dt.timedelta(days=15):%Y年%-m月%-d日}" in text


@pytest.mark.slow
def test_aging_on_large_data_is_set_based_and_fast(db, admin, manager):
    """50,000 issued statements, 45,000 of them paid (in full or in part) by bulk-inserted receipts:
    the aging report takes a fixed handful of queries, whatever the number of statements (its time is a
    bench row, not an assertion: a loaded CI machine must not fail a correct program)."""
    import time

    from sqlalchemy import event, insert

    from models import Statement
    w, c, (sep, oct_), code, name = _two_months(db, admin, manager)
    n = 50_000
    issued = dt.datetime(2026, 6, 1, tzinfo=dt.timezone.utc)
    with db.engine.begin() as conn:
        conn.execute(insert(Statement), [
            {"number": f"BIG-{i:06d}", "kind": "statement", "subsidiary_id": w.subsidiary_id,
             "customer_id": w.customer_id, "period": "2026-05", "status": "issued", "subtotal": D("100.00"),
             "tax": D("6.00"), "total": D("106.00"), "issued_at": issued,
             "due_date": dt.date(2026, 6, 1) + dt.timedelta(days=i % 200), "version": 1} for i in range(n)])
        ids = [r[0] for r in conn.execute(select(Statement.id).where(Statement.number.like("BIG-%"))
                                          .order_by(Statement.id))]
        conn.execute(insert(Payment), [
            {"id": 10_000 + i, "customer_id": w.customer_id, "kind": "receipt", "received_on": dt.date(2026, 7, 1),
             "amount": D("106.00"), "bank_ref": f"BIG-{i}", "method": "transfer"} for i in range(45_000)])
        conn.execute(insert(PaymentAllocation), [
            {"payment_id": 10_000 + i, "statement_id": ids[i], "amount": D("106.00") if i % 3 else D("50.00")}
            for i in range(45_000)])
    count = [0]

    def on(*_a):
        count[0] += 1
    event.listen(db.engine, "before_cursor_execute", on)
    started = time.perf_counter()
    ag = R.aging(db, dt.date(2026, 12, 31))
    elapsed = time.perf_counter() - started
    event.remove(db.engine, "before_cursor_execute", on)
    print(f"aging of {n} statements: {elapsed:.2f}s, {count[0]} queries")
    assert count[0] <= 8  # a fixed handful, whatever the number of statements
    # 15,000 part-paid (56.00 open each) + 5,000 unpaid + the two real statements
    assert sum(ag.totals().values()) == D("56.00") * 15_000 + D("106.00") * 5_000 + D("12720.00")
    assert ag.rows[0].credit == D("56.00") * 15_000  # what the part allocations left unallocated
