"""Use cases that had no screen and no command now have a command: billing delete-draft, billing
downtime record/end, statements list, reservation cancel, customer contacts."""
from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select

from app.cli.main import main
from app.services import billing as BS
from models import Contact, Downtime, RackReservation
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


def test_list_statements_and_delete_a_draft(db, admin, manager, cli):
    w = make_world(db)
    signed(db, manager, admin, w, [rack_item(w, 1, "6000")], dt.date(2026, 10, 1), dt.date(2027, 9, 30))
    code, out, err = cli("billing", "run", "--period", "2026-10")
    assert code == 0, err
    (draft,) = BS.list_statements(db)
    code, out, err = cli("statements", "list", "--period", "2026-10", user=None)
    assert code == 0, err
    assert f"draft #{draft.id}" in out and "draft" in out and "GZ" in out and "6,360.00" in out
    with pytest.raises(SystemExit) as exc:
        cli("billing", "delete-draft", str(draft.id))
    assert exc.value.code == 2      # argparse: --reason is required
    code, out, err = cli("billing", "delete-draft", str(draft.id), "--reason", "the rack price was wrong")
    assert code == 0, err
    assert BS.list_statements(db) == []


def test_record_and_end_a_downtime(db, admin, cli):
    w = make_world(db)
    code, out, err = cli("billing", "downtime", "record", "--gpu", str(w.gpu_ids[0]), "--start", "2026-10-03T08:00",
                         "--reason", "NVLink 故障")
    assert code == 0, err
    assert "recorded (open" in out
    with db.session() as s:
        d = s.execute(select(Downtime)).scalar_one()
        assert d.gpu_id == w.gpu_ids[0] and d.end is None
        assert d.start == dt.datetime(2026, 10, 3, 0, 0, tzinfo=dt.timezone.utc)   # 08:00 Shanghai
    code, out, err = cli("billing", "downtime", "end", str(d.id), "--at", "2026-10-02T08:00")
    assert code == 1 and "before the start" in err
    code, out, err = cli("billing", "downtime", "end", str(d.id), "--at", "2026-10-04T08:00")
    assert code == 0, err
    with db.session() as s:
        assert s.get(Downtime, d.id).end == dt.datetime(2026, 10, 4, 0, 0, tzinfo=dt.timezone.utc)
    with pytest.raises(SystemExit) as exc:   # the GPU or the server, not both
        cli("billing", "downtime", "record", "--gpu", "1", "--device", "1", "--start", "2026-10-03T08:00",
            "--reason", "x")
    assert exc.value.code == 2


def test_cancel_a_reservation(db, admin, cli):
    from app.services.dcim import reserve_units

    w = make_world(db)
    rid = reserve_units(db, admin, w.rack_ids[0], w.customer_id, "front", 1, 4, dt.date(2026, 10, 1))
    code, out, err = cli("reservation", "cancel", str(rid), "--reason", "客户改订 A-02")
    assert code == 0, err
    with db.session() as s:
        assert s.get(RackReservation, rid).status == "cancelled"
    code, out, err = cli("reservation", "cancel", str(rid), "--reason", "again")
    assert code == 1 and "not active" in err


def test_replace_a_customers_contacts_from_csv(db, admin, cli, tmp_path):
    w = make_world(db)
    f = tmp_path / "contacts.csv"
    f.write_text("name,phone,email,role\n张三,13800138000,zhang@example.com,财务\n李四,,,运维\n", encoding="utf-8")
    code, out, err = cli("customer", "contacts", str(w.customer_id), str(f))
    assert code == 0, err
    with db.session() as s:
        got = sorted((c.name, c.phone, c.email, c.role) for c in
                     s.execute(select(Contact).where(Contact.customer_id == w.customer_id)).scalars())
    assert got == [("张三", "13800138000", "zhang@example.com", "财务"), ("李四", None, None, "运维")]
    f.write_text("name,phone\n,123\n", encoding="utf-8")
    code, out, err = cli("customer", "contacts", str(w.customer_id), str(f))
    assert code == 1 and "name" in err


def test_payment_terms_and_a_lease_outside_a_contract_have_commands(db, admin, manager, cli):
    from models import Contract, SpaceLease

    w = make_world(db)
    c = signed(db, manager, admin, w, [rack_item(w, 1, "6000")], dt.date(2026, 10, 1), dt.date(2027, 9, 30))
    code, out, err = cli("contracts", "terms", c.number, "45", "--wording", "月结 45 天")
    assert code == 0, err
    assert "45 day(s) after issue" in out
    code, out, err = cli("contracts", "terms", c.number, "400")
    assert code == 1 and "0 to 365 days" in err
    with db.session() as s:
        got = s.get(Contract, c.id)
        assert (got.payment_term_days, got.payment_terms) == (45, "月结 45 天")

    code, out, err = cli("space", "lease", str(w.other_customer_id), "--rack", str(w.rack_ids[3]), "--units", "1-10",
                         "--face", "front", "--from", "2027-01-01", "--to", "2027-06-30", "--reason", "迁入的托管合同")
    assert code == 0, err
    code, out, err = cli("space", "lease", str(w.other_customer_id), "--rack", str(w.rack_ids[3]), "--units", "x",
                         "--from", "2027-01-01")
    assert code == 1 and "FROM-TO" in err
    with db.session() as s:
        (lease,) = s.execute(select(SpaceLease).where(SpaceLease.rack_id == w.rack_ids[3])).scalars()
        assert (lease.customer_id, lease.u_from, lease.u_to, lease.face) == (w.other_customer_id, 1, 10, "front")
        assert (lease.start_date, lease.end_date) == (dt.date(2027, 1, 1), dt.date(2027, 6, 30))
