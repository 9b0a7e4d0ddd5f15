"""Computing a contract item's lines for one period: THE extension point for a new kind of charge.

`item_charges(s, contract, item, ctx)` dispatches on the item's kind and price unit to one small
function per kind of charge (`_fee`, `_gpu_usage`, `_gpu_monthly_credit`, `_hybrid`, `_power`),
each returning `app.domain.rating.Charge`s (quantity × unit price = amount, see docs/billing.md). A new
kind of charge is one such function plus one branch in `item_charges`; if it needs data beyond
the contract item, load it for the whole period in `_load_data` (set-based, keyed in `_Data`),
never per item. Nothing here writes.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from app.domain import rating as B
from app.domain.money import format_amount, format_price, format_quantity
from app.domain.wording import Text, free_text
from app.services.billing.statements import _chunks, _fmt_t
from app.services.item_names import ItemObjects, load_item_objects, needs_english_name
from app.services.reference import tax_rates_on
from models import (Contract, ContractItem, Device, Downtime, GpuAsset, GpuLease, GpuNode, MeterReading, NodeSwap,
                    Rack)
from models.choices import ItemKind, LineUnit, PriceUnit

# --- computing the lines of one contract item ---------------------------------------------

@dataclass
class _Ctx:
    period: B.Period
    as_of: dt.datetime
    lang: str
    warnings: list[str] = field(default_factory=list)
    held: int = 0
    data: "_Data | None" = None  # everything the period needs, loaded up front by _load_data
    names: dict[int, Text] = field(default_factory=dict)  # item id -> its name in both languages
    reader: str | None = None    # the language the run's warnings are for (None: each contract's)

    def t(self, zh: str, en: str) -> str:
        """A warning's words: in the reader's language when the run was asked for one (the console
        asks in its own), else the contract's. A line's texts are `Text`s, both languages."""
        return en if (self.reader or self.lang) == "en" else zh

    def unit(self, key: str) -> str:
        """A line's unit as stored: the word of the contract's language (LineUnit.show translates)."""
        return LineUnit.word(key, self.lang)

    def name(self, it: ContractItem) -> Text:
        """The item's name in both languages (app/services/item_names.py), made once per item."""
        named = self.names.get(it.id)
        if named is None:
            objects = self.data.objects if self.data is not None else ItemObjects()
            named = self.names[it.id] = objects.name(it, self.lang)
        return named


def _money(d: Decimal) -> str:
    return format_amount(d)


def _price(d: Decimal) -> str:
    return format_price(d)


def handover_date(it: ContractItem) -> dt.date | None:
    """The Shanghai calendar day of the item's handover (None: not handed over, nothing billed)."""
    return B.local_date(it.handover_at) if it.handover_at is not None else None


def billing_start(c: Contract, it: ContractItem) -> dt.date | None:
    """The first day an item is billed: its planned start, the contract's start and its handover
    (as a Shanghai date), whichever is latest; None until it is handed over."""
    handed = handover_date(it)
    if handed is None:
        return None
    return max(it.service_start or c.start_date, c.start_date, handed)


def _item_window(c: Contract, it: ContractItem, p: B.Period) -> tuple[dt.date | None, dt.date | None, int]:
    start = billing_start(c, it)
    if start is None:
        return None, None, 0
    end = min(it.service_end or c.end_date, c.end_date)
    return B.active_days(p, start, end)


def _fee(c: Contract, it: ContractItem, x: _Ctx) -> list[B.Charge]:
    """Monthly (or yearly) fees prorated by day; one-off charges in their handover month.

    Each line multiplies out: quantity = units × active days ÷ days in the month (÷ 12 for a
    yearly price), written with the decimals that give the amount; unit price = the contract's.
    A discount is a negative quantity at its (positive) price.
    """
    p = x.period
    sign = -1 if it.kind == ItemKind.DISCOUNT else 1
    if it.price_unit == PriceUnit.ONE_OFF:
        when = billing_start(c, it)
        if when is None or B.Period.containing(when) != p or (it.service_end and it.service_end < when):
            return []
        qty, amount = B.line_figures(sign * it.quantity, it.unit_price)
        name = x.name(it)
        desc = Text(f"{name.zh} · 一次性 {when}", f"{name.en} · one-off {when}")
        return [B.Charge(it.id, "fee", desc, qty, x.unit(LineUnit.ONCE), it.unit_price, amount, it.tax_category,
                         note=Text.same(f"{_price(it.unit_price)} × {format_quantity(it.quantity)} = {_money(abs(amount))}"))]
    units = Decimal(it.mbps) if it.price_unit == PriceUnit.MBPS_MONTH and it.mbps else it.quantity
    yearly = it.price_unit == PriceUnit.YEAR
    first, last, days = _item_window(c, it, p)
    if not days:
        return []
    share = B.month_share(units, days, p.days, yearly)
    qty, amount = B.line_figures(sign * share, it.unit_price)
    price = _price(it.unit_price)
    name = x.name(it)
    desc = Text(f"{name.zh} · {first} 至 {last}", f"{name.en} · {first} to {last}")
    if yearly:
        desc += Text(f" · 年价 {price} 按 1/12 月计", f" · yearly price {price} billed as 1/12 a month")
    if days != p.days:
        desc += Text(f" · 按日折算 {days}/{p.days} 天", f" · prorated {days}/{p.days} days")
    twelfth = " ÷ 12" if yearly else ""
    figures = f"{price} × {format_quantity(units)} × {days}/{p.days}{twelfth} = {_money(abs(amount))}"
    shown = format_quantity(abs(qty))
    note = Text(f"{figures}（数量 {shown}）", f"{figures} (quantity {shown})")
    if it.price_unit == PriceUnit.MBPS_MONTH:
        unit = x.unit(LineUnit.MBPS_MONTH)
    elif yearly:
        unit = x.unit(LineUnit.YEAR)
    else:
        unit = x.unit(LineUnit.MONTH)
    return [B.Charge(it.id, "fee", desc, qty, unit, it.unit_price, amount, it.tax_category, note=note)]

def _gpu_metering(s: Session, c: Contract, it: ContractItem, x: _Ctx):
    """(leased seconds, down seconds, GPU count, downtime notes) inside the item's window this period.

    A note names the GPU, the time down and the reason as recorded; the English one leaves out a
    reason typed in Chinese (app.domain.wording.free_text)."""
    first, last, days = _item_window(c, it, x.period)
    if not days:
        return 0, 0, 0, []
    window = (B.local_midnight(first), min(B.local_midnight(last + dt.timedelta(days=1)), x.as_of))
    if window[1] <= window[0]:
        return 0, 0, 0, []
    d = x.data
    leased = down = 0
    gpus: set[int] = set()
    notes: list[Text] = []
    lo, hi = window
    for l_start, l_end, gpu_id, serial, device_id in d.leases.get(it.id, ()):
        if not (l_start < hi and (l_end is None or l_end > lo)):
            continue
        dts = d.downtime_for(gpu_id, device_id, window)
        intervals = [(dt_start, dt_end or x.as_of) for _id, dt_start, dt_end, _r in dts]
        m = B.meter_lease((l_start, l_end or x.as_of), intervals, window)
        leased += m.leased_seconds
        down += m.down_seconds
        if m.leased_seconds:
            gpus.add(gpu_id)
        for _id, dt_start, dt_end, reason in dts:
            c_int = B.clip((dt_start, dt_end or x.as_of), (max(l_start, lo), min(l_end or x.as_of, hi)))
            if c_int:
                when = f"{serial} {_fmt_t(c_int[0])}–{_fmt_t(c_int[1])}"
                reason = (reason or "").strip()
                reason_en = free_text(reason, "en") or "down"
                notes.append(Text(f"{when} {reason}".rstrip(), f"{when} {reason_en}"))
    return leased, down, len(gpus), notes


def _gpu_usage(s: Session, c: Contract, it: ContractItem, x: _Ctx) -> list[B.Charge]:
    """Per GPU-hour (or minute): started units of the leased seconds; downtime shown as a credit."""
    leased, down, n, notes = _gpu_metering(s, c, it, x)
    if not leased:
        return []
    per_minute = it.price_unit == PriceUnit.GPU_MINUTE
    unit_s = 60 if per_minute else 3600
    unit = x.unit(LineUnit.GPU_MINUTE if per_minute else LineUnit.GPU_HOUR)
    gross = B.started_units(leased, unit_s)
    net = B.started_units(leased - down, unit_s)
    amount = B.fen(gross * it.unit_price)
    p = x.period
    name = x.name(it)
    hours = B.hours(leased)
    out = [B.Charge(it.id, "usage", name + f" · {p.label} · {n} GPU", Decimal(gross), unit, it.unit_price, amount,
                    it.tax_category,
                    note=Text(f"计量 {leased:,} 秒 = {hours} 小时，按开始的{'分钟' if per_minute else '小时'}计 {gross}",
                              f"metered {leased:,} s = {hours} h, billed per started "
                              f"{'minute' if per_minute else 'hour'}: {gross}"))]
    if down and gross > net:
        credit_units = gross - net
        down_h = B.hours(down)
        out.append(B.Charge(
            it.id, "credit", name + Text(f" · 故障停机抵扣 {down_h} 小时", f" · downtime credit {down_h} h"),
            Decimal(-credit_units), unit, it.unit_price, -B.fen(credit_units * it.unit_price), it.tax_category,
            note=Text(f"停机 {down:,} 秒不计费；计费 {net} 而非 {gross}。" + "; ".join(n_.zh for n_ in notes),
                      f"{down:,} s down not billed; {net} instead of {gross}. " + "; ".join(n_.en for n_ in notes))))
    return out


def _gpu_monthly_credit(s: Session, c: Contract, it: ContractItem, x: _Ctx) -> list[B.Charge]:
    """A GPU rented by the month or year is not charged for the seconds it was down: a credit of
    the price × GPU-seconds down ÷ seconds in the month (÷ 12 for a yearly price)."""
    leased, down, _n, notes = _gpu_metering(s, c, it, x)
    if not down:
        return []
    p = x.period
    yearly = it.price_unit == PriceUnit.YEAR
    month_s = p.days * 86400
    share = Fraction(down, month_s) / (12 if yearly else 1)
    qty, amount = B.line_figures(-share, it.unit_price)
    twelfth = " ÷ 12" if yearly else ""
    unit = x.unit(LineUnit.GPU_YEAR if yearly else LineUnit.GPU_MONTH)
    down_h = B.hours(down)
    figures = f"{_price(it.unit_price)} × {down:,} s / {month_s:,} s{twelfth} = {_money(-amount)}; "
    return [B.Charge(it.id, "credit", x.name(it) + Text(f" · 故障停机抵扣 {down_h} 小时", f" · downtime credit {down_h} h"),
                     qty, unit, it.unit_price, amount, it.tax_category,
                     note=Text(figures + "; ".join(n_.zh for n_ in notes), figures + "; ".join(n_.en for n_ in notes)))]


def _hybrid(s: Session, c: Contract, it: ContractItem, x: _Ctx) -> list[B.Charge]:
    """Commit fee (prorated by day) + started hours beyond the (prorated, exact) included hours × rate."""
    p = x.period
    first, last, days = _item_window(c, it, p)
    if not days:
        return []
    leased, down, n, _notes = _gpu_metering(s, c, it, x)
    h = B.hybrid(it.unit_price, it.included_hours or 0, it.hourly_rate, leased - down, days, p.days)
    used = h.used_hours
    name = x.name(it)
    desc = Text(f"{name.zh} · 承诺月费 {first} 至 {last}", f"{name.en} · monthly commitment {first} to {last}")
    if days != p.days:
        desc += Text(f" · 按日折算 {days}/{p.days} 天", f" · prorated {days}/{p.days} days")
    down_text = Text(f"（已扣除停机 {B.hours(down)} 小时）", f" (downtime {B.hours(down)} h excluded)") if down else Text("", "")
    included = B.decimal_of(h.included_hours)
    inc_text = (f"{format_quantity(it.included_hours or 0)} × {days}/{p.days} = {format_quantity(included)}"
                + ("…" if Fraction(included) != h.included_hours else "")) if days != p.days else format_quantity(included)
    out = [B.Charge(it.id, "fee", desc, h.commit_quantity, x.unit(LineUnit.MONTH), it.unit_price, h.commit, it.tax_category,
                    note=Text(f"含 {inc_text} GPU时，已用 {used} GPU时{down_text.zh}",
                              f"includes {inc_text} GPU-hours, used {used}{down_text.en}"))]
    if h.overage:
        metered, inc = B.hours(leased - down), format_quantity(included)
        figures = f"; {h.over_hours} × {_price(it.hourly_rate)} = {_money(h.overage)}"
        out.append(B.Charge(it.id, "overage", name + Text(f" · 超出承诺 {h.over_hours} GPU时",
                                                         f" · {h.over_hours} GPU-hours beyond the commitment"),
                            Decimal(h.over_hours), x.unit(LineUnit.GPU_HOUR), it.hourly_rate, h.overage, it.tax_category,
                            note=Text(f"计量 {metered} 小时 − 含 {inc} 小时，按开始的小时计 {h.over_hours}" + figures,
                                      f"metered {metered} h − included {inc} h, in started hours {h.over_hours}" + figures)))
    return out


def _power(s: Session, c: Contract, it: ContractItem, x: _Ctx) -> list[B.Charge]:
    """Power from the rack meter; resets are summed by segment, gaps hold the line back."""
    p = x.period
    first, last, days = _item_window(c, it, p)
    if not days:
        return []
    start, end = B.local_midnight(first), B.local_midnight(last + dt.timedelta(days=1))
    rack_name = x.data.rack_names.get(it.rack_id)
    label = f"{c.number} {rack_name if rack_name else it.rack_id}"
    if end > x.as_of:
        x.warnings.append(x.t(f"{label}：{p.label} 尚未结束，电量暂不计费", f"{label}: {p.label} has not ended; power is not billed yet"))
        x.held += 1
        return []
    lo = start - B.MAX_METER_GAP
    rows = [r for r in x.data.readings.get(it.rack_id, ()) if lo <= r[0] <= end]
    m = B.meter_consumption(rows, start, end)
    resets = [(_fmt_t(t), a, b) for t, a, b in m.resets]
    reset_text = Text("; ".join(f"电表于 {t} 复位（{a} → {b}），分段累加" for t, a, b in resets),
                      "; ".join(f"meter reset at {t} ({a} → {b}), segments summed" for t, a, b in resets))
    if not m.complete:
        x.warnings.append(x.t(f"{label}：电表读数不完整，电费暂缓：", f"{label}: meter readings incomplete, power held: ")
                          + "; ".join(m.gaps) + (f"; {reset_text.of(x.reader or x.lang)}" if resets else ""))
        x.held += 1
        return []
    if resets:
        x.warnings.append(f"{label}: " + reset_text.of(x.reader or x.lang))
        reset_text = "; " + reset_text
    span = f"{_fmt_t(m.opening[0])} {m.opening[1]} → {_fmt_t(m.closing[0])} {m.closing[1]}"
    kwh = m.kwh
    name = x.name(it)
    if it.price_unit == PriceUnit.KWH:
        amount = B.fen(kwh * it.unit_price)
        return [B.energy_charge(it.id, name + Text(f" · 用电 {kwh} kWh", f" · power {kwh} kWh"),
                                kwh, x.unit(LineUnit.KWH), it.unit_price, amount,
                                note=span + reset_text if resets else Text.same(span))]
    hours_ = Decimal(days * 24)
    o = B.power_overage(kwh, it.power_allowance_kw, hours_, it.kwh_price)
    desc = name + Text(f" · 超额用电 {o.over_kwh} kWh", f" · power over allowance {o.over_kwh} kWh")
    note = Text(f"用电 {kwh} kWh（{span}）；额度 {it.power_allowance_kw} kW × {hours_} 小时 = {o.allowance_kwh} kWh",
                f"used {kwh} kWh ({span}); allowance {it.power_allowance_kw} kW × {hours_} h = {o.allowance_kwh} kWh")
    if resets:
        note += reset_text
    return [B.energy_charge(it.id, desc, o.over_kwh, x.unit(LineUnit.KWH), it.kwh_price, o.amount, note=note)]


def item_charges(s: Session, c: Contract, it: ContractItem, x: _Ctx) -> list[B.Charge]:
    return _item_charges(s, c, it, x) + _sla_credit(it, x)


def _sla_credit(it: ContractItem, x: _Ctx) -> list[B.Charge]:
    """Approved SLA credits of the item for the period (app/services/operations/credits.py): one
    line naming each ticket, −1 × their total."""
    credits = x.data.sla_credits.get(it.id) if x.data is not None else None
    if not credits:
        return []
    from app.services.operations.credits import METRIC_WORDS

    total = sum((a for _n, _m, a, _r in credits), Decimal(0))
    tickets = ", ".join(dict.fromkeys(n for n, _m, _a, _r in credits if n))
    what = [(METRIC_WORDS.get(m, (m, m)), a, n) for n, m, a, _r in credits]
    name = x.name(it)
    desc = Text(f"{name.zh} · SLA 服务赔偿 {tickets}", f"{name.en} · SLA credit {tickets}")
    note = Text("；".join(f"{n} 未达{w[0]}时限 抵扣 {_money(a)}" for w, a, n in what),
                "; ".join(f"{n} {w[1]} target missed, credit {_money(a)}" for w, a, n in what))
    return [B.Charge(it.id, "sla_credit", desc, Decimal(-1), x.unit(LineUnit.ONCE), total, -total, it.tax_category,
                     note=note)]


def _item_charges(s: Session, c: Contract, it: ContractItem, x: _Ctx) -> list[B.Charge]:
    if it.kind == ItemKind.POWER:  # circuits: a fee per circuit and/or their metered energy (issue 15)
        from app.services.power_billing import circuit_charges
        return circuit_charges(s, c, it, x, _fee, _item_window)
    if it.kind == ItemKind.XCONNECT:  # billed per cross-connect from its installed to its disconnected date
        from app.services.xconnects import xconnect_charges
        return xconnect_charges(s, c, it, x.period, x.name(it), x.unit)
    if it.kind == ItemKind.GPU and it.price_unit in (PriceUnit.GPU_HOUR, PriceUnit.GPU_MINUTE):
        return _with_swaps(it, x, _gpu_usage(s, c, it, x))
    if it.kind == ItemKind.GPU and it.price_unit == PriceUnit.HYBRID:
        return _with_swaps(it, x, _hybrid(s, c, it, x))
    if it.price_unit == PriceUnit.KWH:
        return _power(s, c, it, x)
    out = _fee(c, it, x)
    if it.kind == ItemKind.GPU:
        out += _gpu_monthly_credit(s, c, it, x)
        return _with_swaps(it, x, out)
    if it.kind == ItemKind.RACK and it.power_allowance_kw is not None and it.kwh_price is not None:
        out += _power(s, c, it, x)
    return out


_NO_TEXT = Text("", "")


def _with_swaps(it: ContractItem, x: _Ctx, out: list[B.Charge]) -> list[B.Charge]:
    """A node swapped during the period (app/services/clusters/swap.py) is said on the item's first
    line: which serials served until when, and which from then."""
    swaps = x.data.swaps.get(it.id)
    if not swaps or not out:
        return out
    lo, hi = x.period.start, x.period.end
    said = [w for w in swaps if lo <= w[0] < hi]
    if not said:
        return out
    zh = "；".join(f"{_fmt_t(at)} 更换节点 {a} → {b}：{fs} 服务至此，{ts} 自此起" for at, a, b, fs, ts in said)
    en = "; ".join(f"node swapped {_fmt_t(at)} {a} → {b}: {fs} served until then, {ts} from then"
                   for at, a, b, fs, ts in said)
    first = out[0]
    note = (first.note or _NO_TEXT)
    sep = Text("。" if note.zh else "", ". " if note.en else "")
    return [replace(first, note=note + sep + Text(zh, en))] + out[1:]


def revised(note: Text | None, revision: int) -> Text | None:
    """A corrected revision's note says which it is (第 2 版 / rev. 2)."""
    if revision <= 1:
        return note
    return Text(f"第 {revision} 版；", f"rev. {revision}; ") + (note or _NO_TEXT)


def line_texts(description: Text, note: Text | None, lang: str) -> dict[str, str | None]:
    """A line's texts as stored: `description` and `note` in the contract's language `lang` (what
    every screen and export reads), `description_other` / `note_other` in the other language, None
    where that reads the same (documents print their own language's: docs/billing.md, "Line texts
    in both languages"). Every key always: the run inserts with render_nulls, one key set and one
    batched INSERT (the ORM splits a batch wherever a key is missing or None)."""
    note = note or _NO_TEXT
    other = "zh" if lang == "en" else "en"
    desc, desc_other = description.of(lang)[:255], description.of(other)[:255]
    text, text_other = note.of(lang)[:4000], note.of(other)[:4000]
    return {"description": desc, "note": text or None,
            "description_other": desc_other if desc_other != desc else None,
            "note_other": (text_other or None) if text_other != text else None}


def tax_rates(s: Session, p: B.Period) -> dict[str, Decimal]:
    return tax_rates_on(s, p.first)

@dataclass
class _Data:
    """What a run reads besides the contracts, for the period only, keyed for lookups in Python."""

    # item id -> [(start, end, gpu id, serial, device id)] ordered by serial, then start
    leases: dict[int, list[tuple]] = field(default_factory=dict)
    # gpu id / device id -> [(downtime id, start, end, reason)] ordered by start
    down_by_gpu: dict[int, list[tuple]] = field(default_factory=dict)
    down_by_device: dict[int, list[tuple]] = field(default_factory=dict)
    # rack id -> [(read_at, kwh_total)] ordered by time
    readings: dict[int, list[tuple]] = field(default_factory=dict)
    rack_names: dict[int, str] = field(default_factory=dict)
    # the objects of items an English line must name (app/services/item_names.py)
    objects: ItemObjects = field(default_factory=ItemObjects)
    # item id -> [(ticket number, metric, amount, reason)]: approved SLA credits of the period
    sla_credits: dict[int, list[tuple]] = field(default_factory=dict)
    # item id -> [(at, from node, to node, from serials, to serials)] of node swaps (app/services/clusters/swap.py)
    swaps: dict[int, list[tuple]] = field(default_factory=dict)

    def downtime_for(self, gpu_id: int, device_id: int | None, window: tuple[dt.datetime, dt.datetime]) -> list[tuple]:
        """The GPU's and its server's downtime overlapping the window, ordered by start."""
        lo, hi = window
        rows = self.down_by_gpu.get(gpu_id, [])
        if device_id:
            dev = self.down_by_device.get(device_id)
            if dev:
                if rows:
                    seen = {r[0] for r in rows}
                    rows = sorted(rows + [r for r in dev if r[0] not in seen], key=lambda r: (r[1], r[0]))
                else:
                    rows = dev
        return [r for r in rows if r[1] < hi and (r[2] is None or r[2] > lo)]


def _is_power_item(it: ContractItem) -> bool:
    """An item whose energy is read from a rack meter (circuits read their own: app/services/power_billing.py)."""
    return B.bills_energy(it) and it.kind != ItemKind.POWER


def _load_data(s: Session, contracts: list[Contract], p: B.Period, as_of: dt.datetime) -> _Data:
    """Leases, downtime, meter readings and rack names the period's items need (≈ 1 query per 500 ids).

    Every per-item window lies inside [period start, min(period end, as_of)), so loading what
    overlaps that span and filtering per item in Python gives the rows the per-item queries gave.
    """
    d = _Data()
    lo, hi = p.start, min(p.end, as_of)
    items = [it for c in contracts for it in c.items]
    d.objects = load_item_objects(s, [it for c in contracts for it in c.items if needs_english_name(it, c.language)])
    from app.services.operations.credits import approved_credits
    for chunk in _chunks([it.id for it in items]):
        d.sla_credits.update(approved_credits(s, chunk, p.label))
    gpu_items = [it.id for it in items if it.kind == ItemKind.GPU]
    for chunk in _chunks(gpu_items):
        rows = s.execute(
            select(GpuLease.contract_item_id, GpuLease.start, GpuLease.end, GpuAsset.id, GpuAsset.serial,
                   GpuAsset.device_id)
            .join(GpuAsset, GpuAsset.id == GpuLease.gpu_id)
            .where(GpuLease.contract_item_id.in_(chunk), GpuLease.start < hi,
                   or_(GpuLease.end.is_(None), GpuLease.end > lo))
            .order_by(GpuLease.contract_item_id, GpuAsset.serial, GpuLease.start)).all()
        for item_id, *rest in rows:
            d.leases.setdefault(item_id, []).append(tuple(rest))
    # A swap ends leases inside the period: only then are swaps looked for (no query otherwise).
    if any(end is not None and lo <= end < hi for rows in d.leases.values() for _s, end, *_r in rows):
        old_dev, new_dev = Device.__table__.alias("swap_from_dev"), Device.__table__.alias("swap_to_dev")
        old_node, new_node = GpuNode.__table__.alias("swap_from"), GpuNode.__table__.alias("swap_to")
        for item_id, at, a, b, fs, ts in s.execute(
                select(NodeSwap.contract_item_id, NodeSwap.at, old_dev.c.name, new_dev.c.name, NodeSwap.from_serials,
                       NodeSwap.to_serials)
                .join(old_node, old_node.c.id == NodeSwap.from_node_id).join(old_dev, old_dev.c.id == old_node.c.device_id)
                .join(new_node, new_node.c.id == NodeSwap.to_node_id).join(new_dev, new_dev.c.id == new_node.c.device_id)
                .where(NodeSwap.at >= lo, NodeSwap.at < hi).order_by(NodeSwap.at, NodeSwap.id)):
            if item_id in d.leases:
                d.swaps.setdefault(item_id, []).append((at, a, b, fs, ts))
    if d.leases:
        for did, gpu_id, device_id, start, end, reason in s.execute(
                select(Downtime.id, Downtime.gpu_id, Downtime.device_id, Downtime.start, Downtime.end, Downtime.reason)
                .where(Downtime.start < hi, or_(Downtime.end.is_(None), Downtime.end > lo))
                .order_by(Downtime.start, Downtime.id)):
            row = (did, start, end, reason)
            if gpu_id is not None:
                d.down_by_gpu.setdefault(gpu_id, []).append(row)
            if device_id is not None:
                d.down_by_device.setdefault(device_id, []).append(row)
    racks = {it.rack_id for it in items if _is_power_item(it) and it.rack_id is not None}
    for chunk in _chunks(racks):
        d.rack_names.update(s.execute(select(Rack.id, Rack.name).where(Rack.id.in_(chunk))).all())
        for rack_id, read_at, kwh in s.execute(
                select(MeterReading.rack_id, MeterReading.read_at, MeterReading.kwh_total)
                .where(MeterReading.rack_id.in_(chunk), MeterReading.read_at >= p.start - B.MAX_METER_GAP,
                       MeterReading.read_at <= p.end)
                .order_by(MeterReading.rack_id, MeterReading.read_at)):
            d.readings.setdefault(rack_id, []).append((read_at, kwh))
    return d
