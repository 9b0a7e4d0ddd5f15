"""Plain data the renderers take. ``app/`` fills these; nothing here touches a database.

Money and quantities are ``Decimal``; dates are ``date``; timestamps are ``datetime``
already in local time (Asia/Shanghai) or preformatted strings where noted.
Sequences are tuples (lists work too). ``language`` is ``"zh"`` or ``"en"``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal


@dataclass(frozen=True)
class Party:
    name: str
    credit_code: str = ""  # 统一社会信用代码
    address: str = ""
    bank_name: str = ""
    bank_account: str = ""
    phone: str = ""


# --- statements and credit notes -------------------------------------------------

@dataclass(frozen=True)
class StatementLine:
    description: str
    quantity: Decimal
    unit: str
    unit_price: Decimal
    amount: Decimal  # before tax
    tax_rate: Decimal  # 0.06 for 6 %
    tax: Decimal
    note: str = ""


@dataclass(frozen=True)
class CreditLine:
    description: str
    amount: Decimal


@dataclass(frozen=True)
class StatementDoc:
    number: str
    kind: str  # "statement" | "credit_note"
    subsidiary: Party  # seller, letterhead
    customer: Party  # buyer
    period_label: str  # e.g. "2026-10" or "2026年10月"
    issue_date: date
    lines: tuple[StatementLine, ...]
    subtotal: Decimal
    tax: Decimal
    total: Decimal
    total_in_words: str  # 人民币大写, from app.domain.money.amount_in_words
    credits: tuple[CreditLine, ...] = ()
    references: tuple[str, ...] = ()  # credit-note numbers, or the original statement number
    fapiao_no: str = ""
    status: str = ""
    language: str = "zh"
    due_date: date | None = None
    notes: str = ""
    kind_label: str = ""  # the document's name (the screen's word for its kind); default from the styles
    payment_terms: str = ""  # e.g. 月结 30 天; the payment block shows it with the seller's bank account
    fapiao_status: str = ""  # 未开票 / 部分开票 / 已开票, when known


# --- racks ------------------------------------------------------------------------

@dataclass(frozen=True)
class ElevDevice:
    name: str
    model: str
    owner: str
    position: Decimal  # lowest U occupied, 1-based; may be x.5
    height: Decimal  # in U, 0.5 steps
    face: str  # "front" | "rear" (mounted face)
    full_depth: bool = True  # shown on the other face too
    colour: str = "#9FC5E8"  # hex


@dataclass(frozen=True)
class Reservation:
    customer: str
    face: str  # "front" | "rear" | "both"
    u_from: int
    u_to: int  # inclusive


@dataclass(frozen=True)
class RackElevation:
    name: str
    site: str
    room: str
    u_height: int
    power_capacity_kw: Decimal
    power_typical_kw: Decimal
    devices: tuple[ElevDevice, ...] = ()
    reservations: tuple[Reservation, ...] = ()
    customer: str = ""  # lessee of the whole rack, if leased
    leases: tuple[Reservation, ...] = ()  # U ranges leased under the document's contract (drawn, captioned)


@dataclass(frozen=True)
class RackSheetDoc:
    rack: RackElevation
    subsidiary: Party | None = None
    number: str = ""
    generated_at: datetime | None = None
    language: str = "zh"


# --- contracts --------------------------------------------------------------------

@dataclass(frozen=True)
class ContractItemRow:
    description: str
    quantity: Decimal
    unit: str
    unit_price: Decimal
    tax_rate: Decimal
    service_start: date | None = None
    note: str = ""


@dataclass(frozen=True)
class GpuRow:
    serial: str
    model: str
    host: str


@dataclass(frozen=True)
class DeviceRow:
    name: str
    serial: str
    model: str
    rack: str
    position: str  # e.g. "U12" or "U12-U15"


@dataclass(frozen=True)
class ContractSums:
    """A contract's totals (app.services.contracts.totals), as printed under its schedule."""

    monthly: Decimal
    one_off: Decimal
    term_value: Decimal
    vat: Decimal
    total: Decimal
    total_in_words: str
    usage_based: bool = False


@dataclass(frozen=True)
class ContractDoc:
    number: str
    title: str
    subsidiary: Party  # 乙方 / provider, letterhead
    customer: Party  # 甲方 / customer
    start: date
    end: date
    status: str
    terms: tuple[str, ...] = ()
    items: tuple[ContractItemRow, ...] = ()
    service_level: str = ""
    billing_terms: tuple[str, ...] = ()
    racks: tuple[RackElevation, ...] = ()
    gpus: tuple[GpuRow, ...] = ()
    devices: tuple[DeviceRow, ...] = ()
    language: str = "zh"
    sign_place: str = ""
    approval: str = ""  # who approved it, and whether four-eyes was off; empty before approval
    sums: ContractSums | None = None
    draft: bool = False  # not approved yet: printed with 草稿 / DRAFT on every page, not for signature


# --- audit ------------------------------------------------------------------------

@dataclass(frozen=True)
class AuditSummaryRow:
    actor: str
    action: str
    count: int


@dataclass(frozen=True)
class AuditRow:
    seq: int
    time_local: str  # preformatted "2026-10-01 09:30:00"
    actor: str
    action: str
    object: str
    changes: str  # "field: a → b" lines joined with "\n"
    reason: str = ""
    outcome: str = ""


@dataclass(frozen=True)
class AuditReportDoc:
    title: str
    period_from: date
    period_to: date
    filters: str
    generated_at: datetime
    summary: tuple[AuditSummaryRow, ...]
    events: tuple[AuditRow, ...]
    verification: str  # result of verify_audit_chain, in words
    checkpoint: str  # "SEQ:HASH", printed on every page
    subsidiary: Party
    number: str = ""
    language: str = "zh"
    by_object: tuple[tuple[str, int], ...] = ()  # (object type, count), the summary's other cuts
    by_day: tuple[tuple[str, int], ...] = ()     # (local date, count)
    total_events: int | None = None  # events in the period; None: len(events)
    omitted_pages: int = 0  # > 0: the detail is left out, it would take about this many pages


# --- capacity and fleet -----------------------------------------------------------

@dataclass(frozen=True)
class CapacityRow:
    room: str
    rack: str
    units_used: int
    units_total: int
    power_used_kw: Decimal
    power_capacity_kw: Decimal
    gpus_by_state: dict[str, int] = field(default_factory=dict)  # state label → count
    # Leasable space on the day printed (None: not given, the columns are left out)
    leased_u: int | None = None
    reserved_u: int | None = None
    free_u: int | None = None


@dataclass(frozen=True)
class CapacityDoc:
    site: str
    rows: tuple[CapacityRow, ...]
    generated_at: datetime
    gpu_states: tuple[str, ...] = ()  # column order; default: order of first appearance
    subsidiary: Party | None = None
    number: str = ""
    language: str = "zh"
    power: tuple = ()  # reports.power.PowerRackRow of every rack fed by feeds (issue 15)


@dataclass(frozen=True)
class FleetRow:
    model: str
    counts: dict[str, int]  # state label → count
    book_value: Decimal
    revenue_12m: Decimal


@dataclass(frozen=True)
class FleetDoc:
    rows: tuple[FleetRow, ...]
    generated_at: datetime
    states: tuple[str, ...] = ()  # column order; default: order of first appearance
    subsidiary: Party | None = None
    number: str = ""
    language: str = "zh"
    title: str = ""
