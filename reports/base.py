"""The one page template every report uses, plus styles, labels and hashing.

A4 pages with the issuing subsidiary's letterhead on top, and a footer with the document
number, the SHA-256 of the document's data, an optional extra line (the audit checkpoint)
and "page x of y" (drawn in a second pass by :class:`_NumberedCanvas`).
"""
from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import os
import re
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any, Iterable, Sequence
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.pagesizes import A4, landscape as to_landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.platypus import (BaseDocTemplate, Frame, LongTable, PageTemplate, Paragraph, Table,
                                TableStyle)

from app.domain.money import format_amount, format_price

from .documents import Party
from .fonts import RegisteredFonts, register_cjk_fonts

_CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")
STYLE_DIR = Path(__file__).resolve().parent.parent / "resources" / "report_styles"
STYLE_ENV_VAR = "IDC_REPORT_STYLE"

DEFAULT_STYLE: dict[str, Any] = {
    "page": {"margin_left_mm": 16, "margin_right_mm": 16, "margin_top_mm": 28,
             "margin_bottom_mm": 22},
    "font_size": 9,
    "leading": 12.5,
    "small_size": 7.5,
    "title_size": 16,
    "heading_size": 11,
    "letterhead_size": 12,
    "colours": {
        "accent": "#1F4E79",
        "text": "#000000",
        "muted": "#595959",
        "header_bg": "#DCE6F1",
        "zebra": "#F4F7FB",
        "grid": "#A0A0A0",
        "rack_frame": "#404040",
        "rack_empty": "#FFFFFF",
        "rack_slot_line": "#E0E0E0",
        "reservation": "#C0504D",
        "lease": "#1F5FAD",
    },
}


def _merge(base: dict, over: dict) -> dict:
    out = copy.deepcopy(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        elif not key.startswith("_"):
            out[key] = value
    return out


def load_style(overrides: dict | None = None) -> dict[str, Any]:
    """Defaults ← resources/report_styles/default.json ← $IDC_REPORT_STYLE file ← overrides."""
    style = DEFAULT_STYLE
    files = [STYLE_DIR / "default.json"]
    if os.environ.get(STYLE_ENV_VAR):
        files.append(Path(os.environ[STYLE_ENV_VAR]))
    for f in files:
        if f.is_file():
            style = _merge(style, json.loads(f.read_text(encoding="utf-8")))
    return _merge(style, overrides or {})


# --- labels -----------------------------------------------------------------------

LABELS: dict[str, tuple[str, str]] = {
    # key: (zh, en)
    "page_of": ("第 {page} 页 / 共 {pages} 页", "Page {page} of {pages}"),
    "doc_no": ("编号", "No."),
    "data_hash": ("数据摘要 SHA-256", "Data SHA-256"),
    "credit_code": ("统一社会信用代码", "Unified social credit code"),
    "address": ("地址", "Address"),
    "phone": ("电话", "Phone"),
    "bank": ("开户行", "Bank"),
    "account": ("账号", "Account"),
    "statement": ("对账单", "Statement"),
    "credit_note": ("红字账单", "Credit note"),  # as models.choices.StatementKind says
    "seller": ("销售方", "Seller"),
    "buyer": ("购买方", "Buyer"),
    "period": ("账期", "Period"),
    "issue_date": ("开具日期", "Issue date"),
    "due_date": ("付款期限", "Due date"),
    "status": ("状态", "Status"),
    "fapiao_no": ("发票号码", "Fapiao no."),
    "description": ("项目", "Description"),
    "quantity": ("数量", "Qty"),
    "unit": ("单位", "Unit"),
    "unit_price": ("单价", "Unit price"),
    "amount": ("金额", "Amount"),
    "tax_rate": ("税率", "Tax rate"),
    "tax": ("税额", "Tax"),
    "note": ("备注", "Note"),
    "subtotal": ("不含税金额合计", "Subtotal (excl. tax)"),
    "tax_total": ("税额合计", "Tax"),
    "total": ("价税合计", "Total (incl. tax)"),
    "in_words": ("价税合计（大写）", "Total in words (RMB)"),
    "credits": ("抵扣 / 贷项", "Credits"),
    "less_credits": ("减：抵扣", "Less credits"),
    "references": ("关联单据", "References"),
    "original": ("原单据", "Original document"),
    "party_a": ("甲方（客户）", "Party A (Customer)"),
    "party_b": ("乙方（服务商）", "Party B (Provider)"),
    "contract_term": ("合同期限", "Term"),
    "monthly_recurring": ("月度固定费用（不含税）", "Monthly recurring (excl. VAT)"),
    "one_off_total": ("一次性费用（不含税）", "One-off (excl. VAT)"),
    "term_value": ("合同期总金额（不含税）", "Whole term (excl. VAT)"),
    "vat": ("增值税", "VAT"),
    "contract_total": ("合同总金额（含税）", "Total (incl. VAT)"),
    "usage_extra": ("另按实际用量计费（GPU 时、超额电量等），不含在上述金额内。",
                    "Usage (GPU-hours, power over the allowance) is billed as used and is not included above."),
    "terms": ("合同条款", "Terms"),
    "items": ("服务项目及价格", "Schedule of services and prices"),
    "service_start": ("起租日", "Service start"),
    "service_level": ("服务等级", "Service level"),
    "billing_terms": ("计费与结算", "Billing terms"),
    "annex": ("附件", "Annex"),
    "rack_elevations": ("机柜布局图", "Rack elevations"),
    "gpu_list": ("GPU 清单", "GPU list"),
    "device_list": ("设备清单", "Device list"),
    "serial": ("序列号", "Serial"),
    "model": ("型号", "Model"),
    "host": ("所在服务器", "Host"),
    "name": ("名称", "Name"),
    "rack": ("机柜", "Rack"),
    "position": ("位置", "Position"),
    "signatures": ("签署", "Signatures"),
    "sign_place": ("签订地点", "Place of signing"),
    "signature": ("授权代表签字", "Authorised signature"),
    "seal": ("盖章", "Company seal"),
    "date": ("日期", "Date"),
    "front": ("前面", "Front"),
    "rear": ("后面", "Rear"),
    "site": ("数据中心", "Site"),
    "room": ("机房", "Room"),
    "u_height": ("高度", "Height"),
    "power_capacity": ("电力容量", "Power capacity"),
    "power_typical": ("典型功耗", "Typical draw"),
    "owner": ("归属", "Owner"),
    "face": ("安装面", "Face"),
    "reserved": ("预留", "Reserved"),
    "leased": ("租用", "Leased"),
    "leased_range": ("本合同租用", "Leased under this contract"),
    "draft_mark": ("草稿", "DRAFT"),
    "draft_note": ("草稿：本合同尚未审批，不可签署。", "DRAFT: this contract is not approved and is not for signature."),
    "lessee": ("承租客户", "Lessee"),
    "rack_sheet": ("机柜信息表", "Rack sheet"),
    "audit_report": ("审计报告", "Audit report"),
    "audit_period": ("审计期间", "Period"),
    "filters": ("筛选条件", "Filters"),
    "generated_at": ("生成时间", "Generated"),
    "summary": ("汇总", "Summary"),
    "actor": ("操作人", "Actor"),
    "action": ("操作", "Action"),
    "count": ("次数", "Count"),
    "events": ("事件明细", "Events"),
    "seq": ("序号", "Seq"),
    "time": ("时间", "Time"),
    "object": ("对象", "Object"),
    "changes": ("变更", "Changes"),
    "reason": ("原因", "Reason"),
    "outcome": ("结果", "Outcome"),
    "verification": ("链校验", "Chain verification"),
    "checkpoint": ("审计检查点", "Audit checkpoint"),
    "capacity": ("容量报告", "Capacity report"),
    "units": ("U 位（已用/总数）", "Units used / total"),
    "leased_u": ("已租 U", "Leased U"),
    "reserved_u": ("预留 U", "Reserved U"),
    "free_u": ("空闲 U", "Free U"),
    "power_kw": ("功率 kW（已用/容量）", "Power kW used / capacity"),
    "utilisation": ("利用率", "Utilisation"),
    "gpus": ("GPU", "GPUs"),
    "totals": ("合计", "Total"),
    "subtotal_short": ("小计", "Subtotal"),
    "fleet": ("GPU 资产报告", "GPU fleet report"),
    "book_value": ("账面价值", "Book value"),
    "revenue_12m": ("近12个月收入", "Revenue, 12 months"),
    "empty": ("（无）", "(none)"),
}


def label(key: str, lang: str) -> str:
    zh, en = LABELS[key]
    return en if lang == "en" else zh


def bilingual(key: str) -> str:
    """Heading in both languages, e.g. ``"合同条款 Terms"``."""
    zh, en = LABELS[key]
    return f"{zh} {en}"


def heading(key: str, lang: str) -> str:
    """A contract's heading: both languages on a Chinese document (``"合同条款 Terms"``, as Chinese
    contracts with foreign parties print them), English alone on an English one (no Chinese words)."""
    return bilingual(key) if lang == "zh" else LABELS[key][1]


# --- hashing ----------------------------------------------------------------------

def _json_default(value: Any) -> Any:
    if isinstance(value, (Decimal,)):
        return str(value)
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    raise TypeError(f"not serialisable in a report: {type(value).__name__}")


def canonical_json(doc: Any) -> str:
    """Canonical JSON of a document dataclass: sorted keys, Decimal and dates as text."""
    return json.dumps(dataclasses.asdict(doc), default=_json_default, sort_keys=True,
                      ensure_ascii=False, separators=(",", ":"))


def data_sha256(doc: Any) -> str:
    return hashlib.sha256(canonical_json(doc).encode("utf-8")).hexdigest()


# --- formatting -------------------------------------------------------------------

def fmt_money(d: Decimal | None) -> str:
    """``12,345.67`` (no currency sign, for table columns)."""
    # the one money formatter (half-up); app/domain/money.py is pure (no database, no Qt), the one app module reports use
    return format_amount(d)


def fmt_price(d: Decimal | None) -> str:
    """A unit price with all its decimals (at least two): quantity × price = amount must be checkable."""
    return format_price(d)


def fmt_qty(d: Decimal | int) -> str:
    d = Decimal(d)
    if d == d.to_integral_value():
        return f"{d.to_integral_value():,}"
    return f"{d.normalize():,f}"


def fmt_rate(rate: Decimal) -> str:
    """Decimal fraction 0.06 → ``6%``; 0.065 → ``6.5%``."""
    pct = (Decimal(rate) * 100).normalize()
    return f"{pct:f}%"


def fmt_date(d: date | datetime | None) -> str:
    if d is None:
        return ""
    if isinstance(d, datetime):
        return d.strftime("%Y-%m-%d %H:%M")
    return d.isoformat()


# --- the render context -----------------------------------------------------------

@dataclass(frozen=True)
class RenderResult:
    path: Path
    pages: int
    sha256: str  # of the document data, as printed in the footer
    file_sha256: str  # of the PDF file written


_CELL_PAD = 6.5  # a table cell's left and right padding (3 + 3), and a hair


class Context:
    """Fonts, style and language for one document, with small flowable helpers."""

    def __init__(self, lang: str = "zh", style: dict | None = None,
                 font_path: str | os.PathLike | None = None):
        if lang not in ("zh", "en"):
            raise ValueError(f"language must be 'zh' or 'en', not {lang!r}")
        self.lang = lang
        self._latin: dict[str, ParagraphStyle] = {}
        self.style = load_style(style)
        self.fonts: RegisteredFonts = register_cjk_fonts(font_path)
        s, f = self.style, self.fonts
        self.colour = {k: colors.HexColor(v) for k, v in s["colours"].items()}
        size, leading = s["font_size"], s["leading"]
        base = ParagraphStyle("body", fontName=f.regular, fontSize=size, leading=leading,
                              textColor=self.colour["text"], wordWrap="CJK")
        self.para = {
            "body": base,
            "cell": ParagraphStyle("cell", parent=base, fontSize=size - 0.5, leading=leading - 1.5),
            "cell_r": ParagraphStyle("cell_r", parent=base, fontSize=size - 0.5,
                                     leading=leading - 1.5, alignment=TA_RIGHT),
            "cell_c": ParagraphStyle("cell_c", parent=base, fontSize=size - 0.5,
                                     leading=leading - 1.5, alignment=TA_CENTER),
            "small": ParagraphStyle("small", parent=base, fontSize=s["small_size"],
                                    leading=s["small_size"] * 1.35, textColor=self.colour["muted"]),
            "title": ParagraphStyle("title", parent=base, fontName=f.bold, fontSize=s["title_size"],
                                    leading=s["title_size"] * 1.3, alignment=TA_CENTER,
                                    spaceAfter=4 * mm, textColor=self.colour["accent"]),
            "h2": ParagraphStyle("h2", parent=base, fontName=f.bold, fontSize=s["heading_size"],
                                 leading=s["heading_size"] * 1.4, spaceBefore=4 * mm,
                                 spaceAfter=2 * mm, textColor=self.colour["accent"],
                                 keepWithNext=1),
            "term": ParagraphStyle("term", parent=base, leftIndent=5 * mm, firstLineIndent=-5 * mm,
                                   spaceAfter=1.5 * mm, alignment=TA_LEFT),
        }

    def t(self, key: str) -> str:
        return label(key, self.lang)

    def p(self, text: str, style: str = "body") -> Paragraph:
        """Paragraph from plain text: escaped, newlines kept.

        CJK wrapping breaks anywhere, which splits Latin words such as model names;
        text without CJK characters wraps at spaces instead.
        """
        text = str(text)
        para_style = self.para[style]
        if not _CJK.search(text):
            latin = self._latin.get(style)
            if latin is None:
                latin = self._latin[style] = ParagraphStyle(f"{style}_latin", parent=para_style,
                                                            wordWrap=None)
            para_style = latin
        return Paragraph(escape(text).replace("\n", "<br/>"), para_style)

    def text_width(self, text: str, size: float | None = None, bold: bool = False) -> float:
        """The width of one line of `text` in points (a table cell's font unless told)."""
        from reportlab.pdfbase.pdfmetrics import stringWidth

        return stringWidth(str(text), self.fonts.bold if bold else self.fonts.regular,
                           size or self.style["font_size"] - 0.5)

    def p_fit(self, text: str, width: float, style: str = "cell_r", min_size: float = 5.5) -> Paragraph:
        """A one-line Paragraph in `width` points (less the cell's padding): the font shrinks until
        the text fits (an amount in words is never broken in the middle); below `min_size` it wraps."""
        base = self.para[style]
        size = base.fontSize
        room = width - _CELL_PAD
        while size > min_size and self.text_width(text, size) > room:
            size = max(min_size, size - 0.25)
        if size == base.fontSize:
            return self.p(text, style)
        fitted = ParagraphStyle(f"{style}_{size}", parent=base, fontSize=size, leading=size + 2)
        return Paragraph(escape(str(text)), fitted)

    def fit_columns(self, rows: Sequence[Sequence[Any]], widths: Sequence[float], flex: int, total: float, *,
                    header_rows: int = 1, min_flex: float = 110, min_size: float = 5.5
                    ) -> tuple[list[float], list[tuple]]:
        """Column widths that hold every one-line cell: each column but `flex` as wide as its widest
        cell (at least the width given), `flex` (a wrapping Paragraph column) the rest. When the rest
        would be below `min_flex`, those columns' font shrinks (not below `min_size`) until they fit.
        Returns the widths and the style commands (FONTSIZE, LEADING) for the shrunk columns."""
        size = self.style["font_size"] - 0.5
        need = list(widths)
        for i in range(len(widths)):
            if i == flex:
                continue
            for r, row in enumerate(rows):
                cell = row[i] if i < len(row) else ""
                if isinstance(cell, str) and cell:
                    need[i] = max(need[i], self.text_width(cell, size, bold=r < header_rows) + _CELL_PAD + 1)
        fixed = sum(w for i, w in enumerate(need) if i != flex)
        commands: list[tuple] = []
        if total - fixed < min_flex:
            scale = max(min_size / size, (total - min_flex) / fixed)
            small = round(size * scale * 4) / 4
            need = [w if i == flex else w * scale for i, w in enumerate(need)]
            for i in range(len(need)):
                if i != flex:
                    commands += [("FONTSIZE", (i, 0), (i, -1), small), ("LEADING", (i, 0), (i, -1), small + 2.5)]
            fixed = sum(w for i, w in enumerate(need) if i != flex)
        need[flex] = max(total - fixed, 0)
        return need, commands

    def table(self, rows: Sequence[Sequence[Any]], widths: Sequence[float], *,
              header_rows: int = 1, right: Iterable[int] = (), centre: Iterable[int] = (),
              zebra: bool = True, long: bool = False, extra: Sequence[tuple] = ()) -> Table:
        cls = LongTable if long else Table
        table = cls(rows, colWidths=list(widths), repeatRows=header_rows)
        size = self.style["font_size"] - 0.5
        commands: list[tuple] = [
            ("FONTNAME", (0, 0), (-1, -1), self.fonts.regular),
            ("FONTSIZE", (0, 0), (-1, -1), size),
            ("LEADING", (0, 0), (-1, -1), size + 2.5),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("GRID", (0, 0), (-1, -1), 0.4, self.colour["grid"]),
            ("TOPPADDING", (0, 0), (-1, -1), 2),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
            ("LEFTPADDING", (0, 0), (-1, -1), 3),
            ("RIGHTPADDING", (0, 0), (-1, -1), 3),
        ]
        if header_rows:
            commands += [("BACKGROUND", (0, 0), (-1, header_rows - 1), self.colour["header_bg"]),
                         ("FONTNAME", (0, 0), (-1, header_rows - 1), self.fonts.bold)]
        for col in right:
            commands.append(("ALIGN", (col, 0), (col, -1), "RIGHT"))
        for col in centre:
            commands.append(("ALIGN", (col, 0), (col, -1), "CENTER"))
        if zebra and len(rows) > header_rows + 2:
            commands.append(("ROWBACKGROUNDS", (0, header_rows), (-1, -1),
                             [colors.white, self.colour["zebra"]]))
        table.setStyle(TableStyle(commands + list(extra)))
        table.hAlign = "LEFT"
        return table

    def party_lines(self, party: Party) -> list[str]:
        lines = [party.name]
        for key, value in (("credit_code", party.credit_code), ("address", party.address),
                           ("phone", party.phone), ("bank", party.bank_name),
                           ("account", party.bank_account)):
            if value:
                lines.append(f"{self.t(key)}：{value}" if self.lang == "zh" else f"{self.t(key)}: {value}")
        return lines


# --- page template ----------------------------------------------------------------

def _numbered_canvas_class(font: str, size: float, colour, text: str, x: float, y: float,
                           sink: dict):
    class _NumberedCanvas(rl_canvas.Canvas):
        """Defers each page so "page x of y" can be drawn once y is known."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._pending: list[dict] = []

        def showPage(self):
            self._pending.append(dict(self.__dict__))
            self._startPage()

        def save(self):
            total = len(self._pending)
            sink["pages"] = total
            for number, state in enumerate(self._pending, start=1):
                self.__dict__.update(state)
                self.setFont(font, size)
                self.setFillColor(colour)
                self.drawRightString(x, y, text.format(page=number, pages=total))
                super().showPage()
            super().save()

    return _NumberedCanvas


def build_pdf(path: str | os.PathLike, story: list, ctx: Context, *, doc: Any, title: str,
              number: str = "", letterhead: Party | None = None, extra_footer: str = "",
              landscape: bool = False, watermark: str = "") -> RenderResult:
    """Lay ``story`` out on the house page template and write ``path``; ``watermark`` (e.g. 草稿)
    is printed large and diagonally across every page, under the text."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    digest = data_sha256(doc)
    pagesize = to_landscape(A4) if landscape else A4
    page_w, page_h = pagesize
    m = ctx.style["page"]
    left, right = m["margin_left_mm"] * mm, m["margin_right_mm"] * mm
    top, bottom = m["margin_top_mm"] * mm, m["margin_bottom_mm"] * mm
    fonts, colour = ctx.fonts, ctx.colour
    small = ctx.style["small_size"]

    def mark(canvas, _doc):
        # over the page's content (a drawing's fills would hide it), translucent
        if watermark:
            canvas.saveState()
            canvas.setFillColor(colour["reservation"], alpha=0.16)
            canvas.setFont(fonts.bold, 110 if len(watermark) <= 3 else 80)
            canvas.translate(page_w / 2, page_h / 2)
            canvas.rotate(35)
            canvas.drawCentredString(0, -30, watermark)
            canvas.restoreState()

    def decorate(canvas, _doc):
        canvas.saveState()
        # letterhead
        y = page_h - 12 * mm
        if letterhead is not None:
            canvas.setFillColor(colour["accent"])
            canvas.setFont(fonts.bold, ctx.style["letterhead_size"])
            canvas.drawString(left, y, letterhead.name)
            canvas.setFont(fonts.regular, small)
            canvas.setFillColor(colour["muted"])
            bits = [b for b in (letterhead.address,
                                letterhead.phone and f"{ctx.t('phone')} {letterhead.phone}",
                                letterhead.credit_code and f"{ctx.t('credit_code')} {letterhead.credit_code}")
                    if b]
            canvas.drawString(left, y - 5 * mm, "  ·  ".join(bits))
        canvas.setFont(fonts.regular, small)
        canvas.setFillColor(colour["muted"])
        canvas.drawRightString(page_w - right, y, title)
        canvas.setStrokeColor(colour["accent"])
        canvas.setLineWidth(0.8)
        canvas.line(left, page_h - top + 5 * mm, page_w - right, page_h - top + 5 * mm)
        # footer (page x of y is added by the canvas in its second pass)
        canvas.setLineWidth(0.4)
        canvas.line(left, bottom - 4 * mm, page_w - right, bottom - 4 * mm)
        canvas.setFont(fonts.regular, small)
        fy = bottom - 8 * mm
        if extra_footer:
            canvas.setFillColor(colour["text"])
            canvas.drawString(left, fy, extra_footer)
            fy -= small * 1.4
        canvas.setFillColor(colour["muted"])
        no = f"{ctx.t('doc_no')} {number}    " if number else ""
        canvas.drawString(left, fy, f"{no}{ctx.t('data_hash')} {digest}")
        canvas.restoreState()

    frame = Frame(left, bottom, page_w - left - right, page_h - top - bottom, id="body",
                  leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    sink: dict = {}
    template = BaseDocTemplate(
        str(path), pagesize=pagesize, leftMargin=left, rightMargin=right, topMargin=top,
        bottomMargin=bottom, title=title, author=letterhead.name if letterhead else "",
        subject=number, creator="IDC console", invariant=True,
        # otherwise every page references a non-embedded Helvetica
        initialFontName=fonts.regular, initialFontSize=ctx.style["font_size"],
        pageTemplates=[PageTemplate(id="page", frames=[frame], onPage=decorate, onPageEnd=mark)])
    canvasmaker = _numbered_canvas_class(fonts.regular, small, colour["muted"],
                                         label("page_of", ctx.lang), page_w - right,
                                         bottom - 8 * mm, sink)
    template.build(story, canvasmaker=canvasmaker)
    return RenderResult(path=path, pages=sink.get("pages", 0), sha256=digest,
                        file_sha256=hashlib.sha256(path.read_bytes()).hexdigest())


def fmt_cny(d: Decimal | None) -> str:
    """``¥12,345.67``; negatives ``-¥1.00``."""
    if d is None:
        return ""
    text = fmt_money(d)
    return f"-¥{text[1:]}" if text.startswith("-") else f"¥{text}"


def available_width(ctx: Context, landscape: bool = False) -> float:
    page_w = (to_landscape(A4) if landscape else A4)[0]
    m = ctx.style["page"]
    return page_w - (m["margin_left_mm"] + m["margin_right_mm"]) * mm


def available_height(ctx: Context, landscape: bool = False) -> float:
    page_h = (to_landscape(A4) if landscape else A4)[1]
    m = ctx.style["page"]
    return page_h - (m["margin_top_mm"] + m["margin_bottom_mm"]) * mm
