"""Cross-connects and cables (issue 15): lifecycle, billing by installed/disconnected dates, the LOA
PDF, import/export round trips, and the elevation refusing Place/Reserve on another's lease."""
from __future__ import annotations

import datetime as dt
import subprocess
from decimal import Decimal

import pytest
from sqlalchemy import select

from app.domain.errors import RuleViolation, ValidationError
from app.services import contracts as C
from app.services import xconnects as X
from app.services.billing import run_billing
from models import AuditEvent, CrossConnect, StatementLine
from models.choices import ItemKind, PriceUnit, XconnectMedium, XconnectPeer, XconnectState
from tests.conftest import table_counts
from tests.billing.test_billing_world import cst, make_world, rack_item, signed

D = Decimal
START, END = dt.date(2026, 1, 1), dt.date(2026, 12, 31)


def xc_item(quantity=3, price="1500", setup="3000") -> C.ItemSpec:
    return C.ItemSpec(kind=ItemKind.XCONNECT, description="交叉连接（单模光纤）", unit_price=D(price),
                      price_unit=PriceUnit.MONTH, quantity=D(quantity), setup_price=D(setup))


@pytest.fixture
def world(db, admin, manager):
    w = make_world(db, n_customers=2)
    info = signed(db, manager, admin, w, [rack_item(w, 1, "6000"), xc_item()], START, END)
    return w, info


def order_xconnect(db, admin, w, info, port="1", **kw):
    values = dict(customer_id=w.customer_id, rack_id=w.rack_ids[0], panel="PP-01", port=port,
                  peer_kind=XconnectPeer.CARRIER, peer_name="中国电信", medium=XconnectMedium.SMF,
                  mmr_panel="MMR-ODF-01", mmr_port=port, ordered_date=dt.date(2026, 2, 20),
                  contract_item_id=info.items[1].id)
    values.update(kw)
    return X.order_cross_connect(db, admin, **values)


def test_lifecycle_moves_and_refuses_an_illegal_move(db, admin, world):
    w, info = world
    xc = order_xconnect(db, admin, w, info)
    X.move_cross_connect(db, admin, xc, XconnectState.INSTALLED, on=dt.date(2026, 3, 10), note="跳纤完成")
    before = table_counts(db)
    with pytest.raises(RuleViolation) as err:
        X.move_cross_connect(db, admin, xc, XconnectState.ORDERED, on=dt.date(2026, 3, 11))
    assert "cannot move to ordered" in err.value.message and "Allowed from here: Active, Disconnected" in \
        err.value.message
    with pytest.raises(ValidationError):  # dated before the previous move
        X.move_cross_connect(db, admin, xc, XconnectState.ACTIVE, on=dt.date(2026, 3, 9))
    assert table_counts(db) == before
    X.move_cross_connect(db, admin, xc, XconnectState.ACTIVE, on=dt.date(2026, 3, 12), circuit_id="CT-SH-0001")
    X.move_cross_connect(db, admin, "CT-SH-0001", XconnectState.DISCONNECTED, on=dt.date(2026, 5, 31))
    row = X.get_cross_connect(db, xc)
    assert (row.state, row.installed_date, row.active_date, row.disconnected_date) == \
        ("disconnected", dt.date(2026, 3, 10), dt.date(2026, 3, 12), dt.date(2026, 5, 31))
    assert "跳纤完成" in row.work_note and row.moves == []
    with pytest.raises(RuleViolation, match="disconnected is final"):
        X.move_cross_connect(db, admin, xc, XconnectState.ACTIVE)
    with db.session() as s:
        moves = s.execute(select(AuditEvent.action).where(AuditEvent.object_type == "cross_connect")
                          .order_by(AuditEvent.seq)).scalars().all()
    assert moves == ["xconnect.order", "xconnect.move", "xconnect.move", "xconnect.move"]


def test_ordering_checks_the_customers_space_ports_and_the_item(db, admin, world):
    w, info = world
    order_xconnect(db, admin, w, info)
    with pytest.raises(RuleViolation, match="already carries cross-connect XC-"):
        order_xconnect(db, admin, w, info, mmr_port="9")
    with pytest.raises(RuleViolation, match="leases no space in rack"):
        order_xconnect(db, admin, w, info, port="2", rack_id=w.rack_ids[1])
    with pytest.raises(ValidationError) as err:
        order_xconnect(db, admin, w, info, port="3", peer_kind=XconnectPeer.CUSTOMER, peer_customer_id=w.customer_id)
    assert "peer_customer_id" in err.value.errors
    order_xconnect(db, admin, w, info, port="4", peer_kind=XconnectPeer.CUSTOMER, peer_customer_id=w.other_customer_id,
           peer_name=None)
    order_xconnect(db, admin, w, info, port="5", peer_kind=XconnectPeer.CLOUD, peer_name="阿里云高速通道")
    with pytest.raises(RuleViolation, match="sells 3 cross-connect"):
        order_xconnect(db, admin, w, info, port="6")


def _lines(db, period):
    with db.session() as s:
        return {ln.charge: (ln.quantity, ln.amount) for ln in s.execute(
            select(StatementLine).where(StatementLine.period == period,
                                        StatementLine.description.contains("交叉连接"))).scalars()}


def test_charges_follow_installed_and_disconnected_dates(db, admin, world):
    """1,500/month each, 3,000 installation each.
    | xc | installed | disconnected | March (31 d)  | April (30 d) |
    | 1  | 03-10     | —            | 22/31         | 30/30        |
    | 2  | 03-01     | 04-15        | 31/31         | 15/30        |
    | 3  | (ordered) | —            | —             | —            |
    March fee 1,500 × 53/31 = 2,564.52; installation 2 × 3,000 = 6,000.00.
    April fee 1,500 × 45/30 = 2,250.00; no installation. May: 1,500 × 31/31 = 1,500.00."""
    w, info = world
    x1, x2 = order_xconnect(db, admin, w, info, port="1"), order_xconnect(db, admin, w, info, port="2")
    order_xconnect(db, admin, w, info, port="3")
    X.move_cross_connect(db, admin, x1, XconnectState.INSTALLED, on=dt.date(2026, 3, 10))
    X.move_cross_connect(db, admin, x2, XconnectState.INSTALLED, on=dt.date(2026, 3, 1))
    X.move_cross_connect(db, admin, x2, XconnectState.ACTIVE, on=dt.date(2026, 3, 2))
    X.move_cross_connect(db, admin, x2, XconnectState.DISCONNECTED, on=dt.date(2026, 4, 15))
    assert _lines(db, "2026-02") == {}
    run_billing(db, admin, "2026-02", as_of=cst(2026, 6, 2, 9))
    assert _lines(db, "2026-02") == {}
    run_billing(db, admin, "2026-03", as_of=cst(2026, 6, 2, 9))
    march = _lines(db, "2026-03")
    assert march["fee"][1] == D("2564.52") and march["setup"] == (D(2), D("6000.00"))
    run_billing(db, admin, "2026-04", as_of=cst(2026, 6, 2, 9))
    assert _lines(db, "2026-04") == {"fee": (D("1.5"), D("2250.00"))}
    run_billing(db, admin, "2026-05", as_of=cst(2026, 6, 2, 9))
    assert _lines(db, "2026-05") == {"fee": (D("1"), D("1500.00"))}
    run_billing(db, admin, "2026-03", as_of=cst(2026, 6, 2, 9))  # a second run bills nothing twice
    with db.session() as s:
        n = len(s.execute(select(StatementLine.id).where(StatementLine.charge == "setup")).all())
    assert n == 1


@pytest.mark.parametrize("lang, words", [("zh", ["授权委托书", "中国电信", "PP-01", "CT-SH-0001", "单模光纤"]),
                                         ("en", ["Letter of Authorization", "Meet-me room", "PP-01", "CT-SH-0001",
                                                 "Single-mode fibre"])])
def test_loa_pdf_text(db, admin, world, tmp_path, lang, words):
    from app.documents import print_document
    w, info = world
    xc = order_xconnect(db, admin, w, info, circuit_id="CT-SH-0001")
    out = tmp_path / f"loa-{lang}.pdf"
    done = print_document(db, admin, "loa", xc, out, language=lang)
    assert done.pages == 1
    text = subprocess.run(["pdftotext", "-layout", str(out), "-"], capture_output=True, text=True,
                          check=True).stdout
    for word in words:
        assert word in text, word
    with db.session() as s:
        assert s.execute(select(AuditEvent.action).where(AuditEvent.object_type == "loa")).scalars().all() == \
            ["print"]


def _export(db, kind):
    from app.importexport import export_rows
    headers, rows = export_rows(db, kind)
    return headers, [list(r) for r in rows]


def test_cross_connect_and_cable_import_round_trip(db, admin, world, tmp_path):
    from app.importexport import run_import, write_export
    from models import Cable, Device
    from tests.support.builders import build_types
    w, info = world
    x1 = order_xconnect(db, admin, w, info, port="1", circuit_id="CT-1")
    order_xconnect(db, admin, w, info, port="2", peer_kind=XconnectPeer.CUSTOMER, peer_customer_id=w.other_customer_id,
           peer_name=None, peer_port="PP-B/7")
    X.move_cross_connect(db, admin, x1, XconnectState.INSTALLED, on=dt.date(2026, 3, 1), note="工单 123")
    X.move_cross_connect(db, admin, x1, XconnectState.ACTIVE, on=dt.date(2026, 3, 2))
    types = build_types(db, admin)
    with db.session() as s:
        devs = [Device(name=n, device_type_id=types["switch"],
                       rack_id=w.rack_ids[0], position=p, face="front") for n, p in (("sw-1", 30), ("pp-1", 40))]
        s.add_all(devs)
        s.commit()
    cables = tmp_path / "cables.csv"
    cables.write_text("side_a_device,side_a_type,side_a_name,side_b_device,side_b_type,side_b_name,type,status,"
                      "label,color,length,length_unit\n"
                      "sw-1,dcim.interface,eth1,pp-1,dcim.frontport,1,smf-os2,connected,C-0001,#FFFF00,3,m\n"
                      "sw-1,dcim.interface,eth2,pp-1,dcim.frontport,2,cat6,planned,,,,\n", encoding="utf-8")
    assert run_import(db, admin, "cables", cables).created == 2
    assert run_import(db, admin, "cables", cables).unchanged == 2
    headers, rows = _export(db, "cables")
    assert rows[0][1:] == ["sw-1", "dcim.interface", "eth1", "GZ1", "pp-1", "dcim.frontport", "1", "smf-os2",
                           "connected", "C-0001", "ffff00", D("3.00"), "m"]
    for kind in ("cross-connects", "cables"):
        headers, rows = _export(db, kind)
        out = tmp_path / f"{kind}.csv"
        write_export(headers, rows, out)
        assert run_import(db, admin, kind, out).unchanged == len(rows)
        with db.session() as s:  # forget them, import them back: the same rows come out
            s.query(CrossConnect if kind == "cross-connects" else Cable).delete()
            s.commit()
        before = rows
        result = run_import(db, admin, kind, out)
        assert result.created == len(rows)
        assert _export(db, kind)[1] == before
    row = X.get_cross_connect(db, "CT-1")
    assert (row.state, row.installed_date, row.active_date) == ("active", dt.date(2026, 3, 1), dt.date(2026, 3, 2))
    assert "工单 123" in row.work_note


def test_cross_connect_import_refuses_a_port_in_use_and_names_the_column(db, admin, world, tmp_path):
    from app.importexport import ImportFailed, run_import
    w, info = world
    order_xconnect(db, admin, w, info, port="1")
    f = tmp_path / "x.csv"
    f.write_text("tenant,site,location,rack,panel,port,peer_kind,provider,medium,status,ordered_date,install_date\n"
                 "星河智算1号有限公司,GZ1,A,A-01,PP-01,1,carrier,中国联通,smf,installed,2026-03-01,\n",
                 encoding="utf-8")
    with pytest.raises(ImportFailed) as err:
        run_import(db, admin, "cross-connects", f)
    assert [e.column for e in err.value.row_errors] == ["install_date"]
    f.write_text(f.read_text(encoding="utf-8").replace("2026-03-01,\n", "2026-03-01,2026-03-02\n"), encoding="utf-8")
    before = table_counts(db)
    with pytest.raises(ImportFailed) as err:
        run_import(db, admin, "cross-connects", f)
    assert "port PP-01/1 already carries cross-connect XC-" in err.value.row_errors[0].reason
    assert table_counts(db) == before


def test_cli_add_move_list_and_loa(db, admin, world, monkeypatch, capsys, tmp_path):
    from app.cli.main import main
    from tests.conftest import PASSWORD
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", PASSWORD)
    w, info = world

    def cli(*argv):
        code = main(["--db", db.url, "--user", "admin", *argv])
        out = capsys.readouterr()
        return code, out.out + out.err
    code, out = cli("xconnect", "add", "--customer", "星河智算1号有限公司", "--rack", "GZ1/A/A-01", "--panel", "PP-01",
                    "--port", "8", "--to", "cloud", "--peer", "阿里云高速通道", "--medium", "smf", "--mmr", "ODF-2/8",
                    "--contract", info.number, "--item", "2", "--ordered", "2026-03-01")
    assert code == 0, out
    ref = out.split()[1]
    code, out = cli("xconnect", "move", ref, "active", "--on", "2026-03-05")
    assert code != 0 and "cannot move to active" in out
    assert cli("xconnect", "move", ref, "installed", "--on", "2026-03-05", "--note", "已跳纤")[0] == 0
    code, out = cli("xconnect", "list", "--state", "installed")
    assert code == 0 and ref in out and "1 cross-connect(s)" in out
    code, out = cli("report", "loa", ref, "-o", str(tmp_path / "loa.pdf"), "--lang", "en")
    assert code == 0, out
    assert (tmp_path / "loa.pdf").stat().st_size > 1000


def test_contract_pdf_states_the_installation_price(db, admin, world, tmp_path):
    from app.documents import print_document
    w, info = world
    out = tmp_path / "c.pdf"
    print_document(db, admin, "contract", info.number, out, language="en")
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, check=True).stdout
    assert "installation ¥3,000.00 each (one-off)" in " ".join(text.split())
    assert "Cross-connects: each is billed monthly from its installation date" in " ".join(text.split())


def test_contract_export_carries_the_installation_price(db, admin, world):
    headers, rows = _export(db, "contracts")
    items = [dict(zip(headers, r)) for r in rows]
    assert [(i["item_kind"], i["setup_price"]) for i in items] == [("rack", None), ("xconnect", D("3000.0000"))]


def test_cross_connects_reconcile_with_the_audit_trail(db, admin, world):
    from sqlalchemy import text

    from app.audit.reconcile import reconcile
    w, info = world
    xc = order_xconnect(db, admin, w, info, circuit_id="CT-1")
    X.move_cross_connect(db, admin, xc, XconnectState.INSTALLED, on=dt.date(2026, 3, 1), note="工单 1")
    X.move_cross_connect(db, admin, xc, XconnectState.ACTIVE, on=dt.date(2026, 3, 2), circuit_id="CT-2")
    with db.session() as s:
        r = reconcile(s)
    assert r.ok, [d.describe() for d in r.differences]
    assert {"state", "installed_date", "circuit_id"} <= set(r.fields_by_table["cross_connect"])
    with db.engine.begin() as c:  # back-dating the installation by SQL is seen
        c.execute(text("UPDATE cross_connect SET installed_date = '2026-02-25' WHERE id = :i"), {"i": xc})
    with db.session() as s:
        r = reconcile(s)
    assert [(d.object_type, d.field) for d in r.differences] == [("cross_connect", "installed_date")]
