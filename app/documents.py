"""Build the PDF documents' data from the database, render them, and leave an audit trace.

`reports/` takes frozen dataclasses and never opens a session; this module fills them:
statements and credit notes, contracts (with the rack elevation annex and the GPUs and
devices by serial), audit reports (summary, events, chain verification and the checkpoint
SEQ:HASH on every page), rack sheets, per-site capacity and the GPU fleet report.

Labels are chosen here per document language ('zh' or 'en'), so a PDF never shows a stored
code where a person expects a word. `print_document` renders one of them and appends a
``print`` audit event (app.audit_query.record_export), as every export and print must.
"""
from __future__ import annotations

import datetime as dt
import os
from collections import Counter, defaultdict
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import func, or_, select

from models import (AuditEvent, Contact, Contract, ContractItem, Customer, Device, DeviceType, GpuAsset, GpuModel, Rack, Region,
                    Room, Site, Statement, StatementLine, Subsidiary, contract_item_gpu)
from models.choices import (ContractStatus, DeviceStatus, GpuState, ItemKind, Outcome, PriceUnit, RackStatus,
                            ServiceLevel, StatementKind, StatementStatus)
from reports import (AuditReportDoc, AuditRow, AuditSummaryRow, CapacityDoc, CapacityRow, ContractDoc, ContractSums,
                     ContractItemRow, DeviceRow, ElevDevice, FleetDoc, FleetRow, GpuRow, Party, RackElevation,
                     RackSheetDoc, RenderResult, Reservation, StatementDoc, StatementLine as DocLine)

from .audit import Actor, VerifyResult, verify_audit_range
from .clock import TZ as SHANGHAI, now_local
from .audit_query import (AuditFilter, action_name as audit_action_name, last_seq_hash,
                          local_midnight_utc as local_midnight, object_name as audit_object_name, record_export,
                          to_local)
from .auth import require
from .db import Database
from .errors import DomainError, NotFound, ValidationError
from .money import amount_in_words, format_cny, round_fen
from .services.billing import find_statement
from .services.dcim import find_rack
from .services.reference import tax_rates_on
from .services.contracts import find_contract

FONT_ENV = "IDC_PDF_FONT"
LANGS = ("zh", "en")
ZERO = Decimal(0)
FEN = Decimal("0.01")

# --------------------------------------------------------------------------- labels
# Choice labels (states, kinds, units) come from models.choices, the same words as the screen's;
# the audit trail's action and object names from app.audit_query (the list, the CSV and the PDF).
FLEET_OWNER = ("自有", "Own fleet")


def _l(pair: tuple[str, str], lang: str) -> str:
    return pair[1] if lang == "en" else pair[0]


def action_label(action: str, lang: str, object_type: str | None = None) -> str:
    """'statement.issue' → '开具账单' / 'Issue statement'; an unknown code is shown as it is."""
    return audit_action_name(action, object_type, lang)


def _check_lang(lang: str | None) -> str | None:
    if lang is not None and lang not in LANGS:
        raise ValidationError({"lang": f"the document language is zh or en, not {lang!r}"})
    return lang


def _fen(d) -> Decimal:
    return round_fen(d or 0)


def _units(value) -> int | Decimal:
    """Rack units as the sheet shows them: 10 not 10.0, 10.5 stays."""
    d = Decimal(value or 0)
    return int(d) if d == d.to_integral_value() else d.quantize(Decimal("0.1"))


def period_label(period: str, lang: str) -> str:
    y, m = period.split("-")
    if lang == "en":
        return dt.date(int(y), int(m), 1).strftime("%B %Y")
    return f"{int(y)}年{int(m)}月"


# --------------------------------------------------------------------------- parties
def _subsidiary_party(sub: Subsidiary, lang: str) -> Party:
    name = (sub.name_en or sub.name) if lang == "en" else sub.name
    return Party(name=name, credit_code=sub.credit_code or "", address=sub.address or "",
                 bank_name=sub.bank_name or "", bank_account=sub.bank_account or "", phone=sub.phone or "")


def _customer_party(s, cust: Customer) -> Party:
    contact = s.execute(select(Contact).where(Contact.customer_id == cust.id).order_by(Contact.id)).scalars().first()
    phone = ""
    if contact is not None and contact.phone:
        phone = f"{contact.phone}（{contact.name}）" if contact.name else contact.phone
    return Party(name=cust.name, credit_code=cust.credit_code or "", address=cust.address or "", phone=phone)


def _letterhead(s, subsidiary_code: str | None, lang: str) -> Party:
    """The issuing subsidiary; for group-wide reports the first one registered (the headquarters)."""
    q = select(Subsidiary)
    q = q.where(Subsidiary.code == subsidiary_code) if subsidiary_code else q.order_by(Subsidiary.id)
    sub = s.execute(q.limit(1)).scalars().first()
    if sub is None:
        if subsidiary_code:
            raise NotFound(f"there is no subsidiary with the code {subsidiary_code}")
        return Party(name="IDC console")
    return _subsidiary_party(sub, lang)


# --------------------------------------------------------------------------- statements
def _contract_language(s, st: Statement) -> str:
    """The language of the contract(s) billed on the statement; Chinese when they differ or none."""
    langs = set(s.execute(select(Contract.language).join(ContractItem, ContractItem.contract_id == Contract.id)
                          .join(StatementLine, StatementLine.contract_item_id == ContractItem.id)
                          .where(StatementLine.statement_id == st.id)).scalars())
    return langs.pop() if len(langs) == 1 else "zh"


def statement_doc(db: Database, number: int | str, *, language: str | None = None) -> StatementDoc:
    """A statement or credit note by number (or id, for a draft) as the renderer's StatementDoc.

    The language is the billed contract's unless `language` overrides it.
    """
    _check_lang(language)
    with db.session() as s:
        st = find_statement(s, number)
        lang = language or _contract_language(s, st)
        sub = s.get(Subsidiary, st.subsidiary_id)
        cust = s.get(Customer, st.customer_id)
        lines = [DocLine(description=ln.description, quantity=Decimal(ln.quantity), unit=ln.unit,
                         unit_price=Decimal(ln.unit_price), amount=_fen(ln.amount), tax_rate=Decimal(ln.tax_rate),
                         tax=_fen(ln.tax), note=ln.note or "")
                 for ln in sorted(st.lines, key=lambda ln: ln.id)]
        if st.kind == StatementKind.CREDIT_NOTE:
            original = s.get(Statement, st.original_id) if st.original_id else None
            references = (original.number,) if original is not None and original.number else ()
        else:
            references = tuple(s.execute(
                select(Statement.number).where(Statement.original_id == st.id, Statement.number.is_not(None),
                                               Statement.status == StatementStatus.ISSUED)
                .order_by(Statement.number)).scalars())
        issued = st.issued_at.astimezone(SHANGHAI).date() if st.issued_at else now_local().date()
        notes = []
        contracts = list(s.execute(
            select(Contract.number).join(ContractItem, ContractItem.contract_id == Contract.id)
            .join(StatementLine, StatementLine.contract_item_id == ContractItem.id)
            .where(StatementLine.statement_id == st.id).distinct().order_by(Contract.number)).scalars())
        if contracts:
            notes.append(("依据合同：" + "、".join(contracts)) if lang == "zh"
                         else ("Contract" + ("s" if len(contracts) > 1 else "") + ": " + ", ".join(contracts)))
        if st.kind == StatementKind.CREDIT_NOTE and st.reason:
            notes.append(("冲销原因：" if lang == "zh" else "Reason: ") + st.reason)
        rebills = s.get(Statement, st.rebills_id) if st.rebills_id else None
        if rebills is not None:  # a rebill refers to the statement whose credited lines it bills again
            notes.append(f"本对账单更正重开 {rebills.number} 已冲销的明细。" if lang == "zh"
                         else f"This statement rebills the credited lines of {rebills.number}.")
        if st.status != StatementStatus.ISSUED:
            notes.append("本对账单尚未开具，仅供核对。" if lang == "zh"
                         else "This statement has not been issued; for checking only.")
        if any(ln.amount < 0 and ln.charge == "credit" for ln in st.lines):
            notes.append("停机抵扣已作为负数明细计入合计。" if lang == "zh"
                         else "Downtime credits are included in the lines as negative amounts.")
        return StatementDoc(
            number=st.number or (f"草稿 #{st.id}" if lang == "zh" else f"DRAFT #{st.id}"),
            kind=st.kind, subsidiary=_subsidiary_party(sub, lang), customer=_customer_party(s, cust),
            period_label=period_label(st.period, lang), issue_date=issued, lines=tuple(lines),
            subtotal=_fen(st.subtotal), tax=_fen(st.tax), total=_fen(st.total),
            total_in_words=amount_in_words(_fen(st.total)), references=references, fapiao_no=st.fapiao_no or "",
            status=StatementStatus.label(st.status, lang), language=lang, notes="\n".join(notes),
            kind_label=StatementKind.label(st.kind, lang), due_date=st.due_date,
            payment_terms=_payment_terms(s, st, lang))


def _payment_terms(s, st: Statement, lang: str) -> str:
    """The wording of the billed contracts' payment terms (receivables), or N days after issue."""
    rows = s.execute(select(Contract.payment_terms, Contract.payment_term_days)
                     .join(ContractItem, ContractItem.contract_id == Contract.id)
                     .join(StatementLine, StatementLine.contract_item_id == ContractItem.id)
                     .where(StatementLine.statement_id == st.id).distinct()).all()
    if not rows:
        return ""
    words, days = min(rows, key=lambda r: r[1])
    return words or (f"开具后 {days} 天内付款" if lang == "zh" else f"{days} days after issue")


# --------------------------------------------------------------------------- racks
def rack_path(s, rack_id: int) -> str:
    row = s.execute(select(Site.code, Room.name, Rack.name).join(Room, Room.id == Rack.room_id)
                    .join(Site, Site.id == Room.site_id).where(Rack.id == rack_id)).first()
    return f"{row[0]}/{row[1]}/{row[2]}" if row else str(rack_id)


def short_rack(s, rack_id: int, with_site: bool = True) -> str:
    """'FZ-MW1 A1/A01': the room's first word (its code in practice) keeps equal rack names apart."""
    site, room, rack = rack_path(s, rack_id).split("/", 2)
    label = f"{room.split()[0]}/{rack}" if room.strip() else rack
    return f"{site} {label}" if with_site else label


def paper_colour(hex_colour: str, amount: float = 0.55) -> str:
    """The screen's owner colour mixed with white, so black labels read on paper."""
    h = hex_colour.lstrip("#")
    try:
        rgb = [int(h[i:i + 2], 16) for i in (0, 2, 4)]
    except ValueError:
        return "#9FC5E8"
    return "#" + "".join(f"{round(c + (255 - c) * amount):02X}" for c in rgb)


def rack_elevation_doc(db: Database, rack_id: int, lang: str = "zh", today: dt.date | None = None) -> RackElevation:
    """The renderer's RackElevation from app.viewdata.rack_elevation (one query path for screen and paper)."""
    from .viewdata import rack_elevation

    e = rack_elevation(db, rack_id, today)
    devices = tuple(
        ElevDevice(name=d.name, model=d.model, owner=d.owner_name or _l(FLEET_OWNER, lang), position=d.position,
                   height=d.height, face=d.face or "front", full_depth=d.full_depth,
                   colour=paper_colour(d.colour))
        for d in e.mounted)
    reservations = tuple(Reservation(customer=r.customer_name, face=r.face, u_from=r.u_from, u_to=r.u_to)
                         for r in e.reservations)
    return RackElevation(name=e.name, site=f"{e.site_code} {e.site_name}", room=e.room_name, u_height=e.u_height,
                         power_capacity_kw=e.power_capacity_kw, power_typical_kw=e.typical_draw_kw,
                         devices=devices, reservations=reservations, customer=e.lessee_name or "")


def _rack_subsidiary(s, rack_id: int, lang: str) -> Party | None:
    sub = s.execute(select(Subsidiary).join(Site, Site.subsidiary_id == Subsidiary.id)
                    .join(Room, Room.site_id == Site.id).join(Rack, Rack.room_id == Room.id)
                    .where(Rack.id == rack_id)).scalars().first()
    return _subsidiary_party(sub, lang) if sub else None


def rack_sheet_doc(db: Database, rack: int | str, *, language: str = "zh") -> RackSheetDoc:
    """One rack's elevation sheet; `rack` as find_rack accepts it."""
    lang = _check_lang(language) or "zh"
    rack_id = find_rack(db, rack)
    elevation = rack_elevation_doc(db, rack_id, lang)
    with db.session() as s:
        tag = s.execute(select(Rack.asset_tag).where(Rack.id == rack_id)).scalar_one()
        number = tag or rack_path(s, rack_id)
        sub = _rack_subsidiary(s, rack_id, lang)
    return RackSheetDoc(rack=elevation, subsidiary=sub, number=number, generated_at=now_local(), language=lang)


# --------------------------------------------------------------------------- contracts
def _approval_line(s, c: Contract, lang: str) -> str:
    """Who approved the contract and, when four-eyes was off then, that one person did."""
    if not c.approved_by:
        return ""
    from models import User
    name = s.execute(select(User.display_name).where(User.login == c.approved_by)).scalar() or c.approved_by
    who = f"{name}（{c.approved_by}）" if lang == "zh" else f"{name} ({c.approved_by})"
    if lang == "zh":
        line = f"审批人：{who}"
        return line + ("；审批时未启用双人复核（起草人可自行审批）。" if c.approved_four_eyes is False else "（双人复核）。")
    line = f"Approved by {who}"
    return line + ("; the four-eyes check was off (the drafter could approve)." if c.approved_four_eyes is False
                   else " (second person).")


def _money(d) -> str:
    return format_cny(d)


def _qty(d) -> str:
    d = Decimal(d)
    return f"{int(d):,}" if d == d.to_integral_value() else f"{d.normalize():f}"


def _item_row(s, c: Contract, it: ContractItem, rates: dict[str, Decimal], lang: str) -> ContractItemRow:
    zh = lang == "zh"
    notes: list[str] = [ItemKind.label(it.kind, lang)]
    if it.rack_id:
        where = rack_path(s, it.rack_id)
        if it.u_from:
            where += f" U{it.u_from}–U{it.u_to}"
        notes.append(where)
    if it.device_id:
        dev = s.get(Device, it.device_id)
        if dev is not None:
            notes.append(f"{dev.name}" + (f" SN {dev.serial}" if dev.serial else ""))
    if it.kind == ItemKind.GPU and it.gpu_model_id:
        model = s.get(GpuModel, it.gpu_model_id)
        if model is not None:
            notes.append(model.name)
    if it.power_allowance_kw is not None and it.kwh_price is not None:
        notes.append(f"电力额度 {Decimal(it.power_allowance_kw).normalize():f} kW，超出部分 {_money(it.kwh_price)}/kWh"
                     if zh else f"power allowance {Decimal(it.power_allowance_kw).normalize():f} kW, "
                                f"{_money(it.kwh_price)}/kWh beyond")
    if it.price_unit == PriceUnit.HYBRID:
        notes.append(f"含 {_qty(it.included_hours or 0)} GPU时，超出 {_money(it.hourly_rate or 0)}/GPU时"
                     if zh else f"includes {_qty(it.included_hours or 0)} GPU-hours, "
                                f"{_money(it.hourly_rate or 0)}/GPU-hour beyond")
    if it.price_unit == PriceUnit.YEAR:
        notes.append("年价，按 1/12 逐月计费" if zh else "yearly price, billed monthly as 1/12")
    if it.service_end and it.service_end < c.end_date:
        notes.append(f"服务至 {it.service_end}" if zh else f"service until {it.service_end}")
    qty = Decimal(it.mbps) if it.price_unit == PriceUnit.MBPS_MONTH and it.mbps else Decimal(it.quantity)
    price = Decimal(it.unit_price)
    if it.kind == ItemKind.DISCOUNT:
        price = -price
    return ContractItemRow(description=it.description, quantity=qty, unit=PriceUnit.unit(it.price_unit, lang),
                           unit_price=price, tax_rate=rates.get(it.tax_category, ZERO),
                           service_start=max(it.service_start or c.start_date, c.start_date),
                           note="\n".join(notes))


def _billing_terms(items: list[ContractItem], rates: dict[str, Decimal], lang: str) -> tuple[str, ...]:
    zh = lang == "zh"
    units = {it.price_unit for it in items}
    if units & {PriceUnit.MONTH, PriceUnit.YEAR, PriceUnit.MBPS_MONTH, PriceUnit.HYBRID}:
        out = [("按自然月（北京时间）计费；各项目自交付日（北京时间）起计费，月费按日折算：单价 × 数量 × 在用天数 ÷ 当月天数。" if zh else
                "Billed per calendar month (Asia/Shanghai); each item is billed from its handover date (Asia/Shanghai) "
                "and monthly fees are prorated by day: price × quantity × active days ÷ days in the month.")]
    else:
        out = ["按自然月（北京时间）计费。" if zh else "Billed per calendar month (Asia/Shanghai)."]
    if PriceUnit.YEAR in units:
        out.append("年价按 1/12 逐月计费，同样按日折算。" if zh else
                   "Yearly prices are billed monthly as 1/12 and prorated the same way.")
    if units & {PriceUnit.GPU_HOUR, PriceUnit.GPU_MINUTE}:
        out.append("GPU 按租用时长以秒计量，扣除故障停机时间（对账单列明抵扣），按开始的小时（或约定的分钟）计费。" if zh else
                   "GPU time is metered in seconds from each GPU's lease, less recorded downtime (shown as a credit "
                   "on the statement), and billed per started hour (or minute where agreed).")
    if PriceUnit.HYBRID in units:
        out.append("混合计费：承诺月费含约定 GPU时；超出部分 = max(0, 已用 GPU时 − 包含 GPU时) × 超时单价。" if zh else
                   "Hybrid pricing: the committed monthly fee includes the stated GPU-hours; beyond them "
                   "max(0, used − included hours) × the hourly rate.")
    if any(it.power_allowance_kw is not None for it in items) or PriceUnit.KWH in units:
        out.append("电力按机柜电表读数计量；超额电费 = max(0, 用电量 − 额度 kW × 当月小时数) × 单价。电表复位或读数缺失时先核实，不盲目计费。"
                   if zh else
                   "Power is read from the rack meter; overage = max(0, kWh − allowance kW × hours in the month) × "
                   "price. Meter resets and gaps are checked before anything is billed.")
    out.append("暂停服务期间照常计费；包月、包年 GPU 故障停机按秒折算抵扣；按小时计费的同一项目各 GPU 时长合并后按开始的小时计；"
               "年价按自然月 1/12 按日折算（2 月 29 日起租的一年期含当年 2 月 1/29 及次年 2 月全月）。"
               if zh else
               "Billing continues while the service is suspended; monthly or yearly GPU rentals are credited for "
               "downtime by the second; hourly GPU time is added up over an item's GPUs and rounded up once to "
               "started hours; a yearly price is billed as 1/12 per calendar month, prorated by day (a one-year term "
               "from 29 February includes 1/29 of that February and all of the next).")
    cats = [f"{r * 100:.0f}%" for r in sorted(set(rates.values()))]
    out.append(("以上价格均不含增值税；税额按项目税目逐行计算并四舍五入到分（" + "、".join(cats) + "）。") if zh else
               ("Prices exclude VAT; tax is computed per line by tax category and rounded half-up to the fen ("
                + ", ".join(cats) + ")."))
    out.append("乙方每月初出具上月对账单，合计金额以人民币大写为准。" if zh else
               "Party B issues a statement for each month at the start of the next; amounts are in RMB.")
    return tuple(out)


def _service_level(db: Database, s, c: Contract, rack_ids: list[int], lang: str) -> str:
    """The contract's own text, else the serving team: the coverage of the customer's region
    decides who serves and the response time (app.signing.serving_team)."""
    if c.service_level and c.service_level.strip():
        return c.service_level.strip()
    from .signing import serving_team

    team = serving_team(db, c.customer_id)
    if team is None:
        return ""
    lvl = ServiceLevel.label(team.service_level, lang)
    if lang == "zh":
        return (f"服务团队：{team.subsidiary_name}（{team.region_name}，{lvl}），"
                f"故障响应时间 {team.response_hours} 小时（7×24）。")
    sub = s.get(Subsidiary, team.subsidiary_id)
    hours = f"{team.response_hours} hour{'s' if team.response_hours != 1 else ''}"
    return f"Served by {sub.name_en or sub.name} ({lvl}): response within {hours} (24×7)."


def contract_doc(db: Database, number: int | str, *, language: str | None = None,
                 today: dt.date | None = None) -> ContractDoc:
    """A contract by number (or id) with its schedule, terms and the annexes.

    Annexes: the elevation of every rack the contract leases or hosts in (from
    app.viewdata.rack_elevation), the GPUs by serial (named or allocated at activation, with the
    server each sits in), and the devices by serial (hosted devices, devices in the leased
    racks, and the servers that carry the contract's GPUs).
    """
    _check_lang(language)
    with db.session() as s:
        c = find_contract(s, number)
        lang = language or c.language or "zh"
        sub = s.get(Subsidiary, c.subsidiary_id)
        cust = s.get(Customer, c.customer_id)
        items = list(c.items)
        rates = tax_rates_on(s, c.start_date)
        rows = tuple(_item_row(s, c, it, rates, lang) for it in items)

        rack_ids: list[int] = []
        for it in items:
            rid = it.rack_id
            if rid is None and it.device_id:
                rid = s.execute(select(Device.rack_id).where(Device.id == it.device_id)).scalar()
            if rid is not None and rid not in rack_ids:
                rack_ids.append(rid)

        item_ids = [it.id for it in items]
        gpu_rows = []
        host_ids: list[int] = []
        if item_ids:
            gq = (select(GpuAsset.serial, GpuModel.name, Device.id, Device.name, GpuAsset.slot, Device.rack_id,
                         Device.position)
                  .join(contract_item_gpu, contract_item_gpu.c.gpu_id == GpuAsset.id)
                  .join(GpuModel, GpuModel.id == GpuAsset.gpu_model_id)
                  .outerjoin(Device, Device.id == GpuAsset.device_id)
                  .where(contract_item_gpu.c.item_id.in_(item_ids))
                  .distinct().order_by(GpuAsset.serial))
            for serial, model, dev_id, dev_name, slot, rid, pos in s.execute(gq):
                host = "—"
                if dev_id is not None:
                    host = f"{dev_name} #{slot}" if slot else dev_name
                    if rid is not None:
                        host += f" · {short_rack(s, rid, False)}" + (f" U{_qty(pos)}" if pos is not None else "")
                    if dev_id not in host_ids:
                        host_ids.append(dev_id)
                gpu_rows.append(GpuRow(serial=serial, model=model, host=host))

        dev_filter = [Device.id.in_([it.device_id for it in items if it.device_id] + host_ids)]
        rack_items = [it.rack_id for it in items if it.kind == ItemKind.RACK and it.rack_id]
        if rack_items:
            dev_filter.append(Device.rack_id.in_(rack_items))
        device_rows = []
        dq = (select(Device.name, Device.serial, Device.asset_tag, DeviceType.manufacturer, DeviceType.model,
                     Device.rack_id, Device.position, DeviceType.u_height)
              .join(DeviceType, DeviceType.id == Device.device_type_id)
              .where(or_(*dev_filter), Device.status != DeviceStatus.DECOMMISSIONING))
        devs = s.execute(dq).all()
        devs.sort(key=lambda r: (rack_path(s, r[5]) if r[5] else "~", -(r[6] or 0), r[0]))
        one_site = len({rack_path(s, r[5]).split("/")[0] for r in devs if r[5]}) <= 1
        for name, serial, tag, maker, model, rid, pos, height in devs:
            if pos is None:
                where = "—"
            else:
                top = Decimal(pos) + Decimal(height) - 1
                where = f"U{_qty(pos)}" if top <= Decimal(pos) else f"U{_qty(pos)}–U{_qty(top)}"
            rack_name = short_rack(s, rid, not one_site) if rid is not None else ""
            device_rows.append(DeviceRow(name=name, serial=serial or tag or "—", model=f"{maker} {model}".strip(),
                                         rack=rack_name, position=where))

        terms = tuple(t.strip() for t in (c.terms or "").splitlines() if t.strip())
        service_level = _service_level(db, s, c, rack_ids, lang)
        region = s.get(Region, sub.region_code) if sub.region_code else None
        sign_place = ""
        if region is not None:
            from .viewdata import coverage_for

            full = coverage_for(db, region.code)
            if lang == "zh":
                sign_place = full.full_name if full is not None else region.name
        title = c.title or ("IDC 及算力服务合同" if lang == "zh" else "IDC and GPU compute services agreement")
        if c.revision and c.revision > 1:
            title += f"（第 {c.revision} 版）" if lang == "zh" else f" (revision {c.revision})"
        status = ContractStatus.label(c.status, lang)
        billing_terms = _billing_terms(items, {it.tax_category: rates.get(it.tax_category, ZERO) for it in items},
                                       lang)
        start, end = c.start_date, c.end_date
        customer = _customer_party(s, cust)
        subsidiary = _subsidiary_party(sub, lang)
        contract_number = c.number
        approval = _approval_line(s, c, lang)
        contract_id = c.id
    from .contract_totals import totals_of_contract
    t = totals_of_contract(db, contract_id)
    sums = ContractSums(monthly=t.monthly, one_off=t.one_off, term_value=t.term_value, vat=t.vat, total=t.total,
                        total_in_words=t.in_words, usage_based=t.usage_based)
    racks = tuple(rack_elevation_doc(db, rid, lang, today) for rid in rack_ids)
    return ContractDoc(number=contract_number, title=title, subsidiary=subsidiary, customer=customer, start=start,
                       end=end, status=status, terms=terms, items=rows, service_level=service_level,
                       billing_terms=billing_terms, racks=racks, gpus=tuple(gpu_rows), devices=tuple(device_rows),
                       language=lang, sign_place=sign_place, approval=approval, sums=sums)


# --------------------------------------------------------------------------- audit
_MAX_VALUE = 90


def _value_text(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, (dict, list)):
        text = orjson.dumps(v).decode()
    else:
        text = str(v)
    text = text.replace("\n", " ")
    return text if len(text) <= _MAX_VALUE else text[:_MAX_VALUE - 1] + "…"


_MAX_LINES = 14


def _loads(text: str | None) -> dict:
    if not text:
        return {}
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        return {"": text}
    return value if isinstance(value, dict) else {"": value}


def changes_text(before: str | None, after: str | None) -> str:
    """One line per changed field: 'field: a → b' (created: '— → b', deleted: 'a → —')."""
    b, a = _loads(before), _loads(after)
    lines = []
    for key in list(b) + [k for k in a if k not in b]:
        old, new = b.get(key), a.get(key)
        if key in b and key in a and old == new:
            continue
        if not b and new is None:  # a new record's empty fields say nothing
            continue
        name = f"{key}: " if key else ""
        if not b:
            lines.append(f"{name}{_value_text(new)}")
        else:
            lines.append(f"{name}{_value_text(old)} → {_value_text(new)}")
    if len(lines) > _MAX_LINES:  # a table row must fit on a page; the full values are in the export
        hidden = len(lines) - (_MAX_LINES - 1)
        lines = lines[:_MAX_LINES - 1] + [f"… (+{hidden} fields / 字段)"]
    return "\n".join(lines)


def _verification_text(result, checkpoint: str | None, lang: str, stretches: list[tuple[int, int]]) -> str:
    zh = lang == "zh"
    if result.ok:
        if not stretches:
            return "期间内无事件，无需校验。" if zh else "No events in the period: nothing to verify."
        where = "、".join(f"第 {a:,} 至第 {b:,} 条" for a, b in stretches) if zh else \
            ", ".join(f"#{a:,}–#{b:,}" for a, b in stretches)
        text = (f"校验通过：本期间所在的审计链区段（{where}，共 {result.count:,} 条事件）完整，且与此前的链相接。"
                if zh else f"Verified: the stretch of the audit chain the period covers (events {where}, "
                f"{result.count:,} events) is intact and links to the chain before it.")
        if checkpoint:
            text += (f" 检查点 {checkpoint} 属于该链；全链校验：idc-console audit verify --expect-head {checkpoint}。"
                     if zh else f" Checkpoint {checkpoint} is part of the chain; to check the whole chain: "
                     f"idc-console audit verify --expect-head {checkpoint}.")
        return text
    return (f"校验失败：{result.problem}（最后完好的事件 {result.head}）" if zh else
            f"VERIFICATION FAILED: {result.problem} (last good event {result.head})")


# A PDF lists at most this many events (about 2,600 landscape pages, ~19 events a page measured on
# the demo data): the detail of a larger period is left out and the report says how many pages it
# would take; the summary still counts every event and the CSV export is always complete. The cap
# also bounds memory: ReportLab holds every page until it writes the file (docs/performance.md).
MAX_PDF_EVENTS = 50_000
EVENTS_PER_PAGE = 19


def _local_day(dialect: str):
    """The event's date in Asia/Shanghai, in SQL (ts is stored as naive UTC)."""
    if dialect == "postgresql":
        return func.date(func.timezone(SHANGHAI.key, func.timezone("UTC", AuditEvent.ts)))
    # SQLite has no zone rules; Asia/Shanghai has been UTC+8 all year since 1991.
    return func.date(AuditEvent.ts, "+8 hours")


# Events of the period further apart in the chain than this are verified as separate stretches
# (each with its link to the event before it) rather than re-hashing everything between them.
STRETCH_GAP = 1000


def _stretches(s, period: list) -> list[tuple[int, int]]:
    """The seq ranges [first, last] holding the period's events, split where they are over STRETCH_GAP
    apart. Normally one: events are appended in time order. Events appended with an earlier time
    (the large demo's history after its first events) make more."""
    seq = AuditEvent.seq
    sub = select(seq.label("seq"), func.lag(seq).over(order_by=seq).label("prev"),
                 func.lead(seq).over(order_by=seq).label("next")).where(*period).subquery()
    rows = s.execute(select(sub.c.seq, sub.c.prev, sub.c.next).where(or_(
        sub.c.prev.is_(None), sub.c.seq - sub.c.prev > STRETCH_GAP,
        sub.c.next.is_(None), sub.c.next - sub.c.seq > STRETCH_GAP)).order_by(sub.c.seq)).all()
    out, start = [], None
    for seq_, prev, nxt in rows:
        if prev is None or seq_ - prev > STRETCH_GAP:
            start = seq_
        if nxt is None or nxt - seq_ > STRETCH_GAP:
            out.append((start, seq_))
    return out


def audit_report_doc(db: Database, flt: AuditFilter, *, language: str = "zh", subsidiary_code: str | None = None,
                     generated_at: dt.datetime | None = None,
                     max_events: int | None = None) -> AuditReportDoc:
    """Audit report for `flt`: summary (actor and action, object type, day), the events, verification
    and checkpoint.

    The checkpoint is SEQ:HASH of the last event of the period (app.audit_query.last_seq_hash),
    taken first; events appended while the report is built are left out, so the summary, the
    events and the checkpoint describe the same chain prefix. The summary is counted by the
    database; the verification covers the period's stretch of the chain, its link to the event
    before it and the checkpoint (app.audit.verify_audit_range), not the whole chain. Over
    `max_events` (MAX_PDF_EVENTS) events the detail is left out and the report says how many
    pages it would take.
    """
    lang = _check_lang(language) or "zh"
    if flt.date_from and flt.date_to and flt.date_to < flt.date_from:
        raise ValidationError({"to": "the period ends before it starts"})
    cap = MAX_PDF_EVENTS if max_events is None else max_events
    checkpoint = last_seq_hash(db, flt)
    cp_seq = int(checkpoint.split(":", 1)[0]) if checkpoint else 0
    cond = [AuditEvent.seq <= cp_seq]
    if flt.where() is not None:
        cond.append(flt.where())
    with db.session() as s:
        dialect = s.get_bind().dialect.name
        period = [AuditEvent.seq <= cp_seq]
        if flt.date_from:
            period.append(AuditEvent.ts >= local_midnight(flt.date_from))
        if flt.date_to:
            period.append(AuditEvent.ts < local_midnight(flt.date_to + dt.timedelta(days=1)))
        stretches = _stretches(s, period) if cp_seq else []
        if cp_seq and not any(a <= cp_seq <= b for a, b in stretches):
            stretches.append((cp_seq, cp_seq))  # the checkpoint itself, when the period's last event is not
        results = [verify_audit_range(s, a, b, expect_head=checkpoint if b == cp_seq else None)
                   for a, b in stretches]
        result = next((r for r in results if not r.ok), None) or VerifyResult(
            True, sum(r.count for r in results), results[-1].head if results else None)
        letterhead = _letterhead(s, subsidiary_code, lang)
        counts = s.execute(select(AuditEvent.actor_login, AuditEvent.action, func.count())
                           .where(*cond).group_by(AuditEvent.actor_login, AuditEvent.action)
                           .order_by(AuditEvent.actor_login, AuditEvent.action)).all()
        total = sum(n for _, _, n in counts)
        names = dict(s.execute(select(AuditEvent.actor_login, func.min(AuditEvent.actor_name))
                               .where(*cond).group_by(AuditEvent.actor_login)).all()) if counts else {}
        by_object = s.execute(select(AuditEvent.object_type, func.count()).where(*cond)
                              .group_by(AuditEvent.object_type).order_by(AuditEvent.object_type)).all()
        day = _local_day(dialect)
        by_day = s.execute(select(day, func.count()).where(*cond).group_by(day).order_by(day)).all()
    labels: dict[str, str] = {}

    def act(action: str, object_type: str | None = None) -> str:
        key = f"{action} {object_type or ''}"
        if key not in labels:
            labels[key] = action_label(action, lang, object_type)
        return labels[key]

    rows: list[AuditRow] = []
    if total <= cap:
        objects: dict[str, str] = {}
        outcomes: dict[str, str] = {}
        q = (select(AuditEvent.seq, AuditEvent.ts, AuditEvent.actor_login, AuditEvent.actor_name,
                    AuditEvent.action, AuditEvent.object_type, AuditEvent.object_id, AuditEvent.object_label,
                    AuditEvent.before, AuditEvent.after, AuditEvent.reason, AuditEvent.outcome)
             .where(*cond).order_by(AuditEvent.seq))
        with db.engine.connect() as conn:
            result_rows = conn.execution_options(yield_per=5000).execute(q)
            for (seq, ts, login, name, action, obj_type, obj_id, label, before, after, reason,
                 outcome) in result_rows:
                if obj_type not in objects:
                    name_of = audit_object_name(obj_type, lang)
                    objects[obj_type] = name_of[:1].upper() + name_of[1:]    # "Contract FZ-2026-0001"
                if outcome not in outcomes:
                    outcomes[outcome] = Outcome.label(outcome, lang)
                obj = label or (f"#{obj_id}" if obj_id else "")
                name_ = act(action, obj_type)
                rows.append(AuditRow(
                    seq=seq, time_local=to_local(ts), actor=name if name == login else f"{name}\n{login}",
                    action=f"{name_}\n{action}" if name_ != action else action,
                    object=f"{objects[obj_type]} {obj}".strip(), changes=changes_text(before, after),
                    reason=reason or "", outcome=outcomes[outcome]))
    summary = tuple(AuditSummaryRow(actor=f"{login} {names[login]}" if names.get(login, login) != login else login,
                                    action=f"{action} {act(action)}" if act(action) != action else action, count=n)
                    for login, action, n in counts)
    days = [dt.date.fromisoformat(str(d)) if not isinstance(d, dt.date) else d for d, _ in by_day]
    today = now_local().date()
    period_from = flt.date_from or (days[0] if days else today)
    period_to = flt.date_to or (days[-1] if days else today)
    filters = []
    if flt.actor_login:
        filters.append(("操作人 = " if lang == "zh" else "actor = ") + flt.actor_login)
    if flt.action:
        filters.append(("操作 = " if lang == "zh" else "action = ") + flt.action
                       + ("*" if flt.action.endswith(".") else ""))
    if flt.object_type:
        filters.append(("对象 = " if lang == "zh" else "object = ") + flt.object_type)
    filters_text = "；".join(filters) if lang == "zh" else "; ".join(filters)
    if not filters_text:
        filters_text = "全部事件（时间按北京时间）" if lang == "zh" else "all events (times in Asia/Shanghai)"
    else:
        filters_text += "（时间按北京时间）" if lang == "zh" else " (times in Asia/Shanghai)"
    return AuditReportDoc(
        title="审计报告" if lang == "zh" else "Audit report", period_from=period_from, period_to=period_to,
        filters=filters_text, generated_at=generated_at or now_local(), summary=summary, events=tuple(rows),
        verification=_verification_text(result, checkpoint, lang, stretches),
        checkpoint=checkpoint or ("（期间内无事件）" if lang == "zh" else "(no events in the period)"),
        subsidiary=letterhead, number=f"AUDIT-{period_from:%Y%m%d}-{period_to:%Y%m%d}", language=lang,
        by_object=tuple((f"{t} {audit_object_name(t, lang)}" if audit_object_name(t, lang) != t else t, n)
                        for t, n in by_object),
        by_day=tuple((f"{d:%Y-%m-%d}", n) for d, (_, n) in zip(days, by_day)),
        total_events=total, omitted_pages=0 if total <= cap else -(-total // EVENTS_PER_PAGE))


# --------------------------------------------------------------------------- capacity
def capacity_doc(db: Database, site_code: str, *, language: str = "zh") -> CapacityDoc:
    """Per site: every rack (decommissioned ones left out) with units and power used, and GPUs by state.

    Units and power follow app.viewdata.room_layout (mounted devices' height; typical else maximum
    watts of devices not being decommissioned). GPUs count where their server is mounted.
    """
    from .viewdata import room_layout

    lang = _check_lang(language) or "zh"
    with db.session() as s:
        site = s.execute(select(Site).where(Site.code == str(site_code).strip())).scalar_one_or_none()
        if site is None:
            codes = ", ".join(s.execute(select(Site.code).order_by(Site.code)).scalars())
            raise NotFound(f"there is no site {site_code}; the sites are {codes or '(none)'}")
        room_ids = list(s.execute(select(Room.id).where(Room.site_id == site.id).order_by(Room.name)).scalars())
        gpu_rows = s.execute(
            select(Device.rack_id, GpuAsset.state, func.count(GpuAsset.id))
            .join(Device, Device.id == GpuAsset.device_id).join(Rack, Rack.id == Device.rack_id)
            .join(Room, Room.id == Rack.room_id).where(Room.site_id == site.id)
            .group_by(Device.rack_id, GpuAsset.state)).all()
        sub = _subsidiary_party(site.subsidiary, lang)
        site_label = f"{site.code} {site.name}"
        site_code_ = site.code
    gpus: dict[int, dict[str, int]] = defaultdict(dict)
    present: set[str] = set()
    for rack_id, state, n in gpu_rows:
        gpus[rack_id][state] = int(n)
        present.add(state)
    states = [st for st in GpuState.values() if st in present]
    rows = []
    for room_id in room_ids:
        layout = room_layout(db, room_id)
        for r in sorted(layout.racks, key=lambda r: r.name):
            if r.status == RackStatus.DECOMMISSIONED:
                continue
            by_state = {GpuState.label(st, lang): gpus[r.id].get(st, 0) for st in states}
            rows.append(CapacityRow(room=layout.name, rack=r.name, units_used=_units(r.used_units),
                                    units_total=r.u_height, power_used_kw=r.typical_draw_kw,
                                    power_capacity_kw=r.power_capacity_kw, gpus_by_state=by_state,
                                    leased_u=r.leased_u, reserved_u=r.reserved_u, free_u=r.free_u))
    return CapacityDoc(site=site_label, rows=tuple(rows), generated_at=now_local(),
                       gpu_states=tuple(GpuState.label(st, lang) for st in states), subsidiary=sub,
                       number=f"CAP-{site_code_}-{now_local():%Y%m%d}", language=lang)


# --------------------------------------------------------------------------- fleet
def months_elapsed(start: dt.date, today: dt.date) -> int:
    """Whole months from `start` to `today` (a month counts once its day-of-month is reached)."""
    months = (today.year - start.year) * 12 + (today.month - start.month)
    if today.day < start.day:
        months -= 1
    return max(0, months)


def book_value(cost: Decimal | None, purchased: dt.date | None, months: int, today: dt.date) -> Decimal:
    """Straight-line: cost × (months left ÷ depreciation months), to the fen; no cost, no value."""
    if cost is None:
        return ZERO
    if purchased is None or purchased > today:
        return _fen(cost)
    used = min(months_elapsed(purchased, today), months)
    return _fen(Decimal(cost) * (months - used) / months)


def _month_back(day: dt.date, months: int) -> str:
    y, m = divmod(day.year * 12 + day.month - 1 - months, 12)
    return f"{y:04d}-{m + 1:02d}"


def revenue_by_model(db: Database, today: dt.date, months: int = 12) -> dict[str, Decimal]:
    """Net revenue (before tax) of GPU items on issued statements and credit notes, per GPU model name,
    for the `months` billing periods ending with the current month."""
    first = _month_back(today, months - 1)
    last = f"{today.year:04d}-{today.month:02d}"
    with db.session() as s:
        rows = s.execute(
            select(ContractItem.id, ContractItem.gpu_model_id, func.sum(StatementLine.amount))
            .join(StatementLine, StatementLine.contract_item_id == ContractItem.id)
            .join(Statement, Statement.id == StatementLine.statement_id)
            .where(Statement.status == StatementStatus.ISSUED, ContractItem.kind == ItemKind.GPU,
                   StatementLine.period >= first, StatementLine.period <= last)
            .group_by(ContractItem.id, ContractItem.gpu_model_id)).all()
        names = dict(s.execute(select(GpuModel.id, GpuModel.name)).all())
        out: dict[str, Decimal] = defaultdict(lambda: ZERO)
        for item_id, model_id, amount in rows:
            amount = Decimal(amount or 0)
            if model_id is not None:
                out[names[model_id]] += amount
                continue
            # named GPUs of several models: share the item's revenue by GPU count
            mix = s.execute(select(GpuAsset.gpu_model_id, func.count())
                            .join(contract_item_gpu, contract_item_gpu.c.gpu_id == GpuAsset.id)
                            .where(contract_item_gpu.c.item_id == item_id)
                            .group_by(GpuAsset.gpu_model_id)).all()
            total = sum(n for _m, n in mix)
            for m, n in mix:
                out[names[m]] += amount * n / total
    return {k: _fen(v) for k, v in out.items()}


def fleet_doc(db: Database, *, language: str = "zh", today: dt.date | None = None,
              subsidiary_code: str | None = None) -> FleetDoc:
    """GPUs by model and state, book value today, and GPU revenue billed over the last 12 months.

    Book value is straight-line over each GPU's depreciation months from its purchase cost;
    retired GPUs are written off (0). Revenue is before tax, credit notes subtracted.
    """
    lang = _check_lang(language) or "zh"
    today = today or now_local().date()
    with db.session() as s:
        gpus = s.execute(select(GpuModel.name, GpuAsset.state, GpuAsset.purchase_cost, GpuAsset.purchase_date,
                                GpuAsset.depreciation_months)
                         .join(GpuModel, GpuModel.id == GpuAsset.gpu_model_id)).all()
        letterhead = _letterhead(s, subsidiary_code, lang)
    counts: dict[str, Counter] = defaultdict(Counter)
    value: dict[str, Decimal] = defaultdict(lambda: ZERO)
    present: set[str] = set()
    for model, state, cost, bought, months in gpus:
        counts[model][state] += 1
        present.add(state)
        if state != GpuState.RETIRED:
            value[model] += book_value(cost, bought, int(months or 36), today)
    revenue = revenue_by_model(db, today)
    states = [st for st in GpuState.values() if st in present]
    rows = tuple(
        FleetRow(model=m, counts={GpuState.label(st, lang): counts[m].get(st, 0) for st in states},
                 book_value=_fen(value.get(m, ZERO)), revenue_12m=revenue.get(m, ZERO))
        for m in sorted(set(counts) | set(revenue)))
    title = "GPU 资产报告" if lang == "zh" else "GPU fleet report"
    title += f"（截至 {today}）" if lang == "zh" else f" as of {today}"
    return FleetDoc(rows=rows, generated_at=now_local(), states=tuple(GpuState.label(st, lang) for st in states),
                    subsidiary=letterhead, number=f"FLEET-{today:%Y%m%d}", language=lang, title=title)


# --------------------------------------------------------------------------- render and record
def pdf_font_path(font_path: str | os.PathLike | None = None) -> str | None:
    """The font to embed: the argument (the console's setting), else $IDC_PDF_FONT, else found by reports.fonts."""
    if font_path:
        return str(font_path)
    return os.environ.get(FONT_ENV) or None


DOCUMENT_KINDS = ("statement", "contract", "audit", "rack", "capacity", "fleet")


@dataclass(frozen=True)
class Printed:
    kind: str
    what: str  # the document's number or subject, as recorded in the audit trail
    rows: int
    result: RenderResult
    checkpoint: str = ""  # audit reports only
    omitted_pages: int = 0  # audit reports only: the detail was left out, it would take this many pages

    @property
    def path(self) -> Path:
        return self.result.path

    @property
    def pages(self) -> int:
        return self.result.pages


def build_document(db: Database, kind: str, key: Any = None, *, language: str | None = None):
    """The dataclass for `kind` (see DOCUMENT_KINDS); `key` is the number, AuditFilter, rack or site code."""
    _check_lang(language)
    if kind == "statement":
        return statement_doc(db, key, language=language)
    if kind == "contract":
        return contract_doc(db, key, language=language)
    if kind == "audit":
        return audit_report_doc(db, key if isinstance(key, AuditFilter) else AuditFilter(), language=language or "zh")
    if kind == "rack":
        return rack_sheet_doc(db, key, language=language or "zh")
    if kind == "capacity":
        return capacity_doc(db, key, language=language or "zh")
    if kind == "fleet":
        return fleet_doc(db, language=language or "zh")
    raise ValidationError({"kind": f"unknown document {kind!r}; one of {', '.join(DOCUMENT_KINDS)}"})


def render_document(doc, path: str | os.PathLike, *, font_path: str | os.PathLike | None = None,
                    style: dict | None = None) -> RenderResult:
    import reports
    from reports import FontNotFoundError

    renderer = {
        StatementDoc: reports.render_statement, ContractDoc: reports.render_contract,
        AuditReportDoc: reports.render_audit_report, RackSheetDoc: reports.render_rack_sheet,
        CapacityDoc: reports.render_capacity, FleetDoc: reports.render_fleet,
    }[type(doc)]
    try:
        return renderer(doc, path, style=style, font_path=pdf_font_path(font_path))
    except FontNotFoundError as exc:
        raise DomainError(str(exc)) from None
    except OSError as exc:
        raise DomainError(f"cannot write {path}: {exc.strerror or exc}") from None


def _subject(kind: str, doc) -> tuple[str, int]:
    if isinstance(doc, StatementDoc):
        return doc.number, len(doc.lines)
    if isinstance(doc, ContractDoc):
        return doc.number, len(doc.items)
    if isinstance(doc, AuditReportDoc):
        return (f"{doc.period_from} – {doc.period_to} {doc.filters} @ {doc.checkpoint}",
                len(doc.events) if doc.total_events is None else doc.total_events)
    if isinstance(doc, RackSheetDoc):
        return f"{doc.rack.site}/{doc.rack.room}/{doc.rack.name}", len(doc.rack.devices)
    if isinstance(doc, CapacityDoc):
        return doc.site, len(doc.rows)
    return doc.number or kind, len(doc.rows)


def print_document(db: Database, actor: Actor, kind: str, key: Any, path: str | os.PathLike, *,
                   language: str | None = None, font_path: str | os.PathLike | None = None,
                   style: dict | None = None) -> Printed:
    """Build, render to `path` and record a ``print`` audit event; the one call the CLI and the console use."""
    require(actor, "print")
    doc = build_document(db, kind, key, language=language)
    result = render_document(doc, path, font_path=font_path, style=style)
    what, rows = _subject(kind, doc)
    record_export(db, actor, kind if kind != "audit" else "audit", what[:255], rows, result.path, "pdf",
                  action="print")
    checkpoint = doc.checkpoint if isinstance(doc, AuditReportDoc) and ":" in doc.checkpoint else ""
    omitted = doc.omitted_pages if isinstance(doc, AuditReportDoc) else 0
    return Printed(kind, what, rows, result, checkpoint, omitted)


def print_statement(db, actor, number, path, **kw) -> Printed:
    return print_document(db, actor, "statement", number, path, **kw)


def print_contract(db, actor, number, path, **kw) -> Printed:
    return print_document(db, actor, "contract", number, path, **kw)


def print_audit_report(db, actor, flt: AuditFilter, path, **kw) -> Printed:
    return print_document(db, actor, "audit", flt, path, **kw)


def print_rack_sheet(db, actor, rack, path, **kw) -> Printed:
    return print_document(db, actor, "rack", rack, path, **kw)


def print_capacity(db, actor, site_code, path, **kw) -> Printed:
    return print_document(db, actor, "capacity", site_code, path, **kw)


def print_fleet(db, actor, path, **kw) -> Printed:
    return print_document(db, actor, "fleet", None, path, **kw)


__all__ = [
    "statement_doc", "contract_doc", "audit_report_doc", "rack_sheet_doc", "capacity_doc", "fleet_doc",
    "rack_elevation_doc", "find_rack", "rack_path", "book_value", "months_elapsed", "revenue_by_model",
    "changes_text", "action_label", "period_label", "pdf_font_path", "build_document", "render_document",
    "print_document", "print_statement", "print_contract", "print_audit_report", "print_rack_sheet",
    "print_capacity", "print_fleet", "Printed", "DOCUMENT_KINDS",
]
