"""Letter of Authorization / Connecting Facility Assignment (LOA/CFA) for one cross-connect.

What a carrier or cloud provider asks for before it runs its side of a cross-connect: who
authorises it, which facility, and the exact demarcation (room, rack, panel, port) to connect
to, with the validity of the letter and signatures. Plain data in, PDF out.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import date

from reportlab.lib.units import mm
from reportlab.platypus import Spacer

from .base import Context, RenderResult, available_width, build_pdf, fmt_date
from .documents import Party


@dataclass(frozen=True)
class LoaDoc:
    number: str                 # the cross-connect's reference, e.g. XC-000012
    language: str
    issued: date
    valid_until: date
    provider: Party             # the facility operator (the subsidiary running the site): letterhead
    customer: Party             # the authorising party (the customer whose port it is)
    peer_kind: str              # already a label in the document's language: 运营商 / Carrier …
    peer_name: str              # the carrier, the cloud on-ramp or the other customer
    site: str                   # site name and code
    site_address: str
    room: str
    rack: str
    panel: str
    port: str
    mmr: str                    # the meet-me room's panel/port, "" when assigned on installation
    peer_port: str
    medium: str                 # a label in the document's language
    circuit_id: str
    state: str                  # a label in the document's language
    note: str = ""


_T: dict[str, tuple[str, str]] = {
    "title": ("授权委托书（LOA/CFA）", "Letter of Authorization / Connecting Facility Assignment"),
    "to": ("致", "To"),
    "from": ("授权方（客户）", "Authorising party (customer)"),
    "issued": ("签发日期", "Issued"),
    "valid": ("有效期至", "Valid until"),
    "body": ("{customer} 兹授权 {peer}（{kind}）在 {site} 数据中心内，经由数据中心运营方 {provider} 的"
             "汇聚机房（MMR），为其订购并安装一条交叉连接，连接至下列客户端口。本授权仅限于下述端口，"
             "有效期至 {valid}，逾期未完成安装须重新申请。",
             "{customer} hereby authorises {peer} ({kind}) to order and install one cross-connect in the "
             "{site} data centre, through the meet-me room (MMR) of the facility operator {provider}, to the "
             "customer port below. This authorisation covers that port only and is valid until {valid}; "
             "after that date a new letter is required."),
    "cfa": ("连接设施分配（CFA）", "Connecting facility assignment (CFA)"),
    "facility": ("数据中心", "Facility"),
    "address": ("地址", "Address"),
    "room": ("机房", "Room"),
    "rack": ("机柜", "Rack"),
    "panel": ("配线架", "Patch panel"),
    "port": ("端口", "Port"),
    "mmr": ("汇聚机房（MMR）配线架/端口", "Meet-me room panel/port"),
    "mmr_tbd": ("安装时由运营方分配", "assigned by the operator on installation"),
    "z_end": ("对端（Z 端）", "Far end (Z end)"),
    "z_port": ("对端端口", "Far-end port"),
    "medium": ("介质", "Medium"),
    "circuit": ("电路编号", "Circuit ID"),
    "state": ("当前状态", "Current state"),
    "a_end": ("客户端（A 端）", "Customer end (A end)"),
    "note": ("备注", "Note"),
    "sign_customer": ("授权方签章", "For the authorising party"),
    "sign_provider": ("数据中心运营方签章", "For the facility operator"),
    "sign_line": ("签字：__________________    日期：__________", "Signature: __________________    Date: __________"),
    "name_title": ("姓名/职务：__________________", "Name / title: __________________"),
    "credit_code": ("统一社会信用代码", "Unified social credit code"),
}


def _t(key: str, lang: str) -> str:
    zh, en = _T[key]
    return en if lang == "en" else zh


def loa_story(doc: LoaDoc, ctx: Context) -> list:
    lang, p = ctx.lang, ctx.p
    t = lambda k: _t(k, lang)  # noqa: E731
    width = available_width(ctx)
    story: list = [p(t("title"), "title")]
    head = [[t("to"), p(f"{doc.peer_name}（{doc.peer_kind}）" if lang == "zh" else f"{doc.peer_name} ({doc.peer_kind})",
                       "cell")],
            [t("from"), p(doc.customer.name + (f"  {t('credit_code')} {doc.customer.credit_code}"
                                               if doc.customer.credit_code else ""), "cell")],
            [t("issued"), fmt_date(doc.issued)],
            [t("valid"), fmt_date(doc.valid_until)]]
    label_w = 50 * mm
    story.append(ctx.table(head, [label_w, width - label_w], header_rows=0, zebra=False,
                           extra=[("BACKGROUND", (0, 0), (0, -1), ctx.colour["header_bg"])]))
    story.append(Spacer(0, 5 * mm))
    story.append(p(t("body").format(customer=doc.customer.name, peer=doc.peer_name, kind=doc.peer_kind,
                                    site=doc.site, provider=doc.provider.name, valid=fmt_date(doc.valid_until))))
    story.append(p(t("cfa"), "h2"))
    rows = [[t("facility"), p(doc.site, "cell")],
            [t("address"), p(doc.site_address or "—", "cell")],
            [t("a_end"), p(doc.customer.name, "cell")],
            [t("room"), p(doc.room, "cell")],
            [t("rack"), p(doc.rack, "cell")],
            [t("panel"), p(doc.panel, "cell")],
            [t("port"), p(doc.port, "cell")],
            [t("mmr"), p(doc.mmr or t("mmr_tbd"), "cell")],
            [t("z_end"), p(f"{doc.peer_name}（{doc.peer_kind}）" if lang == "zh" else f"{doc.peer_name} ({doc.peer_kind})",
                           "cell")],
            [t("z_port"), p(doc.peer_port or "—", "cell")],
            [t("medium"), p(doc.medium, "cell")],
            [t("circuit"), p(doc.circuit_id or "—", "cell")],
            [t("state"), p(doc.state, "cell")]]
    if doc.note:
        rows.append([t("note"), p(doc.note, "cell")])
    story.append(ctx.table(rows, [label_w, width - label_w], header_rows=0, zebra=False,
                           extra=[("BACKGROUND", (0, 0), (0, -1), ctx.colour["header_bg"])]))
    story.append(Spacer(0, 12 * mm))
    half = width / 2
    sign = [[p(t("sign_customer"), "cell"), p(t("sign_provider"), "cell")],
            [p(doc.customer.name, "cell"), p(doc.provider.name, "cell")],
            [p(t("name_title"), "cell"), p(t("name_title"), "cell")],
            [p(t("sign_line"), "cell"), p(t("sign_line"), "cell")]]
    story.append(ctx.table(sign, [half, half], header_rows=0, zebra=False,
                           extra=[("GRID", (0, 0), (-1, -1), 0, ctx.colour["header_bg"]),
                                  ("TOPPADDING", (0, 2), (-1, -1), 10)]))
    return story


def render_loa(doc: LoaDoc, path: str | os.PathLike, *, style: dict | None = None,
               font_path: str | os.PathLike | None = None) -> RenderResult:
    ctx = Context(doc.language, style, font_path)
    return build_pdf(path, loa_story(doc, ctx), ctx, doc=doc, title=_t("title", doc.language), number=doc.number,
                     letterhead=doc.provider)
