"""The contract (合同) with its items, terms and annexes."""
from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal

from sqlalchemy import or_, select

from app.documents.common import _check_lang, _customer_party, _subsidiary_party
from app.documents.racks import rack_elevation_doc, rack_path, short_rack
from app.domain.money import format_cny
from app.domain.rating import bills_energy, rate_of
from app.domain.wording import alternate, amount_words, free_text
from app.services.contracts import find_contract
from app.services.item_names import ItemObjects, load_item_objects, needs_english_name
from app.services.reference import tax_rates_on
from app.store.db import Database
from models import (
    Contract,
    ContractItem,
    Customer,
    Device,
    DeviceType,
    GpuAsset,
    GpuModel,
    Region,
    Subsidiary,
    contract_item_gpu,
)
from models.choices import ELECTRICITY, ContractStatus, DeviceStatus, ItemKind, PriceUnit, ServiceLevel
from reports import ContractDoc, ContractItemRow, ContractSums, DeviceRow, GpuRow, Reservation


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


def _rate(r) -> str:
    return f"{Decimal(r) * 100:.0f}%"


def _qty(d) -> str:
    d = Decimal(d)
    return f"{int(d):,}" if d == d.to_integral_value() else f"{d.normalize():f}"


def _item_row(s, c: Contract, it: ContractItem, rates: dict[str, Decimal], lang: str,
              objects: ItemObjects) -> ContractItemRow:
    zh = lang == "zh"
    notes: list[str] = [ItemKind.label(it.kind, lang)]
    if it.rack_id:
        # English: the codes (site, the room's first word, rack), not a room's Chinese name
        where = rack_path(s, it.rack_id) if zh else short_rack(s, it.rack_id)
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
    if (it.power_allowance_kw is not None and it.kwh_price is not None) or \
            (it.kind == ItemKind.POWER and it.kwh_price is not None and it.price_unit != PriceUnit.KWH):
        # metered energy is taxed as electricity (app.domain.rating); no rate: refused, as billing does
        energy_rate = _rate(rate_of(rates, ELECTRICITY, c.start_date))
    if it.power_allowance_kw is not None and it.kwh_price is not None:
        notes.append(f"电力额度 {Decimal(it.power_allowance_kw).normalize():f} kW，超出部分 {_money(it.kwh_price)}/kWh"
                     f"（按售电计税 {energy_rate}）"
                     if zh else f"power allowance {Decimal(it.power_allowance_kw).normalize():f} kW, "
                                f"{_money(it.kwh_price)}/kWh beyond (VAT {energy_rate}, as electricity)")
    elif it.kind == ItemKind.POWER and it.kwh_price is not None and it.price_unit != PriceUnit.KWH:
        notes.append(f"计量电量 {_money(it.kwh_price)}/kWh（按售电计税 {energy_rate}）" if zh else
                     f"metered energy {_money(it.kwh_price)}/kWh (VAT {energy_rate}, as electricity)")
    if it.price_unit == PriceUnit.HYBRID:
        notes.append(f"含 {_qty(it.included_hours or 0)} GPU时，超出 {_money(it.hourly_rate or 0)}/GPU时"
                     if zh else f"includes {_qty(it.included_hours or 0)} GPU-hours, "
                                f"{_money(it.hourly_rate or 0)}/GPU-hour beyond")
    if it.price_unit == PriceUnit.YEAR:
        notes.append("年价，按 1/12 逐月计费" if zh else "yearly price, billed monthly as 1/12")
    if it.kind == ItemKind.XCONNECT and it.setup_price:
        notes.append(f"安装费每条 {_money(it.setup_price)}（一次性）" if zh else
                     f"installation {_money(it.setup_price)} each (one-off)")
    if it.service_end and it.service_end < c.end_date:
        notes.append(f"服务至 {it.service_end}" if zh else f"service until {it.service_end}")
    qty = Decimal(it.mbps) if it.price_unit == PriceUnit.MBPS_MONTH and it.mbps else Decimal(it.quantity)
    price = Decimal(it.unit_price)
    if it.kind == ItemKind.DISCOUNT:
        price = -price
    return ContractItemRow(description=objects.name(it, c.language).of(lang), quantity=qty, unit=PriceUnit.unit(it.price_unit, lang),
                           unit_price=price,
                           tax_rate=rate_of(rates, ELECTRICITY if it.price_unit == PriceUnit.KWH else it.tax_category,
                                            c.start_date),
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
    if ELECTRICITY in rates:
        out.append(f"计量电量（超额用电、按 kWh 计价的电力）为转售电，按售电计征增值税 {_rate(rates[ELECTRICITY])}；"
                   "租金所含电力属于 IDC 服务，按该项目税目计税。" if zh else
                   f"Metered energy (kWh beyond an allowance, power priced per kWh) is resold electricity, taxed as "
                   f"the sale of electricity at {_rate(rates[ELECTRICITY])}; power included in a rent is part of "
                   "the IDC service and taxed with it.")
    if any(it.kind == ItemKind.XCONNECT for it in items):  # app/services/xconnects.py bills them
        out.append("交叉连接：每条自安装完成日起按月计费、按日折算，至拆除日止；安装费每条一次性收取，计入安装当月。" if zh else
                   "Cross-connects: each is billed monthly from its installation date to its disconnection date, "
                   "prorated by day; the installation price is charged once per cross-connect, in the month it "
                   "is installed.")
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
    decides who serves and the response time (app.services.contracts.signing.serving_team).

    The contract's text is printed as typed unless it is Chinese and the print English; then,
    as when there is none, the serving team's level and response time say it in English. A
    stored service-level code (the contract form's choice) is printed as that level's label."""
    own = (c.service_level or "").strip()
    from app.services.contracts.signing import serving_team

    team = serving_team(db, c.customer_id)
    if own in ServiceLevel.values():
        level = own
    elif free_text(own, lang):
        return own
    elif team is not None:
        level = team.service_level
    else:
        return ""
    lvl = ServiceLevel.label(level, lang)
    if team is None:
        return f"服务级别：{lvl}。" if lang == "zh" else f"Service level: {lvl}."
    if lang == "zh":
        return (f"服务团队：{team.subsidiary_name}（{team.region_name}，{lvl}），"
                f"故障响应时间 {team.response_hours} 小时（7×24）。")
    sub = s.get(Subsidiary, team.subsidiary_id)
    hours = f"{team.response_hours} hour{'s' if team.response_hours != 1 else ''}"
    return f"Served by {alternate(sub, 'name', lang)} ({lvl}): response within {hours} (24×7)."


def _terms(c: Contract, lang: str) -> tuple[str, ...]:
    """The contract's own terms, one a line, as typed; an English print of terms typed in Chinese
    says they are kept in Chinese instead of printing them (nothing of the program translates them)."""
    lines = [t.strip() for t in (c.terms or "").splitlines() if t.strip()]
    shown = [t for t in lines if free_text(t, lang)]
    kept = len(lines) - len(shown)
    if kept:
        which = (("The terms of this contract are" if kept > 1 else "The term of this contract is") if not shown else
                 (f"{kept} further terms are" if kept > 1 else "A further term is"))
        shown.append(f"{which} written in Chinese: see the Chinese copy of the contract, which governs.")
    return tuple(shown)


def _rack_ids(s, items) -> list[int]:
    """The racks the contract leases or hosts in, in the items' order (an annex each)."""
    rack_ids: list[int] = []
    for it in items:
        rid = it.rack_id
        if rid is None and it.device_id:
            rid = s.execute(select(Device.rack_id).where(Device.id == it.device_id)).scalar()
        if rid is not None and rid not in rack_ids:
            rack_ids.append(rid)
    return rack_ids


def _gpu_rows(s, items) -> tuple[list[GpuRow], list[int]]:
    """The GPUs by serial (named, or allocated at activation) with the server each sits in; and
    those servers' ids (the devices annex lists them)."""
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
    return gpu_rows, host_ids


def _device_rows(s, items, host_ids: list[int]) -> list[DeviceRow]:
    """The devices by serial: hosted devices, devices in the leased racks, the GPUs' servers."""
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
    return device_rows


def _sign_place(db: Database, region, lang: str) -> str:
    """Where a Chinese contract is signed: the full name of the subsidiary's region."""
    sign_place = ""
    if region is not None:
        from app.read.viewdata import coverage_for

        full = coverage_for(db, region.code)
        if lang == "zh":
            sign_place = full.full_name if full is not None else region.name
    return sign_place


def _title(c: Contract, lang: str) -> str:
    """The contract's title as typed (if in the print's language), else the agreement's, with its revision."""
    title = free_text(c.title, lang) or ("IDC 及算力服务合同" if lang == "zh" else "IDC and GPU compute services agreement")
    if c.revision and c.revision > 1:
        title += f"（第 {c.revision} 版）" if lang == "zh" else f" (revision {c.revision})"
    return title


def _leased(items, customer_name: str) -> dict[int, list]:
    """The U ranges this contract leases, per rack (a whole-rack lease has none: the rack is the lease)."""
    leased: dict[int, list] = {}
    for it in items:
        if it.rack_id and it.u_from and it.u_to:
            leased.setdefault(it.rack_id, []).append(
                Reservation(customer=customer_name, face=it.face or "both", u_from=it.u_from, u_to=it.u_to))
    return leased


def contract_doc(db: Database, number: int | str, *, language: str | None = None,
                 today: dt.date | None = None) -> ContractDoc:
    """A contract by number (or id) with its schedule, terms and the annexes.

    Annexes: the elevation of every rack the contract leases or hosts in (from
    app.read.viewdata.rack_elevation), the GPUs by serial (named or allocated at activation, with the
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
        objects = load_item_objects(s, [it for it in items if needs_english_name(it, c.language)]) \
            if lang == "en" else ItemObjects()
        rows = tuple(_item_row(s, c, it, rates, lang, objects) for it in items)

        rack_ids = _rack_ids(s, items)
        gpu_rows, host_ids = _gpu_rows(s, items)
        device_rows = _device_rows(s, items, host_ids)

        terms = _terms(c, lang)
        service_level = _service_level(db, s, c, rack_ids, lang)
        region = s.get(Region, sub.region_code) if sub.region_code else None
        sign_place = _sign_place(db, region, lang)
        title = _title(c, lang)
        status = ContractStatus.label(c.status, lang)
        used = {it.tax_category for it in items if it.price_unit != PriceUnit.KWH}
        used |= {ELECTRICITY} if any(bills_energy(it) for it in items) else set()
        billing_terms = _billing_terms(items, {cat: rate_of(rates, cat, c.start_date) for cat in used}, lang)
        start, end = c.start_date, c.end_date
        customer = _customer_party(s, cust, lang)
        subsidiary = _subsidiary_party(sub, lang)
        contract_number = c.number
        approval = _approval_line(s, c, lang)
        contract_id = c.id
        draft = c.status in (ContractStatus.DRAFT, ContractStatus.PENDING)
        leased = _leased(items, customer.name)
    from app.services.contracts.totals import totals_of_contract
    t = totals_of_contract(db, contract_id)
    sums = ContractSums(monthly=t.monthly, one_off=t.one_off, term_value=t.term_value, vat=t.vat, total=t.total,
                        total_in_words=amount_words(t.total, lang), usage_based=t.usage_based)
    racks = tuple(dataclasses.replace(rack_elevation_doc(db, rid, lang, today), leases=tuple(leased.get(rid, ())))
                  for rid in rack_ids)
    return ContractDoc(number=contract_number, title=title, subsidiary=subsidiary, customer=customer, start=start,
                       end=end, status=status, terms=terms, items=rows, service_level=service_level,
                       billing_terms=billing_terms, racks=racks, gpus=tuple(gpu_rows), devices=tuple(device_rows),
                       language=lang, sign_place=sign_place, approval=approval, sums=sums, draft=draft)
