"""Documents whose figures are large or long still lay out: no cell's text runs into the next
column, the amount in words is never broken, and both parties have a seal line. Plain data in
(reports/ never opens a session), PDF out, text checked with pdftotext."""
from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal as D

from reportlab.platypus import LongTable, Paragraph, Table

from app.domain.money import amount_in_words, round_fen
from reports.base import Context, available_width
from reports.documents import StatementLine
from reports.samples import sample_statement
from reports.statement import render_statement, statement_story
from tests.documents.test_reports import pdftext

BIG_WORDS = "人民币壹亿零捌佰壹拾陆万伍仟柒佰陆拾伍元陆角壹分"


def big_statement(language: str = "zh"):
    """A part month of a big GPU order (quantity 0.7741935484 at ¥123,456,789.125), 123,456.789 kWh.

    | line | quantity × price | amount | rate | tax |
    | --- | --- | --- | --- | --- |
    | GPU | 0.7741935484 × 123,456,789.125 = 95,579,449.6467… | 95,579,449.65 | 13 % | 12,425,328.45 |
    | rack | 1 × 4,198.56 | 4,198.56 | 6 % | 251.91 |
    | power | 123,456.789 × 1.20 = 148,148.1468 | 148,148.15 | 6 % | 8,888.89 |
    | total | 95,731,796.36 + 12,434,469.25 − 500.00 (credit) | 108,165,765.61 | | |
    """
    specs = [("H100 算力租赁 8 卡（按月，10月8日起）", D("0.7741935484"), "卡·月", D("123456789.125"), D("0.13")),
             ("42U 机柜租赁 R-A01", D("1"), "柜·月", D("4198.56"), D("0.06")),
             ("超额电力 R-A01", D("123456.789"), "kWh", D("1.2"), D("0.06"))]
    lines = []
    for desc, q, u, p, r in specs:
        a = round_fen(q * p)
        lines.append(StatementLine(desc, q, u, p, a, r, round_fen(a * r)))
    sub = sum((ln.amount for ln in lines), D(0))
    tax = sum((ln.tax for ln in lines), D(0))
    total = sub + tax - D("500.00")
    assert (sub, tax, total) == (D("95731796.36"), D("12434469.25"), D("108165765.61"))
    return dataclasses.replace(sample_statement(language), lines=tuple(lines), subtotal=sub, tax=tax, total=total,
                               total_in_words=amount_in_words(total))


def _tables(story):
    for f in story:
        if isinstance(f, (Table, LongTable)):
            yield f
        for inner in getattr(f, "_content", ()) or ():
            if isinstance(inner, (Table, LongTable)):
                yield inner


def test_statement_columns_hold_large_figures_and_the_words_stay_whole(tmp_path):
    for lang in ("zh", "en"):
        doc = big_statement(lang)
        ctx = Context(lang)
        story = statement_story(doc, ctx)
        lines = next(t for t in _tables(story) if isinstance(t, LongTable))
        assert abs(sum(lines._colWidths) - available_width(ctx)) < 0.01
        for r, row in enumerate(lines._cellvalues):
            for c, cell in enumerate(row):
                if isinstance(cell, str) and cell:
                    size = lines._cellStyles[r][c].fontsize
                    assert ctx.text_width(cell, size, bold=r == 0) + 6 <= lines._colWidths[c], (lang, r, c, cell)
        words = next(t for t in _tables(story) if any(isinstance(row[-1], Paragraph) and "壹亿" in row[-1].text
                                                      for row in t._cellvalues))
        para = words._cellvalues[-1][-1]
        para.wrap(words._colWidths[-1] - 6, 100)
        assert len(para.blPara.lines) == 1
        pdf = tmp_path / f"big-{lang}.pdf"
        render_statement(doc, pdf)
        text = pdftext(pdf)
        for figure in ("0.7741935484", "123,456,789.125", "95,579,449.65", "123,456.789", "108,165,765.61"):
            assert figure in text, (lang, figure)
        assert BIG_WORDS in text.replace(" ", "") or BIG_WORDS.replace("人民币", "RMB") in text.replace(" ", "")


def test_statement_has_a_seal_line_for_the_seller_as_well_as_the_customer(tmp_path):
    pdf = tmp_path / "s.pdf"
    render_statement(sample_statement("zh"), pdf)
    text = pdftext(pdf)
    assert "客户（盖章）" in text and "销售方（盖章）" in text
    render_statement(sample_statement("en"), pdf)
    text = pdftext(pdf)
    assert "Customer (seal)" in text and "Seller (seal)" in text


# --------------------------------------------------------------------------- the contract PDF
def test_draft_contract_counts_installation_fees_prints_rmb_words_the_leased_u_range_and_draft(
        db, admin, manager, tmp_path):
    """A draft for 2027 (12 full months), rack A-01 U10–U20 and 3 cross-connects, all at 6 %:

    | item | monthly | term (12 months) | VAT 6 % (per month × 12, or once) |
    | --- | --- | --- | --- |
    | rack A-01 U10–U20 | 3,000.00 | 36,000.00 | 180.00 × 12 = 2,160.00 |
    | 3 cross-connects × 500.00 | 1,500.00 | 18,000.00 | 90.00 × 12 = 1,080.00 |
    | installation 3 × 1,200.00 (一次性) | | 3,600.00 | 216.00 |
    | total | 4,500.00 | 57,600.00 | 3,456.00 → 61,056.00 |
    """
    from app.services.contracts.totals import totals_of_contract
    from app.documents.contract import contract_doc
    from app.services import contracts as C
    from models.choices import ItemKind, PriceUnit
    from reports import render_contract
    from tests.billing.test_billing_world import make_world, signed

    w = make_world(db)
    items = [C.ItemSpec(kind=ItemKind.RACK, description="机柜 A-01 U10-U20", unit_price=D("3000"),
                        price_unit=PriceUnit.MONTH, rack_id=w.rack_ids[0], u_from=10, u_to=20),
             C.ItemSpec(kind=ItemKind.XCONNECT, description="交叉连接（单模光纤）", unit_price=D("500"),
                        price_unit=PriceUnit.MONTH, quantity=D(3), setup_price=D("1200"))]
    c = C.create_contract(db, manager, subsidiary_id=w.subsidiary_id, customer_id=w.customer_id,
                          start_date=dt.date(2027, 1, 1), end_date=dt.date(2027, 12, 31), items=items, title="测试合同")
    t = totals_of_contract(db, c.id)
    assert (t.monthly, t.one_off, t.term_value, t.vat, t.total) == (
        D("4500.00"), D("3600.00"), D("57600.00"), D("3456.00"), D("61056.00"))
    doc = contract_doc(db, c.number)
    assert doc.draft and [(x.u_from, x.u_to) for x in doc.racks[0].leases] == [(10, 20)]
    pdf = tmp_path / "draft.pdf"
    render_contract(doc, pdf)
    text = pdftext(pdf)
    assert "人民币陆万壹仟零伍拾陆元整" in text.replace(" ", "")
    assert "¥3,600.00" in text and "¥61,056.00" in text
    assert "草稿" in text and "不可签署" in text
    assert "本合同租用：U10–U20" in text and "租用 U10–U20" in text
    en = tmp_path / "draft-en.pdf"
    render_contract(contract_doc(db, c.number, language="en"), en)
    text = pdftext(en)
    assert "DRAFT" in text and "Leased under this contract: U10–U20" in text and "RMB" in text

    # approved and signed: no draft marking
    signed_c = signed(db, manager, admin, w, [items[1]], dt.date(2027, 1, 1), dt.date(2027, 12, 31), activate=False)
    doc = contract_doc(db, signed_c.number)
    assert not doc.draft
    ready = tmp_path / "approved.pdf"
    render_contract(doc, ready)
    assert "草稿" not in pdftext(ready) and "DRAFT" not in pdftext(ready)


# --------------------------------------------------------------------------- the aging report
def test_aging_report_says_its_unit_and_subtotals_each_subsidiary(tmp_path):
    """Two subsidiaries, plain data (reports/ reads no database):

    | subsidiary | customer | not due | 1–30 | total |
    | --- | --- | --- | --- | --- |
    | 上海 | 甲 | 1,000.00 | 250.50 | 1,250.50 |
    | 上海 | 乙 | 2,000.00 | | 2,000.00 |
    | 上海 subtotal | | 3,000.00 | 250.50 | 3,250.50 |
    | 广州 | 丙 | | 99.99 | 99.99 |
    | 广州 subtotal | | 0.00 | 99.99 | 99.99 |
    | grand total | | 3,000.00 | 350.49 | 3,350.49 |
    """
    import datetime as dt_

    from reports.receivables import AgingDoc, AgingLine, render_aging

    z = D("0")
    lines = (AgingLine("上海", "甲公司", (D("1000"), D("250.50"), z, z, z), z),
             AgingLine("广州", "丙公司", (z, D("99.99"), z, z, z), z),
             AgingLine("上海", "乙公司", (D("2000"), z, z, z, z), D("-10")))
    pdf = tmp_path / "aging.pdf"
    render_aging(AgingDoc(dt_.date(2026, 11, 30), lines), pdf)
    text = pdftext(pdf)
    assert "单位：人民币元" in text
    rows = [ln.split() for ln in text.splitlines() if "小计" in ln or "总计" in ln]
    assert rows == [["小计", "上海", "3,000.00", "250.50", "0.00", "0.00", "0.00", "3,250.50", "-10.00"],
                    ["小计", "广州", "0.00", "99.99", "0.00", "0.00", "0.00", "99.99", "0.00"],
                    ["总计", "3,000.00", "350.49", "0.00", "0.00", "0.00", "3,350.49", "-10.00"]]
    render_aging(AgingDoc(dt_.date(2026, 11, 30), lines, language="en"), pdf)
    text = pdftext(pdf)
    assert "Amounts in RMB (yuan)" in text and "Subtotal 上海" in text
