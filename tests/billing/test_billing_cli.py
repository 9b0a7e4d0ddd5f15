"""The billing commands: run, issue, credit, meter-import, contracts due, statements export."""
from __future__ import annotations

import csv
import datetime as dt
from decimal import Decimal

import pytest

from app.cli.main import main
from app.services import billing as BS
from tests.conftest import PASSWORD
from tests.billing.test_billing_world import make_world, rack_item, signed


@pytest.fixture
def cli(db, admin, monkeypatch, capsys):
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", PASSWORD)

    def call(*argv, user="admin"):
        code = main(["--db", db.url] + (["--user", user] if user else []) + list(argv))
        out = capsys.readouterr()
        return code, out.out, out.err
    return call


def test_run_issue_credit_and_export(db, admin, manager, cli, tmp_path):
    w = make_world(db)
    signed(db, manager, admin, w, [rack_item(w, 1, "6000", power_allowance_kw=Decimal(5), kwh_price=Decimal("1.2"))],
           dt.date(2026, 10, 1), dt.date(2027, 9, 30))
    readings = tmp_path / "meter.csv"
    readings.write_text("rack,read_at,kwh_total\n" + "".join(
        f"A-01,2026-{10 + (d > 31)}-{(d - 1) % 31 + 1:02d}T00:00,{100 * d}\n" for d in range(1, 33)))
    code, out, err = cli("billing", "meter-import", str(readings))
    assert code == 0, err
    assert "imported 32 meter reading(s) for 1 rack(s)" in out

    code, out, err = cli("billing", "run", "--period", "2026-10", "--dry-run", user=None)
    assert code == 0, err
    assert "would create 2 line(s)" in out and "陆仟叁佰陆拾元整" in out
    assert BS.list_statements(db) == []

    code, out, err = cli("billing", "run", "--period", "2026-10", "--issue")
    assert code == 0, err
    assert "created 2 line(s)" in out and "issued 1: GZ-202610-000001" in out
    code, out, _ = cli("billing", "run", "--period", "2026-10")
    assert "nothing to bill, every line already exists (2 line(s) from earlier runs)" in out

    code, out, err = cli("billing", "fapiao", "GZ-202610-000001", "44001234")
    assert code == 0 and "fapiao 44001234" in out, err
    code, out, err = cli("billing", "credit", "GZ-202610-000001", "--reason", "交付延迟")
    assert code == 0, err
    assert "issued credit note GZ-CN-" in out and "for GZ-202610-000001" in out
    code, out, err = cli("billing", "credit", "GZ-202610-000001", "--reason", "again")
    assert code == 1 and "already credited" in err

    target = tmp_path / "statements.csv"
    code, out, err = cli("statements", "export", "--format", "csv", "-o", str(target))
    assert code == 0, err
    with open(target, encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    assert [(r["number"], r["status"], r["total"]) for r in rows][0] == ("GZ-202610-000001", "issued", "6360.00")
    assert {"number", "subsidiary", "customer", "period", "subtotal", "tax", "total", "status"} <= set(rows[0])
    assert rows[1]["original"] == "GZ-202610-000001" and rows[1]["total"] == "-6360.00"

    code, out, err = cli("billing", "show", "GZ-202610-000001", user=None)
    assert code == 0 and "credit notes: GZ-CN-" in out, err


def test_refusals_exit_1_with_the_reason(db, admin, manager, cli, capsys):
    with pytest.raises(SystemExit) as usage:   # a bad period is a usage error: exit 2
        cli("billing", "run", "--period", "2026-13")
    assert usage.value.code == 2 and "YYYY-MM" in capsys.readouterr().err
    code, _out, err = cli("billing", "issue", "--period", "2026-10", user="am")
    assert code == 1 and "may not run billing" in err


def test_contracts_due(db, admin, manager, cli):
    w = make_world(db)
    from app.domain.rating import local_today

    end = local_today() + dt.timedelta(days=45)
    c = signed(db, manager, admin, w, [rack_item(w, 1, "1")], dt.date(2026, 1, 1), end)
    code, out, err = cli("contracts", "due", "--within", "90", user=None)
    assert code == 0, err
    assert c.number in out and "in  45 days" in out and "[60-day alert]" in out
    code, out, _ = cli("contracts", "due", "--within", "30", user=None)
    assert "no contract in force ends within 30 days" in out


def test_handover_rebill_and_partial_credit_from_the_command_line(db, admin, manager, cli):
    from tests.billing.test_billing_world import cst

    w = make_world(db)
    c = signed(db, manager, admin, w, [rack_item(w, 1, "6000"), rack_item(w, 2, "3100")], dt.date(2026, 10, 1),
               dt.date(2027, 9, 30), at=cst(2026, 9, 20))
    code, out, err = cli("contracts", "due", user=None)
    assert code == 0 and "awaiting handover" in out and f"{c.number:<18} item 2" in out, err
    code, out, err = cli("contracts", "handover", c.number, "--item", "2", "--at", "2026-10-11T01:00")
    assert code == 1 and "required with --item" in err
    code, out, err = cli("contracts", "handover", c.number, "--item", "1", "--at", "2026-10-01T00:00",
                         "--note", "交接单 JJ-1")
    assert code == 0 and "recorded: " in out and "billed from 2026-10-01" in out, err
    code, out, err = cli("contracts", "handover", c.number, "--item", "2", "--at", "2026-10-11T01:00",
                         "--note", "交接单 JJ-2")
    assert code == 0 and "handover 2026-10-11 01:00 by admin, billed from 2026-10-11" in out, err
    code, out, _ = cli("contracts", "handover", c.number, user=None)
    assert "item 1" in out and "item 2" in out and "JJ-2" in out
    code, out, err = cli("billing", "run", "--period", "2026-10", "--issue")
    assert code == 0 and "issued 1: GZ-202610-000001" in out and "0 draft statement(s) of 2026-10 pending" in out, err
    st = BS.get_statement(db, "GZ-202610-000001")
    # item 2: 3100 × 21/31 = 2,100.00
    assert [ln.amount for ln in st.lines] == [Decimal("6000.00"), Decimal("2100.00")]
    code, out, err = cli("billing", "credit", "GZ-202610-000001", "--reason", "补偿", "--line", str(st.lines[0].id),
                         "--amount", "100")
    assert code == 0 and "total -106.00" in out, err
    code, out, err = cli("billing", "credit", "GZ-202610-000001", "--reason", "价格错误", "--line", str(st.lines[1].id))
    assert code == 0 and "billing rebill GZ-202610-000001" in out, err
    code, out, err = cli("billing", "rebill", "GZ-202610-000001", "--issue")
    assert code == 0 and "issued 1: GZ-202610-000002" in out and "rebills GZ-202610-000001" in out, err
    assert "[rev. 2]" in out
