"""Statements as the billing use cases return them: results, reading, lookups by key, export.

Shared by the run, issuing and crediting (the constants of a line's key live here too)."""
from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from typing import Callable, Iterable

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.domain import rating as B
from app.domain.clock import local_date
from app.domain.errors import NotFound
from app.domain.money import format_cny
from app.domain.wording import amount_words
from app.store.db import Database
from models import Contract, ContractItem, Customer, Statement, StatementLine, Subsidiary
from models.choices import ContractStatus, LineUnit, StatementKind

BILLED_STATUSES = (ContractStatus.ACTIVE, ContractStatus.SUSPENDED, ContractStatus.EXPIRED,
                   ContractStatus.TERMINATED)
CHARGE_ORDER = {"fee": 0, "usage": 1, "overage": 2, "power": 3, "credit": 4, "sla_credit": 5}
CREDIT_PREFIX = "cn-"  # a credit-note line crediting a line in full: frees its key for a new revision
PARTIAL_PREFIX = "cnp-"  # a partial credit by amount: the charge stands, reduced
WAIVER_PREFIX = "cnw-"  # a waiver: credited in full, the key stays taken (never billed again)
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


# --- due dates: set when a statement is issued (receivables counts from them) -----------------
DEFAULT_TERM_DAYS = 30  # a statement whose contracts name no term, and those issued before terms


def statement_due_date(s: Session, st: Statement, issued_at: dt.datetime) -> dt.date:
    """Issue date in Shanghai plus the (shortest) payment term of the contracts billed on it."""
    if st.kind == StatementKind.CREDIT_NOTE:
        return local_date(issued_at)
    return statement_due_dates(s, [st.id], issued_at)[st.id]


def statement_due_dates(s: Session, statement_ids: list[int], issued_at: dt.datetime) -> dict[int, dt.date]:
    """statement_due_date of many (ordinary) statements issued at one instant, in one query."""
    issued = local_date(issued_at)
    days = dict(s.execute(
        select(StatementLine.statement_id, func.min(Contract.payment_term_days))
        .join(ContractItem, ContractItem.id == StatementLine.contract_item_id)
        .join(Contract, Contract.id == ContractItem.contract_id)
        .where(StatementLine.statement_id.in_(statement_ids))
        .group_by(StatementLine.statement_id)).all())
    return {sid: issued + dt.timedelta(days=DEFAULT_TERM_DAYS if days.get(sid) is None else int(days[sid]))
            for sid in statement_ids}


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
    issued_elsewhere: int = 0  # drafts of the month another run issued meanwhile (none issued twice)

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
        if self.issued_elsewhere:
            parts.append(f"another run issued {self.issued_elsewhere} statement(s) of {self.period} meanwhile "
                         "(none was issued twice; billing list shows their numbers)")
        if not self.cancelled:
            parts.append(f"{self.pending_drafts} draft statement(s) of {self.period} pending issue"
                         + (f" (billing issue --period {self.period})" if self.pending_drafts else ""))
        return "; ".join(parts)


@dataclass(frozen=True)
class IssueSummary:
    issued: tuple[tuple[int, str, Decimal], ...]  # (statement id, number, total)
    skipped: tuple[str, ...]  # sentences
    cancelled: bool = False
    elsewhere: int = 0  # drafts another run issued meanwhile (skipped)


# --- reading ------------------------------------------------------------------------------

def _words(amount: Decimal, language: str | None = None) -> str:
    """The total in words: 人民币大写, or in `language`'s words (app.domain.wording.amount_words)."""
    return amount_words(amount, language or "zh")


def line_text(ln, field: str, lang: str, line_lang: str | None) -> str:
    """A statement line's `description` or `note` for a document in `lang`, the line being billed
    under a contract in `line_lang`: the text written in the document's language at billing time,
    else the line as billed (lines billed before the migration line_languages)."""
    if line_lang is not None and lang != line_lang:
        return getattr(ln, f"{field}_other", None) or getattr(ln, field) or ""
    return getattr(ln, field) or ""


def line_languages(s: Session, item_ids: Iterable[int | None]) -> dict[int, str]:
    """The language of each contract item's contract, which its statement lines are written in."""
    ids = [i for i in set(item_ids) if i]
    out: dict[int, str] = {}
    for chunk in _chunks(ids):
        out.update(s.execute(select(ContractItem.id, Contract.language).join(Contract)
                             .where(ContractItem.id.in_(chunk))).all())
    return out


def _line_info(s: Session, ln: StatementLine, numbers: dict[int, str], language: str | None = None,
               written: dict[int, str] | None = None) -> LineInfo:
    """A line as stored, or with `language` its words and unit in that language (line_text)."""
    description, note, unit = ln.description, ln.note or "", ln.unit
    if language is not None:
        line_lang = (written or {}).get(ln.contract_item_id)
        description = line_text(ln, "description", language, line_lang)
        note = line_text(ln, "note", language, line_lang)
        unit = LineUnit.show(ln.unit, language)
    return LineInfo(ln.id, ln.contract_item_id, numbers.get(ln.contract_item_id, ""), ln.charge, ln.period,
                    description, ln.quantity, unit, ln.unit_price, ln.amount, ln.tax_rate, ln.tax, note, ln.revision)


def _contract_numbers(s: Session, item_ids: Iterable[int | None]) -> dict[int, str]:
    ids = [i for i in set(item_ids) if i]
    if not ids:
        return {}
    return dict(s.execute(select(ContractItem.id, Contract.number).join(Contract)
                          .where(ContractItem.id.in_(ids))).all())


def _statement_info(s: Session, st: Statement, language: str | None = None) -> StatementInfo:
    sub = s.get(Subsidiary, st.subsidiary_id)
    cust = s.get(Customer, st.customer_id)
    lines = sorted(st.lines, key=lambda ln: ln.id)
    numbers = _contract_numbers(s, (ln.contract_item_id for ln in lines))
    written = line_languages(s, (ln.contract_item_id for ln in lines)) if language is not None else None
    original = s.get(Statement, st.original_id) if st.original_id else None
    rebills = s.get(Statement, st.rebills_id) if st.rebills_id else None
    credits = tuple(s.execute(select(Statement.number).where(Statement.original_id == st.id,
                                                             Statement.number.is_not(None))
                              .order_by(Statement.number)).scalars())
    return StatementInfo(st.id, st.number, st.kind, st.subsidiary_id, sub.code, st.customer_id, cust.name,
                         st.period, st.status, st.subtotal, st.tax, st.total,
                         _words(st.total, language), st.issued_at,
                         st.original_id, original.number if original else None, st.reason, st.fapiao_no,
                         st.version, tuple(_line_info(s, ln, numbers, language, written) for ln in lines), credits,
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


def get_statement(db: Database, key: int | str, *, language: str | None = None) -> StatementInfo:
    """By id or by number (e.g. "GZ-202611-000123" or "GZ-CN-202612-000001"). With `language` ('zh' or
    'en') the lines' words and units are in that language, as a document in it prints them (a screen
    in the reader's language); without, as billed (the contract's language: exports, the CLI)."""
    with db.session() as s:
        return _statement_info(s, _find_statement(s, key), language)


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

def _fmt_t(t: dt.datetime) -> str:
    return t.astimezone(B.TZ).strftime("%Y-%m-%d %H:%M")

IN_CHUNK = 500  # ids per IN list (well under SQLite's and PostgreSQL's parameter limits)


def _chunks(ids: Iterable[int], size: int | None = None):
    size = size or IN_CHUNK  # read at the call (a test sets a small IN_CHUNK on this module)
    ids = sorted(set(ids))
    for i in range(0, len(ids), size):
        yield ids[i:i + size]

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
