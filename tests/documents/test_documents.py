"""PDF documents from the database (app.documents) and `idc-console report …`, on both backends.

One demo estate per backend for the module (the session's demo, cloned), plus one contract signed
through the services and billed for last month, so statements, credit notes and the contract's
rack annex come from real data. PDFs are read back with poppler's pdftotext.
"""
from __future__ import annotations

import datetime as dt
import re
import shutil
import subprocess
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import func, select

from app.audit.trail import Actor
from app.audit.query import AuditFilter
from app.domain.rating import Period
from app.cli.main import main
from app.demo.load import DEMO_PASSWORD
from app.domain.errors import DomainError, NotFound, ValidationError
from app.domain.money import amount_in_words
from app.services import contracts as C
from app.services.users import login
from models import AuditEvent, Device, GpuAsset, GpuModel, Rack, Room, Site, Statement, Subsidiary
from models.choices import GpuState, ItemKind, PriceUnit, StatementStatus

from tests.conftest import BACKENDS, drop_db, make_db

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils missing")

CST = ZoneInfo("Asia/Shanghai")
D = Decimal


def pdftext(path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def fonts_embedded(path) -> bool:
    out = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout
    rows = out.splitlines()[2:]
    return bool(rows) and all(r.split()[-5] == "yes" for r in rows)


def local_today() -> dt.date:
    return dt.datetime.now(CST).date()


def sign_demo_contract(db, *, language: str = "zh") -> dict:
    """On the demo data: a rack with hosted servers, 4 × H100 by the hour (one with downtime),
    bandwidth and an installation fee; signed from mid last-but-one month, billed for last month."""
    admin = login(db, "admin", DEMO_PASSWORD)
    manager = login(db, "lina", DEMO_PASSWORD)
    today = local_today()
    last = Period.containing(today.replace(day=1) - dt.timedelta(days=1))
    start = (last.first - dt.timedelta(days=1)).replace(day=15)
    with db.session() as s:
        rack_id, owner = s.execute(
            select(Rack.id, Device.owner_customer_id).join(Device, Device.rack_id == Rack.id)
            .join(Room, Room.id == Rack.room_id).join(Site, Site.id == Room.site_id)
            .where(Site.code == "FZ-MW1", Device.owner_customer_id.is_not(None), Rack.status == "available")
            .order_by(Rack.id, Device.id).limit(1)).one()
        sub_id = s.execute(select(Subsidiary.id).where(Subsidiary.code == "FZ")).scalar_one()
        h100 = s.execute(select(GpuModel.id).where(GpuModel.name == "H100 SXM 80GB")).scalar_one()
    items = [
        C.ItemSpec(kind=ItemKind.RACK, description="B1 风冷机房 A01 标准机柜租赁", unit_price=D("4800"),
                   price_unit=PriceUnit.MONTH, rack_id=rack_id),
        C.ItemSpec(kind=ItemKind.GPU, description="H100 算力租赁", unit_price=D("12.50"),
                   price_unit=PriceUnit.GPU_HOUR, quantity=D(4), gpu_model_id=h100),
        C.ItemSpec(kind=ItemKind.BANDWIDTH, description="BGP 多线带宽", unit_price=D("45"),
                   price_unit=PriceUnit.MBPS_MONTH, mbps=100),
        C.ItemSpec(kind=ItemKind.ONE_OFF, description="上架安装费", unit_price=D("2000"), price_unit=PriceUnit.ONE_OFF),
    ]
    c = C.create_contract(db, manager, subsidiary_id=sub_id, customer_id=owner, start_date=start,
                          end_date=start.replace(year=start.year + 1) - dt.timedelta(days=1), items=items,
                          title="IDC 机柜租赁及 GPU 算力服务合同", language=language,
                          terms="乙方提供机柜空间、电力、制冷及网络接入。\n甲方按月支付服务费。")
    C.submit_contract(db, manager, c.id)
    C.approve_contract(db, admin, c.id)
    c = C.activate_contract(db, admin, c.id, at=dt.datetime.combine(start, dt.time(), CST))
    from app.services.billing import credit_statement, record_downtime, run_billing

    gpu_id = c.items[1].gpu_ids[0] if c.items[1].gpu_ids else None
    if gpu_id is None:
        with db.session() as s:
            from models import contract_item_gpu
            gpu_id = s.execute(select(contract_item_gpu.c.gpu_id)
                               .where(contract_item_gpu.c.item_id == c.items[1].id)).scalars().first()
    down = dt.datetime.combine(last.first + dt.timedelta(days=9), dt.time(8), CST)
    record_downtime(db, admin, gpu_id=gpu_id, start=down, end=down + dt.timedelta(hours=5, minutes=30),
                    reason="GPU 掉卡，更换")
    run = run_billing(db, admin, last.label, issue=True)
    assert run.issued, run.describe()
    # the demo may hold contracts of its own: take the statement that bills this one
    ours = [st for st in run.statements if any(ln.contract_number == c.number for ln in st.lines)]
    assert len(ours) == 1, run.describe()
    with db.session() as s:
        number = s.get(Statement, ours[0].id).number
    bandwidth = [ln.id for ln in ours[0].lines if ln.contract_number == c.number and "带宽" in ln.description]
    assert len(bandwidth) == 1
    cn = credit_statement(db, admin, number, "带宽未达约定速率，退还当月带宽费", line_ids=bandwidth)
    return dict(contract=c.number, statement=number, credit_note=cn.number, period=last.label, rack_id=rack_id,
                customer_id=owner)


@pytest.fixture(scope="module", params=BACKENDS)
def estate(request, tmp_path_factory, pg_template, demo_templates):
    demo = demo_templates(request.param)    # the session's demo, cloned (not loaded again)
    folder = tmp_path_factory.mktemp(f"docs-{request.param}")
    if request.param == "sqlite":
        db = make_db("sqlite", folder, pg_template, sqlite_bytes=demo)
    else:
        db = make_db("postgresql", folder, demo)
    info = sign_demo_contract(db)
    yield db, info
    drop_db(db)


@pytest.fixture
def reader() -> Actor:
    return Actor(None, "os:test", "测试读者", "auditor")


def run_cli(db, *args) -> int:
    return main(["--db", db.engine.url.render_as_string(hide_password=False), *args])


def print_events(db) -> int:
    with db.session() as s:
        return s.execute(select(func.count()).select_from(AuditEvent).where(AuditEvent.action == "print")).scalar_one()


# --------------------------------------------------------------------------- statements
def test_statement_pdf_has_customer_numbers_and_words(estate, tmp_path, capsys):
    db, info = estate
    from app.documents import statement_doc

    doc = statement_doc(db, info["statement"])
    with db.session() as s:
        st = s.execute(select(Statement).where(Statement.number == info["statement"])).scalar_one()
        customer = st.customer_id
        from models import Customer
        cust = s.get(Customer, customer)
        total, subtotal, tax = st.total, st.subtotal, st.tax
    assert doc.total == total and doc.subtotal == subtotal and doc.tax == tax
    assert doc.total_in_words == amount_in_words(total)
    assert doc.customer.name == cust.name and doc.customer.credit_code == cust.credit_code
    assert doc.subsidiary.bank_name and doc.subsidiary.credit_code
    assert doc.references == (info["credit_note"],)  # the credit note refers back, and is listed
    assert doc.status == "已开具"
    assert doc.notes.startswith("依据合同：") and info["contract"] in doc.notes.splitlines()[0]
    y, m = info["period"].split("-")
    assert doc.period_label == f"{int(y)}年{int(m)}月"

    before = print_events(db)
    out = tmp_path / "st.pdf"
    assert run_cli(db, "report", "statement", info["statement"], "-o", str(out)) == 0
    assert "wrote" in capsys.readouterr().out
    assert print_events(db) == before + 1
    text = pdftext(out)
    flat = squash(text)
    assert squash(cust.name) in flat and cust.credit_code in text
    assert info["statement"] in text
    assert f"¥{total:,.2f}" in text and f"¥{subtotal:,.2f}" in text and f"¥{tax:,.2f}" in text
    assert squash(amount_in_words(total)) in flat
    assert "4,800.00" in text or "4,800" in text  # the rack's monthly fee
    assert "停机" in text  # the downtime credit line
    assert info["credit_note"] in text
    assert fonts_embedded(out)


def test_credit_note_and_english_override(estate, tmp_path):
    db, info = estate
    out = tmp_path / "cn.pdf"
    assert run_cli(db, "report", "statement", info["credit_note"], "-o", str(out), "--lang", "en") == 0
    text = pdftext(out)
    assert "Credit note" in text and "Original document" in text and info["statement"] in text
    assert "-¥" in text  # reversed amounts
    assert "Reason:" in text


def test_unknown_statement_is_refused(estate, tmp_path, capsys):
    db, _ = estate
    assert run_cli(db, "report", "statement", "XX-209901-000001", "-o", str(tmp_path / "x.pdf")) == 1
    assert "no statement" in capsys.readouterr().err
    assert not (tmp_path / "x.pdf").exists()


# --------------------------------------------------------------------------- contracts
def test_contract_pdf_has_parties_schedule_and_rack_annex(estate, tmp_path):
    db, info = estate
    from app.documents import contract_doc

    doc = contract_doc(db, info["contract"])
    assert doc.language == "zh" and doc.status == "履行中"
    assert len(doc.items) == 4 and doc.items[0].unit == "月" and doc.items[2].quantity == 100
    assert doc.items[1].tax_rate == D("0.13") and doc.items[0].tax_rate == D("0.06")
    assert len(doc.racks) == 1 and doc.racks[0].devices  # hosted servers drawn
    assert len(doc.gpus) == 4 and all(g.model == "H100 SXM 80GB" for g in doc.gpus)
    assert doc.devices and all(d.serial for d in doc.devices)
    assert doc.service_level  # from the subsidiary's coverage of the site
    assert doc.terms == ("乙方提供机柜空间、电力、制冷及网络接入。", "甲方按月支付服务费。")

    out = tmp_path / "contract.pdf"
    assert run_cli(db, "report", "contract", info["contract"], "-o", str(out)) == 0
    text = pdftext(out)
    flat = squash(text)
    assert info["contract"] in text
    assert "甲方" in text and "乙方" in text and squash(doc.customer.name) in flat
    assert "附件" in text and "机柜布局图" in text and "前面" in text and "后面" in text
    assert squash(doc.racks[0].devices[0].name) in flat
    assert "GPU清单" in flat and doc.gpus[0].serial in text
    assert "4,800.00" in text and "12.50" in text
    # the totals under the schedule (app.services.contracts.totals), in 大写 too; the signing copy has no status
    from app.services.contracts.totals import totals_of_contract
    from app.domain.money import format_cny
    sums = totals_of_contract(db, doc_id(db, info["contract"]))
    assert doc.sums.total == sums.total and doc.sums.total_in_words == sums.in_words and sums.total > 0
    assert squash(sums.in_words) in flat and format_cny(sums.total) in text and "合同总金额" in flat
    assert "履行中" not in text


def test_contract_in_english_has_english_headings(estate, tmp_path):
    db, info = estate
    from app.documents import contract_doc

    doc = contract_doc(db, info["contract"], language="en")
    assert doc.items[0].unit == "month" and doc.status == "Active"
    assert doc.subsidiary.name.startswith("Huarui")
    out = tmp_path / "contract-en.pdf"
    assert run_cli(db, "--lang", "en", "report", "contract", info["contract"], "-o", str(out)) == 0
    text = pdftext(out)
    # English headings alone; the contract's own terms text is data, kept as it was written
    assert "Party A" in text and "甲方 Party A" not in text and "合同条款" not in text and "Rack elevations" in text


# --------------------------------------------------------------------------- audit
def test_audit_report_checkpoint_verifies(estate, tmp_path, capsys):
    db, _ = estate
    today = local_today()
    out = tmp_path / "audit.pdf"
    assert run_cli(db, "report", "audit", "--from", str(today - dt.timedelta(days=400)), "--to", str(today),
                   "--action", "contract.", "-o", str(out)) == 0
    printed = capsys.readouterr().out
    text = pdftext(out)
    cps = set(re.findall(r"审计检查点\s+(\d+:[0-9a-f]{64})", text))
    assert len(cps) == 1
    checkpoint = cps.pop()
    assert checkpoint in printed
    pages = int(re.search(r"共\s*(\d+)\s*页", text).group(1))
    assert squash(text).count(f"审计检查点{checkpoint}") >= pages  # on every page (and in the header table)
    assert "contract.activate" in text and "校验通过" in text
    assert "draft → pending_approval" in text or "draft→pending_approval" in squash(text)
    # later writes do not invalidate the checkpoint
    assert run_cli(db, "report", "fleet", "-o", str(tmp_path / "f.pdf")) == 0
    capsys.readouterr()
    assert run_cli(db, "audit", "verify", "--expect-head", checkpoint) == 0
    assert "is part of this chain" in capsys.readouterr().out


def test_audit_report_doc_summary_matches_events(estate):
    db, _ = estate
    from app.documents import audit_report_doc

    today = local_today()
    doc = audit_report_doc(db, AuditFilter(today - dt.timedelta(days=400), today, action="contract."), language="en")
    assert sum(r.count for r in doc.summary) == len(doc.events) > 0
    assert all(e.time_local and e.actor and e.action for e in doc.events)
    seq = int(doc.checkpoint.split(":")[0])
    assert all(e.seq <= seq for e in doc.events)
    assert doc.verification.startswith("Verified")
    activate = next(e for e in doc.events if e.action.endswith("contract.activate"))
    assert "status: approved → active" in activate.changes
    with pytest.raises(ValidationError):
        audit_report_doc(db, AuditFilter(today, today - dt.timedelta(days=1)))


def test_audit_report_empty_period(estate, tmp_path):
    db, _ = estate
    from app.documents import audit_report_doc

    doc = audit_report_doc(db, AuditFilter(dt.date(2001, 1, 1), dt.date(2001, 1, 2)))
    assert doc.events == () and ":" not in doc.checkpoint
    out = tmp_path / "empty.pdf"
    assert run_cli(db, "report", "audit", "--from", "2001-01-01", "--to", "2001-01-02", "-o", str(out)) == 0
    assert "期间内无事件" in pdftext(out)


# --------------------------------------------------------------------------- racks, capacity, fleet
def test_rack_sheet_by_path_tag_and_ambiguous_name(estate, tmp_path, capsys):
    db, info = estate
    from app.documents import find_rack, rack_path, rack_sheet_doc

    with db.session() as s:
        path = rack_path(s, info["rack_id"])
        tag = s.get(Rack, info["rack_id"]).asset_tag
    assert find_rack(db, path) == find_rack(db, tag) == find_rack(db, str(info["rack_id"])) == info["rack_id"]
    with pytest.raises(ValidationError, match="racks are called A01"):
        find_rack(db, "A01")
    with pytest.raises(NotFound):
        find_rack(db, "NOPE/NOPE/NOPE")
    doc = rack_sheet_doc(db, path)
    assert doc.rack.customer  # leased by the contract
    assert doc.rack.devices and all(d.owner for d in doc.rack.devices)
    out = tmp_path / "rack.pdf"
    assert run_cli(db, "report", "rack", path, "-o", str(out)) == 0
    text = pdftext(out)
    assert "机柜信息表" in text and squash(doc.rack.customer) in squash(text)
    assert run_cli(db, "report", "rack", "A01", "-o", str(tmp_path / "amb.pdf")) == 1
    assert "SITE/ROOM/RACK" in capsys.readouterr().err


def test_capacity_report(estate, tmp_path):
    db, _ = estate
    from app.documents import capacity_doc

    doc = capacity_doc(db, "FZ-MW1", language="en")
    with db.session() as s:
        racks = s.execute(select(func.count()).select_from(Rack).join(Room).join(Site)
                          .where(Site.code == "FZ-MW1")).scalar_one()
        gpus = s.execute(select(func.count()).select_from(GpuAsset).join(Device, Device.id == GpuAsset.device_id)
                         .join(Rack, Rack.id == Device.rack_id).join(Room).join(Site)
                         .where(Site.code == "FZ-MW1")).scalar_one()
    assert len(doc.rows) == racks
    assert sum(sum(r.gpus_by_state.values()) for r in doc.rows) == gpus
    assert set(doc.gpu_states) <= {"Ordered", "Received", "Burn-in", "Available", "Leased", "Maintenance",
                                   "RMA", "Retired"}
    out = tmp_path / "cap.pdf"
    assert run_cli(db, "report", "capacity", "FZ-MW1", "-o", str(out)) == 0
    assert "容量报告" in pdftext(out)
    with pytest.raises(NotFound, match="FZ-MW1"):
        capacity_doc(db, "NOPE")


def test_fleet_book_value_and_revenue(estate, tmp_path):
    db, info = estate
    from app.documents import book_value, fleet_doc, months_elapsed

    # straight line: 36 months, 10 elapsed → 26/36 of the cost
    assert months_elapsed(dt.date(2026, 1, 15), dt.date(2026, 11, 14)) == 9
    assert months_elapsed(dt.date(2026, 1, 15), dt.date(2026, 11, 15)) == 10
    assert book_value(D("36000"), dt.date(2026, 1, 15), 36, dt.date(2026, 11, 15)) == D("26000.00")
    assert book_value(D("36000"), dt.date(2020, 1, 1), 36, dt.date(2026, 11, 15)) == D("0.00")
    assert book_value(D("100"), dt.date(2026, 1, 1), 3, dt.date(2026, 2, 1)) == D("66.67")
    assert book_value(None, dt.date(2026, 1, 1), 36, dt.date(2026, 2, 1)) == 0

    today = local_today()
    doc = fleet_doc(db, today=today)
    rows = {r.model: r for r in doc.rows}
    with db.session() as s:
        gpus = s.execute(select(GpuModel.name, GpuAsset.state, GpuAsset.purchase_cost, GpuAsset.purchase_date,
                                GpuAsset.depreciation_months).join(GpuModel)).all()
        from models import ContractItem, StatementLine
        h100 = s.execute(select(GpuModel.id).where(GpuModel.name == "H100 SXM 80GB")).scalar_one()
        first = f"{today.year - 1:04d}-{today.month:02d}"  # exclusive: the 12 months end with this one
        lines = s.execute(select(StatementLine.amount, StatementLine.period, ContractItem.kind,
                                 ContractItem.gpu_model_id)
                          .join(Statement, Statement.id == StatementLine.statement_id)
                          .join(ContractItem, ContractItem.id == StatementLine.contract_item_id)
                          .where(Statement.status == StatementStatus.ISSUED)).all()
        expected_rev = sum((a for a, p, k, m in lines if k == ItemKind.GPU and m == h100 and p > first), D(0))
        all_gpu_rev = sum((a for a, p, k, m in lines if k == ItemKind.GPU and p > first), D(0))
    assert sum(sum(r.counts.values()) for r in doc.rows) == len(gpus)
    expected_h100 = sum((book_value(c, p, m, today) for n, st, c, p, m in gpus
                         if n == "H100 SXM 80GB" and st != GpuState.RETIRED), D(0))
    assert rows["H100 SXM 80GB"].book_value == expected_h100
    assert rows["H100 SXM 80GB"].revenue_12m == expected_rev != 0
    assert sum(r.revenue_12m for r in doc.rows) == all_gpu_rev
    out = tmp_path / "fleet.pdf"
    assert run_cli(db, "report", "fleet", "-o", str(out), "--lang", "en") == 0
    text = pdftext(out)
    assert "GPU fleet report" in text and "H100 SXM 80GB" in text and f"{expected_rev:,.2f}" in text


def test_prints_are_audited_with_the_acting_user(estate, tmp_path, reader):
    db, info = estate
    from app.documents import print_document

    before = print_events(db)
    done = print_document(db, reader, "contract", info["contract"], tmp_path / "c.pdf")
    assert done.pages >= 3 and done.path.exists()
    with db.session() as s:
        ev = s.execute(select(AuditEvent).order_by(AuditEvent.seq.desc()).limit(1)).scalar_one()
    assert print_events(db) == before + 1
    assert (ev.action, ev.object_type, ev.object_label, ev.actor_login) == ("print", "contract", info["contract"],
                                                                            "os:test")
    assert '"format":"pdf"' in ev.after


def test_bad_font_setting_is_a_clear_refusal(estate, tmp_path, reader, monkeypatch):
    db, info = estate
    from app.documents import print_document

    bogus = tmp_path / "nofont.ttf"
    bogus.write_bytes(b"not a font")
    with pytest.raises(DomainError, match="cannot be embedded"):
        print_document(db, reader, "fleet", None, tmp_path / "f.pdf", font_path=bogus)


def test_draft_statement_prints_by_id_marked_unissued(estate, tmp_path):
    db, info = estate
    from app.documents import statement_doc
    from app.services.billing import run_billing

    admin = login(db, "admin", DEMO_PASSWORD)
    first = Period.parse(info["period"])
    before = Period.containing(first.first - dt.timedelta(days=1))  # the handover month, half billed
    run = run_billing(db, admin, before.label)
    draft = next(st for st in run.statements if any(ln.contract_number == info["contract"] for ln in st.lines))
    assert draft.number is None
    doc = statement_doc(db, draft.id, language="en")
    # the status is the screen's word (StatementStatus); the note says it is not issued
    assert doc.status == "Draft" and doc.number == f"DRAFT #{draft.id}"
    assert "not been issued" in doc.notes
    days = (before.next_first - (before.first.replace(day=15))).days  # handover on the 15th
    assert doc.total == draft.total and any(f"{days}/{before.days}" in ln.note for ln in doc.lines)


def doc_id(db, number):
    from sqlalchemy import select
    from models import Contract
    with db.session() as s:
        return s.execute(select(Contract.id).where(Contract.number == number)).scalar_one()
