"""PDF renderers: render sample documents and read them back with poppler's tools."""
from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess
from decimal import Decimal

import pytest

from app.domain.money import amount_in_words
from reports import (AuditRow, CreditLine, FontNotFoundError, StatementLine, canonical_json,
                     data_sha256, register_cjk_fonts, render_audit_report, render_capacity,
                     render_contract, render_fleet, render_rack_sheet, render_statement)
from reports import samples

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils missing")


def pdftext(path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                          text=True, check=True).stdout


def pdfpages(path) -> int:
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))


def assert_fonts_embedded(path) -> None:
    out = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout
    rows = out.splitlines()[2:]
    assert rows, "no fonts in the PDF"
    for row in rows:
        # columns: name type encoding emb sub uni object ID; emb is the 4th from the right
        assert row.split()[-5] == "yes", f"font not embedded: {row}"


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_statement_shows_parties_amounts_and_words(tmp_path):
    doc = samples.sample_statement()
    assert doc.total == Decimal("12345.67")
    assert doc.total_in_words == amount_in_words(doc.total)
    result = render_statement(doc, tmp_path / "st.pdf")
    text = pdftext(result.path)
    assert result.pages == pdfpages(result.path) == 1
    assert "海口美兰星河人工智能有限公司" in text  # buyer
    assert "91460108MA5TXYZ12K" in text and "91310115MA1K4ABC1X" in text
    assert "招商银行上海张江支行" in text  # seller's bank
    assert "¥12,345.67" in text
    assert "壹万贰仟叁佰肆拾伍元陆角柒分" in text
    assert "7,800.00" in text and "¥12,118.56" in text and "¥727.11" in text
    assert "-¥500.00" in text  # credits reduce the total
    assert "26312000000012345678" in text  # fapiao number
    assert "CN-SH-202609-0007" in text
    assert result.sha256 in text
    assert_fonts_embedded(result.path)


def test_statement_in_english_and_credit_note(tmp_path):
    doc = dataclasses.replace(samples.sample_statement("en"), kind="credit_note",
                              references=("ST-SH-202609-0031",), number="CN-SH-202610-0003")
    text = pdftext(render_statement(doc, tmp_path / "cn.pdf").path)
    assert "Credit note" in text and "Total (incl. tax)" in text and "Page 1 of 1" in text
    assert "Original document" in text and "ST-SH-202609-0031" in text
    assert "October 2026" in text


def test_statement_with_many_lines_breaks_pages_and_repeats_header(tmp_path):
    base = samples.sample_statement()
    line = StatementLine("H100 算力租赁（按小时）", Decimal(10), "GPU时", Decimal("7.80"),
                         Decimal("78.00"), Decimal("0.06"), Decimal("4.68"))
    n = 120
    doc = dataclasses.replace(
        base, lines=(line,) * n, subtotal=Decimal("9360.00"), tax=Decimal("561.60"),
        total=Decimal("9921.60"), credits=(), total_in_words=amount_in_words(Decimal("9921.60")))
    result = render_statement(doc, tmp_path / "long.pdf")
    assert result.pages == pdfpages(result.path) >= 3
    pages = pdftext(result.path).split("\f")[: result.pages]
    with_lines = [page for page in pages if "H100 算力租赁" in page]
    assert len(with_lines) >= 3
    assert all("单价" in page for page in with_lines)  # the table header repeats
    assert "玖仟玖佰贰拾壹元陆角整" in pages[-1]
    assert f"第{result.pages}页/共{result.pages}页" in _squash(pages[-1])


def test_contract_has_parties_terms_schedule_annexes_and_signatures(tmp_path):
    doc = samples.sample_contract()
    result = render_contract(doc, tmp_path / "contract.pdf")
    text = pdftext(result.path)
    flat = _squash(text)
    assert result.pages == pdfpages(result.path)
    # 2 pages of contract + one page per rack + GPU list (with the device list after it)
    assert result.pages == 2 + len(doc.racks) + 1 + 1
    assert "甲方（客户） Party A (Customer)" in text and "乙方（服务商） Party B (Provider)" in text
    assert "91460108MA5TXYZ12K" in text and "91310115MA1K4ABC1X" in text
    for heading in ("合同条款 Terms", "服务项目及价格 Schedule of services and prices",
                    "服务等级 Service level", "计费与结算 Billing terms", "签署 Signatures",
                    "机柜布局图 Rack elevations", "GPU 清单 GPU list", "设备清单 Device list"):
        assert heading in text, heading
    assert "5,600.00" in text and "45,000.00" in text
    assert "授权代表签字" in text and "盖章" in text
    assert "GPU-SH-0001" in text and "R-A02" in text  # rack drawing labels and device list
    assert "预留" in text  # hatched reservation caption
    for gpu in doc.gpus:
        assert gpu.serial in flat
    assert_fonts_embedded(result.path)


def test_contract_english_labels(tmp_path):
    text = pdftext(render_contract(samples.sample_contract("en"), tmp_path / "c.pdf").path)
    assert "Authorised signature" in text and "Front" in text and "Rear" in text
    assert "Terms" in text and "合同条款" not in text  # an English contract has no Chinese headings


def test_audit_checkpoint_on_every_page(tmp_path):
    doc = samples.sample_audit(400)
    result = render_audit_report(doc, tmp_path / "audit.pdf")
    assert result.pages == pdfpages(result.path) > 5
    pages = pdftext(result.path).split("\f")[: result.pages]
    assert len(pages) == result.pages
    for n, page in enumerate(pages, start=1):
        assert doc.checkpoint in page, f"checkpoint missing on page {n}"
        assert f"第{n}页/共{result.pages}页" in _squash(page)
        assert result.sha256 in page
    text = "".join(pages)
    assert "哈希链完整" in text
    assert "status: 空闲 → 已租" in text
    assert_fonts_embedded(result.path)


@pytest.mark.slow
def test_audit_report_with_10000_events_renders_every_page(tmp_path):
    """Its speed is the bench's row 'audit report PDF' (figures, not a timed test: docs/performance.md)."""
    doc = samples.sample_audit(10_000)
    result = render_audit_report(doc, tmp_path / "audit10k.pdf")
    assert result.pages == pdfpages(result.path) > 300
    last = pdftext(result.path).split("\f")[result.pages - 1]
    assert doc.checkpoint in last and "10000" in last


def test_audit_long_free_text_wraps_inside_its_cell(tmp_path):
    long_reason = "客户申请扩容并要求迁移到液冷机房，" * 12
    doc = dataclasses.replace(samples.sample_audit(3), events=(
        AuditRow(1, "2026-10-01 08:00:00", "张伟", "lease_rack", "机柜 R-A01",
                 "status: 空闲 → 已租", long_reason, "成功"),))
    result = render_audit_report(doc, tmp_path / "wrap.pdf")
    html = subprocess.run(["pdftotext", "-bbox", str(result.path), "-"], capture_output=True,
                          text=True, check=True).stdout
    boxes = [(float(a), float(b)) for a, b, word in re.findall(
        r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</word>', html)
        if "液冷" in word]
    assert len(boxes) >= 3  # wrapped over several lines
    # reason column of the landscape frame: 16 mm margin + 78 % .. 93 % of 751.3 pt
    left = 16 / 25.4 * 72 + 751.3 * 0.78
    assert all(left - 1 <= x0 and x1 <= left + 751.3 * 0.15 + 1 for x0, x1 in boxes), boxes


def test_rack_sheet_capacity_and_fleet(tmp_path):
    rack = render_rack_sheet(samples.sample_rack_sheet(), tmp_path / "rack.pdf")
    text = pdftext(rack.path)
    assert rack.pages == pdfpages(rack.path) == 1
    assert "机柜信息表 R-A01" in text and "U17–U24" in text and "IB-SW-01" in text
    assert "42" in text and "40 kW" in text

    cap_doc = samples.sample_capacity()
    cap = render_capacity(cap_doc, tmp_path / "cap.pdf")
    text = pdftext(cap.path)
    used = sum(r.units_used for r in cap_doc.rows)
    total = sum(r.units_total for r in cap_doc.rows)
    assert f"{used} / {total}" in text
    assert "3F-A 液冷机房" in text and "GPU 报废" in text

    fleet_doc = samples.sample_fleet()
    fleet = render_fleet(fleet_doc, tmp_path / "fleet.pdf")
    text = pdftext(fleet.path)
    book = sum(r.book_value for r in fleet_doc.rows)
    assert f"¥{book:,.2f}" in text and "Ascend 910B" in text
    for path in (rack.path, cap.path, fleet.path):
        assert_fonts_embedded(path)


def test_data_hash_is_canonical_and_follows_the_data():
    doc = samples.sample_statement()
    again = samples.sample_statement()
    assert data_sha256(doc) == data_sha256(again)
    changed = dataclasses.replace(doc, credits=(CreditLine("补偿", Decimal("500.01")),))
    assert data_sha256(changed) != data_sha256(doc)
    js = canonical_json(doc)
    assert '"total":"12345.67"' in js and '"issue_date":"2026-11-03"' in js
    assert "海口美兰星河人工智能有限公司" in js  # not \u-escaped


def test_same_data_gives_identical_pdf(tmp_path):
    a = render_fleet(samples.sample_fleet(), tmp_path / "a.pdf")
    b = render_fleet(samples.sample_fleet(), tmp_path / "b.pdf")
    assert a.file_sha256 == b.file_sha256


def test_unusable_font_path_is_a_clear_error(tmp_path):
    bogus = tmp_path / "not-a-font.ttf"
    bogus.write_bytes(b"nope")
    with pytest.raises(FontNotFoundError, match="cannot be embedded"):
        register_cjk_fonts(bogus)
    assert register_cjk_fonts().regular  # the automatic search still works


def test_language_is_validated(tmp_path):
    with pytest.raises(ValueError, match="language"):
        render_fleet(dataclasses.replace(samples.sample_fleet(), language="fr"), tmp_path / "x.pdf")


def test_empty_documents_render(tmp_path):
    st = dataclasses.replace(samples.sample_statement(), lines=(), credits=(), references=(),
                             subtotal=Decimal(0), tax=Decimal(0), total=Decimal(0),
                             total_in_words=amount_in_words(Decimal(0)))
    assert "零元整" in pdftext(render_statement(st, tmp_path / "e.pdf").path)
    au = dataclasses.replace(samples.sample_audit(1), events=(), summary=())
    assert render_audit_report(au, tmp_path / "a.pdf").pages == 1
    ct = dataclasses.replace(samples.sample_contract(), racks=(), gpus=(), devices=(), items=())
    assert render_contract(ct, tmp_path / "c.pdf").pages == 2


def test_font_search_order_and_rejects_fonts_without_cjk(monkeypatch, tmp_path):
    from reports import fonts

    dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    monkeypatch.setenv(fonts.ENV_VAR, dejavu)
    paths = [p for p, _ in fonts.candidate_paths(tmp_path / "given.ttf")]
    assert paths[:2] == [str(tmp_path / "given.ttf"), dejavu]
    monkeypatch.setattr(fonts, "registered", None)
    found = fonts.register_cjk_fonts()
    assert found.regular_path != dejavu  # Latin-only font skipped, a CJK one found


def test_styles_layer_over_defaults(tmp_path, monkeypatch):
    from reports.base import DEFAULT_STYLE, load_style

    extra = tmp_path / "style.json"
    extra.write_text('{"colours": {"accent": "#AA0000"}, "font_size": 10}', encoding="utf-8")
    monkeypatch.setenv("IDC_REPORT_STYLE", str(extra))
    style = load_style({"colours": {"grid": "#000000"}})
    assert style["colours"]["accent"] == "#AA0000"  # from the file
    assert style["colours"]["grid"] == "#000000"  # from the argument
    assert style["colours"]["zebra"] == DEFAULT_STYLE["colours"]["zebra"]  # default kept
    assert style["font_size"] == 10
    result = render_fleet(samples.sample_fleet(), tmp_path / "styled.pdf",
                          style={"colours": {"accent": "#00AA00"}})
    assert result.pages == 1
