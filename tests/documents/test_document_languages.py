"""English documents of Chinese contracts carry no Chinese words (issue 9), on both backends.

The demo (loaded once per session, conftest.demo_templates) is billed for last month: a rack whose
meter was replaced (power overage with a reset), an H100 by the hour with a GPU down for 30 hours
(reason typed in Chinese), a hybrid commitment with overage, a yearly price, an English contract.
Its statements, a credit note with a Chinese reason and the rack's contract are printed in
English and read back with pdftotext: no CJK character is left but in the proper nouns people
typed that have no English alternate in the model (customers' legal names, addresses and contacts,
users' names, room names); the subsidiary's English name, address and bank are printed, so its Chinese
address and bank are not allowed (they fall back only where the English ones are empty). The Chinese prints keep their
Chinese words. Lines written before the migration line_languages (no other-language text) print
as written.
"""
from __future__ import annotations

import datetime as dt
import re
import shutil
import subprocess
from decimal import Decimal
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select, update

from app.domain.rating import Period
from app.demo.load import DEMO_PASSWORD
from app.services.users import login
from app.domain.wording import amount_in_words_en, both, english_item_name, free_text, has_cjk
from models import (Contact, Contract, ContractItem, Customer, Room, Site, Statement, StatementLine, Subsidiary,
                    User)
from models.choices import LineUnit

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils missing")

CST = ZoneInfo("Asia/Shanghai")
CJK = re.compile(r"[\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


def pdftext(path) -> str:
    """The PDF's text in reading order, whitespace removed (cells wrap proper nouns over lines)."""
    out = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return re.sub(r"\s+", "", out)


def allowed_names(db) -> list[str]:
    """What people typed that the model holds in Chinese only: printed as registered."""
    names: set[str] = set()
    with db.session() as s:
        for name, address in s.execute(select(Customer.name, Customer.address)):
            names.update((name, address or ""))
        names.update(s.execute(select(Contact.name)).scalars())
        names.update(s.execute(select(User.display_name)).scalars())
        names.update(s.execute(select(Room.name)).scalars())
    return sorted((re.sub(r"\s+", "", n) for n in names if n), key=len, reverse=True)


def chinese_left(text: str, allowed: list[str]) -> str:
    """The CJK characters of `text` outside the allowed names (also where a drawing cut one short: 'XX…')."""
    for name in allowed:
        text = text.replace(name, "")
    for name in allowed:  # the rack elevation truncates the owner's name with an ellipsis
        for k in range(len(name) - 1, 1, -1):
            text = text.replace(name[:k] + "…", "")
    return "".join(CJK.findall(text))


def last_month() -> Period:
    today = dt.datetime.now(CST).date()
    return Period.containing(today.replace(day=1) - dt.timedelta(days=1))


@pytest.fixture
def billed(demo_db):
    """The demo billed for last month and issued; one demo item as typed before the migration line_languages."""
    from app.services.billing import run_billing

    db = demo_db
    admin = login(db, "admin", DEMO_PASSWORD)
    with db.session() as s:  # an item with no English description: English documents make its name
        bandwidth = s.execute(select(ContractItem.id).where(ContractItem.description == "BGP 带宽 100 Mbps")
                              .order_by(ContractItem.id).limit(1)).scalar_one()
        s.execute(update(ContractItem).where(ContractItem.id == bandwidth).values(description_en=None))
        s.commit()
    run = run_billing(db, admin, last_month().label, issue=True)
    assert run.issued, run.describe()
    return db, admin, bandwidth


def _statement_of(db, where) -> str:
    with db.session() as s:
        return s.execute(select(Statement.number).join(StatementLine).where(where)
                         .order_by(Statement.number).limit(1)).scalar_one()


def test_english_prints_of_chinese_contracts_have_no_chinese_words(billed, tmp_path):
    from app.documents import print_document
    from app.services.billing import credit_statement

    db, admin, bandwidth = billed
    allowed = allowed_names(db)
    # the statements whose lines have every kind of generated words
    reset = _statement_of(db, (StatementLine.charge == "power") & StatementLine.note.contains("复位"))
    down = _statement_of(db, (StatementLine.charge == "credit") & StatementLine.description.contains("故障停机"))
    hybrid = _statement_of(db, StatementLine.charge == "overage")
    yearly = _statement_of(db, StatementLine.description.contains("年价"))
    with db.session() as s:
        lang = dict(s.execute(select(Statement.number, Contract.language).join(StatementLine)
                              .join(ContractItem, ContractItem.id == StatementLine.contract_item_id)
                              .join(Contract, Contract.id == ContractItem.contract_id)
                              .where(Statement.number.in_([reset, down, hybrid, yearly]))).all())
        contract = s.execute(select(Contract.number).join(ContractItem).join(
            StatementLine, StatementLine.contract_item_id == ContractItem.id).join(Statement)
            .where(Statement.number == reset)).scalars().first()
        reset_lines = s.execute(select(StatementLine.id).join(Statement).where(Statement.number == reset)
                                .order_by(StatementLine.id)).scalars().all()
    assert set(lang.values()) == {"zh"}
    cn = credit_statement(db, admin, reset, "电表更换后读数有误，冲销重开", line_ids=reset_lines[:2])

    def printed(kind: str, key: str, language: str) -> str:
        out = tmp_path / f"{key}.{language}.pdf"
        print_document(db, admin, kind, key, out, language=language)
        return pdftext(out)

    texts = {}
    for number in (reset, down, hybrid, yearly, cn.number):
        en = printed("statement", number, "en")
        assert chinese_left(en, allowed) == "", (number, chinese_left(en, allowed))
        texts[number] = en
    # the generated words are there, in English
    assert "to" in texts[reset] and "(quantity" in texts[reset] and "month" in texts[reset]
    assert "poweroverallowance" in texts[reset] and "meterresetat" in texts[reset] and "segmentssummed" in texts[reset]
    assert "Mbps-month" in texts[reset] and "Bandwidth100Mbps" in texts[reset]  # the made name: no description_en
    assert "downtimecredit30.00h" in texts[down] and "GPU-hour" in texts[down] and "down" in texts[down]
    assert "GPU-hoursbeyondthecommitment" in texts[hybrid] and "monthlycommitment" in texts[hybrid]
    assert "yearlyprice" in texts[yearly] and "year" in texts[yearly]
    assert f"Reversalof{reset}:" in texts[cn.number] and "Reason:recordedinChinese" in texts[cn.number]
    assert "yuanand" in texts[reset] or "yuanonly" in texts[reset]  # the total in English words

    contract_en = printed("contract", contract, "en")
    assert chinese_left(contract_en, allowed) == "", chinese_left(contract_en, allowed)
    assert "writteninChinese" in contract_en  # the contract's own terms, typed in Chinese
    assert "Servedby" in contract_en and "response" in contract_en  # the service level, from the coverage
    assert "Racklease" in contract_en and "Bandwidth100Mbps" in contract_en

    # the Chinese prints keep the Chinese words
    zh = printed("statement", reset, "zh")
    for word in ("至", "（数量", "月", "超额用电", "复位", "分段累加", "BGP带宽100Mbps", "人民币"):
        assert word in zh, word
    assert "故障停机抵扣" in printed("statement", down, "zh") and "NVLink故障" in printed("statement", down, "zh")
    assert "冲销" in printed("statement", cn.number, "zh") and "电表更换后读数有误" in printed("statement", cn.number, "zh")
    contract_zh = printed("contract", contract, "zh")
    assert "按月结算" in contract_zh and "机柜租赁" in contract_zh


def test_english_documents_print_the_subsidiarys_english_address_and_bank(billed, tmp_path):
    """The statement, capacity report and LOA in English: the subsidiary's English name, address and
    bank (no room names in the allowed list: rooms are named by their first word); an empty English
    address or bank falls back to the Chinese one, the legal address."""
    from app.documents import print_document
    from models import CrossConnect

    db, admin, _ = billed
    with db.session() as s:
        fz = s.execute(select(Subsidiary).where(Subsidiary.code == "FZ")).scalar_one()
        address_zh, bank_zh = fz.address, fz.bank_name
        users_and_customers = [n for n in allowed_names(db)
                               if n not in {re.sub(r"\s+", "", r) for r in s.execute(select(Room.name)).scalars()}]
        number = s.execute(select(Statement.number).where(Statement.subsidiary_id == fz.id,
                                                          Statement.number.is_not(None))
                           .order_by(Statement.number).limit(1)).scalar_one()
        xc = s.execute(select(CrossConnect.reference).order_by(CrossConnect.id).limit(1)).scalar_one()
        # the LOA's site address and the carrier's name are legal ones, printed as registered
        registered = sorted((re.sub(r"\s+", "", a) for a in s.execute(select(Site.address)).scalars() if a),
                            key=len, reverse=True) + \
            [re.sub(r"\s+", "", p) for p in s.execute(select(CrossConnect.peer_name)).scalars() if p]

    def printed(kind: str, key: str, language: str = "en") -> str:
        out = tmp_path / f"{kind}-{key}.{language}.pdf"
        print_document(db, admin, kind, key, out, language=language)
        return pdftext(out)

    statement = printed("statement", number)
    assert chinese_left(statement, users_and_customers) == ""
    assert "No.128WusiRoad,GulouDistrict,Fuzhou,Fujian" in statement
    assert "IndustrialandCommercialBankofChina,FuzhouWusiSub-branch" in statement
    capacity = printed("capacity", "FZ-MW1")
    assert chinese_left(capacity, users_and_customers) == "", chinese_left(capacity, users_and_customers)
    assert "No.128WusiRoad" in capacity and "A1" in capacity
    loa = printed("loa", xc)
    assert chinese_left(loa, registered + users_and_customers) == "", chinese_left(loa, registered + users_and_customers)
    assert "No.128WusiRoad" in loa or "No.368ZhangjiangRoad" in loa
    zh = printed("statement", number, "zh")
    assert re.sub(r"\s+", "", address_zh) in zh and re.sub(r"\s+", "", bank_zh) in zh

    with db.session() as s:
        s.execute(update(Subsidiary).where(Subsidiary.code == "FZ").values(address_en=None, bank_name_en=""))
        s.commit()
    fallback = printed("statement", number)
    assert re.sub(r"\s+", "", address_zh) in fallback and re.sub(r"\s+", "", bank_zh) in fallback
    assert "WusiRoad" not in fallback


def test_subsidiary_english_fields_are_validated_imported_and_exported(demo_db, tmp_path):
    import csv

    from app.importexport import ImportFailed, run_export, run_import
    from app.services.reference import validate_subsidiary

    errors = validate_subsidiary({"code": "XM", "name": "华锐算力（厦门）有限公司",
                                  "address_en": "厦门市思明区", "bank_name_en": "Bank of Xiamen"})
    assert "address_en" in errors and "bank_name_en" not in errors
    admin = login(demo_db, "admin", DEMO_PASSWORD)
    out = tmp_path / "subsidiaries.csv"
    run_export(demo_db, admin, "subsidiaries", out)
    with open(out, encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    fz = next(r for r in rows if r["code"] == "FZ")
    assert fz["address_en"] == "No. 128 Wusi Road, Gulou District, Fuzhou, Fujian"
    assert fz["bank_name_en"] == "Industrial and Commercial Bank of China, Fuzhou Wusi Sub-branch"
    fz["address_en"] = "Floor 5, No. 128 Wusi Road, Gulou District, Fuzhou, Fujian"
    with open(out, "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    run_import(demo_db, admin, "subsidiaries", out)
    with demo_db.session() as s:
        assert s.execute(select(Subsidiary.address_en).where(Subsidiary.code == "FZ")).scalar_one() == \
            "Floor 5, No. 128 Wusi Road, Gulou District, Fuzhou, Fujian"
    fz["bank_name_en"] = "中国工商银行"
    with open(out, "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    with pytest.raises(ImportFailed, match="bank_name_en|English bank"):
        run_import(demo_db, admin, "subsidiaries", out)


def test_english_contract_prints_in_chinese_with_chinese_generated_words(billed, tmp_path):
    from app.documents import print_document

    db, admin, _ = billed
    with db.session() as s:
        number = s.execute(select(Statement.number).join(StatementLine)
                           .join(ContractItem, ContractItem.id == StatementLine.contract_item_id)
                           .join(Contract, Contract.id == ContractItem.contract_id)
                           .where(Contract.language == "en", Statement.number.is_not(None))).scalars().first()
    out = tmp_path / "en-contract-zh.pdf"
    print_document(db, admin, "statement", number, out, language="zh")
    zh = pdftext(out)
    assert "GPU时" in zh and "计量" in zh and "GPUrental" in zh  # the item's own (English) description
    out = tmp_path / "en-contract-en.pdf"
    print_document(db, admin, "statement", number, out)  # its own language: English
    assert "metered" in pdftext(out) and "GPU-hour" in pdftext(out)


def test_lines_print_in_the_documents_language_else_as_billed(billed):
    """A line prints the text written in the document's language; one billed before migration
    line_languages has none and prints as it was billed."""
    from app.documents import statement_doc
    from app.services.billing import line_text

    db, _admin, _ = billed
    with db.session() as s:
        line = s.execute(select(StatementLine).where(StatementLine.description_other.is_not(None))
                         .join(ContractItem, ContractItem.id == StatementLine.contract_item_id)
                         .join(Contract, Contract.id == ContractItem.contract_id).where(Contract.language == "zh")
                         .order_by(StatementLine.id).limit(1)).scalar_one()
        number = s.get(Statement, line.statement_id).number
        zh, en = line.description, line.description_other
    assert has_cjk(zh) and not has_cjk(en)
    assert en in [ln.description for ln in statement_doc(db, number, language="en").lines]
    assert zh in [ln.description for ln in statement_doc(db, number, language="zh").lines]
    old = SimpleNamespace(description=zh, description_other=None, note="备注", note_other=None)
    assert line_text(old, "description", "en", "zh") == zh and line_text(old, "note", "en", "zh") == "备注"
    assert line_text(SimpleNamespace(description="x", description_other="y"), "description", "zh", "en") == "y"


def test_units_amounts_and_names_in_both_languages():
    assert LineUnit.show("月", "en") == "month" and LineUnit.show("month", "zh") == "月"
    assert LineUnit.show("Mbps·月", "en") == "Mbps-month" and LineUnit.show("kWh", "zh") == "kWh"
    assert LineUnit.show("台", "en") == "台"  # a word not in the set: as stored
    assert amount_in_words_en(Decimal("13622.91")) == \
        "Thirteen thousand six hundred and twenty-two yuan and ninety-one fen"
    assert amount_in_words_en(Decimal("100")) == "One hundred yuan only"
    assert amount_in_words_en(Decimal("0.05")) == "Zero yuan and five fen"
    assert amount_in_words_en(Decimal("-1001.10")) == "Minus one thousand and one yuan and ten fen"
    assert english_item_name("Rack lease", rack="GZ-HP1 A01") == "Rack lease GZ-HP1 A01"
    assert english_item_name("GPU rental", gpu_model="H100 SXM 80GB", quantity=Decimal(8)) == \
        "GPU rental H100 SXM 80GB × 8"
    assert english_item_name("Bandwidth", mbps=100, quantity=Decimal(1)) == "Bandwidth 100 Mbps"
    assert both(lambda w: f"{w('至', 'to')} 2026-10-31") == ("至 2026-10-31", "to 2026-10-31")
    assert has_cjk("机柜（A01）") and not has_cjk("Rack A01 · 6 kW × 2 — U1–U4 → ok")
    assert free_text("按月结算", "en") == "" and free_text("按月结算", "zh") == "按月结算"
    assert free_text("Net 30", "en") == "Net 30"


def test_item_names_prefer_what_was_typed():
    from app.services.item_names import ItemObjects

    objs = ItemObjects(racks={7: "GZ-HP1 A01"}, gpu_models={3: "H100 SXM 80GB"})
    rack = SimpleNamespace(kind="rack", description="机柜租赁 A01", description_en=None, rack_id=7, cage_id=None,
                           device_id=None, gpu_model_id=None, quantity=Decimal(1), mbps=None, price_unit="month",
                           u_from=None, u_to=None)
    assert objs.name(rack, "zh") == ("机柜租赁 A01", "Rack lease GZ-HP1 A01")
    rack.description_en = "Rack A01, 6 kW"
    assert objs.name(rack, "zh").en == "Rack A01, 6 kW"
    rack.description_en, rack.description = None, "Rack A01 standard"
    assert objs.name(rack, "zh").en == "Rack A01 standard"  # typed without Chinese: kept
    gpu = SimpleNamespace(**{**vars(rack), "kind": "gpu", "description": "H100 算力", "rack_id": None,
                             "gpu_model_id": 3, "quantity": Decimal(16)})
    assert objs.name(gpu, "zh").en == "GPU rental H100 SXM 80GB × 16"
    assert objs.name(gpu, "en") == ("H100 算力", "H100 算力")  # an English contract's own words


def test_statement_detail_in_the_readers_language(billed):
    """The console's statement panel asks get_statement in its own language: every line's words and
    unit as the document in that language prints them; without a language, the lines as billed."""
    from app.documents import statement_doc
    from app.services.billing import get_statement

    db, _admin, _ = billed
    number = _statement_of(db, StatementLine.description_other.is_not(None))
    for lang in ("en", "zh"):
        shown = get_statement(db, number, language=lang).lines
        printed = statement_doc(db, number, language=lang).lines
        assert [(ln.description, ln.unit) for ln in shown] == [(ln.description, ln.unit) for ln in printed]
    english = get_statement(db, number, language="en")
    assert english.lines and not any(has_cjk(ln.description) or has_cjk(ln.note) for ln in english.lines)
    assert "yuan" in english.total_in_words and not has_cjk(english.total_in_words)
    assert get_statement(db, number).total_in_words == get_statement(db, number, language="zh").total_in_words
    assert has_cjk(get_statement(db, number).total_in_words)
    with db.session() as s:
        stored = [ln.description for ln in s.execute(select(StatementLine).join(Statement)
                                                     .where(Statement.number == number)
                                                     .order_by(StatementLine.id)).scalars()]
    assert [ln.description for ln in get_statement(db, number).lines] == stored
