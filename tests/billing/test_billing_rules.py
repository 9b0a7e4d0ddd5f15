"""The billing defects of issue 11, each pinned by a worked example that failed before the fix.

Figures are computed by hand in the tables; tax rates are the seeded ones (IDC 6 %, GPU rental 13 %).
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from sqlalchemy import select

from app.domain import rating as B
from app.domain.errors import PermissionDenied, RuleViolation, ValidationError
from app.services import billing as BS
from app.services import contracts as C
from app.services.contracts import handover as H
from models import AuditEvent, ContractItem
from models.choices import PriceUnit, StatementStatus
from tests.conftest import table_counts
from tests.billing.test_billing_world import cst, gpu_item, make_world, rack_item, signed

D = Decimal
UTC = dt.timezone.utc
AFTER_NOV = cst(2026, 12, 1, 9)


def lines(summary):
    return [(ln.charge, ln.quantity, ln.unit_price, ln.amount) for st in summary.statements for ln in st.lines]


def every_line_multiplies_out(summary):
    return all(B.multiplies_out(ln.quantity, ln.unit_price, ln.amount) for st in summary.statements for ln in st.lines)


# --- a month is billed once it has ended ------------------------------------------------------

def test_an_open_month_is_refused_and_its_dry_run_is_provisional(db, admin, manager):
    """One H100 at ¥10.00 per GPU-hour all October (744 h). Before: a run on 20 Oct billed 468 h
    (19 days 12 h) and a run on 2 Nov skipped the existing usage line, losing 276 h for good.

    | run                 | outcome                                                       |
    |---------------------|---------------------------------------------------------------|
    | 20 Oct 12:00        | refused: can be billed from 2026-11-01 00:00 Asia/Shanghai     |
    | 20 Oct, dry run     | 468 h × 10 = 4,680.00, PROVISIONAL up to 2026-10-20 12:00     |
    | 2 Nov               | 744 h × 10 = 7,440.00                                          |
    """
    w = make_world(db)
    signed(db, manager, admin, w, [gpu_item(w, [1], "10")], dt.date(2026, 10, 1), dt.date(2027, 9, 30))
    before = table_counts(db)
    with pytest.raises(ValidationError, match="2026-10 has not ended; it can be billed from 2026-11-01 00:00"):
        BS.run_billing(db, admin, "2026-10", as_of=cst(2026, 10, 20, 12))
    assert table_counts(db) == before
    dry = BS.run_billing(db, admin, "2026-10", dry_run=True, as_of=cst(2026, 10, 20, 12))
    assert lines(dry) == [("usage", D(468), D(10), D("4680.00"))]
    assert dry.provisional_until == cst(2026, 10, 20, 12)
    assert "PROVISIONAL" in dry.describe() and "2026-10-20 12:00" in dry.describe()
    assert table_counts(db) == before
    real = BS.run_billing(db, admin, "2026-10", as_of=cst(2026, 11, 2))
    assert lines(real) == [("usage", D(744), D(10), D("7440.00"))]
    assert real.provisional_until is None and "PROVISIONAL" not in real.describe()


def test_billable_periods_are_the_ended_months():
    assert BS.billable_periods(3, as_of=cst(2026, 11, 30, 23, 59)) == ["2026-10", "2026-09", "2026-08"]
    assert BS.billable_periods(1, as_of=cst(2026, 12, 1, 0, 0)) == ["2026-11"]
    # 16:00 UTC on 30 November is already 1 December in Shanghai
    assert BS.billable_periods(1, as_of=dt.datetime(2026, 11, 30, 16, tzinfo=UTC)) == ["2026-11"]


# --- handover -------------------------------------------------------------------------------

def test_handover_at_one_in_the_morning_shanghai_bills_from_that_shanghai_day(db, admin, manager):
    """Rack at ¥6,000.00 a month, contract from 31 August, handed over 1 Sep 01:00 Shanghai = 31 Aug 17:00 UTC.

    | period  | before                 | now                                      |
    |---------|------------------------|------------------------------------------|
    | 2026-08 | 6000 × 1/31 = 193.55   | nothing: not yet handed over on 31 Aug   |
    | 2026-09 | 6000.00                | 6000.00                                  |
    """
    w = make_world(db)
    c = signed(db, manager, admin, w, [rack_item(w, 1, "6000")], dt.date(2026, 8, 31), dt.date(2027, 8, 30),
               at=cst(2026, 8, 28, 10))  # activated before the start: the rack awaits its handover
    assert [(a.contract_number, a.position) for a in H.awaiting_handover(db)] == [(c.number, 1)]
    assert BS.run_billing(db, admin, "2026-08", as_of=AFTER_NOV).lines_created == 0
    info = H.record_handover(db, admin, c.number, 1, dt.datetime(2026, 8, 31, 17, tzinfo=UTC), "交接单 JJ-0901")
    assert info.billed_from == dt.date(2026, 9, 1) and H.awaiting_handover(db) == []
    assert BS.run_billing(db, admin, "2026-08", as_of=AFTER_NOV).lines_created == 0
    assert lines(BS.run_billing(db, admin, "2026-09", as_of=AFTER_NOV)) == [("fee", D(1), D(6000), D("6000.00"))]
    with db.session() as s:
        ev = s.execute(select(AuditEvent).where(AuditEvent.action == "contract_item.handover")).scalar_one()
        assert ev.actor_login == "admin" and "JJ-0901" in ev.after


def test_activation_after_the_start_bills_from_the_activation_day(db, admin, manager):
    """Contract from 1 September, activated (and so handed over) on 15 October at 14:00.

    | period  | before          | now                                                        |
    |---------|-----------------|------------------------------------------------------------|
    | 2026-09 | 6,000.00        | nothing                                                    |
    | 2026-10 | 6,000.00        | 6000 × 17/31 = 3,290.32 (quantity 0.548387)                |
    """
    w = make_world(db)
    signed(db, manager, admin, w, [rack_item(w, 1, "6000")], dt.date(2026, 9, 1), dt.date(2027, 8, 31),
           at=cst(2026, 10, 15, 14))
    assert BS.run_billing(db, admin, "2026-09", as_of=AFTER_NOV).lines_created == 0
    octo = BS.run_billing(db, admin, "2026-10", as_of=AFTER_NOV)
    assert lines(octo) == [("fee", D("0.548387"), D(6000), D("3290.32"))] and every_line_multiplies_out(octo)


def test_handover_applies_to_gpu_hours_too(db, admin, manager):
    """Two GPUs at ¥10.00 an hour, activated 1 Oct 00:00 (leases start then) but the item's handover is
    corrected to 11 Oct 15:00: October bills from 11 Oct 00:00 Shanghai, 21 days × 24 h × 2 = 1,008 h."""
    w = make_world(db)
    c = signed(db, manager, admin, w, [gpu_item(w, [1, 2], "10")], dt.date(2026, 10, 1), dt.date(2027, 9, 30))
    H.record_handover(db, admin, c.number, 1, cst(2026, 10, 11, 15), "客户验收延迟，以验收单为准")
    assert lines(BS.run_billing(db, admin, "2026-10", as_of=AFTER_NOV)) == [("usage", D(1008), D(10), D("10080.00"))]


def test_handover_correction_clears_drafts_and_stops_once_issued(db, admin, manager, auditor):
    """Correcting a handover takes the item's lines off drafts (the next run bills them afresh);
    once an issued statement used the handover it stands, and the refusal says what to do."""
    w = make_world(db)
    c = signed(db, manager, admin, w, [rack_item(w, 1, "3100")], dt.date(2026, 10, 1), dt.date(2027, 9, 30))
    assert lines(BS.run_billing(db, admin, "2026-10", as_of=AFTER_NOV))[0][3] == D("3100.00")
    with pytest.raises(PermissionDenied):
        H.record_handover(db, auditor, c.number, 1, cst(2026, 10, 11), "x")
    with pytest.raises(ValidationError) as exc:
        H.record_handover(db, admin, c.number, 1, cst(2026, 10, 11), " ")
    assert "note" in exc.value.errors
    with pytest.raises(ValidationError, match="has items 1 to 1"):
        H.record_handover(db, admin, c.number, 2, cst(2026, 10, 11), "x")
    info = H.record_handover(db, admin, c.number, 1, cst(2026, 10, 11, 9), "机柜电源到位时间更正")
    assert info.corrected and info.drafts_cleared == 1 and BS.list_statements(db, period="2026-10") == []
    # 21 of 31 days: 3100 × 21/31 = 2,100.00 (quantity 0.67742: the fewest decimals that give it)
    again = BS.run_billing(db, admin, "2026-10", as_of=AFTER_NOV, issue=True)
    assert lines(again) == [("fee", D("0.67742"), D(3100), D("2100.00"))]
    before = table_counts(db)
    with pytest.raises(RuleViolation, match="was billed on GZ-202610-000001; it can no longer be corrected"):
        H.record_handover(db, admin, c.number, 1, cst(2026, 10, 1), "again")
    assert table_counts(db) == before


# --- issuing completes an interrupted run ------------------------------------------------------

def test_issue_issues_every_draft_of_the_period_and_runs_say_what_is_pending(db, admin, manager):
    """A run that drafted and died before issuing (as after kill -9 mid `--issue`): re-running with
    --issue finds nothing to bill yet issues the drafts left behind."""
    w = make_world(db)
    signed(db, manager, admin, w, [rack_item(w, 1, "6000")], dt.date(2026, 10, 1), dt.date(2027, 9, 30))
    signed(db, manager, admin, w, [rack_item(w, 2, "5000")], dt.date(2026, 10, 1), dt.date(2027, 9, 30),
           customer_id=w.other_customer_id)
    first = BS.run_billing(db, admin, "2026-10", as_of=AFTER_NOV)
    assert first.pending_drafts == 2 and "2 draft statement(s) of 2026-10 pending issue" in first.describe()
    # the crash: one statement issued, the other left a draft
    BS.issue_statements(db, admin, statement_ids=[first.statements[0].id])
    again = BS.run_billing(db, admin, "2026-10", as_of=AFTER_NOV, issue=True)
    assert again.lines_created == 0 and again.issued == ("GZ-202610-000002",)
    assert again.pending_drafts == 0 and "0 draft statement(s) of 2026-10 pending issue" in again.describe()
    assert all(st.status == StatementStatus.ISSUED for st in BS.list_statements(db, period="2026-10"))


# --- revisions, rebills, credit notes -----------------------------------------------------------

def _issued_rack(db, admin, manager, price="6000"):
    w = make_world(db)
    c = signed(db, manager, admin, w, [rack_item(w, 1, price)], dt.date(2026, 10, 1), dt.date(2027, 9, 30))
    BS.run_billing(db, admin, "2026-10", as_of=AFTER_NOV, issue=True)
    return w, c


def _set_price(db, contract_number, price):
    """The price was keyed wrong (test setup writes with the ORM: the correction's source is not the point)."""
    from models import Contract

    with db.session() as s:
        item = s.execute(select(ContractItem).join(Contract).where(Contract.number == contract_number)).scalar_one()
        item.unit_price = D(price)
        s.commit()


def test_a_credited_line_is_billed_again_as_its_next_revision(db, admin, manager):
    """GZ-202610-000001 billed the rack at 6,000.00; the right price is 5,500.00.

    | document             | line          | revision | amount     | tax      |
    |----------------------|---------------|----------|------------|----------|
    | GZ-202610-000001     | fee           | 1        | 6,000.00   | 360.00   |
    | GZ-CN-202611-000001  | cn-fee        | 1        | −6,000.00  | −360.00  |
    | GZ-202610-000002     | fee (rebill)  | 2        | 5,500.00   | 330.00   |
    The customer is charged 5,500.00 + 330.00 = 5,830.00 for October in all. Before: the credited key
    stayed taken and no run could bill October's rack again.
    """
    _w, c = _issued_rack(db, admin, manager)
    assert BS.run_billing(db, admin, "2026-10", as_of=AFTER_NOV).lines_created == 0
    with pytest.raises(RuleViolation, match="no line of GZ-202610-000001 has been credited in full"):
        BS.rebill_statement(db, admin, "GZ-202610-000001", as_of=AFTER_NOV)
    _set_price(db, c.number, "5500")
    assert BS.run_billing(db, admin, "2026-10", as_of=AFTER_NOV).lines_created == 0  # still billed: no credit
    cn = BS.credit_statement(db, admin, "GZ-202610-000001", "单价录入错误", at=cst(2026, 11, 29, 12))
    assert [(ln.charge, ln.revision, ln.amount) for ln in cn.lines] == [("cn-fee", 1, D("-6000.00"))]
    rebill = BS.rebill_statement(db, admin, "GZ-202610-000001", issue=True, as_of=AFTER_NOV)
    assert rebill.rebilled == 1 and rebill.issued == ("GZ-202610-000002",)
    st = BS.get_statement(db, "GZ-202610-000002")
    assert st.rebills_number == "GZ-202610-000001"
    assert [(ln.charge, ln.revision, ln.amount, ln.tax) for ln in st.lines] == [("fee", 2, D("5500.00"), D("330.00"))]
    net = sum(x.total for x in BS.list_statements(db) if x.status == StatementStatus.ISSUED)
    assert net == D("5830.00")
    # the revision stands: nothing more to bill or rebill until it is credited in turn
    assert BS.run_billing(db, admin, "2026-10", as_of=AFTER_NOV).lines_created == 0
    with pytest.raises(RuleViolation, match="already rebilled"):
        BS.rebill_statement(db, admin, "GZ-202610-000001", as_of=AFTER_NOV)
    # crediting the rebill frees revision 2 for a revision 3, billed by the regular run
    BS.credit_statement(db, admin, "GZ-202610-000002", "再次更正", at=cst(2026, 11, 29, 12))
    third = BS.run_billing(db, admin, "2026-10", as_of=AFTER_NOV)
    assert [(ln.revision, st.rebills_id) for st in third.statements for ln in st.lines] == [(3, st.id)]


def test_crediting_a_credit_note_is_refused(db, admin, manager):
    _issued_rack(db, admin, manager)
    cn = BS.credit_statement(db, admin, "GZ-202610-000001", "全免", at=cst(2026, 11, 29, 12))
    before = table_counts(db)
    with pytest.raises(RuleViolation, match="is a credit note; a credit note is not credited again"):
        BS.credit_statement(db, admin, cn.number, "撤销冲销", at=cst(2026, 11, 29, 12))
    assert table_counts(db) == before


def test_partial_credit_by_amount_then_the_rest(db, admin, manager):
    """6,000.00 rack line: 1,234.56 credited (service outage goodwill), then the rest in full.

    | document             | line    | quantity × price         | amount      | tax (6 %)   |
    |----------------------|---------|--------------------------|-------------|-------------|
    | GZ-202610-000001     | fee     | 1 × 6,000                | 6,000.00    | 360.00      |
    | GZ-CN-202611-000001  | cnp-fee | −1 × 1,234.56            | −1,234.56   | −74.07      |
    | GZ-CN-202611-000002  | cn-fee  | −1 × 4,765.44            | −4,765.44   | −285.93     |
    The two credit notes and the statement net to zero, tax included.
    """
    _issued_rack(db, admin, manager)
    line_id = BS.get_statement(db, "GZ-202610-000001").lines[0].id
    at = cst(2026, 11, 29, 12)
    with pytest.raises(ValidationError, match="names exactly one line"):
        BS.credit_statement(db, admin, "GZ-202610-000001", "x", amount="100", at=at)
    with pytest.raises(ValidationError, match="less than what is left"):
        BS.credit_statement(db, admin, "GZ-202610-000001", "x", line_ids=[line_id], amount="6000", at=at)
    with pytest.raises(ValidationError, match="positive amount in yuan and fen"):
        BS.credit_statement(db, admin, "GZ-202610-000001", "x", line_ids=[line_id], amount="0.001", at=at)
    part = BS.credit_statement(db, admin, "GZ-202610-000001", "断电 3 小时，商务补偿", line_ids=[line_id],
                               amount="1234.56", at=at)
    assert [(ln.charge, ln.quantity, ln.unit_price, ln.amount, ln.tax) for ln in part.lines] == [
        ("cnp-fee", D(-1), D("1234.56"), D("-1234.56"), D("-74.07"))]
    assert BS.run_billing(db, admin, "2026-10", as_of=AFTER_NOV).lines_created == 0  # the charge stands
    with pytest.raises(RuleViolation, match="already has a partial credit"):
        BS.credit_statement(db, admin, "GZ-202610-000001", "x", line_ids=[line_id], amount="1", at=at)
    rest = BS.credit_statement(db, admin, "GZ-202610-000001", "合同解除，余额冲销", at=at)
    assert [(ln.charge, ln.quantity, ln.unit_price, ln.amount, ln.tax) for ln in rest.lines] == [
        ("cn-fee", D(-1), D("4765.44"), D("-4765.44"), D("-285.93"))]
    assert sum(x.total for x in BS.list_statements(db)) == 0


# --- lines multiply out; prices print in full -------------------------------------------------

def test_part_month_discount_and_monthly_gpu_downtime_lines_multiply_out(db, admin, manager):
    """Before: "1 × 6,543.21 = 3,489.71" for 16 of 30 days. Now every line is quantity × unit price.

    | line                           | quantity                 | unit price | amount     |
    |--------------------------------|--------------------------|------------|------------|
    | rack 15–30 Nov (16/30)         | 0.533333                 | 6,543.21   | 3,489.71   |
    | discount 15–30 Nov             | −0.53333                 | 200        | −106.67    |
    | GPU month 15–30 Nov            | 0.5333333                | 31,000     | 16,533.33  |
    | its downtime, 5 h = 18,000 s   | −18,000/2,592,000 = −0.0069444 | 31,000 | −215.28  |
    """
    from models.choices import ItemKind

    w = make_world(db)
    items = [rack_item(w, 1, "6543.21"), C.ItemSpec(ItemKind.DISCOUNT, "折扣", D("200"), PriceUnit.MONTH),
             gpu_item(w, [1], "31000", PriceUnit.MONTH)]
    signed(db, manager, admin, w, items, dt.date(2026, 11, 15), dt.date(2027, 11, 14))
    BS.record_downtime(db, admin, gpu_id=w.gpu_ids[0], start=cst(2026, 11, 20, 8), end=cst(2026, 11, 20, 13),
                       reason="更换风扇")
    nov = BS.run_billing(db, admin, "2026-11", as_of=AFTER_NOV)
    assert lines(nov) == [("fee", D("0.533333"), D("6543.21"), D("3489.71")),
                          ("fee", D("-0.53333"), D(200), D("-106.67")),
                          ("fee", D("0.5333333"), D(31000), D("16533.33")),
                          ("credit", D("-0.0069444"), D(31000), D("-215.28"))]
    assert every_line_multiplies_out(nov)


def test_a_price_with_three_decimals_prints_in_full(db, admin, manager, monkeypatch, capsys):
    """¥123,456,789.125 a month for a whole month: the line shows the price as written (not …13)."""
    from app.cli.main import main
    from tests.conftest import PASSWORD

    w = make_world(db)
    signed(db, manager, admin, w, [rack_item(w, 1, "123456789.125")], dt.date(2026, 10, 1), dt.date(2027, 9, 30))
    BS.run_billing(db, admin, "2026-10", as_of=AFTER_NOV, issue=True)
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", PASSWORD)
    assert main(["--db", db.url, "billing", "show", "GZ-202610-000001"]) == 0
    out = capsys.readouterr().out
    assert "1 月 × 123,456,789.125 = 123,456,789.13" in out


# --- hybrid part month --------------------------------------------------------------------------

def test_hybrid_part_month_bills_whole_started_hours_beyond_the_exact_included_hours(db, admin, manager):
    """Commit ¥2,000.00 a month with 200 GPU-hours, ¥30.00 an hour beyond; 2 GPUs handed over
    16 Oct 00:00, so 16 of 31 days and 2 × 16 × 24 = 768 h used.

    | figure    | arithmetic                                | before            | now                  |
    |-----------|-------------------------------------------|-------------------|----------------------|
    | fee       | 2000 × 16/31 (quantity 0.51613)           | 1 × 2000 = 1,032.26 | 0.51613 × 2000 = 1,032.26 |
    | included  | 200 × 16/31                               | 103.23 (rounded)  | 103.2258… (exact)    |
    | over      | 768 − 103.2258… = 664.77…                 | 664.77 h          | 665 started hours    |
    | overage   | × 30                                      | 19,943.10         | 19,950.00            |
    """
    w = make_world(db)
    signed(db, manager, admin, w, [gpu_item(w, [1, 2], "2000", PriceUnit.HYBRID, included_hours=D(200),
                                            hourly_rate=D(30))], dt.date(2026, 10, 16), dt.date(2027, 10, 15))
    octo = BS.run_billing(db, admin, "2026-10", as_of=AFTER_NOV)
    assert lines(octo) == [("fee", D("0.51613"), D(2000), D("1032.26")), ("overage", D(665), D(30), D("19950.00"))]
    assert every_line_multiplies_out(octo)


# --- meter readings ------------------------------------------------------------------------------

def test_a_meter_reading_that_goes_down_needs_the_reset_flag(db, admin, operator):
    w = make_world(db)
    rows = [{"rack": "A-01", "read_at": "2026-10-01T00:00", "kwh_total": "1000"},
            {"rack": "A-01", "read_at": "2026-10-02T00:00", "kwh_total": "1100"},
            {"rack": "A-01", "read_at": "2026-10-03T00:00", "kwh_total": "40"}]
    before = table_counts(db)
    with pytest.raises(ValidationError) as exc:
        BS.import_meter_readings(db, operator, rows)
    assert exc.value.errors == {"line 4": "kwh_total 40 is below the reading before it (1100 at 2026-10-02 00:00); "
                                          "if the meter was reset or replaced, mark the row reset=1"}
    assert table_counts(db) == before
    rows[2]["reset"] = "1"
    assert BS.import_meter_readings(db, operator, rows).imported == 3
    # against stored readings too: a later file's first row below the last stored one
    with pytest.raises(ValidationError, match="below the reading before it"):
        BS.import_meter_readings(db, operator, [{"rack": "A-01", "read_at": "2026-10-04T00:00", "kwh_total": "39"}])
    # and a row slipped in before a stored reading must not exceed it
    with pytest.raises(ValidationError, match="above the stored reading after it"):
        BS.import_meter_readings(db, operator, [{"rack": "A-01", "read_at": "2026-10-01T12:00", "kwh_total": "1200"}])
    del w


# --- what docs/billing.md states ----------------------------------------------------------------

def test_a_yearly_term_from_29_february(db, admin, manager):
    """¥34,800.00 a year (2,900.00 a month), 29 Feb 2028 – 28 Feb 2029, as docs/billing.md says.

    | period          | share             | amount     |
    |-----------------|-------------------|------------|
    | 2028-02         | 1/29 ÷ 12         | 100.00     |
    | 2028-03…2029-01 | 11 × 1/12         | 31,900.00  |
    | 2029-02         | 28/28 ÷ 12        | 2,900.00   |
    | total           |                   | 34,900.00  |
    """
    from models.choices import ItemKind

    w = make_world(db)
    signed(db, manager, admin, w, [C.ItemSpec(ItemKind.MAINTENANCE, "年度维保", D("34800"), PriceUnit.YEAR)],
           dt.date(2028, 2, 29), dt.date(2029, 2, 28))
    total = D(0)
    p = B.Period(2028, 2)
    while p.first <= dt.date(2029, 2, 1):
        run = BS.run_billing(db, admin, p.label, as_of=cst(2029, 4, 1))
        assert every_line_multiplies_out(run)
        amounts = [ln.amount for st in run.statements for ln in st.lines]
        if p.label == "2028-02":
            assert amounts == [D("100.00")]
        total += sum(amounts, D(0))
        p = p.next()
    assert total == D("34900.00")


def test_started_hours_are_counted_per_item_not_per_gpu(db, admin, manager):
    """Two GPUs, each leased 30 minutes on 31 Oct (23:30–24:00): 3,600 s together = 1 started hour, not 2."""
    w = make_world(db)
    c = signed(db, manager, admin, w, [gpu_item(w, [1, 2], "10")], dt.date(2026, 10, 31), dt.date(2027, 10, 30),
               at=cst(2026, 10, 31, 23, 30))
    del c
    assert lines(BS.run_billing(db, admin, "2026-10", as_of=AFTER_NOV)) == [("usage", D(1), D(10), D("10.00"))]


def test_the_rebill_pdf_names_the_statement_it_corrects(db, admin, manager):
    from app.documents import statement_doc

    _w, c = _issued_rack(db, admin, manager)
    BS.credit_statement(db, admin, "GZ-202610-000001", "更正", at=cst(2026, 11, 29, 12))
    BS.rebill_statement(db, admin, "GZ-202610-000001", issue=True, as_of=AFTER_NOV)
    doc = statement_doc(db, "GZ-202610-000002")
    assert "GZ-202610-000001" in doc.notes and "更正重开" in doc.notes
    del c
