"""A credit note says "waived, do not bill again" or "wrong, bill again" (SQLite and PostgreSQL).

Rack A-01 at 1,600.00 a month, October (VAT 6 %), by hand:

| document                     | arithmetic      | amount    | tax     | total     |
|------------------------------|-----------------|-----------|---------|-----------|
| October statement            | 1,600 × 31/31   | 1,600.00  | 96.00   | 1,696.00  |
| waiver (credit note)         | −(1,600.00)     | −1,600.00 | −96.00  | −1,696.00 |
| later runs of October        | key still taken | nothing   |         | 0.00      |
| customer charged for October |                 |           |         | 0.00      |

Credited without waiving, the same line is billed again by the next run (1,696.00 once more).
A partial credit of 600.00 and then the rest waived: −600.00 − 36.00, −1,000.00 − 60.00, nothing rebilled.
"""
from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal as D

import pytest
from sqlalchemy import select

from app.domain.errors import RuleViolation, ValidationError
from app.services import billing as BS
from models import AuditEvent
from tests.billing.test_billing_world import cst, make_world, rack_item, signed

RUN_AT = cst(2026, 12, 1, 9)


def _october(db, admin, manager):
    w = make_world(db)
    signed(db, manager, admin, w, [rack_item(w, 1, "1600")], dt.date(2026, 10, 1), dt.date(2027, 9, 30))
    (st,) = BS.run_billing(db, admin, "2026-10", issue=True, as_of=RUN_AT).statements
    assert st.total == D("1696.00")
    return st


def _charged(db, period):
    return sum((s.total for s in BS.list_statements(db) if s.period == period), D("0"))


def test_a_waived_line_is_never_billed_again(db, admin, manager):
    st = _october(db, admin, manager)
    cn = BS.credit_statement(db, admin, st.number, "SLA 赔偿：10 月宕机 9 小时，免收当月机柜费", waive=True)
    assert (cn.subtotal, cn.tax, cn.total) == (D("-1600.00"), D("-96.00"), D("-1696.00"))
    assert cn.lines[0].description.startswith(f"免收 {st.number}（不再计费）：")
    again = BS.run_billing(db, admin, "2026-10", issue=True, as_of=RUN_AT)
    assert (again.lines_created, again.rebilled, again.issued) == (0, 0, ())
    assert _charged(db, "2026-10") == D("0.00")
    with pytest.raises(RuleViolation, match="waived; a waived line is not billed again"):
        BS.rebill_statement(db, admin, st.number, as_of=RUN_AT)
    with pytest.raises(RuleViolation, match="already credited"):
        BS.credit_statement(db, admin, st.number, "again")
    with db.session() as s:
        (ev,) = s.execute(select(AuditEvent).where(AuditEvent.action == "statement.credit")).scalars()
    assert json.loads(ev.after)["waived"] is True and ev.reason.startswith("SLA 赔偿")


def test_a_credit_without_waiver_is_billed_again(db, admin, manager):
    st = _october(db, admin, manager)
    BS.credit_statement(db, admin, st.number, "机柜编号写错")
    again = BS.run_billing(db, admin, "2026-10", issue=True, as_of=RUN_AT)
    assert (again.lines_created, again.rebilled) == (1, 1)
    assert _charged(db, "2026-10") == D("1696.00")
    with db.session() as s:
        (ev,) = s.execute(select(AuditEvent).where(AuditEvent.action == "statement.credit")).scalars()
    assert json.loads(ev.after)["waived"] is False


def test_the_rest_of_a_partly_credited_line_can_be_waived(db, admin, manager):
    st = _october(db, admin, manager)
    (line,) = st.lines
    with pytest.raises(ValidationError, match="a waiver credits whole lines"):
        BS.credit_statement(db, admin, st.number, "坏账", line_ids=[line.id], amount="600", waive=True)
    part = BS.credit_statement(db, admin, st.number, "服务抵扣", line_ids=[line.id], amount="600")
    assert part.total == D("-636.00")
    rest = BS.credit_statement(db, admin, st.number, "坏账核销", line_ids=[line.id], waive=True)
    assert (rest.subtotal, rest.tax, rest.total) == (D("-1000.00"), D("-60.00"), D("-1060.00"))
    again = BS.run_billing(db, admin, "2026-10", as_of=RUN_AT)
    assert again.lines_created == 0 and _charged(db, "2026-10") == D("0.00")


def test_the_command_line_waives(db, admin, manager, capsys):
    import os

    from app.cli.main import main
    from tests.conftest import PASSWORD
    st = _october(db, admin, manager)
    os.environ["IDC_CONSOLE_PASSWORD"] = PASSWORD
    assert main(["--db", db.url, "--user", "admin", "billing", "credit", st.number, "--reason", "坏账核销",
                 "--waive"]) == 0
    assert "waived: no run bills them again" in capsys.readouterr().out
    assert BS.run_billing(db, admin, "2026-10", as_of=RUN_AT).lines_created == 0
