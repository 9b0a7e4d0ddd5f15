"""Billing use cases: the monthly run, issuing, credit notes, fapiao numbers, meter readings, downtime.

The arithmetic lives in app/billing.py; this module reads contracts, leases, downtime and meter
readings, turns them into statement lines and writes them. Idempotence rests on the unique key
(contract_item_id, charge, period) of statement_line: a run creates only what is missing.
Numbers are taken from per-subsidiary counters in the issuing transaction (gapless):
statements `GZ-202611-000123` (scope: the billing month), credit notes `GZ-CN-202612-000001`
(scope: the month the credit note is issued).
"""
from __future__ import annotations

import csv
import datetime as dt
import io
from collections import defaultdict
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Callable, Iterable

from sqlalchemy import and_, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload
from sqlalchemy.orm.attributes import set_committed_value

from models import (Contract, ContractItem, Customer, Device, Downtime, GpuAsset, GpuLease, MeterReading, Rack,
                    Statement, StatementLine, Subsidiary)
from models.choices import ContractStatus, ItemKind, PriceUnit, StatementKind, StatementStatus

from .. import billing as B
from ..audit import Actor
from ..auth import require
from ..db import Database
from ..errors import NotFound, RuleViolation, ValidationError
from ..uow import UnitOfWork
from .common import flush_versioned, get_or_404
from .reference import tax_rates_on

BILLED_STATUSES = (ContractStatus.ACTIVE, ContractStatus.SUSPENDED, ContractStatus.EXPIRED,
                   ContractStatus.TERMINATED)
CHARGE_ORDER = {"fee": 0, "usage": 1, "overage": 2, "power": 3, "credit": 4}
Progress = Callable[[int, int], None]


# --- results ------------------------------------------------------------------------------

@dataclass(frozen=True)
class LineInfo:
    id: int | None
    contract_item_id: int | None
    contract_number: str
    charge: str
    period: str
    description: str
    quantity: Decimal
    unit: str
    unit_price: Decimal
    amount: Decimal
    tax_rate: Decimal
    tax: Decimal
    note: str


@dataclass(frozen=True)
class StatementInfo:
    id: int | None  # None in a dry run's preview of a new statement
    number: str | None
    kind: str
    subsidiary_id: int
    subsidiary_code: str
    customer_id: int
    customer_name: str
    period: str
    status: str
    subtotal: Decimal
    tax: Decimal
    total: Decimal
    total_in_words: str
    issued_at: dt.datetime | None
    original_id: int | None
    original_number: str | None
    reason: str | None
    fapiao_no: str | None
    version: int
    lines: tuple[LineInfo, ...] = ()
    credit_notes: tuple[str, ...] = ()  # numbers of credit notes referring to this statement


@dataclass(frozen=True)
class RunSummary:
    period: str
    dry_run: bool
    statements_created: int
    statements_extended: int  # existing drafts that received new lines
    lines_created: int
    skipped_existing: int  # lines already billed by an earlier run
    held: int  # lines not billed because their data is incomplete (see warnings)
    warnings: tuple[str, ...]
    subtotal: Decimal  # of the lines this run created (or would create)
    tax: Decimal
    total: Decimal
    statements: tuple[StatementInfo, ...]  # what the run created or extended (dry run: would)
    issued: tuple[str, ...] = ()
    cancelled: bool = False

    def describe(self) -> str:
        verb = "would create" if self.dry_run else "created"
        if self.cancelled:
            return f"billing run {self.period} cancelled; nothing was written"
        if not self.lines_created:
            head = (f"billing {self.period}: nothing to bill, every line already exists "
                    f"({self.skipped_existing} line(s) from earlier runs)" if self.skipped_existing else
                    f"billing {self.period}: nothing to bill")
        else:
            head = (f"billing {self.period}: {verb} {self.lines_created} line(s) on "
                    f"{self.statements_created} new and {self.statements_extended} existing draft statement(s); "
                    f"subtotal ¥{self.subtotal:,.2f} + tax ¥{self.tax:,.2f} = ¥{self.total:,.2f}; "
                    f"{self.skipped_existing} line(s) already billed")
        parts = [head]
        if self.held:
            parts.append(f"{self.held} line(s) held back, see warnings")
        if self.issued:
            parts.append(f"issued {len(self.issued)}: {', '.join(self.issued)}")
        return "; ".join(parts)


@dataclass(frozen=True)
class IssueSummary:
    issued: tuple[tuple[int, str, Decimal], ...]  # (statement id, number, total)
    skipped: tuple[str, ...]  # sentences
    cancelled: bool = False


# --- reading ------------------------------------------------------------------------------

def _words(amount: Decimal) -> str:
    from ..money import amount_in_words  # written alongside the PDF renderers

    return amount_in_words(amount)


def _line_info(s: Session, ln: StatementLine, numbers: dict[int, str]) -> LineInfo:
    return LineInfo(ln.id, ln.contract_item_id, numbers.get(ln.contract_item_id, ""), ln.charge, ln.period,
                    ln.description, ln.quantity, ln.unit, ln.unit_price, ln.amount, ln.tax_rate, ln.tax,
                    ln.note or "")


def _contract_numbers(s: Session, item_ids: Iterable[int | None]) -> dict[int, str]:
    ids = [i for i in set(item_ids) if i]
    if not ids:
        return {}
    return dict(s.execute(select(ContractItem.id, Contract.number).join(Contract)
                          .where(ContractItem.id.in_(ids))).all())


def _statement_info(s: Session, st: Statement) -> StatementInfo:
    sub = s.get(Subsidiary, st.subsidiary_id)
    cust = s.get(Customer, st.customer_id)
    lines = sorted(st.lines, key=lambda ln: ln.id)
    numbers = _contract_numbers(s, (ln.contract_item_id for ln in lines))
    original = s.get(Statement, st.original_id) if st.original_id else None
    credits = tuple(s.execute(select(Statement.number).where(Statement.original_id == st.id,
                                                             Statement.number.is_not(None))
                              .order_by(Statement.number)).scalars())
    return StatementInfo(st.id, st.number, st.kind, st.subsidiary_id, sub.code, st.customer_id, cust.name,
                         st.period, st.status, st.subtotal, st.tax, st.total, _words(st.total), st.issued_at,
                         st.original_id, original.number if original else None, st.reason, st.fapiao_no,
                         st.version, tuple(_line_info(s, ln, numbers) for ln in lines), credits)


def find_statement(s: Session, key: int | str, lock: bool = False) -> Statement:
    """A statement by number or, failing that, by id (a draft has no number): the one lookup by key."""
    def one(cond):
        q = select(Statement).where(cond)
        return s.execute(q.with_for_update(of=Statement) if lock else q).scalar_one_or_none()
    text = str(key).strip()
    st = None if isinstance(key, int) else one(Statement.number == text)
    if st is None and text.isdigit():
        st = one(Statement.id == int(text))
    if st is None:
        raise NotFound(f"there is no statement {text}")
    return st


_find_statement = find_statement


def get_statement(db: Database, key: int | str) -> StatementInfo:
    """By id or by number (e.g. "GZ-202611-000123" or "GZ-CN-202612-000001")."""
    with db.session() as s:
        return _statement_info(s, _find_statement(s, key))


def list_statements(db: Database, *, period: str | None = None, status: str | None = None,
                    customer_id: int | None = None) -> list[StatementInfo]:
    with db.session() as s:
        q = select(Statement).order_by(Statement.period, Statement.subsidiary_id, Statement.number, Statement.id)
        if period:
            q = q.where(Statement.period == B.Period.parse(period).label)
        if status:
            q = q.where(Statement.status == status)
        if customer_id:
            q = q.where(Statement.customer_id == customer_id)
        return [_statement_info(s, st) for st in s.execute(q).scalars()]


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


def _q4(d: Decimal) -> Decimal:
    return Decimal(d).quantize(Decimal("0.0001"))


def _money(d: Decimal) -> str:
    return f"{Decimal(d):,.2f}"


def _item_window(c: Contract, it: ContractItem, p: B.Period) -> tuple[dt.date | None, dt.date | None, int]:
    start = max(it.service_start or c.start_date, c.start_date)
    end = min(it.service_end or c.end_date, c.end_date)
    return B.active_days(p, start, end)


def _fee(c: Contract, it: ContractItem, x: _Ctx) -> list[B.Charge]:
    """Monthly (or yearly as 1/12) fees prorated by day; one-off charges in their handover month."""
    p = x.period
    sign = -1 if it.kind == ItemKind.DISCOUNT else 1
    if it.price_unit == PriceUnit.ONE_OFF:
        when = max(it.service_start or c.start_date, c.start_date)
        if B.Period.containing(when) != p or (it.service_end and it.service_end < when):
            return []
        amount = B.fen(it.unit_price * it.quantity) * sign
        desc = f"{it.description} · {x.t('一次性', 'one-off')} {when}"
        return [B.Charge(it.id, "fee", desc, it.quantity, x.t("次", "once"), it.unit_price, amount, it.tax_category,
                         note=f"{_money(it.unit_price)} × {it.quantity.normalize():f} = {_money(abs(amount))}")]
    qty = Decimal(it.mbps) if it.price_unit == PriceUnit.MBPS_MONTH and it.mbps else it.quantity
    yearly = it.price_unit == PriceUnit.YEAR
    first, last, days = _item_window(c, it, p)
    if not days:
        return []
    pr = B.prorate(it.unit_price, qty, p, first, last, yearly=yearly)
    amount = pr.amount * sign
    monthly = it.unit_price / 12 if yearly else it.unit_price
    desc = f"{it.description} · {first} {x.t('至', 'to')} {last}"
    if yearly:
        desc += x.t(f" · 年价 {_money(it.unit_price)} 按 1/12 月计", f" · yearly price {_money(it.unit_price)} billed as 1/12 a month")
    if not pr.full_month:
        desc += x.t(f" · 按日折算 {days}/{p.days} 天", f" · prorated {days}/{p.days} days")
    price_text = f"{_money(it.unit_price)} ÷ 12" if yearly else _money(it.unit_price)
    note = f"{price_text} × {qty.normalize():f} × {days}/{p.days} = {_money(abs(amount))}"
    unit = x.t("Mbps·月", "Mbps-month") if it.price_unit == PriceUnit.MBPS_MONTH else x.t("月", "month")
    return [B.Charge(it.id, "fee", desc, qty, unit, _q4(monthly), amount, it.tax_category, note=note)]


def _fmt_t(t: dt.datetime) -> str:
    return t.astimezone(B.TZ).strftime("%Y-%m-%d %H:%M")


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
    """A GPU rented by the month or year is not charged for the seconds it was down."""
    leased, down, _n, notes = _gpu_metering(s, c, it, x)
    if not down:
        return []
    p = x.period
    monthly = it.unit_price / 12 if it.price_unit == PriceUnit.YEAR else it.unit_price
    month_s = p.days * 86400
    amount = -B.fen(monthly * down / month_s)
    return [B.Charge(it.id, "credit", f"{it.description} · " + x.t(f"故障停机抵扣 {B.hours(down)} 小时", f"downtime credit {B.hours(down)} h"),
                     -B.hours(down), x.t("GPU时", "GPU-hour"), _q4(monthly * 3600 / month_s), amount, it.tax_category,
                     note=f"{_money(monthly)} × {down:,} s / {month_s:,} s = {_money(-amount)}; " + "; ".join(notes))]


def _hybrid(s: Session, c: Contract, it: ContractItem, x: _Ctx) -> list[B.Charge]:
    """Commit fee (prorated by day) + max(0, used − included hours) × hourly rate."""
    p = x.period
    first, last, days = _item_window(c, it, p)
    if not days:
        return []
    leased, down, n, _notes = _gpu_metering(s, c, it, x)
    used = B.started_units(leased - down, 3600)
    h = B.hybrid(it.unit_price, it.included_hours or 0, it.hourly_rate, used, days, p.days)
    desc = f"{it.description} · " + x.t(f"承诺月费 {first} 至 {last}", f"monthly commitment {first} to {last}")
    if days != p.days:
        desc += x.t(f" · 按日折算 {days}/{p.days} 天", f" · prorated {days}/{p.days} days")
    down_text = x.t(f"（已扣除停机 {B.hours(down)} 小时）", f" (downtime {B.hours(down)} h excluded)") if down else ""
    out = [B.Charge(it.id, "fee", desc, Decimal(1), x.t("月", "month"), it.unit_price, h.commit, it.tax_category,
                    note=x.t(f"含 {h.included_hours} GPU时，已用 {used} GPU时{down_text}",
                             f"includes {h.included_hours} GPU-hours, used {used}{down_text}"))]
    if h.overage:
        out.append(B.Charge(it.id, "overage", f"{it.description} · " + x.t(f"超出承诺 {h.over_hours} GPU时", f"{h.over_hours} GPU-hours beyond the commitment"),
                            h.over_hours, x.t("GPU时", "GPU-hour"), it.hourly_rate, h.overage, it.tax_category,
                            note=f"max(0, {used} − {h.included_hours}) × {_money(it.hourly_rate)} = {_money(h.overage)}"))
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


# --- loading a period's data in a handful of set-based queries ----------------------------

IN_CHUNK = 500  # ids per IN list (well under SQLite's and PostgreSQL's parameter limits)


def _chunks(ids: Iterable[int], size: int = IN_CHUNK):
    ids = sorted(set(ids))
    for i in range(0, len(ids), size):
        yield ids[i:i + size]


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


def _statement_infos(s: Session, ids: list[int], numbers: dict[int, str] | None = None) -> list[StatementInfo]:
    """_statement_info for many statements at once (same result, a few queries per 500 statements)."""
    if not ids:
        return []
    sts: dict[int, Statement] = {}
    lines: dict[int, list] = defaultdict(list)
    credits: dict[int, list[str]] = defaultdict(list)
    for chunk in _chunks(ids):
        sts.update((st.id, st) for st in s.execute(select(Statement).where(Statement.id.in_(chunk))).scalars())
        for row in s.execute(select(StatementLine.statement_id, StatementLine.id, StatementLine.contract_item_id,
                                    StatementLine.charge, StatementLine.period, StatementLine.description,
                                    StatementLine.quantity, StatementLine.unit, StatementLine.unit_price,
                                    StatementLine.amount, StatementLine.tax_rate, StatementLine.tax,
                                    StatementLine.note)
                             .where(StatementLine.statement_id.in_(chunk)).order_by(StatementLine.id)):
            lines[row[0]].append(row[1:])
        for orig, number in s.execute(select(Statement.original_id, Statement.number)
                                      .where(Statement.original_id.in_(chunk), Statement.number.is_not(None))
                                      .order_by(Statement.number)):
            credits[orig].append(number)
    numbers = dict(numbers or {})
    missing = {ln[1] for ls in lines.values() for ln in ls if ln[1] and ln[1] not in numbers}
    for chunk in _chunks(missing):
        numbers.update(_contract_numbers(s, chunk))
    subs = dict(s.execute(select(Subsidiary.id, Subsidiary.code)).all())
    custs: dict[int, str] = {}
    for chunk in _chunks(st.customer_id for st in sts.values()):
        custs.update(s.execute(select(Customer.id, Customer.name).where(Customer.id.in_(chunk))).all())
    originals: dict[int, str | None] = {}
    for chunk in _chunks(st.original_id for st in sts.values() if st.original_id):
        originals.update(s.execute(select(Statement.id, Statement.number).where(Statement.id.in_(chunk))).all())
    out = []
    for sid in ids:
        st = sts[sid]
        infos = tuple(LineInfo(lid, item_id, numbers.get(item_id, ""), charge, period, desc, qty, unit, price, amount,
                               rate, tax, note or "")
                      for lid, item_id, charge, period, desc, qty, unit, price, amount, rate, tax, note in lines[sid])
        out.append(StatementInfo(st.id, st.number, st.kind, st.subsidiary_id, subs[st.subsidiary_id], st.customer_id,
                                 custs[st.customer_id], st.period, st.status, st.subtotal, st.tax, st.total,
                                 _words(st.total), st.issued_at, st.original_id,
                                 originals.get(st.original_id) if st.original_id else None, st.reason, st.fapiao_no,
                                 st.version, infos, tuple(credits.get(sid, ()))))
    return out


# --- the run ------------------------------------------------------------------------------

def run_billing(db: Database, actor: Actor, period: str, *, dry_run: bool = False, issue: bool = False,
                as_of: dt.datetime | None = None, progress: Progress | None = None,
                cancelled: Callable[[], bool] | None = None) -> RunSummary:
    """Bill one month: create the statement lines that are missing, grouped per customer.

    A second run over the same month creates nothing. `dry_run` computes the same and writes
    nothing. `issue` then issues the statements the run created or extended.
    """
    require(actor, "read" if dry_run else "run_billing")
    if issue and dry_run:
        raise ValidationError({"issue": "a dry run issues nothing; drop --dry-run or --issue"})
    try:
        p = B.Period.parse(period)
    except ValueError as exc:
        raise ValidationError({"period": str(exc)}) from None
    now = dt.datetime.now(dt.timezone.utc)
    as_of = as_of or now  # tests and demos bill "as if" at another time
    if p.start > as_of:
        raise ValidationError({"period": f"{p.label} has not begun; bill a month that has"})
    x = _Ctx(p, as_of, "zh")
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        in_period = and_(Contract.status.in_(BILLED_STATUSES), Contract.start_date <= p.last,
                         Contract.end_date >= p.first)
        if not dry_run:
            # Concurrent runs queue on their subsidiaries' run counters; the one after sees the lines.
            from .contracts import next_document_number

            for sub_id in sorted(set(s.execute(select(Contract.subsidiary_id).where(in_period)).scalars())):
                next_document_number(s, sub_id, "billing_run", p.compact)
        contracts = s.execute(select(Contract).where(in_period).order_by(Contract.number)
                              .options(selectinload(Contract.items))).scalars().all()
        rates = _tax_rates(s, p)
        numbers = {it.id: c.number for c in contracts for it in c.items}
        # the period's existing lines (few), instead of an IN list of every item id
        existing = {key for key in s.execute(select(StatementLine.contract_item_id, StatementLine.charge)
                                             .where(StatementLine.period == p.label)).all() if key[0] in numbers}
        x.data = _load_data(s, contracts, p, as_of)

        def cancel() -> RunSummary:
            uow.rollback()
            return RunSummary(p.label, dry_run, 0, 0, 0, 0, 0, (), Decimal("0.00"), Decimal("0.00"),
                              Decimal("0.00"), (), cancelled=True)
        new: dict[tuple[int, int], list[tuple[Contract, B.Charge]]] = defaultdict(list)
        skipped = 0
        for done, c in enumerate(contracts):
            if cancelled and cancelled():
                return cancel()
            x.lang = c.language
            for it in c.items:
                for ch in item_charges(s, c, it, x):
                    if (it.id, ch.charge) in existing:
                        skipped += 1
                        continue
                    if ch.tax_category not in rates:
                        raise RuleViolation(f"there is no tax rate for {ch.tax_category} valid in {p.label}; "
                                            "an administrator adds it under settings")
                    new[(c.subsidiary_id, c.customer_id)].append((c, ch))
            if progress:
                progress(done + 1, len(contracts))
        x.data = None
        if cancelled and cancelled():
            return cancel()
        created = extended = lines_created = 0
        sub_total = tax_total = Decimal("0.00")
        previews: list[StatementInfo] = []
        touched: list[int] = []
        audits: list[tuple] = []
        groups = sorted(new.items())
        drafts: dict[tuple[int, int], Statement] = {}
        if not dry_run and groups:
            # the existing drafts this run extends, locked (one query per 500 customers)
            wanted = set(new)
            for chunk in _chunks(cust for _sub, cust in wanted):
                for st in s.execute(select(Statement).where(
                        Statement.customer_id.in_(chunk), Statement.period == p.label,
                        Statement.kind == StatementKind.STATEMENT, Statement.status == StatementStatus.DRAFT)
                        .order_by(Statement.id).with_for_update(of=Statement)).scalars():
                    key = (st.subsidiary_id, st.customer_id)
                    if key in wanted:
                        drafts.setdefault(key, st)
        subs: dict[int, str] = {}
        cust_names: dict[int, str] = {}
        if groups:
            subs = dict(s.execute(select(Subsidiary.id, Subsidiary.code)).all())
            for chunk in _chunks(cust for _sub, cust in new):
                cust_names.update(s.execute(select(Customer.id, Customer.name).where(Customer.id.in_(chunk))).all())
        now_ = dt.datetime.now(dt.timezone.utc)
        written: list[tuple] = []  # (statement, is new, its existing lines, new lines, totals)
        with s.no_autoflush:  # every statement goes out in the one flush below (one UPDATE per extended draft)
            for (sub_id, cust_id), charges in groups:
                charges.sort(key=lambda cc: (cc[0].number, cc[1].contract_item_id or 0, CHARGE_ORDER.get(cc[1].charge, 9)))
                lines = []
                for c, ch in charges:
                    rate = rates[ch.tax_category]
                    lines.append(dict(contract_item_id=ch.contract_item_id, charge=ch.charge, period=p.label,
                                      description=ch.description[:255], quantity=ch.quantity, unit=ch.unit,
                                      unit_price=ch.unit_price, amount=ch.amount, tax_rate=rate,
                                      tax=B.tax_for(ch.amount, rate), note=ch.note or None))
                for ln in lines:
                    sub_total += ln["amount"]
                    tax_total += ln["tax"]
                lines_created += len(lines)
                if dry_run:
                    infos = tuple(LineInfo(None, ln["contract_item_id"], numbers.get(ln["contract_item_id"], ""),
                                           ln["charge"], ln["period"], ln["description"], ln["quantity"], ln["unit"],
                                           ln["unit_price"], ln["amount"], ln["tax_rate"], ln["tax"], ln["note"] or "")
                                  for ln in lines)
                    tot = B.totals([(ln["amount"], ln["tax"]) for ln in lines])
                    previews.append(StatementInfo(None, None, StatementKind.STATEMENT, sub_id, subs[sub_id], cust_id,
                                                  cust_names[cust_id], p.label, StatementStatus.DRAFT, tot.subtotal,
                                                  tot.tax, tot.total, _words(tot.total), None, None, None, None, None, 0,
                                                  infos))
                    created += 1
                    continue
                st = drafts.get((sub_id, cust_id))
                is_new = st is None
                if is_new:
                    old = []
                    st = Statement(kind=StatementKind.STATEMENT, subsidiary_id=sub_id, customer_id=cust_id,
                                   period=p.label, status=StatementStatus.DRAFT)
                    s.add(st)
                    created += 1
                else:
                    old = list(st.lines)
                    extended += 1
                tot = B.totals([(ln.amount, ln.tax) for ln in old] + [(ln["amount"], ln["tax"]) for ln in lines])
                st.subtotal, st.tax, st.total = tot.subtotal, tot.tax, tot.total
                st.updated_by, st.updated_at = actor.login, now_
                written.append((st, is_new, old, lines, tot))
        if written:
            # Every statement in one flush (a batched INSERT … RETURNING in the run's order, so the
            # ids are those the one-by-one writes gave), then, as before, an UPDATE of the new ones
            # (version 2, like a statement created and then totalled), then every line in one
            # batched INSERT … RETURNING id.
            flush_versioned(uow, written[0][0], f"statement for {p.label}")
            later = dt.datetime.now(dt.timezone.utc)
            fresh = {st.id: st for st, is_new, *_rest in written if is_new}
            for chunk in _chunks(fresh):
                s.execute(update(Statement).where(Statement.id.in_(chunk), Statement.version == 1)
                          .values(version=2, updated_at=later).execution_options(synchronize_session=False))
                for sid in chunk:
                    set_committed_value(fresh[sid], "version", 2)
                    set_committed_value(fresh[sid], "updated_at", later)
            rows = [dict(ln, statement_id=st.id) for st, _n, _o, lines, _t in written for ln in lines]
            ids = s.execute(insert(StatementLine).returning(StatementLine.id, sort_by_parameter_order=True),
                            rows).scalars().all()
            for ln, lid in zip(rows, ids):
                ln["id"] = lid
            old_numbers = _contract_numbers(s, {ln.contract_item_id for _st, _n, old, _l, _t in written for ln in old}
                                            - set(numbers))
            credits: dict[int, list[str]] = defaultdict(list)
            for chunk in _chunks(st.id for st, *_rest in written):
                for orig, number in s.execute(select(Statement.original_id, Statement.number).where(
                        Statement.original_id.in_(chunk), Statement.number.is_not(None)).order_by(Statement.number)):
                    credits[orig].append(number)
            k = 0
            for st, is_new, old, lines, tot in written:
                # audited after every statement is written: the audit head is locked last (no deadlock
                # with a concurrent issue, which locks its statement, then its counter, then the head)
                audits.append(("statement.create" if is_new else "statement.add_lines", st.id,
                               f"{p.label} draft #{st.id}",
                               {"period": p.label, "customer_id": st.customer_id, "lines": len(lines),
                                "subtotal": tot.subtotal, "tax": tot.tax, "total": tot.total}))
                touched.append(st.id)
                mine = rows[k:k + len(lines)]
                k += len(lines)
                infos = [LineInfo(ln.id, ln.contract_item_id, numbers.get(ln.contract_item_id) or
                                  old_numbers.get(ln.contract_item_id, ""), ln.charge, ln.period, ln.description,
                                  ln.quantity, ln.unit, ln.unit_price, ln.amount, ln.tax_rate, ln.tax, ln.note or "")
                         for ln in old]
                infos += [LineInfo(ln["id"], ln["contract_item_id"], numbers.get(ln["contract_item_id"], ""),
                                   ln["charge"], ln["period"], ln["description"], ln["quantity"], ln["unit"],
                                   ln["unit_price"], ln["amount"], ln["tax_rate"], ln["tax"], ln["note"] or "")
                          for ln in mine]
                infos.sort(key=lambda li: li.id)
                previews.append(StatementInfo(st.id, st.number, st.kind, st.subsidiary_id, subs[st.subsidiary_id],
                                              st.customer_id, cust_names[st.customer_id], st.period, st.status,
                                              st.subtotal, st.tax, st.total, _words(st.total), st.issued_at,
                                              st.original_id, None, st.reason, st.fapiao_no, st.version,
                                              tuple(infos), tuple(credits.get(st.id, ()))))
                if not is_new:
                    s.expire(st, ["lines"])
        warnings = tuple(x.warnings)
        if dry_run:
            uow.rollback()
        else:
            # Each audit event flushes the session first; with tens of thousands of contracts, items and
            # statements in it that check alone is O(objects) per event. Everything is written by now
            # and the previews are plain data, so the session lets go of them (and of each event once
            # the next one has flushed it).
            s.flush()
            s.expunge_all()
            prev = None
            for action, sid, label, after in audits:
                ev = uow.audit(action, "statement", sid, label, after=after)
                if prev is not None:
                    s.expunge(prev)
                prev = ev
            uow.audit("billing.run", "billing", p.label, f"billing run {p.label}",
                      after={"statements_created": created, "statements_extended": extended,
                             "lines_created": lines_created, "skipped_existing": skipped, "held": x.held,
                             "subtotal": sub_total, "tax": tax_total, "warnings": list(warnings)})
            uow.commit()
    summary = RunSummary(p.label, dry_run, created, extended, lines_created, skipped, x.held, warnings,
                         sub_total, tax_total, sub_total + tax_total, tuple(previews))
    if issue and touched:
        result = issue_statements(db, actor, statement_ids=touched)
        with db.session() as s:  # show them as issued, with their numbers
            fresh = tuple(_statement_infos(s, touched))
        summary = replace(summary, issued=tuple(n for _i, n, _t in result.issued), statements=fresh)
    return summary


# --- issuing ------------------------------------------------------------------------------

def _take_statement_number(s: Session, st: Statement) -> str:
    from .contracts import next_document_number

    sub = s.get(Subsidiary, st.subsidiary_id)
    p = B.Period.parse(st.period)
    n = next_document_number(s, st.subsidiary_id, "statement", p.compact)
    return f"{sub.code}-{p.compact}-{n:06d}"


def issue_statements(db: Database, actor: Actor, *, period: str | None = None,
                     statement_ids: Iterable[int] | None = None, progress: Progress | None = None,
                     cancelled: Callable[[], bool] | None = None) -> IssueSummary:
    """Issue draft statements, each in its own transaction with the next number of its subsidiary.

    Safe to run concurrently: a statement another process is issuing is skipped, not numbered twice.
    """
    require(actor, "run_billing")
    if period is None and statement_ids is None:
        raise ValidationError({"period": "name the period (YYYY-MM) or the statements to issue"})
    with db.session() as s:
        q = select(Statement.id).where(Statement.status == StatementStatus.DRAFT,
                                       Statement.kind == StatementKind.STATEMENT)
        if period is not None:
            try:
                q = q.where(Statement.period == B.Period.parse(period).label)
            except ValueError as exc:
                raise ValidationError({"period": str(exc)}) from None
        if statement_ids is not None:
            q = q.where(Statement.id.in_(list(statement_ids)))
        ids = list(s.execute(q.order_by(Statement.subsidiary_id, Statement.customer_id, Statement.id)).scalars())
    issued, skipped = [], []
    for done, sid in enumerate(ids):
        if cancelled and cancelled():
            return IssueSummary(tuple(issued), tuple(skipped), cancelled=True)
        with UnitOfWork(db, actor) as uow:
            s = uow.session
            st = s.execute(select(Statement).where(Statement.id == sid, Statement.status == StatementStatus.DRAFT)
                           .with_for_update(skip_locked=True)).scalar_one_or_none()
            if st is None:
                skipped.append(f"statement #{sid} was issued or is being issued by someone else")
                continue
            if not st.lines:
                skipped.append(f"statement #{sid} has no lines; nothing to issue")
                continue
            tot = B.totals([(ln.amount, ln.tax) for ln in st.lines])
            st.subtotal, st.tax, st.total = tot.subtotal, tot.tax, tot.total
            st.number = _take_statement_number(s, st)
            st.status, st.issued_at = StatementStatus.ISSUED, dt.datetime.now(dt.timezone.utc)
            flush_versioned(uow, st, f"statement {st.number}")
            uow.audit("statement.issue", "statement", st.id, st.number, before={"status": StatementStatus.DRAFT},
                      after={"status": StatementStatus.ISSUED, "number": st.number, "total": st.total,
                             "period": st.period, "customer_id": st.customer_id})
            uow.commit()
            issued.append((st.id, st.number, st.total))
        if progress:
            progress(done + 1, len(ids))
    return IssueSummary(tuple(issued), tuple(skipped))


def _refuse_if_issued(st: Statement) -> None:
    if st.status != StatementStatus.DRAFT:
        raise RuleViolation(f"statement {st.number} is {StatementStatus.label(st.status).lower()} and can no longer "
                            "change; correct it with a credit note (billing credit NUMBER --reason …)")


def delete_draft(db: Database, actor: Actor, key: int | str, reason: str) -> None:
    """Throw away a draft statement so the next run bills its lines afresh (e.g. after a fix)."""
    require(actor, "run_billing")
    if not (reason and reason.strip()):
        raise ValidationError({"reason": "say why the draft is discarded"})
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        st = _find_statement(s, key, lock=True)
        _refuse_if_issued(st)
        before = {"period": st.period, "customer_id": st.customer_id, "lines": len(st.lines), "total": st.total}
        s.delete(st)
        s.flush()
        uow.audit("statement.delete_draft", "statement", st.id, f"{st.period} draft #{st.id}", before=before,
                  reason=reason.strip())
        uow.commit()


def record_fapiao(db: Database, actor: Actor, key: int | str, fapiao_no: str) -> StatementInfo:
    """The external fapiao number; the one field an issued statement may still receive."""
    require(actor, "run_billing")
    fapiao_no = (fapiao_no or "").strip()
    if not fapiao_no or len(fapiao_no) > 64:
        raise ValidationError({"fapiao_no": "a fapiao number of 1 to 64 characters"})
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        st = _find_statement(s, key, lock=True)
        if st.status != StatementStatus.ISSUED:
            raise RuleViolation("a fapiao is recorded against an issued statement; issue this one first")
        before = {"fapiao_no": st.fapiao_no}
        st.fapiao_no = fapiao_no
        flush_versioned(uow, st, f"statement {st.number}")
        uow.audit("statement.fapiao", "statement", st.id, st.number, before=before, after={"fapiao_no": fapiao_no})
        info = _statement_info(s, st)
        uow.commit()
        return info


def credit_statement(db: Database, actor: Actor, key: int | str, reason: str, *,
                     line_ids: Iterable[int] | None = None, at: dt.datetime | None = None) -> StatementInfo:
    """Issue a credit note reversing an issued statement (all lines, or the lines named).

    Each line can be credited once: the credit line takes the key (item, "cn-"+charge, period).
    """
    require(actor, "run_billing")
    if not (reason and reason.strip()):
        raise ValidationError({"reason": "a credit note says why"})
    at = at or dt.datetime.now(dt.timezone.utc)
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        orig = _find_statement(s, key, lock=True)
        if orig.kind != StatementKind.STATEMENT or orig.status != StatementStatus.ISSUED:
            raise RuleViolation(f"only an issued statement is credited; {orig.number or f'#{orig.id}'} is "
                                f"{'a credit note' if orig.kind != StatementKind.STATEMENT else 'a draft (change the draft instead)'}")
        wanted = set(line_ids) if line_ids is not None else None
        lines = [ln for ln in orig.lines if wanted is None or ln.id in wanted]
        if wanted is not None and len(lines) != len(wanted):
            missing = sorted(wanted - {ln.id for ln in orig.lines})
            raise ValidationError({"line_ids": f"line(s) {missing} are not on {orig.number}"})
        if not lines:
            raise ValidationError({"line_ids": f"{orig.number} has no lines to credit"})
        for ln in lines:
            done = s.execute(select(Statement.number).join(StatementLine).where(
                Statement.original_id == orig.id, StatementLine.contract_item_id == ln.contract_item_id,
                StatementLine.charge == f"cn-{ln.charge}", StatementLine.period == ln.period)).scalar()
            if done:
                raise RuleViolation(f"line “{ln.description}” of {orig.number} was already credited by {done}")
        cn = Statement(kind=StatementKind.CREDIT_NOTE, subsidiary_id=orig.subsidiary_id, customer_id=orig.customer_id,
                       period=orig.period, status=StatementStatus.DRAFT, original_id=orig.id, reason=reason.strip(),
                       updated_by=actor.login)
        langs = dict(s.execute(select(ContractItem.id, Contract.language).join(Contract).where(
            ContractItem.id.in_([ln.contract_item_id for ln in lines if ln.contract_item_id]))).all())
        for ln in lines:
            reversal = (f"Reversal of {orig.number}: " if langs.get(ln.contract_item_id) == "en"
                        else f"冲销 {orig.number}：")
            cn.lines.append(StatementLine(
                contract_item_id=ln.contract_item_id, charge=f"cn-{ln.charge}"[:16], period=ln.period,
                description=(reversal + ln.description)[:255], quantity=-ln.quantity, unit=ln.unit,
                unit_price=ln.unit_price, amount=-ln.amount, tax_rate=ln.tax_rate, tax=-ln.tax,
                note=f"{orig.number} #{ln.id}"))
        s.add(cn)
        try:
            s.flush()
        except IntegrityError as exc:
            raise RuleViolation(f"a line of {orig.number} was credited by someone else meanwhile; reload") from exc
        tot = B.totals([(ln.amount, ln.tax) for ln in cn.lines])
        cn.subtotal, cn.tax, cn.total = tot.subtotal, tot.tax, tot.total
        sub = s.get(Subsidiary, orig.subsidiary_id)
        month = B.Period.containing(B.local_date(at))
        from .contracts import next_document_number

        n = next_document_number(s, orig.subsidiary_id, "credit_note", month.compact)
        cn.number = f"{sub.code}-CN-{month.compact}-{n:06d}"
        cn.status, cn.issued_at = StatementStatus.ISSUED, at
        flush_versioned(uow, cn, f"credit note {cn.number}")
        uow.audit("statement.credit", "statement", cn.id, cn.number, reason=reason.strip(),
                  after={"original": orig.number, "lines": len(lines), "subtotal": tot.subtotal, "tax": tot.tax,
                         "total": tot.total})
        info = _statement_info(s, cn)
        uow.commit()
        return info


# --- meter readings -----------------------------------------------------------------------

@dataclass(frozen=True)
class MeterImport:
    imported: int
    unchanged: int  # rows already present with the same value
    racks: int


def _rack_resolver(s: Session):
    """The meter file's rack column, read by the one rule for naming a rack (dcim.RackIndex)."""
    from .dcim import rack_index
    return rack_index(s).resolve


def _parse_time(text: str) -> dt.datetime:
    t = dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    if t.tzinfo is None:
        t = t.replace(tzinfo=B.TZ)  # local meter times are Asia/Shanghai
    return t.astimezone(dt.timezone.utc)


def import_meter_readings(db: Database, actor: Actor, source: str | Path | Iterable[dict]) -> MeterImport:
    """CSV with columns rack, read_at, kwh_total (cumulative). All rows or none.

    Times without an offset are Asia/Shanghai. A row already stored with the same value is
    counted as unchanged; the same rack and time with another value is refused.
    """
    require(actor, "import")
    if isinstance(source, (str, Path)):
        text = Path(source).read_text(encoding="utf-8-sig")
        reader = csv.DictReader(io.StringIO(text))
        missing = {"rack", "read_at", "kwh_total"} - set(reader.fieldnames or [])
        if missing:
            raise ValidationError({"file": f"the CSV needs the columns rack, read_at, kwh_total; missing "
                                           f"{', '.join(sorted(missing))}"})
        rows = list(reader)
    else:
        rows = list(source)
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        resolve = _rack_resolver(s)
        errors: dict[str, str] = {}
        parsed: dict[tuple[int, dt.datetime], tuple[Decimal, int]] = {}
        for n, row in enumerate(rows, start=2):
            rack_id, problem = resolve((row.get("rack") or "").strip())
            if problem:
                errors[f"line {n}"] = problem
                continue
            try:
                at = _parse_time(row.get("read_at") or "")
            except ValueError:
                errors[f"line {n}"] = f"read_at {row.get('read_at')!r} is not a date and time (2026-11-01T00:00)"
                continue
            try:
                kwh = Decimal((row.get("kwh_total") or "").strip())
                if not kwh.is_finite() or kwh < 0:
                    raise InvalidOperation
            except InvalidOperation:
                errors[f"line {n}"] = f"kwh_total {row.get('kwh_total')!r} is not a meter reading"
                continue
            key = (rack_id, at)
            if key in parsed and parsed[key][0] != kwh:
                errors[f"line {n}"] = f"same rack and time as line {parsed[key][1]} with another value"
            parsed[key] = (kwh, n)
        stored: dict = {}
        if parsed:
            for rack_id in {k[0] for k in parsed}:
                times = [k[1] for k in parsed if k[0] == rack_id]
                for at, kwh in s.execute(select(MeterReading.read_at, MeterReading.kwh_total).where(
                        MeterReading.rack_id == rack_id, MeterReading.read_at >= min(times),
                        MeterReading.read_at <= max(times))):
                    stored[(rack_id, at)] = kwh
            for key, (kwh, n) in parsed.items():
                if key in stored and stored[key] != kwh:
                    errors[f"line {n}"] = (f"a reading for that rack at {_fmt_t(key[1])} is already stored "
                                           f"as {stored[key]} kWh; it is not overwritten")
        if errors:
            raise ValidationError(errors)
        new = [(k, v[0]) for k, v in parsed.items() if k not in stored]
        for (rack_id, at), kwh in new:
            s.add(MeterReading(rack_id=rack_id, read_at=at, kwh_total=kwh))
        s.flush()
        uow.audit("meter.import", "meter_reading", None, f"{len(new)} meter readings",
                  after={"imported": len(new), "unchanged": len(parsed) - len(new),
                         "racks": len({k[0] for k in parsed})})
        uow.commit()
        return MeterImport(len(new), len(parsed) - len(new), len({k[0] for k in parsed}))


# --- downtime -----------------------------------------------------------------------------

def record_downtime(db: Database, actor: Actor, *, start: dt.datetime, reason: str, gpu_id: int | None = None,
                    device_id: int | None = None, end: dt.datetime | None = None) -> int:
    """A GPU (or a whole server) was down from `start` to `end` (open while None): not billed."""
    require(actor, "manage_gpus")
    errors = {}
    if (gpu_id is None) == (device_id is None):
        errors["gpu_id"] = "name the GPU or the server that was down (one of them)"
    if not (reason and reason.strip()):
        errors["reason"] = "say what failed"
    if start is None or start.tzinfo is None:
        errors["start"] = "an aware start time"
    elif end is not None and (end.tzinfo is None or end < start):
        errors["end"] = "ends (aware time) at or after the start"
    if errors:
        raise ValidationError(errors)
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        label = (get_or_404(s, GpuAsset, gpu_id, "GPU").serial if gpu_id else
                 get_or_404(s, Device, device_id, "device").name)
        d = Downtime(gpu_id=gpu_id, device_id=device_id, start=start, end=end, reason=reason.strip()[:255])
        s.add(d)
        s.flush()
        uow.audit("downtime.record", "downtime", d.id, label, reason=reason.strip(),
                  after={"gpu_id": gpu_id, "device_id": device_id, "start": start, "end": end})
        uow.commit()
        return d.id


def end_downtime(db: Database, actor: Actor, downtime_id: int, end: dt.datetime) -> None:
    require(actor, "manage_gpus")
    if end is None or end.tzinfo is None:
        raise ValidationError({"end": "an aware end time"})
    with UnitOfWork(db, actor) as uow:
        d = get_or_404(uow.session, Downtime, downtime_id, "downtime record")
        if d.end is not None:
            raise RuleViolation(f"downtime #{d.id} already ended at {_fmt_t(d.end)}")
        if end < d.start:
            raise ValidationError({"end": f"before the start {_fmt_t(d.start)}"})
        d.end = end
        uow.session.flush()
        uow.audit("downtime.end", "downtime", d.id, d.reason, before={"end": None}, after={"end": end})
        uow.commit()


# --- export -------------------------------------------------------------------------------

STATEMENT_EXPORT_HEADERS = ("number", "kind", "subsidiary", "customer", "period", "subtotal", "tax", "total",
                            "status", "issued_at", "original", "fapiao_no")


def export_statements_rows(db: Database) -> tuple[list[str], list[list]]:
    """Every statement and credit note as rows for CSV/XLSX (drafts have no number yet)."""
    from sqlalchemy.orm import aliased

    original = aliased(Statement)
    with db.session() as s:
        rows = s.execute(
            select(Statement.number, Statement.kind, Subsidiary.code, Customer.name, Statement.period,
                   Statement.subtotal, Statement.tax, Statement.total, Statement.status, Statement.issued_at,
                   original.number, Statement.fapiao_no)
            .join(Subsidiary, Subsidiary.id == Statement.subsidiary_id)
            .join(Customer, Customer.id == Statement.customer_id)
            .outerjoin(original, original.id == Statement.original_id)
            .order_by(Statement.period, Subsidiary.code, Statement.number.is_(None), Statement.number,
                      Statement.id)).all()
    return list(STATEMENT_EXPORT_HEADERS), [list(r) for r in rows]
