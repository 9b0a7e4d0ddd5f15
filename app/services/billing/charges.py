"""Computing a contract item's lines for one period: THE extension point for a new kind of charge.

`item_charges(s, contract, item, ctx)` dispatches on the item's kind and price unit to one small
function per kind of charge (`_fee`, `_gpu_usage`, `_gpu_monthly_credit`, `_hybrid`, `_power`),
each returning `app.billing.Charge`s (quantity × unit price = amount, see docs/billing.md). A new
kind of charge is one such function plus one branch in `item_charges`; if it needs data beyond
the contract item, load it for the whole period in `_load_data` (set-based, keyed in `_Data`),
never per item. Nothing here writes.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from models import (Contract, ContractItem, Downtime, GpuAsset, GpuLease, MeterReading, Rack)
from models.choices import ItemKind, PriceUnit

from ... import billing as B
from ...money import format_amount, format_price, format_quantity
from ..reference import tax_rates_on
from .statements import _chunks, _fmt_t

# --- computing the lines of one contract item ---------------------------------------------

@dataclass
class _Ctx:
    period: B.Period
    as_of: dt.datetime
    lang: str
    warnings: list[str] = field(default_factory=list)
    held: int = 0
    data: "_Data | None" = None  # everything the period needs, loaded up front by _load_data

    def t(self, zh: str, en: str) -> str:
        return en if self.lang == "en" else zh


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
        desc = f"{it.description} · {x.t('一次性', 'one-off')} {when}"
        return [B.Charge(it.id, "fee", desc, qty, x.t("次", "once"), it.unit_price, amount, it.tax_category,
                         note=f"{_price(it.unit_price)} × {format_quantity(it.quantity)} = {_money(abs(amount))}")]
    units = Decimal(it.mbps) if it.price_unit == PriceUnit.MBPS_MONTH and it.mbps else it.quantity
    yearly = it.price_unit == PriceUnit.YEAR
    first, last, days = _item_window(c, it, p)
    if not days:
        return []
    share = B.month_share(units, days, p.days, yearly)
    qty, amount = B.line_figures(sign * share, it.unit_price)
    desc = f"{it.description} · {first} {x.t('至', 'to')} {last}"
    if yearly:
        desc += x.t(f" · 年价 {_price(it.unit_price)} 按 1/12 月计", f" · yearly price {_price(it.unit_price)} billed as 1/12 a month")
    if days != p.days:
        desc += x.t(f" · 按日折算 {days}/{p.days} 天", f" · prorated {days}/{p.days} days")
    twelfth = " ÷ 12" if yearly else ""
    note = (f"{_price(it.unit_price)} × {format_quantity(units)} × {days}/{p.days}{twelfth} = {_money(abs(amount))}"
            + x.t(f"（数量 {format_quantity(abs(qty))}）", f" (quantity {format_quantity(abs(qty))})"))
    if it.price_unit == PriceUnit.MBPS_MONTH:
        unit = x.t("Mbps·月", "Mbps-month")
    elif yearly:
        unit = x.t("年", "year")
    else:
        unit = x.t("月", "month")
    return [B.Charge(it.id, "fee", desc, qty, unit, it.unit_price, amount, it.tax_category, note=note)]

def _gpu_metering(s: Session, c: Contract, it: ContractItem, x: _Ctx):
    """(leased seconds, down seconds, GPU count, downtime notes) inside the item's window this period."""
    first, last, days = _item_window(c, it, x.period)
    if not days:
        return 0, 0, 0, []
    window = (B.local_midnight(first), min(B.local_midnight(last + dt.timedelta(days=1)), x.as_of))
    if window[1] <= window[0]:
        return 0, 0, 0, []
    d = x.data
    leased = down = 0
    gpus: set[int] = set()
    notes: list[str] = []
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
                notes.append(f"{serial} {_fmt_t(c_int[0])}–{_fmt_t(c_int[1])} {reason}")
    return leased, down, len(gpus), notes


def _gpu_usage(s: Session, c: Contract, it: ContractItem, x: _Ctx) -> list[B.Charge]:
    """Per GPU-hour (or minute): started units of the leased seconds; downtime shown as a credit."""
    leased, down, n, notes = _gpu_metering(s, c, it, x)
    if not leased:
        return []
    per_minute = it.price_unit == PriceUnit.GPU_MINUTE
    unit_s = 60 if per_minute else 3600
    unit = x.t("GPU分钟", "GPU-minute") if per_minute else x.t("GPU时", "GPU-hour")
    gross = B.started_units(leased, unit_s)
    net = B.started_units(leased - down, unit_s)
    amount = B.fen(gross * it.unit_price)
    p = x.period
    desc = f"{it.description} · {p.label} · {n} GPU"
    out = [B.Charge(it.id, "usage", desc, Decimal(gross), unit, it.unit_price, amount, it.tax_category,
                    note=x.t(f"计量 {leased:,} 秒 = {B.hours(leased)} 小时，按开始的{'分钟' if per_minute else '小时'}计 {gross}",
                             f"metered {leased:,} s = {B.hours(leased)} h, billed per started "
                             f"{'minute' if per_minute else 'hour'}: {gross}"))]
    if down and gross > net:
        credit_units = gross - net
        out.append(B.Charge(
            it.id, "credit", f"{it.description} · " + x.t(f"故障停机抵扣 {B.hours(down)} 小时", f"downtime credit {B.hours(down)} h"),
            Decimal(-credit_units), unit, it.unit_price, -B.fen(credit_units * it.unit_price), it.tax_category,
            note=x.t(f"停机 {down:,} 秒不计费；计费 {net} 而非 {gross}。", f"{down:,} s down not billed; {net} instead of {gross}. ")
            + "; ".join(notes)))
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
    unit = x.t("GPU·年", "GPU-year") if yearly else x.t("GPU·月", "GPU-month")
    return [B.Charge(it.id, "credit", f"{it.description} · " + x.t(f"故障停机抵扣 {B.hours(down)} 小时", f"downtime credit {B.hours(down)} h"),
                     qty, unit, it.unit_price, amount, it.tax_category,
                     note=f"{_price(it.unit_price)} × {down:,} s / {month_s:,} s{twelfth} = {_money(-amount)}; " + "; ".join(notes))]


def _hybrid(s: Session, c: Contract, it: ContractItem, x: _Ctx) -> list[B.Charge]:
    """Commit fee (prorated by day) + started hours beyond the (prorated, exact) included hours × rate."""
    p = x.period
    first, last, days = _item_window(c, it, p)
    if not days:
        return []
    leased, down, n, _notes = _gpu_metering(s, c, it, x)
    h = B.hybrid(it.unit_price, it.included_hours or 0, it.hourly_rate, leased - down, days, p.days)
    used = h.used_hours
    desc = f"{it.description} · " + x.t(f"承诺月费 {first} 至 {last}", f"monthly commitment {first} to {last}")
    if days != p.days:
        desc += x.t(f" · 按日折算 {days}/{p.days} 天", f" · prorated {days}/{p.days} days")
    down_text = x.t(f"（已扣除停机 {B.hours(down)} 小时）", f" (downtime {B.hours(down)} h excluded)") if down else ""
    included = B.decimal_of(h.included_hours)
    inc_text = (f"{format_quantity(it.included_hours or 0)} × {days}/{p.days} = {format_quantity(included)}"
                + ("…" if Fraction(included) != h.included_hours else "")) if days != p.days else format_quantity(included)
    out = [B.Charge(it.id, "fee", desc, h.commit_quantity, x.t("月", "month"), it.unit_price, h.commit, it.tax_category,
                    note=x.t(f"含 {inc_text} GPU时，已用 {used} GPU时{down_text}",
                             f"includes {inc_text} GPU-hours, used {used}{down_text}"))]
    if h.overage:
        out.append(B.Charge(it.id, "overage", f"{it.description} · " + x.t(f"超出承诺 {h.over_hours} GPU时", f"{h.over_hours} GPU-hours beyond the commitment"),
                            Decimal(h.over_hours), x.t("GPU时", "GPU-hour"), it.hourly_rate, h.overage, it.tax_category,
                            note=x.t(f"计量 {B.hours(leased - down)} 小时 − 含 {format_quantity(included)} 小时，按开始的小时计 {h.over_hours}",
                                     f"metered {B.hours(leased - down)} h − included {format_quantity(included)} h, "
                                     f"in started hours {h.over_hours}")
                            + f"; {h.over_hours} × {_price(it.hourly_rate)} = {_money(h.overage)}"))
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
    reset_text = "; ".join(x.t(f"电表于 {_fmt_t(t)} 复位（{a} → {b}），分段累加",
                               f"meter reset at {_fmt_t(t)} ({a} → {b}), segments summed") for t, a, b in m.resets)
    if not m.complete:
        x.warnings.append(x.t(f"{label}：电表读数不完整，电费暂缓：", f"{label}: meter readings incomplete, power held: ")
                          + "; ".join(m.gaps) + (f"; {reset_text}" if reset_text else ""))
        x.held += 1
        return []
    if m.resets:
        x.warnings.append(f"{label}: " + reset_text)
    span = f"{_fmt_t(m.opening[0])} {m.opening[1]} → {_fmt_t(m.closing[0])} {m.closing[1]}"
    kwh = m.kwh
    if it.price_unit == PriceUnit.KWH:
        amount = B.fen(kwh * it.unit_price)
        return [B.Charge(it.id, "power", f"{it.description} · " + x.t(f"用电 {kwh} kWh", f"power {kwh} kWh"),
                         kwh, "kWh", it.unit_price, amount, it.tax_category,
                         note=f"{span}" + (f"; {reset_text}" if reset_text else ""))]
    hours_ = Decimal(days * 24)
    o = B.power_overage(kwh, it.power_allowance_kw, hours_, it.kwh_price)
    desc = f"{it.description} · " + x.t(f"超额用电 {o.over_kwh} kWh", f"power over allowance {o.over_kwh} kWh")
    note = x.t(f"用电 {kwh} kWh（{span}）；额度 {it.power_allowance_kw} kW × {hours_} 小时 = {o.allowance_kwh} kWh",
               f"used {kwh} kWh ({span}); allowance {it.power_allowance_kw} kW × {hours_} h = {o.allowance_kwh} kWh")
    if reset_text:
        note += f"; {reset_text}"
    return [B.Charge(it.id, "power", desc, o.over_kwh, "kWh", it.kwh_price, o.amount, it.tax_category, note=note)]


def item_charges(s: Session, c: Contract, it: ContractItem, x: _Ctx) -> list[B.Charge]:
    if it.kind == ItemKind.POWER:  # circuits: a fee per circuit and/or their metered energy (issue 15)
        from ..power_billing import circuit_charges
        return circuit_charges(s, c, it, x, _fee, _item_window)
    if it.kind == ItemKind.XCONNECT:  # billed per cross-connect from its installed to its disconnected date
        from ..xconnects import xconnect_charges
        return xconnect_charges(s, c, it, x.period, x.t)
    if it.kind == ItemKind.GPU and it.price_unit in (PriceUnit.GPU_HOUR, PriceUnit.GPU_MINUTE):
        return _gpu_usage(s, c, it, x)
    if it.kind == ItemKind.GPU and it.price_unit == PriceUnit.HYBRID:
        return _hybrid(s, c, it, x)
    if it.price_unit == PriceUnit.KWH:
        return _power(s, c, it, x)
    out = _fee(c, it, x)
    if it.kind == ItemKind.GPU:
        out += _gpu_monthly_credit(s, c, it, x)
    if it.kind == ItemKind.RACK and it.power_allowance_kw is not None and it.kwh_price is not None:
        out += _power(s, c, it, x)
    return out


def _tax_rates(s: Session, p: B.Period) -> dict[str, Decimal]:
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
    return it.price_unit == PriceUnit.KWH or (
        it.kind == ItemKind.RACK and it.power_allowance_kw is not None and it.kwh_price is not None)


def _load_data(s: Session, contracts: list[Contract], p: B.Period, as_of: dt.datetime) -> _Data:
    """Leases, downtime, meter readings and rack names the period's items need (≈ 1 query per 500 ids).

    Every per-item window lies inside [period start, min(period end, as_of)), so loading what
    overlaps that span and filtering per item in Python gives the rows the per-item queries gave.
    """
    d = _Data()
    lo, hi = p.start, min(p.end, as_of)
    items = [it for c in contracts for it in c.items]
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
