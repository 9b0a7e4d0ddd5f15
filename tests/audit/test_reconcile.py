"""`audit reconcile`: rows changed outside the program are listed (app/audit/reconcile.py)."""
from __future__ import annotations

from decimal import Decimal

import pytest
from sqlalchemy import text

from app.audit.reconcile import reconcile

from tests.support.tamper_kit import bill_last_month, drop_statement_triggers


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("IDC_CONSOLE_HOME", str(tmp_path / "home"))


def _reconcile(db):
    with db.session() as s:
        return reconcile(s)


def _sql(db, *statements, **params):
    with db.engine.begin() as c:
        for st in statements:
            c.execute(text(st), params)


def test_the_programs_own_writes_reconcile(demo_db, monkeypatch):
    """The demo (contracts activated, GPUs leased, a downtime) and a billing run with issue: nothing differs."""
    bill_last_month(demo_db, monkeypatch)
    r = _reconcile(demo_db)
    assert r.ok, [d.describe() for d in r.differences[:5]]
    assert r.compared_rows > 1000 and "total" in r.fields_by_table["statement"]
    # every table is covered and every row explained: its own event, an import's ids, or its parent's
    assert r.unexplained == {} and r.not_audited_rows == 0 and r.covered_tables >= 40
    assert {"amount", "tax", "tax_rate"} <= set(r.fields_by_table["statement_line"])   # the issue event's lines
    assert "rate" in r.fields_by_table["tax_rate"]   # the baseline of the migration's VAT rates
    assert "state" in r.fields_by_table["gpu_asset"] and "status" in r.fields_by_table["contract"]


def test_three_business_row_edits_are_listed(demo_db, monkeypatch, capsys):
    from app.cli.main import main

    bill_last_month(demo_db, monkeypatch)
    with demo_db.engine.connect() as c:
        st_id, total = c.execute(text("SELECT id, total FROM statement WHERE status = 'issued' ORDER BY id")).first()
        gpu_id = c.execute(text("SELECT MIN(id) FROM gpu_asset WHERE state = 'leased'")).scalar()
        c_id = c.execute(text("SELECT MIN(id) FROM contract WHERE status = 'active'")).scalar()
    drop_statement_triggers(demo_db)
    _sql(demo_db, "UPDATE statement SET total = total + 1 WHERE id = :s", s=st_id)
    _sql(demo_db, "UPDATE gpu_asset SET state = 'available' WHERE id = :g", g=gpu_id)
    _sql(demo_db, "UPDATE contract SET status = 'terminated' WHERE id = :c", c=c_id)
    r = _reconcile(demo_db)
    found = {(d.object_type, d.object_id, d.field): d for d in r.differences}
    assert set(found) == {("statement", str(st_id), "total"), ("gpu", str(gpu_id), "state"),
                          ("contract", str(c_id), "status")}
    d = found[("gpu", str(gpu_id), "state")]
    assert (d.database, d.audited) == ("available", "leased")
    assert found[("contract", str(c_id), "status")].audited == "active"
    # the trail holds "13511.90"; SQLite hands the raw column back as a float 13511.9: compare the amounts
    assert Decimal(str(found[("statement", str(st_id), "total")].audited)) == Decimal(str(total))
    capsys.readouterr()
    assert main(["--db", demo_db.url, "audit", "reconcile"]) == 1
    out = capsys.readouterr().out
    assert "state is 'available' in the database, 'leased' in the audit trail" in out
    assert "status is 'terminated' in the database, 'active' in the audit trail" in out


def test_deleted_row_is_listed(demo_db):
    with demo_db.engine.connect() as c:
        dev = c.execute(text("SELECT MAX(id) FROM device WHERE id NOT IN (SELECT device_id FROM gpu_asset "
                             "WHERE device_id IS NOT NULL) AND id NOT IN (SELECT device_id FROM downtime "
                             "WHERE device_id IS NOT NULL) AND id NOT IN (SELECT device_id FROM power_connection) "
                             "AND id NOT IN (SELECT device_id FROM pdu_feed) AND id NOT IN (SELECT side_a_device_id "
                             "FROM cable) AND id NOT IN (SELECT side_b_device_id FROM cable)")).scalar()
    _sql(demo_db, "DELETE FROM device WHERE id = :d", d=dev)
    r = _reconcile(demo_db)
    (d,) = r.differences
    assert (d.object_type, d.object_id, d.field, d.database) == ("device", str(dev), "(row)",
                                                                  "missing from the database")


def test_clean_database_exits_0(demo_db, capsys):
    from app.cli.main import main

    assert main(["--db", demo_db.url, "audit", "reconcile", "--fields"]) == 0
    out = capsys.readouterr().out
    assert "gpu_asset: " in out and "OK: every audited row" in out


def test_imported_meter_readings_are_reconciled(db, admin, operator, tmp_path):
    """Each import's event names its readings and what they held: a reading changed or deleted with SQL
    afterwards (the owner, or anyone on a SQLite file) is named by its import (issue 21: the November VAT
    fell when kWh totals were set to 0 and nothing noticed)."""
    from app.services import billing as BS
    from tests.billing.test_billing_world import make_world

    make_world(db)
    good = tmp_path / "m.csv"
    good.write_text("rack,read_at,kwh_total\nA-01,2026-10-01T00:00,100\nA-01,2026-10-02 00:00,250.5\n",
                    encoding="utf-8")
    BS.import_meter_readings(db, operator, good)
    r = _reconcile(db)
    assert r.ok, [d.describe() for d in r.differences]
    _sql(db, "UPDATE meter_reading SET kwh_total = 0 WHERE kwh_total = 250.5")
    r = _reconcile(db)
    assert [(d.object_type, d.field) for d in r.differences] == [("meter_reading", "(rows)")]
    assert "2 rows as imported" in r.differences[0].describe()


def test_money_inputs_changed_with_sql_are_named(demo_db, monkeypatch):
    """Issue 21: the VAT rates, the meter readings, an issued statement's line, a reading added with SQL:
    each is named by reconcile (table, id, what differs), on both backends."""
    bill_last_month(demo_db, monkeypatch)
    with demo_db.engine.connect() as c:
        line, amount = c.execute(text("SELECT l.id, l.amount FROM statement_line l JOIN statement s ON "
                                      "s.id = l.statement_id WHERE s.status = 'issued' ORDER BY l.id")).first()
        rates = c.execute(text("SELECT count(*) FROM tax_rate")).scalar()
        item = c.execute(text("SELECT min(i.id) FROM contract_item i JOIN contract k ON k.id = i.contract_id "
                              "WHERE k.status = 'active' AND i.unit_price > 1")).scalar()
        rack, last = c.execute(text("SELECT rack_id, max(read_at) FROM meter_reading GROUP BY rack_id "
                                    "ORDER BY rack_id")).first()
    drop_statement_triggers(demo_db, lines=True)
    _sql(demo_db, "UPDATE tax_rate SET rate = 0", "UPDATE meter_reading SET kwh_total = 0 WHERE id = 17",
         "UPDATE statement_line SET amount = amount + 100 WHERE id = :l", l=line)
    _sql(demo_db, "UPDATE contract_item SET unit_price = 1 WHERE id = :i", i=item)
    _sql(demo_db, "INSERT INTO meter_reading (rack_id, read_at, kwh_total) VALUES (:r, :t, 99999)",
         r=rack, t="2027-01-31 16:00:00")
    r = _reconcile(demo_db)
    found = {(d.object_type, d.field): d for d in r.differences}
    assert len([d for d in r.differences if d.object_type == "tax_rate"]) == rates
    assert all(d.field == "rate" and Decimal(str(d.audited)) > 0 for d in r.differences if d.object_type == "tax_rate")
    d = found[("statement_line", "amount")]
    assert (d.object_id, Decimal(str(d.audited)), Decimal(str(d.database))) == (str(line), amount, amount + 100)
    assert found[("meter_reading", "(rows)")].object_id.startswith("import #")
    (added,) = [d for d in r.differences if d.object_type == "meter_reading" and d.field == "(row)"]
    assert "no audit event made it" in added.describe() and "kwh_total 99999" in added.describe()
    d = found[("contract_item", "unit_price")]   # an item's price, against its contract's recorded items
    assert d.object_id == str(item) and Decimal(str(d.database)) == 1 and Decimal(str(d.audited)) > 1
    assert {d.object_type for d in r.differences} == {"tax_rate", "statement_line", "meter_reading", "contract_item"}


def test_rows_of_money_tables_nothing_explains_are_differences_elsewhere_listed(db, admin):
    """A contract item whose contract no event names is a difference; a rack loaded with SQL is listed as
    named by no event; the VAT rates are listed until their baseline is written, then compared."""
    from app.services.baselines import seed_baselines
    from app.store.dbroles import BASELINE_TABLES
    from tests.billing.test_billing_world import make_world

    w = make_world(db)
    r = _reconcile(db)
    assert r.ok and set(r.unexplained) >= {"rack", "tax_rate", "gpu_model"}
    assert r.unexplained["rack"][0] == len(w.rack_ids)
    assert seed_baselines(db) == sum(r.unexplained[t][0] for t in BASELINE_TABLES if t in r.unexplained)
    assert seed_baselines(db) == 0   # idempotent
    _sql(db, "INSERT INTO contract (number, subsidiary_id, customer_id, title, status, start_date, end_date, "
             "revision, language, version, updated_at, payment_term_days) VALUES ('X-1', :s, :c, 'x', 'active', "
             "'2026-01-01', '2026-12-31', 1, 'zh', 1, '2026-01-01 00:00:00', 30)", s=w.subsidiary_id, c=w.customer_id)
    _sql(db, "UPDATE tax_rate SET rate = 0.01 WHERE id = (SELECT min(id) FROM tax_rate)")
    r = _reconcile(db)
    assert "tax_rate" not in r.unexplained
    assert sorted((d.object_type, d.field) for d in r.differences) == [("contract", "(row)"), ("tax_rate", "rate")]
