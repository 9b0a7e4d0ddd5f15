"""A worked month of receivables, end to end on a real database (SQLite and PostgreSQL):

bill September and October (6,000.00 a month + 6% = 6,360.00 each), issue; a deposit of 3,000.00
received and applied to September; a partial payment of 2,000.00 (oldest first: September); a
fapiao for October and one for part of September; October credited in full and rebilled; a
red-letter fapiao against the credit note reversing October's fapiao. Then the aging report, the
statement of account, the monthly summary and the customer balance agree to the fen (7,720.00),
and the PDFs carry the figures and the fapiao status.
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest
from sqlalchemy import select

from app.domain.clock import local_today
from app.domain.errors import RuleViolation, ValidationError
from app.services import billing as BS
from app.services.receivables import deposits as DP
from app.services.receivables import fapiao as FP
from app.services import receivables as R
from app.services.receivables.summary import summary_doc
from models import AuditEvent, Customer
from models.choices import FapiaoStatus
from tests.billing.test_billing_world import make_world, rack_item, signed

CLOSING = D("7720.00")


def _status(db, number):
    return FP.statement_fapiao_status(db, number)[0]


@pytest.fixture
def month(db, admin, manager):
    w = make_world(db)
    c = signed(db, manager, admin, w, [rack_item(w, 1, "6000")], dt.date(2026, 9, 1), dt.date(2027, 8, 31))
    R.set_payment_terms(db, manager, c.number, 30, "月结 30 天")
    for period in ("2026-09", "2026-10"):
        BS.run_billing(db, admin, period, issue=True)
    sep, oct_ = sorted((s for s in BS.list_statements(db) if s.kind == "statement"), key=lambda s: s.period)
    with db.session() as s:
        cust = s.get(Customer, w.customer_id)
        code, name = cust.credit_code, cust.name
    return w, c, sep, oct_, code, name


def test_worked_month_agrees_to_the_fen(db, admin, manager, month, tmp_path):
    from tests.documents.test_reports import pdftext
    w, c, sep, oct_, code, name = month
    today = local_today()
    assert sep.total == oct_.total == D("6360.00")

    FP.set_profile(db, manager, code, title=name, tax_id=code, address_phone="广州市天河区 020-12345678",
                   bank_account="招商银行 1209 0800 0000 01", fapiao_type="数电专票", email="ap@example.com")
    # a deposit held for the contract, applied to September
    DP.receive_deposit(db, admin, code, "3000", contract=c.number, ref="DEP-1", on_date=today)
    applied = DP.apply_deposit(db, admin, sep.number)
    assert [(e.amount, e.contract, e.balance) for e in applied] == [(D("-3000.00"), c.number, D("0.00"))]
    # a partial payment: oldest due first, what is left of September
    p = R.record_payment(db, admin, code, "2000", today, "WM-1")
    assert p.allocations == ((sep.number, D("2000.00")),)
    # fapiao: October in full, September in part
    FP.add_fapiao(db, admin, oct_.number, "26442000000000000101", today, "6000.00", "360.00")
    FP.add_fapiao(db, admin, sep.number, "26442000000000000102", today, "3000.00", "180.00")
    assert _status(db, oct_.number) == FapiaoStatus.FULL
    assert _status(db, sep.number) == FapiaoStatus.PARTIAL
    with pytest.raises(RuleViolation, match="left to invoice"):
        FP.add_fapiao(db, admin, sep.number, "26442000000000000103", today, "3000.00", "180.01")
    # October credited in full, then rebilled as it stands
    cn = BS.credit_statement(db, admin, oct_.number, "rack number wrong on the statement")
    rebill = BS.rebill_statement(db, admin, oct_.number, issue=True)
    with db.session() as s:
        rb = [x for x in BS.list_statements(db) if x.kind == "statement" and x.number not in (sep.number, oct_.number)]
    assert len(rb) == 1 and rb[0].total == D("6360.00"), rebill
    rb = rb[0]
    # the credit note makes October's fapiao too much until the red-letter one reverses it
    assert _status(db, oct_.number) == FapiaoStatus.PARTIAL
    red = FP.add_red_fapiao(db, admin, cn.number, "26442000000000000201", "26442000000000000101")
    assert (red.amount, red.tax, red.original) == (D("-6000.00"), D("-360.00"), "26442000000000000101")
    assert _status(db, oct_.number) == FapiaoStatus.FULL and _status(db, cn.number) == FapiaoStatus.FULL
    assert _status(db, rb.number) == FapiaoStatus.NONE
    with pytest.raises(RuleViolation, match="left to reverse|left to cover|already covered"):
        FP.add_red_fapiao(db, admin, cn.number, "26442000000000000202", "26442000000000000101", amount="1")

    # the customer's balance: billed 4 × 6,360 − 6,360 = 19,080... less 2,000 received and 3,000 applied
    b = R.customer_balance(db, code)
    assert (b.billed, b.received, b.deposits_applied, b.balance, b.open_statements, b.credit) == (
        D("12720.00"), D("2000.00"), D("3000.00"), CLOSING, CLOSING, D("0.00"))
    # aging: everything not yet due (30 days), to the fen
    ag = R.aging(db, today)
    assert [(r.customer, r.total, r.credit) for r in ag.rows] == [(name, CLOSING, D("0.00"))]
    # statement of account from before the first statement to today
    doc = R.account_doc(db, code, dt.date(2026, 9, 1), today)
    assert doc.opening == 0 and doc.closing == CLOSING
    assert doc.charged == D("12720.00") and doc.received == D("5000.00")
    # the monthly summary of this month (everything was issued today)
    sm = summary_doc(db, f"{today:%Y-%m}")
    (line,) = sm.lines
    assert (line.opening, line.billed, line.credited, line.received, line.closing) == (
        D("0.00"), D("19080.00"), D("-6360.00"), D("5000.00"), CLOSING)
    # deposits: received, applied, nothing left to refund
    (bal,) = DP.balances(db, code)
    assert (bal.received, bal.applied, bal.refunded, bal.balance) == (D("3000.00"), D("3000.00"), 0, 0)

    # PDFs (rendered and looked at by hand with pdftoppm -png -r 60 while writing this test)
    from app.cli.main import main
    import os
    os.environ["IDC_CONSOLE_PASSWORD"] = __import__("tests.conftest", fromlist=["PASSWORD"]).PASSWORD
    out = {k: tmp_path / f"{k}.pdf" for k in ("statement", "account", "aging", "summary", "rebill")}
    assert main(["--db", db.url, "--user", "admin", "report", "statement", sep.number, "-o", str(out["statement"])]) == 0
    assert main(["--db", db.url, "--user", "admin", "report", "statement", oct_.number, "-o", str(out["rebill"])]) == 0
    assert main(["--db", db.url, "--user", "admin", "report", "account", code, "--from", "2026-09-01",
                 "--to", today.isoformat(), "-o", str(out["account"])]) == 0
    assert main(["--db", db.url, "--user", "admin", "report", "aging", "-o", str(out["aging"])]) == 0
    assert main(["--db", db.url, "--user", "admin", "report", "receivables", "--period", f"{today:%Y-%m}",
                 "-o", str(out["summary"])]) == 0
    text = {k: pdftext(v).replace("\n", " ") for k, v in out.items()}
    assert "部分开票" in text["statement"] and "26442000000000000102" in text["statement"]
    assert "已开票" in text["rebill"] and "26442000000000000101" in text["rebill"]
    for word in ("押金抵扣", "WM-1", "7,720.00", "期末余额"):
        assert word in text["account"], word
    assert "7,720.00" in text["aging"] and name in text["aging"]
    for word in ("应收账款月度汇总表", "19,080.00", "-6,360.00", "5,000.00", "7,720.00"):
        assert word in text["summary"], word
    if os.environ.get("IDC_KEEP_PDF"):
        import shutil
        for k, v in out.items():
            shutil.copy(v, os.path.join(os.environ["IDC_KEEP_PDF"], f"{db.engine.dialect.name}-{k}.pdf"))

    with db.session() as s:
        actions = set(s.execute(select(AuditEvent.action)).scalars())
    assert {"fapiao.add", "fapiao.red", "deposit.receive", "deposit.apply", "customer.invoicing_profile",
            "payment.add"} <= actions


def test_fapiao_refusals_and_bulk_issue_export(db, admin, manager, month, tmp_path):
    w, c, sep, oct_, code, name = month
    today = local_today()
    with pytest.raises(ValidationError) as e:
        FP.add_fapiao(db, admin, sep.number, "12", today + dt.timedelta(days=1), "-1", "x")
    assert set(e.value.errors) == {"date", "amount", "tax"}
    FP.add_fapiao(db, admin, sep.number, "26442000000000000301", today, "6000", "360", fapiao_type="paper")
    with pytest.raises(RuleViolation, match="already recorded"):
        FP.add_fapiao(db, admin, oct_.number, "26442000000000000301", today, "1", "0")
    with pytest.raises(RuleViolation, match="left to invoice"):
        FP.add_fapiao(db, admin, sep.number, "26442000000000000302", today, "0.01", "0")
    cn = BS.credit_statement(db, admin, oct_.number, "wrong")
    with pytest.raises(RuleViolation, match="credit note"):
        FP.add_fapiao(db, admin, cn.number, "26442000000000000303", today, "1", "0")
    with pytest.raises(RuleViolation, match="is not a fapiao of"):  # September's fapiao does not reverse October
        FP.add_red_fapiao(db, admin, cn.number, "26442000000000000304", "26442000000000000301")

    # the bulk-issue workbook: only issued statements not yet invoiced (September is)
    from openpyxl import load_workbook

    from app.importexport.kinds.finance import export_kind
    path = tmp_path / "lines.xlsx"
    assert export_kind(db, admin, "fapiao-lines", path, period="2026-09") == 0  # invoiced already
    FP.set_profile(db, manager, code, title="测试抬头有限公司", tax_id=code, fapiao_type="digital_normal")
    signed(db, manager, admin, w, [rack_item(w, 2, "1234.56")], dt.date(2026, 10, 1), dt.date(2027, 9, 30))
    BS.run_billing(db, admin, "2026-10", issue=True)
    # the run bills the new rack and rebills October's credited rack (a statement referring to it)
    assert export_kind(db, admin, "fapiao-lines", path, period="2026-10") == 2
    wb = load_workbook(path)
    head, lines = wb["发票基本信息"], wb["发票明细信息"]
    assert head.max_row == 3 and [c.value for c in lines[1]] == list(FP.LINE_COLUMNS)
    rows = [[c.value for c in r] for r in lines.iter_rows(min_row=2)]
    assert sorted(D(str(r[7])) for r in rows) == [D("1234.56"), D("6000.00")]
    row = next(r for r in rows if D(str(r[7])) == D("1234.56"))
    assert row[1].startswith("*信息系统服务*") and row[2] == "3040203000000000000"
    assert D(str(row[5])) * D(str(row[6])) == D(str(row[7])) == D("1234.56") and D(str(row[9])) == D("74.07")
    assert [c.value for c in head[2]][1:4] == [c.value for c in head[3]][1:4] == ["数电普票", "测试抬头有限公司", code]
    out = tmp_path / "fapiao.csv"
    assert export_kind(db, admin, "fapiao", out, "csv") == 1
    assert "26442000000000000301" in out.read_text(encoding="utf-8-sig")


def test_deposit_rules(db, admin, manager, month):
    w, c, sep, oct_, code, name = month
    with pytest.raises(RuleViolation, match="holds no"):
        DP.apply_deposit(db, admin, sep.number)
    DP.receive_deposit(db, admin, code, "10000", contract=c.number)
    DP.receive_deposit(db, admin, code, "500", kind="预付款")
    with pytest.raises(RuleViolation, match="has ¥6,360.00 open"):
        DP.apply_deposit(db, admin, sep.number, amount="7000")
    assert DP.apply_deposit(db, admin, sep.number, kind="prepayment")[0].amount == D("-500.00")
    assert DP.apply_deposit(db, admin, sep.number)[0].amount == D("-5860.00")
    with pytest.raises(RuleViolation, match="settled"):
        DP.apply_deposit(db, admin, sep.number)
    with pytest.raises(RuleViolation, match="refunded when it ends"):
        DP.refund_deposit(db, admin, code, contract=c.number, reason="asked")
    from app.services import contracts as C
    C.terminate_contract(db, admin, c.id, "customer left")
    # without --contract: the refusal names the contract that holds the 4,140.00, not "holds ¥0.00"
    with pytest.raises(RuleViolation, match=rf"¥4,140.00 on contract {c.number}\. Name the contract "
                                            rf"\(--contract {c.number}\)"):
        DP.refund_deposit(db, admin, code, reason="contract terminated")
    e = DP.refund_deposit(db, admin, code, contract=c.number, reason="contract terminated")
    assert (e.amount, e.balance) == (D("-4140.00"), D("0.00"))
    assert R.customer_balance(db, code).balance == D("6360.00")


def test_cli_fapiao_deposits_summary_and_decisions(db, admin, manager, month, tmp_path, monkeypatch, capsys):
    from app.cli.main import main
    from tests.conftest import PASSWORD
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", PASSWORD)
    w, c, sep, oct_, code, name = month
    today = local_today().isoformat()

    def cli(*argv, user="admin"):
        rc = main(["--db", db.url] + (["--user", user] if user else []) + list(argv))
        out = capsys.readouterr()
        return rc, out.out, out.err
    rc, out, err = cli("fapiao", "profile", code, "--title", name, "--tax-id", code, "--type", "数电普票",
                       "--email", "ap@example.com")
    assert rc == 0 and "digital_normal" in out, err
    rc, out, err = cli("fapiao", "add", sep.number, "--number", "26442000000000000401", "--date", today,
                       "--amount", "3000", "--tax", "180")
    assert rc == 0 and "部分开票 (partial)" in out and "数电普票" in out, err
    rc, out, err = cli("fapiao", "add", sep.number, "--number", "26442000000000000402", "--date", today,
                       "--amount", "3000", "--tax", "180.01")
    assert rc == 1 and "left to invoice" in err
    rc, out, err = cli("billing", "fapiao", oct_.number, "04400123")   # the older single number still works
    assert rc == 0 and "fapiao 04400123" in out, err
    rc, out, err = cli("deposits", "add", "--customer", code, "--amount", "1000", "--kind", "prepayment")
    assert rc == 0 and "balance ¥1,000.00" in out, err
    rc, out, err = cli("deposits", "apply", oct_.number, "--kind", "prepayment", "--amount", "400")
    assert rc == 0 and f"applied ¥400.00 to {oct_.number}" in out, err
    rc, out, err = cli("deposits", "refund", "--customer", code, "--kind", "prepayment", "--reason", "asked back")
    assert rc == 0 and "refunded ¥600.00" in out and "balance ¥0.00" in out, err
    rc, out, err = cli("deposits", "list", user=None)
    assert rc == 0 and "refunded ¥600.00" in out, err
    for kind, fmt in (("fapiao", "csv"), ("deposits", "xlsx"), ("invoicing-profiles", "csv")):
        rc, out, err = cli("export", kind, "--format", fmt, "-o", str(tmp_path / f"{kind}.{fmt}"))
        assert rc == 0 and "exported" in out, err
    rc, out, err = cli("import", "invoicing-profiles", str(tmp_path / "invoicing-profiles.csv"))
    assert rc == 0 and "1 unchanged" in out, err
    (tmp_path / "bad.csv").write_text("credit_code,title,tax_id\nnobody,x,123\n", encoding="utf-8")
    rc, out, err = cli("import", "invoicing-profiles", str(tmp_path / "bad.csv"))
    assert rc == 1 and "row 2" in err
    rc, out, err = cli("export", "fapiao-lines", "--period", "2026-10", "-o", str(tmp_path / "lines.xlsx"))
    assert rc == 0 and "exported 1 fapiao-lines" in out, err
    rc, out, err = cli("export", "payments", "--format", "csv", "-o", str(tmp_path / "p.csv"))  # still served
    assert rc == 0, err
    rc, out, err = cli("report", "receivables", "--period", local_today().strftime("%Y-%m"),
                       "-o", str(tmp_path / "summary.xlsx"))
    assert rc == 0 and "closing ¥12,320.00" in out, err   # 12,720 − 400 applied
    # overdue: nothing is overdue today; with the statements 61 days past due, a proposal, decided
    rc, out, err = cli("payments", "overdue", user=None)
    assert rc == 0 and "more than 60 days" in out, out
    with db.engine.begin() as conn:
        from models import Statement
        conn.execute(Statement.__table__.update().values(due_date=local_today() - dt.timedelta(days=61)))
    rc, out, err = cli("payments", "overdue", user=None)
    assert rc == 0 and name in out and "propose suspension" in out, out
    rc, out, err = cli("payments", "decide", code, "suspend", "--reason", "no answer to three reminders")
    assert rc == 0 and "suspend" in out, err
    rc, out, err = cli("payments", "overdue", user=None)
    assert "decided suspend by admin: no answer to three reminders" in out, out
    rc, out, err = cli("settings", "set", "overdue_suspension_days", "90", "--reason", "policy")
    assert rc == 0, err
    rc, out, err = cli("payments", "decide", code, "keep", "--reason", "x")
    assert rc == 1 and "not overdue more than 90 days" in err
