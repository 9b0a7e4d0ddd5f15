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
from fractions import Fraction
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
from ..money import format_amount, format_cny, format_price, format_quantity
from ..audit import Actor
from ..auth import require
from ..db import Database
from ..errors import NotFound, RuleViolation, ValidationError
from ..uow import UnitOfWork
from .common import flush_versioned, get_or_404
from .receivables import statement_due_date
from .reference import tax_rates_on

BILLED_STATUSES = (ContractStatus.ACTIVE, ContractStatus.SUSPENDED, ContractStatus.EXPIRED,
                   ContractStatus.TERMINATED)
CHARGE_ORDER = {"fee": 0, "usage": 1, "overage": 2, "power": 3, "credit": 4}
CREDIT_PREFIX = "cn-"  # a credit-note line crediting a line in full: frees its key for a new revision
PARTIAL_PREFIX = "cnp-"  # a partial credit by amount: the charge stands, reduced
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
    revision: int = 1


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
    rebills_id: int | None = None  # the statement whose credited lines this one bills again
    rebills_number: str | None = None


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
    pending_drafts: int = 0  # draft statements of the period not yet issued, after this run
    provisional_until: dt.datetime | None = None  # a dry run of a month not yet ended: metered up to then
    rebilled: int = 0  # of the lines created, corrected revisions of credited lines

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
                    f"subtotal {format_cny(self.subtotal)} + tax {format_cny(self.tax)} = {format_cny(self.total)}; "
                    f"{self.skipped_existing} line(s) already billed")
        parts = [head]
        if self.provisional_until is not None:
            parts.insert(0, f"PROVISIONAL: {self.period} has not ended; usage metered up to "
                            f"{_fmt_t(self.provisional_until)} (Asia/Shanghai) only, nothing written")
        if self.rebilled:
            parts.append(f"{self.rebilled} line(s) rebill credited lines on statements referring to them")
        if self.held:
            parts.append(f"{self.held} line(s) held back, see warnings")
        if self.issued:
            shown = self.issued if len(self.issued) <= 10 else self.issued[:5] + ("…",) + self.issued[-2:]
            parts.append(f"issued {len(self.issued)}: {', '.join(shown)}")
        if not self.cancelled:
            parts.append(f"{self.pending_drafts} draft statement(s) of {self.period} pending issue"
                         + (f" (billing issue --period {self.period})" if self.pending_drafts else ""))
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
                    ln.note or "", ln.revision)


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
    rebills = s.get(Statement, st.rebills_id) if st.rebills_id else None
    credits = tuple(s.execute(select(Statement.number).where(Statement.original_id == st.id,
                                                             Statement.number.is_not(None))
                              .order_by(Statement.number)).scalars())
    return StatementInfo(st.id, st.number, st.kind, st.subsidiary_id, sub.code, st.customer_id, cust.name,
                         st.period, st.status, st.subtotal, st.tax, st.total, _words(st.total), st.issued_at,
                         st.original_id, original.number if original else None, st.reason, st.fapiao_no,
                         st.version, tuple(_line_info(s, ln, numbers) for ln in lines), credits,
                         st.rebills_id, rebills.number if rebills else None)


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
        from .power_billing import circuit_charges
        return circuit_charges(s, c, it, x, _fee, _item_window)
    if it.kind == ItemKind.XCONNECT:  # billed per cross-connect from its installed to its disconnected date
        from .xconnects import xconnect_charges
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
                                    StatementLine.note, StatementLine.revision)
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
    for chunk in _chunks({st.original_id for st in sts.values() if st.original_id}
                         | {st.rebills_id for st in sts.values() if st.rebills_id}):
        originals.update(s.execute(select(Statement.id, Statement.number).where(Statement.id.in_(chunk))).all())
    out = []
    for sid in ids:
        st = sts[sid]
        infos = tuple(LineInfo(lid, item_id, numbers.get(item_id, ""), charge, period, desc, qty, unit, price, amount,
                               rate, tax, note or "", rev)
                      for lid, item_id, charge, period, desc, qty, unit, price, amount, rate, tax, note, rev
                      in lines[sid])
        out.append(StatementInfo(st.id, st.number, st.kind, st.subsidiary_id, subs[st.subsidiary_id], st.customer_id,
                                 custs[st.customer_id], st.period, st.status, st.subtotal, st.tax, st.total,
                                 _words(st.total), st.issued_at, st.original_id,
                                 originals.get(st.original_id) if st.original_id else None, st.reason, st.fapiao_no,
                                 st.version, infos, tuple(credits.get(sid, ())), st.rebills_id,
                                 originals.get(st.rebills_id) if st.rebills_id else None))
    return out


# --- the run ------------------------------------------------------------------------------

def run_billing(db: Database, actor: Actor, period: str, *, dry_run: bool = False, issue: bool = False,
                as_of: dt.datetime | None = None, progress: Progress | None = None,
                cancelled: Callable[[], bool] | None = None, item_ids: Iterable[int] | None = None) -> RunSummary:
    """Bill one month: create the statement lines that are missing, grouped per customer.

    A month is billed once it has ended in Asia/Shanghai: usage is metered up to the run, so an
    earlier run would bill part of it for good. A dry run may look at the open month (marked
    provisional, metered up to now) and writes nothing. A second run over the same month creates
    nothing, except the corrected revision of a line a credit note has credited, which goes on a
    new statement referring to the credited one. `issue` then issues every draft statement of
    the month (so a run interrupted mid-issue is completed by running it again). `item_ids`
    restricts the run to those contract items (a rebill).
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
    if not dry_run:
        refuse_open_period(p, as_of)
    wanted_items = set(item_ids) if item_ids is not None else None
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
        latest, credited = _billed_keys(s, p, numbers)
        x.data = _load_data(s, contracts, p, as_of)

        def cancel() -> RunSummary:
            uow.rollback()
            return RunSummary(p.label, dry_run, 0, 0, 0, 0, 0, (), Decimal("0.00"), Decimal("0.00"),
                              Decimal("0.00"), (), cancelled=True)
        # (subsidiary, customer, statement rebilled or 0) -> [(contract, charge, revision)]
        new: dict[tuple[int, int, int], list[tuple[Contract, B.Charge, int]]] = defaultdict(list)
        skipped = rebilled = 0
        for done, c in enumerate(contracts):
            if cancelled and cancelled():
                return cancel()
            x.lang = c.language
            for it in c.items:
                if wanted_items is not None and it.id not in wanted_items:
                    continue
                for ch in item_charges(s, c, it, x):
                    prev = latest.get((it.id, ch.charge))
                    if prev is None:
                        revision, rebills = 1, 0
                    elif (it.id, ch.charge, prev[0]) in credited:
                        revision, rebills = prev[0] + 1, prev[1]
                        rebilled += 1
                    else:
                        skipped += 1
                        continue
                    if ch.tax_category not in rates:
                        raise RuleViolation(f"there is no tax rate for {ch.tax_category} valid in {p.label}; "
                                            "an administrator adds it under settings")
                    new[(c.subsidiary_id, c.customer_id, rebills)].append((c, ch, revision))
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
        drafts: dict[tuple[int, int, int], Statement] = {}
        if not dry_run and groups:
            # the existing drafts this run extends, locked (one query per 500 customers)
            wanted = set(new)
            for chunk in _chunks(cust for _sub, cust, _r in wanted):
                for st in s.execute(select(Statement).where(
                        Statement.customer_id.in_(chunk), Statement.period == p.label,
                        Statement.kind == StatementKind.STATEMENT, Statement.status == StatementStatus.DRAFT)
                        .order_by(Statement.id).with_for_update(of=Statement)).scalars():
                    key = (st.subsidiary_id, st.customer_id, st.rebills_id or 0)
                    if key in wanted:
                        drafts.setdefault(key, st)
        subs: dict[int, str] = {}
        cust_names: dict[int, str] = {}
        if groups:
            subs = dict(s.execute(select(Subsidiary.id, Subsidiary.code)).all())
            for chunk in _chunks(cust for _sub, cust, _r in new):
                cust_names.update(s.execute(select(Customer.id, Customer.name).where(Customer.id.in_(chunk))).all())
        now_ = dt.datetime.now(dt.timezone.utc)
        written: list[tuple] = []  # (statement, is new, its existing lines, new lines, totals)
        with s.no_autoflush:  # every statement goes out in the one flush below (one UPDATE per extended draft)
            for (sub_id, cust_id, rebills), charges in groups:
                charges.sort(key=lambda cc: (cc[0].number, cc[1].contract_item_id or 0, CHARGE_ORDER.get(cc[1].charge, 9)))
                lines = []
                for _c, ch, revision in charges:
                    rate = rates[ch.tax_category]
                    note = ch.note or None
                    if revision > 1:
                        note = (f"rev. {revision}; " + (note or ""))[:4000]
                    lines.append(dict(contract_item_id=ch.contract_item_id, charge=ch.charge, period=p.label,
                                      description=ch.description[:255], quantity=ch.quantity, unit=ch.unit,
                                      unit_price=ch.unit_price, amount=ch.amount, tax_rate=rate,
                                      tax=B.tax_for(ch.amount, rate), note=note, revision=revision))
                for ln in lines:
                    sub_total += ln["amount"]
                    tax_total += ln["tax"]
                lines_created += len(lines)
                if dry_run:
                    infos = tuple(LineInfo(None, ln["contract_item_id"], numbers.get(ln["contract_item_id"], ""),
                                           ln["charge"], ln["period"], ln["description"], ln["quantity"], ln["unit"],
                                           ln["unit_price"], ln["amount"], ln["tax_rate"], ln["tax"], ln["note"] or "",
                                           ln["revision"])
                                  for ln in lines)
                    tot = B.totals([(ln["amount"], ln["tax"]) for ln in lines])
                    previews.append(StatementInfo(None, None, StatementKind.STATEMENT, sub_id, subs[sub_id], cust_id,
                                                  cust_names[cust_id], p.label, StatementStatus.DRAFT, tot.subtotal,
                                                  tot.tax, tot.total, _words(tot.total), None, None, None, None, None, 0,
                                                  infos, (), rebills or None))
                    created += 1
                    continue
                st = drafts.get((sub_id, cust_id, rebills))
                is_new = st is None
                if is_new:
                    old = []
                    st = Statement(kind=StatementKind.STATEMENT, subsidiary_id=sub_id, customer_id=cust_id,
                                   period=p.label, status=StatementStatus.DRAFT, rebills_id=rebills or None)
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
                                  ln.quantity, ln.unit, ln.unit_price, ln.amount, ln.tax_rate, ln.tax, ln.note or "",
                                  ln.revision)
                         for ln in old]
                infos += [LineInfo(ln["id"], ln["contract_item_id"], numbers.get(ln["contract_item_id"], ""),
                                   ln["charge"], ln["period"], ln["description"], ln["quantity"], ln["unit"],
                                   ln["unit_price"], ln["amount"], ln["tax_rate"], ln["tax"], ln["note"] or "",
                                   ln["revision"])
                          for ln in mine]
                infos.sort(key=lambda li: li.id)
                previews.append(StatementInfo(st.id, st.number, st.kind, st.subsidiary_id, subs[st.subsidiary_id],
                                              st.customer_id, cust_names[st.customer_id], st.period, st.status,
                                              st.subtotal, st.tax, st.total, _words(st.total), st.issued_at,
                                              st.original_id, None, st.reason, st.fapiao_no, st.version,
                                              tuple(infos), tuple(credits.get(st.id, ())), st.rebills_id))
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
                             "rebilled": rebilled, "subtotal": sub_total, "tax": tax_total,
                             "warnings": list(warnings)})
            uow.commit()
    summary = RunSummary(p.label, dry_run, created, extended, lines_created, skipped, x.held, warnings,
                         sub_total, tax_total, sub_total + tax_total, tuple(previews),
                         provisional_until=as_of if dry_run and as_of < p.end else None, rebilled=rebilled)
    if issue:
        result = issue_statements(db, actor, period=p.label)
        shown = list(dict.fromkeys(touched + [sid for sid, _n, _t in result.issued]))
        with db.session() as s:  # show them as issued, with their numbers
            fresh = tuple(_statement_infos(s, shown))
        summary = replace(summary, issued=tuple(n for _i, n, _t in result.issued), statements=fresh)
    if not summary.cancelled:
        summary = replace(summary, pending_drafts=pending_drafts(db, p.label))
    return summary


def refuse_open_period(p: B.Period, as_of: dt.datetime) -> None:
    """A month is billed once it has ended in Asia/Shanghai (usage is metered up to the run)."""
    if as_of < p.end:
        raise ValidationError({"period": f"{p.label} has not ended; it can be billed from {p.next_first} 00:00 "
                                         "Asia/Shanghai (a dry run shows it now, provisionally)"})


def period_has_ended(period: str, as_of: dt.datetime | None = None) -> bool:
    """Whether a real run may bill the month (it has ended in Asia/Shanghai)."""
    return B.Period.parse(period).end <= (as_of or dt.datetime.now(dt.timezone.utc))


def billable_from(period: str) -> dt.date:
    """The Shanghai day from which the month can be billed: the first of the next month."""
    return B.Period.parse(period).next_first


def billable_periods(count: int = 12, as_of: dt.datetime | None = None) -> list[str]:
    """The last `count` months that have ended in Asia/Shanghai, newest first (what a real run may bill)."""
    as_of = as_of or dt.datetime.now(dt.timezone.utc)
    p = B.Period.containing(B.local_date(as_of))
    out = []
    for _ in range(count):
        p = B.Period.containing(p.first - dt.timedelta(days=1))
        out.append(p.label)
    return out


def pending_drafts(db: Database, period: str) -> int:
    """Draft statements of the period not yet issued."""
    from sqlalchemy import func

    with db.session() as s:
        return s.execute(select(func.count()).select_from(Statement).where(
            Statement.period == B.Period.parse(period).label, Statement.kind == StatementKind.STATEMENT,
            Statement.status == StatementStatus.DRAFT)).scalar_one()


def _billed_keys(s: Session, p: B.Period, numbers: dict[int, str]):
    """The period's billed keys: (item, charge) -> (latest revision, its statement id), and the
    (item, charge, revision) keys a credit note has credited in full (those may be billed again)."""
    latest: dict[tuple[int, str], tuple[int, int]] = {}
    credited: set[tuple[int, str, int]] = set()
    for item_id, charge, revision, sid in s.execute(
            select(StatementLine.contract_item_id, StatementLine.charge, StatementLine.revision,
                   StatementLine.statement_id).where(StatementLine.period == p.label)):
        if item_id not in numbers:
            continue
        if charge.startswith(CREDIT_PREFIX):
            credited.add((item_id, charge[len(CREDIT_PREFIX):], revision))
        elif charge.startswith(PARTIAL_PREFIX):
            continue
        else:
            cur = latest.get((item_id, charge))
            if cur is None or revision > cur[0]:
                latest[(item_id, charge)] = (revision, sid)
    return latest, credited


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
            st.due_date = statement_due_date(s, st, st.issued_at)
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
                     line_ids: Iterable[int] | None = None, amount: Decimal | str | None = None,
                     at: dt.datetime | None = None) -> StatementInfo:
    """Issue a credit note against an issued statement: all its lines, the lines named, or, with
    `amount`, part of one line.

    A line credited in full is reversed (what is left of it, after any partial credit) and its key
    (item, charge, period, revision) is freed: the next run, or rebill_statement, bills the
    corrected revision on a new statement that refers to this one. A partial credit (one line, an
    amount below what is left of it) reduces the charge, which stands: nothing is rebilled.
    A credit note itself is never credited (a debit note is not issued): to undo a credit note,
    rebill the credited lines.
    """
    require(actor, "run_billing")
    if not (reason and reason.strip()):
        raise ValidationError({"reason": "a credit note says why"})
    partial = None
    if amount is not None and amount != "":
        try:
            partial = Decimal(str(amount).replace(",", ""))
        except InvalidOperation:
            partial = None
        if partial is None or not partial.is_finite() or partial <= 0 or partial != B.fen(partial):
            raise ValidationError({"amount": f"a partial credit is a positive amount in yuan and fen, not {amount!r}"})
        if line_ids is None or len(set(line_ids)) != 1:
            raise ValidationError({"line_ids": "a partial credit by amount names exactly one line (--line LINE_ID)"})
    at = at or dt.datetime.now(dt.timezone.utc)
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        orig = _find_statement(s, key, lock=True)
        if orig.kind != StatementKind.STATEMENT:
            raise RuleViolation(f"{orig.number} is a credit note; a credit note is not credited again. To charge "
                                f"its lines again, rebill the statement it credited (billing rebill NUMBER)")
        if orig.status != StatementStatus.ISSUED:
            raise RuleViolation(f"only an issued statement is credited; {orig.number or f'#{orig.id}'} is "
                                "a draft (change the draft instead)")
        wanted = set(line_ids) if line_ids is not None else None
        lines = [ln for ln in orig.lines if wanted is None or ln.id in wanted]
        if wanted is not None and len(lines) != len(wanted):
            missing = sorted(wanted - {ln.id for ln in orig.lines})
            raise ValidationError({"line_ids": f"line(s) {missing} are not on {orig.number}"})
        if not lines:
            raise ValidationError({"line_ids": f"{orig.number} has no lines to credit"})
        # what earlier credit notes took off each line: (amount, tax, full credit number or None)
        taken: dict[int, list] = {}
        for ln in lines:
            done_amount = done_tax = Decimal("0.00")
            full = part = None
            for number, charge, c_amount, c_tax in s.execute(
                    select(Statement.number, StatementLine.charge, StatementLine.amount, StatementLine.tax)
                    .join(StatementLine).where(
                        Statement.original_id == orig.id, StatementLine.contract_item_id == ln.contract_item_id,
                        StatementLine.charge.in_([f"{CREDIT_PREFIX}{ln.charge}", f"{PARTIAL_PREFIX}{ln.charge}"]),
                        StatementLine.period == ln.period, StatementLine.revision == ln.revision)):
                done_amount += c_amount
                done_tax += c_tax
                if charge.startswith(CREDIT_PREFIX):
                    full = number
                else:
                    part = number
            if full:
                raise RuleViolation(f"line “{ln.description}” of {orig.number} was already credited by {full}")
            if partial is not None and part:
                raise RuleViolation(f"line “{ln.description}” of {orig.number} already has a partial credit ({part}); "
                                    "credit the rest of it in full, and the corrected charge is rebilled")
            taken[ln.id] = [done_amount, done_tax]
        if partial is not None:
            ln = lines[0]
            left = ln.amount + taken[ln.id][0]
            if partial >= abs(left):
                raise ValidationError({"amount": f"a partial credit is less than what is left of the line "
                                                 f"({format_amount(abs(left))}); to credit all of it, leave out the amount"})
        cn = Statement(kind=StatementKind.CREDIT_NOTE, subsidiary_id=orig.subsidiary_id, customer_id=orig.customer_id,
                       period=orig.period, status=StatementStatus.DRAFT, original_id=orig.id, reason=reason.strip(),
                       updated_by=actor.login)
        langs = dict(s.execute(select(ContractItem.id, Contract.language).join(Contract).where(
            ContractItem.id.in_([ln.contract_item_id for ln in lines if ln.contract_item_id]))).all())
        for ln in lines:
            en = langs.get(ln.contract_item_id) == "en"
            done_amount, done_tax = taken[ln.id]
            if partial is not None:
                sign = -1 if ln.amount > 0 else 1  # against the line: a credit of a charge, a debit of a discount
                quantity, price, amount_ = Decimal(sign), partial, sign * partial
                tax = B.tax_for(amount_, ln.tax_rate)
                charge = f"{PARTIAL_PREFIX}{ln.charge}"
                prefix = f"Partial credit of {orig.number}: " if en else f"部分冲减 {orig.number}："
            elif done_amount:
                left = ln.amount + done_amount  # after a partial credit: the rest, as 1 × what is left
                sign = -1 if left > 0 else 1
                quantity, price, amount_ = Decimal(sign), abs(left), -left
                tax = -(ln.tax + done_tax)
                charge = f"{CREDIT_PREFIX}{ln.charge}"
                prefix = f"Reversal of the rest of {orig.number}: " if en else f"冲销 {orig.number} 余额："
            else:
                quantity, price, amount_, tax = -ln.quantity, ln.unit_price, -ln.amount, -ln.tax
                charge = f"{CREDIT_PREFIX}{ln.charge}"
                prefix = f"Reversal of {orig.number}: " if en else f"冲销 {orig.number}："
            cn.lines.append(StatementLine(
                contract_item_id=ln.contract_item_id, charge=charge[:16], period=ln.period,
                description=(prefix + ln.description)[:255], quantity=quantity, unit=ln.unit,
                unit_price=price, amount=amount_, tax_rate=ln.tax_rate, tax=tax, revision=ln.revision,
                note=f"{orig.number} #{ln.id}" + (f" rev. {ln.revision}" if ln.revision > 1 else "")))
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
        cn.due_date = statement_due_date(s, cn, at)
        flush_versioned(uow, cn, f"credit note {cn.number}")
        uow.audit("statement.credit", "statement", cn.id, cn.number, reason=reason.strip(),
                  after={"original": orig.number, "lines": len(lines), "partial": partial is not None,
                         "subtotal": tot.subtotal, "tax": tot.tax, "total": tot.total})
        info = _statement_info(s, cn)
        uow.commit()
        return info


def rebill_statement(db: Database, actor: Actor, key: int | str, *, issue: bool = False,
                     as_of: dt.datetime | None = None) -> RunSummary:
    """Bill again, as their next revision, the lines of an issued statement that credit notes
    credited in full, on a new statement referring to it (the charge as the contract, handover,
    leases and readings now give it). The regular run of the month does the same for every
    customer; this does it for one statement now."""
    require(actor, "run_billing")
    with db.session() as s:
        st = _find_statement(s, key)
        if st.kind != StatementKind.STATEMENT or st.status != StatementStatus.ISSUED:
            raise RuleViolation(f"{st.number or f'#{st.id}'} is not an issued statement; a rebill corrects the "
                                "credited lines of an issued statement")
        p = B.Period.parse(st.period)
        item_ids = {ln.contract_item_id for ln in st.lines if ln.contract_item_id}
        latest, credited = _billed_keys(s, p, dict.fromkeys(item_ids, ""))
        free = {item for (item, charge), (rev, sid) in latest.items() if (item, charge, rev) in credited}
        number = st.number
        if not free:
            mine = {(ln.contract_item_id, ln.charge, ln.revision) for ln in st.lines}
            if mine & credited:
                raise RuleViolation(f"the credited lines of {number} were already rebilled; see its later statements")
            raise RuleViolation(f"no line of {number} has been credited in full; credit it first "
                                f"(billing credit {number} --reason …), then rebill")
    summary = run_billing(db, actor, p.label, as_of=as_of, item_ids=free)
    if issue:
        ids = [st.id for st in summary.statements if st.id]
        result = issue_statements(db, actor, statement_ids=ids)
        with db.session() as s:
            fresh = tuple(_statement_infos(s, ids))
        summary = replace(summary, issued=tuple(n for _i, n, _t in result.issued), statements=fresh,
                          pending_drafts=pending_drafts(db, p.label))
    return summary


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


_YES = {"1", "y", "yes", "true", "reset", "是"}


def import_meter_readings(db: Database, actor: Actor, source: str | Path | Iterable[dict]) -> MeterImport:
    """CSV with columns rack, read_at, kwh_total (cumulative) and an optional reset column. All rows or none.

    Times without an offset are Asia/Shanghai. A row already stored with the same value is
    counted as unchanged; the same rack and time with another value is refused. A cumulative
    counter only goes down when the meter was reset or replaced: such a reading is accepted
    only with reset=1 (yes/true), and billing then counts it from zero; any other reading
    below the one before it, or above the one after it, is refused.
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
        resets: set[tuple[int, dt.datetime]] = set()
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
            if str(row.get("reset") or "").strip().lower() in _YES:
                resets.add(key)
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
            _check_counters_rise(s, parsed, stored, resets, errors)
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


def _check_counters_rise(s: Session, parsed: dict, stored: dict, resets: set, errors: dict) -> None:
    """A new reading lower than the reading before it (stored or imported) must be marked reset;
    a new reading higher than a stored one after it would turn that one into a drop: refused."""
    for rack_id in {k[0] for k in parsed}:
        times = [k[1] for k in parsed if k[0] == rack_id]
        series = {t: (v, None) for (r, t), v in stored.items() if r == rack_id}
        before = s.execute(select(MeterReading.read_at, MeterReading.kwh_total).where(
            MeterReading.rack_id == rack_id, MeterReading.read_at < min(times))
            .order_by(MeterReading.read_at.desc()).limit(1)).first()
        after = s.execute(select(MeterReading.read_at, MeterReading.kwh_total).where(
            MeterReading.rack_id == rack_id, MeterReading.read_at > max(times))
            .order_by(MeterReading.read_at).limit(1)).first()
        for row in (before, after):
            if row is not None:
                series[row[0]] = (row[1], None)
        for (r, t), (kwh, n) in parsed.items():
            if r == rack_id and t not in series:
                series[t] = (kwh, n)
        ordered = sorted(series.items())
        for (t0, (v0, n0)), (t1, (v1, n1)) in zip(ordered, ordered[1:]):
            if v1 >= v0 or (rack_id, t1) in resets:
                continue
            if n1 is not None:
                errors.setdefault(f"line {n1}", f"kwh_total {v1} is below the reading before it ({v0} at {_fmt_t(t0)}); "
                                                f"if the meter was reset or replaced, mark the row reset=1")
            elif n0 is not None:
                errors.setdefault(f"line {n0}", f"kwh_total {v0} is above the stored reading after it "
                                                f"({v1} at {_fmt_t(t1)})")


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
