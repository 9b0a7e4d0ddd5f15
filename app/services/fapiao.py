"""Fapiao (发票) as records: customers' invoicing profiles, the fapiao issued for statements, red-letter
fapiao against credit notes, the tax code of each kind of line and VAT rate, and the bulk-issue export.

The console does not issue fapiao: the finance desk issues them on the tax platform (电子税务局) and
records them here, so that each statement shows how far it is invoiced:

- a **blue** fapiao is recorded against an issued statement: number, date, type, amount (金额, without
  tax) and tax (税额); several per statement, and never more (价税合计) than the statement's total
  net of its credit notes;
- a **red** fapiao (红字) is recorded against the credit note it reverses and linked to the original
  blue fapiao (which must be on the credited statement); its amounts are negative and never more than
  what is left of the original fapiao, nor than the credit note;
- a statement is 未开票 / 部分开票 / 已开票 (models.choices.FapiaoStatus): what its blue fapiao less the
  red ones against them cover of its total net of credit notes.

Every write is audited in its own transaction (app.store.uow.UnitOfWork); amounts are Decimal to the fen.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.orm import Session, aliased

from app.domain import messages as M
from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.clock import DateError, local_today, parse_date
from app.domain.errors import DomainError, NotFound, RuleViolation, ValidationError
from app.domain.messages import message_of
from app.domain.money import format_amount, round_fen
from app.domain.rating import ELECTRICITY, ENERGY_CHARGE  # metered energy: the `power` charge, taxed as electricity
from app.domain.validators import fapiao_number_problem
from app.services.billing.statements import find_statement
from app.services.receivables.lookups import _money, find_customer
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import Contract, ContractItem, Customer, Fapiao, InvoicingProfile, Statement, StatementLine, TaxCode
from models.choices import FapiaoStatus, FapiaoType, ItemKind, StatementKind, StatementStatus
from models.finance import TAX_CODE_KINDS

ZERO = Decimal("0.00")
_TAX_ID = re.compile(r"^[0-9A-Z]{15,20}$")
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def _statement(s: Session, key, lock: bool = False) -> Statement:
    return find_statement(s, key, lock=lock)


def _date(value, field: str = "date") -> dt.date:
    try:
        value = parse_date(value)
    except DateError as exc:
        raise ValidationError({field: message_of(exc)}) from None
    if value is None:
        raise ValidationError({field: "a date (YYYY-MM-DD)"})
    if value > local_today():
        raise ValidationError({field: f"{value} is in the future"})
    return value


def _type(value: str | None) -> str:
    text = (value or "").strip()
    for v, en, zh in FapiaoType.labels():
        if text in (v, en, zh) or text.lower() == en.lower():
            return v
    raise ValidationError({"type": f"the fapiao type is one of {', '.join(FapiaoType.values())} "
                                   f"(数电专票, 数电普票, 纸质发票), not {text!r}"})


# --------------------------------------------------------------------------- invoicing profiles
@dataclass(frozen=True)
class ProfileInfo:
    customer_id: int
    customer: str
    credit_code: str
    title: str
    tax_id: str
    address_phone: str
    bank_account: str
    fapiao_type: str
    email: str


PROFILE_FIELDS = ("title", "tax_id", "address_phone", "bank_account", "fapiao_type", "email")


def _profile_info(c: Customer, p: InvoicingProfile | None) -> ProfileInfo | None:
    if p is None:
        return None
    return ProfileInfo(c.id, c.name, c.credit_code or "", p.title, p.tax_id, p.address_phone or "",
                       p.bank_account or "", p.fapiao_type, p.email or "")


def get_profile(db: Database, customer: str | int) -> ProfileInfo | None:
    with db.session() as s:
        c = find_customer(s, customer)
        return _profile_info(c, s.execute(select(InvoicingProfile).where(InvoicingProfile.customer_id == c.id)
                                          ).scalar_one_or_none())


def check_profile(values: dict) -> dict:
    """The profile's fields cleaned, or ValidationError naming every bad one."""
    v = {k: (str(values.get(k) or "").strip()) for k in PROFILE_FIELDS}
    errors = {}
    if not v["title"] or len(v["title"]) > 255:
        errors["title"] = "the buyer's name on the fapiao (名称), 1 to 255 characters"
    v["tax_id"] = v["tax_id"].upper()
    if not _TAX_ID.match(v["tax_id"]):
        errors["tax_id"] = "纳税人识别号 is 15 to 20 digits or capital letters (usually the 18-character credit code)"
    for k in ("address_phone", "bank_account", "email"):
        if len(v[k]) > 255:
            errors[k] = "at most 255 characters"
    if v["email"] and not _EMAIL.match(v["email"]):
        errors["email"] = f"{v['email']!r} is not an e-mail address"
    try:
        v["fapiao_type"] = _type(v["fapiao_type"] or FapiaoType.DIGITAL_SPECIAL)
    except ValidationError as exc:
        errors["fapiao_type"] = exc.errors["type"]
    if errors:
        raise ValidationError(errors)
    return v


def set_profile_in(uow: UnitOfWork, c: Customer, values: dict) -> str:
    """Create or change a customer's invoicing profile inside the caller's unit of work (audited)."""
    v = check_profile(values)
    s = uow.session
    p = s.execute(select(InvoicingProfile).where(InvoicingProfile.customer_id == c.id)).scalar_one_or_none()
    before = None if p is None else {k: getattr(p, k) for k in PROFILE_FIELDS}
    after = {k: (v[k] or None) if k in ("address_phone", "bank_account", "email") else v[k] for k in PROFILE_FIELDS}
    if before == after:
        return "unchanged"
    if p is None:
        p = InvoicingProfile(customer_id=c.id, **after)
        s.add(p)
    else:
        for k, val in after.items():
            setattr(p, k, val)
    p.updated_at, p.updated_by = dt.datetime.now(dt.timezone.utc), uow.actor.login
    s.flush()
    uow.audit("customer.invoicing_profile", "customer", c.id, c.name, before=before, after=after)
    return "created" if before is None else "updated"


def set_profiles(db: Database, actor: Actor, rows: list[dict], source: str, *, dry_run: bool = False) -> dict:
    """Invoicing profiles for many customers (a file's rows, the first on line 2: credit_code or customer,
    title, tax_id, address_phone, bank_account, fapiao_type, email): all rows or none (ValidationError
    listing every bad row by line number); each change audited like a form's, and one `import` event
    named after `source`. Returns the counts (rows, created, updated, unchanged)."""
    require(actor, "import")
    require(actor, "manage_customers")
    errors: dict[str, str] = {}
    counts = {"rows": len(rows), "created": 0, "updated": 0, "unchanged": 0}
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        seen: dict[int, int] = {}
        for n, r in enumerate(rows, start=2):
            try:
                c = find_customer(s, r.get("credit_code") or r.get("customer") or "")
                if c.id in seen:
                    raise ValidationError({"customer": f"{c.name} is also on row {seen[c.id]}"})
                seen[c.id] = n
                values = {k: r.get(k, "") for k in ("title", "tax_id", "address_phone", "bank_account", "email")}
                values["fapiao_type"] = r.get("fapiao_type") or FapiaoType.DIGITAL_SPECIAL
                with s.begin_nested():
                    counts[set_profile_in(uow, c, values)] += 1
            except ValidationError as exc:
                errors[f"row {n}"] = "; ".join(f"{k}: {v}" for k, v in exc.errors.items())
            except DomainError as exc:
                errors[f"row {n}"] = exc.message
        if errors:
            raise ValidationError(errors)
        if dry_run:
            return counts
        uow.audit("import", "customer", None, source, after={"kind": "invoicing-profiles", **counts})
        uow.commit()
    return counts


def set_profile(db: Database, actor: Actor, customer: str | int, **values) -> ProfileInfo:
    """Set a customer's 开票信息: title, tax_id, address_phone, bank_account, fapiao_type, email."""
    require(actor, "manage_customers")
    with UnitOfWork(db, actor) as uow:
        c = find_customer(uow.session, customer)
        set_profile_in(uow, c, values)
        info = _profile_info(c, uow.session.execute(
            select(InvoicingProfile).where(InvoicingProfile.customer_id == c.id)).scalar_one())
        uow.commit()
        return info


# --------------------------------------------------------------------------- status
@dataclass(frozen=True)
class FapiaoCover:
    statement_id: int
    target: Decimal      # the statement's total net of credit notes (a credit note: its own total)
    invoiced: Decimal    # blue less red against them (a credit note: its red fapiao)
    count: int

    @property
    def status(self) -> str:
        if self.invoiced == 0 and (self.target != 0 or self.count == 0):
            return FapiaoStatus.NONE
        return FapiaoStatus.FULL if self.invoiced == self.target else FapiaoStatus.PARTIAL

    @property
    def left(self) -> Decimal:
        return round_fen(self.target - self.invoiced)


def covers(s: Session, ids: list[int] | None = None) -> dict[int, FapiaoCover]:
    """The fapiao cover of issued statements and credit notes (all, or those ids): set-based."""
    q = select(Statement.id, Statement.kind, Statement.total).where(Statement.status == StatementStatus.ISSUED)
    if ids is not None:
        if not ids:
            return {}
        q = q.where(Statement.id.in_(ids))
    rows = s.execute(q).all()
    credited = dict(s.execute(
        select(Statement.original_id, func.sum(Statement.total))
        .where(Statement.status == StatementStatus.ISSUED, Statement.kind == StatementKind.CREDIT_NOTE,
               Statement.original_id.is_not(None)).group_by(Statement.original_id)).all())
    own = {sid: (Decimal(a), n) for sid, a, n in s.execute(
        select(Fapiao.statement_id, func.sum(Fapiao.amount + Fapiao.tax), func.count())
        .group_by(Fapiao.statement_id)).all()}
    orig = aliased(Fapiao)
    red_on_original = dict(s.execute(
        select(orig.statement_id, func.sum(Fapiao.amount + Fapiao.tax))
        .join(orig, orig.id == Fapiao.original_id).where(Fapiao.kind == "red").group_by(orig.statement_id)).all())
    out = {}
    for sid, kind, total in rows:
        amount, n = own.get(sid, (ZERO, 0))
        if kind == StatementKind.CREDIT_NOTE:
            out[sid] = FapiaoCover(sid, round_fen(Decimal(total)), round_fen(amount), n)
        else:
            out[sid] = FapiaoCover(sid, round_fen(Decimal(total) + Decimal(credited.get(sid, 0))),
                                   round_fen(amount + Decimal(red_on_original.get(sid, 0))), n)
    return out


def statement_fapiao_status(db: Database, statement: str | int) -> tuple[str, Decimal, Decimal]:
    """(status, invoiced, target) of one statement or credit note."""
    with db.session() as s:
        st = _statement(s, statement)
        cover = covers(s, [st.id]).get(st.id)
        if cover is None:
            return FapiaoStatus.NONE, ZERO, round_fen(Decimal(st.total))
        return cover.status, cover.invoiced, cover.target


# --------------------------------------------------------------------------- records
@dataclass(frozen=True)
class FapiaoInfo:
    id: int
    kind: str
    number: str
    issued_on: dt.date
    fapiao_type: str
    amount: Decimal
    tax: Decimal
    statement: str
    original: str | None
    customer: str
    note: str

    @property
    def total(self) -> Decimal:
        return self.amount + self.tax

    def describe(self) -> str:
        what = "red-letter fapiao" if self.kind == "red" else "fapiao"
        text = (f"{what} {self.number} {self.issued_on} {FapiaoType.label(self.fapiao_type, 'zh')} "
                f"amount ¥{format_amount(self.amount)} tax ¥{format_amount(self.tax)} on {self.statement}")
        return text + (f" (reverses {self.original})" if self.original else "")


def _info(s: Session, f: Fapiao) -> FapiaoInfo:
    st = s.get(Statement, f.statement_id)
    orig = s.get(Fapiao, f.original_id) if f.original_id else None
    cust = s.get(Customer, st.customer_id)
    return FapiaoInfo(f.id, f.kind, f.number, f.issued_on, f.fapiao_type, Decimal(f.amount), Decimal(f.tax),
                      st.number or str(st.id), orig.number if orig else None, cust.name, f.note or "")


def _check_number(s: Session, number: str) -> str:
    number = (number or "").strip()
    problem = fapiao_number_problem(number)
    if problem:
        raise ValidationError({"number": problem})
    if s.execute(select(Fapiao.id).where(Fapiao.number == number)).first():
        raise RuleViolation(f"fapiao {number} is already recorded")
    return number


def _check_tax(s: Session, st: Statement, amount: Decimal, tax: Decimal) -> None:
    """A fapiao's tax is its amount at the statement's rates: between the amount at the lowest and at
    the highest rate of the statement's lines, give or take a fen per line (each line of a fapiao is
    rounded to the fen on its own). ¥50 tax on ¥100 of a 6 % statement is a typing error."""
    rates = sorted({Decimal(r) for (r,) in s.execute(select(StatementLine.tax_rate)
                                                     .where(StatementLine.statement_id == st.id))})
    if not rates:
        return
    lines = s.execute(select(func.count()).select_from(StatementLine)
                      .where(StatementLine.statement_id == st.id)).scalar_one()
    slack = Decimal("0.01") * lines
    low, high = round_fen(amount * rates[0]), round_fen(amount * rates[-1])
    if low - slack <= tax <= high + slack:
        return
    shown = " or ".join(f"{(r * 100).normalize():f} %" for r in rates)
    expected = f"¥{format_amount(low)}" if low == high else f"¥{format_amount(low)} to ¥{format_amount(high)}"
    raise ValidationError({"tax": M.FAPIAO_TAX(format_amount(tax), format_amount(amount), st.number, shown,
                                               expected)})


def _profile_type(s: Session, customer_id: int) -> str:
    t = s.execute(select(InvoicingProfile.fapiao_type).where(InvoicingProfile.customer_id == customer_id)).scalar()
    return t or FapiaoType.DIGITAL_SPECIAL


def add_fapiao(db: Database, actor: Actor, statement: str | int, number: str, issued_on, amount, tax, *,
               fapiao_type: str | None = None, note: str | None = None) -> FapiaoInfo:
    """Record a (blue) fapiao issued for an issued statement."""
    require(actor, "run_billing")
    errors = {}
    try:
        issued_on = _date(issued_on)
    except ValidationError as exc:
        errors.update(exc.errors)
    try:
        amount = _money(amount)
        if amount <= 0:
            errors["amount"] = "a fapiao's amount (金额, without tax) is positive; a red-letter one is `fapiao red`"
    except ValidationError as exc:
        errors.update(exc.errors)
    try:
        tax = _money(tax, "tax")
        if tax < 0:
            errors["tax"] = "the tax (税额) is zero or positive"
    except ValidationError as exc:
        errors.update(exc.errors)
    if errors:
        raise ValidationError(errors)
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        st = _statement(s, statement, lock=True)
        if st.status != StatementStatus.ISSUED:
            raise RuleViolation("a fapiao is recorded against an issued statement; issue this one first")
        if st.kind == StatementKind.CREDIT_NOTE:
            raise RuleViolation(f"{st.number} is a credit note: record its red-letter fapiao with `fapiao red`")
        number = _check_number(s, number)
        ftype = _type(fapiao_type) if fapiao_type else _profile_type(s, st.customer_id)
        cover = covers(s, [st.id])[st.id]
        if amount + tax > cover.left:
            raise RuleViolation(f"statement {st.number} has ¥{format_amount(cover.left)} left to invoice "
                                f"(total ¥{format_amount(cover.target)} net of credit notes, "
                                f"¥{format_amount(cover.invoiced)} invoiced); this fapiao is "
                                f"¥{format_amount(amount + tax)}")
        _check_tax(s, st, amount, tax)
        f = Fapiao(statement_id=st.id, kind="blue", number=number, issued_on=issued_on, fapiao_type=ftype,
                   amount=amount, tax=tax, note=(note or "").strip() or None, created_by=uow.actor.login)
        s.add(f)
        s.flush()
        after = covers(s, [st.id])[st.id]
        uow.audit("fapiao.add", "fapiao", f.id, number,
                  after={"statement": st.number, "date": issued_on, "type": ftype, "amount": amount, "tax": tax,
                         "status": after.status})
        info = _info(s, f)
        uow.commit()
        return info


def add_red_fapiao(db: Database, actor: Actor, credit_note: str | int, number: str, original: str, *,
                   issued_on=None, amount=None, tax=None, note: str | None = None) -> FapiaoInfo:
    """Record a red-letter fapiao against the credit note it reverses, linked to the original blue
    fapiao (on the credited statement). Amounts default to what the credit note and the original
    fapiao both leave; given as positive or negative, they are stored negative."""
    require(actor, "run_billing")
    issued_on = _date(issued_on or local_today())
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        cn = _statement(s, credit_note, lock=True)
        if cn.kind != StatementKind.CREDIT_NOTE or cn.status != StatementStatus.ISSUED:
            raise RuleViolation(f"a red-letter fapiao is recorded against the issued credit note it reverses; "
                                f"{cn.number or cn.id} is not one")
        number = _check_number(s, number)
        o = s.execute(select(Fapiao).where(Fapiao.number == (original or "").strip())).scalar_one_or_none()
        if o is None:
            raise NotFound(f"there is no fapiao {original!r} to reverse (give the original fapiao's number)")
        if o.kind != "blue" or o.statement_id != cn.original_id:
            orig_st = s.get(Statement, cn.original_id)
            raise RuleViolation(f"fapiao {o.number} is not a fapiao of {orig_st.number if orig_st else '?'}, "
                                f"the statement credit note {cn.number} credits")
        o_left_amount, o_left_tax = Decimal(o.amount), Decimal(o.tax)
        for a, t in s.execute(select(Fapiao.amount, Fapiao.tax).where(Fapiao.original_id == o.id)).all():
            o_left_amount += Decimal(a)
            o_left_tax += Decimal(t)
        cover = covers(s, [cn.id])[cn.id]
        cn_left = cover.left  # negative: what of the credit note no red fapiao covers yet
        if amount is None and tax is None:
            # the credit note's amounts, as far as the original fapiao has them left
            amount = max(Decimal(cn.subtotal), -o_left_amount)
            tax = max(Decimal(cn.tax), -o_left_tax)
            if -(amount + tax) > -cn_left:
                raise RuleViolation(f"credit note {cn.number} is partly covered by red-letter fapiao already; "
                                    "give the amount and tax of this one")
        else:
            amount, tax = -abs(_money(amount if amount is not None else 0)), -abs(_money(tax or 0, "tax"))
        if amount >= 0:
            raise RuleViolation(f"nothing is left to reverse: fapiao {o.number} or credit note {cn.number} is "
                                "already covered by red-letter fapiao")
        if -amount > o_left_amount or -tax > o_left_tax:
            raise RuleViolation(f"fapiao {o.number} has ¥{format_amount(o_left_amount)} amount and "
                                f"¥{format_amount(o_left_tax)} tax left to reverse")
        if -(amount + tax) > -cn_left:
            raise RuleViolation(f"credit note {cn.number} has ¥{format_amount(-cn_left)} left to cover; this "
                                f"red-letter fapiao is ¥{format_amount(-(amount + tax))}")
        f = Fapiao(statement_id=cn.id, kind="red", number=number, issued_on=issued_on, fapiao_type=o.fapiao_type,
                   amount=amount, tax=tax, original_id=o.id, note=(note or "").strip() or None,
                   created_by=uow.actor.login)
        s.add(f)
        s.flush()
        uow.audit("fapiao.red", "fapiao", f.id, number,
                  after={"credit_note": cn.number, "original": o.number, "date": issued_on, "amount": amount,
                         "tax": tax})
        info = _info(s, f)
        uow.commit()
        return info


def list_fapiao(db: Database, statement: str | int | None = None, customer: str | int | None = None
                ) -> list[FapiaoInfo]:
    with db.session() as s:
        q = select(Fapiao).order_by(Fapiao.issued_on, Fapiao.id)
        if statement is not None:
            st = _statement(s, statement)
            q = q.where(Fapiao.statement_id == st.id)
        if customer is not None:
            c = find_customer(s, customer)
            q = q.join(Statement, Statement.id == Fapiao.statement_id).where(Statement.customer_id == c.id)
        return [_info(s, f) for f in s.execute(q).scalars()]


FAPIAO_COLUMNS = ("number", "kind", "date", "type", "statement", "customer", "credit_code", "amount", "tax",
                  "total", "original", "statement_status", "note", "recorded_by")


def export_fapiao_rows(db: Database) -> tuple[list[str], list[list]]:
    with db.session() as s:
        cov = covers(s)
        orig = aliased(Fapiao)
        rows = []
        for f, number, sid, name, code, onum in s.execute(
                select(Fapiao, Statement.number, Statement.id, Customer.name, Customer.credit_code, orig.number)
                .join(Statement, Statement.id == Fapiao.statement_id)
                .join(Customer, Customer.id == Statement.customer_id)
                .outerjoin(orig, orig.id == Fapiao.original_id).order_by(Fapiao.issued_on, Fapiao.id)):
            c = cov.get(sid)
            rows.append([f.number, f.kind, f.issued_on.isoformat(), FapiaoType.label(f.fapiao_type, "zh"), number,
                         name, code, round_fen(Decimal(f.amount)), round_fen(Decimal(f.tax)),
                         round_fen(Decimal(f.amount) + Decimal(f.tax)), onum or "",
                         FapiaoStatus.label(c.status, "zh") if c else "", f.note or "", f.created_by or ""])
        return list(FAPIAO_COLUMNS), rows


# --------------------------------------------------------------------------- tax codes
# The code a line is invoiced under follows its kind *and* its VAT rate: the tax platform refuses a
# line whose rate its code does not carry. Defaults with their sources: resources/tax_codes/.
TAX_CODES_FILE = Path(__file__).resolve().parents[2] / "resources" / "tax_codes" / "tax_codes.csv"


@dataclass(frozen=True)
class TaxCodeInfo:
    line_kind: str
    tax_rate: Decimal
    code: str
    short_name: str
    item_name: str
    source: str = ""
    updated_by: str | None = None

    @property
    def project_name(self) -> str:
        """项目名称 as the tax platform prints it: *简称*名称."""
        return f"*{self.short_name}*{self.item_name}"

    @property
    def rate_text(self) -> str:
        return f"{(self.tax_rate * 100).normalize():f} %"


def _rate(value) -> Decimal:
    return Decimal(str(value)).quantize(Decimal("0.0001"))


def default_tax_codes() -> dict[tuple[str, Decimal], TaxCodeInfo]:
    """The defaults of resources/tax_codes/tax_codes.csv (what migration 0026 seeds)."""
    import csv

    with TAX_CODES_FILE.open(encoding="utf-8", newline="") as f:
        return {(r["line_kind"], _rate(r["tax_rate"])): TaxCodeInfo(
                    r["line_kind"], _rate(r["tax_rate"]), r["code"], r["short_name"], r["item_name"],
                    f"{r['verified']}: {r['source']}") for r in csv.DictReader(f)}


def tax_codes(s: Session) -> dict[tuple[str, Decimal], TaxCodeInfo]:
    """(line kind, rate) → code: the table, over the file's defaults (a database built from the models)."""
    out = default_tax_codes()
    for r in s.execute(select(TaxCode)).scalars():
        rate = _rate(r.tax_rate)
        out[(r.line_kind, rate)] = TaxCodeInfo(r.line_kind, rate, r.code, r.short_name, r.item_name, r.source or "",
                                               r.updated_by)
    return out


def list_tax_codes(db: Database) -> list[TaxCodeInfo]:
    with db.session() as s:
        return sorted(tax_codes(s).values(), key=lambda t: (TAX_CODE_KINDS.index(t.line_kind), t.tax_rate))


def line_kind(item_kind: str | None, charge: str) -> str:
    """The kind of line a tax code is chosen by: metered energy is electricity, else the item's kind."""
    return ELECTRICITY if charge == ENERGY_CHARGE else (item_kind or ItemKind.ONE_OFF)


# The rate that families of codes carry (财政部 税务总局 海关总署公告2019年第39号; sources in
# resources/tax_codes/README.md): a code of a known family at another rate is refused, as the tax
# platform would refuse it. Codes outside these families are taken as given.
CODE_RATES = (
    ("304020", "信息技术服务", ("0.06",)),
    ("304050201", "有形动产经营租赁", ("0.13",)),
    ("304050202", "不动产经营租赁", ("0.09",)),
    ("30302", "增值电信服务", ("0.06",)),
    ("30301", "基础电信服务", ("0.09",)),
    ("1100101", "电力", ("0.13",)),
)


def check_tax_code(line_kind_: str, tax_rate, code: str, short_name: str, item_name: str) -> dict:
    errors = {}
    if line_kind_ not in TAX_CODE_KINDS or line_kind_ == ItemKind.DISCOUNT:
        errors["kind"] = (f"the kind of line is one of {', '.join(k for k in TAX_CODE_KINDS if k != 'discount')} "
                          "(a discount goes out under the line it reduces, with that line's code)")
    try:
        rate = _rate(tax_rate)
        if not 0 <= rate < 1:
            raise ValueError
    except (ValueError, ArithmeticError):
        errors["rate"] = f"the VAT rate as a fraction, e.g. 0.06 or 0.13, not {tax_rate!r}"
        rate = None
    code, short_name, item_name = (code or "").strip(), (short_name or "").strip().strip("*"), (item_name or "").strip()
    if not re.fullmatch(r"\d{19}", code):
        errors["code"] = "商品和服务税收分类编码 has 19 digits"
    elif rate is not None:
        for prefix, family, rates in CODE_RATES:
            if code.startswith(prefix) and rate not in {Decimal(r) for r in rates}:
                allowed = " or ".join(f"{(Decimal(r) * 100).normalize():f} %" for r in rates)
                errors["code"] = (f"{code} is {family}, taxed at {allowed}, not {(rate * 100).normalize():f} %: "
                                  f"a line at this rate needs a code of its rate / 该编码属于{family}，税率为{allowed}，"
                                  "与所选税率不符")
                break
    if not short_name or len(short_name) > 32:
        errors["short_name"] = "the code's short name (简称, e.g. 信息系统服务), 1 to 32 characters"
    if not item_name or len(item_name) > 64:
        errors["item_name"] = "the item name printed after it (e.g. 机柜租赁服务), 1 to 64 characters"
    if errors:
        raise ValidationError(errors)
    return {"line_kind": line_kind_, "tax_rate": rate, "code": code, "short_name": short_name, "item_name": item_name}


def set_tax_code(db: Database, actor: Actor, line_kind_: str, tax_rate, *, code: str, short_name: str,
                 item_name: str, source: str | None = None) -> TaxCodeInfo:
    """Set the tax code a kind of line at a VAT rate is invoiced under (administrators; audited)."""
    require(actor, "manage_users")
    v = check_tax_code(line_kind_, tax_rate, code, short_name, item_name)
    v["source"] = (source or "").strip() or None
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        r = s.execute(select(TaxCode).where(TaxCode.line_kind == v["line_kind"], TaxCode.tax_rate == v["tax_rate"])
                      ).scalar_one_or_none()
        fields = ("line_kind", "tax_rate", "code", "short_name", "item_name", "source")
        before = None if r is None else {k: getattr(r, k) for k in fields}
        if before is not None and {k: before[k] for k in fields[2:]} == {k: v[k] for k in fields[2:]}:
            return TaxCodeInfo(**{k: v[k] for k in fields[:5]}, source=v["source"] or "", updated_by=r.updated_by)
        if r is None:
            r = TaxCode(line_kind=v["line_kind"], tax_rate=v["tax_rate"])
            s.add(r)
        for k in fields[2:]:
            setattr(r, k, v[k])
        r.updated_at, r.updated_by = dt.datetime.now(dt.timezone.utc), uow.actor.login
        s.flush()
        label = f"{v['line_kind']} {(v['tax_rate'] * 100).normalize():f}%"
        uow.audit("tax_code.create" if before is None else "tax_code.update", "tax_code", r.id, label,
                  before=before, after={k: v[k] for k in fields})
        uow.commit()
    return TaxCodeInfo(**{k: v[k] for k in fields[:5]}, source=v["source"] or "", updated_by=actor.login)


# --------------------------------------------------------------------------- bulk-issue export
# The tax platform's bulk-issue workbook (发票批量开具模板): a sheet of invoices (发票基本信息) and a
# sheet of their lines (发票明细信息), joined by 发票流水号 (here the statement number). Sources in
# docs/billing.md ("Fapiao"). 发票行性质 and 含税标志 are the platform's line fields (FPHXZ: 0 正常行,
# 1 折扣行, 2 被折扣行; HSBZ: 0 amounts without tax): a discount or credit goes out as a 折扣行 right
# under the line it reduces, with that line's name, code and rate, never as a negative line alone.
HEAD_COLUMNS = ("发票流水号", "发票类型", "购买方名称", "购买方纳税人识别号", "购买方地址电话", "购买方开户行及账号",
                "收票邮箱", "备注")
LINE_COLUMNS = ("发票流水号", "项目名称", "商品和服务税收分类编码", "规格型号", "单位", "数量", "单价", "金额", "税率",
                "税额", "发票行性质", "含税标志")
ROW_NORMAL, ROW_DISCOUNT, ROW_DISCOUNTED = "0", "1", "2"
TAX_EXCLUSIVE = "0"  # 含税标志: our amounts are without tax (金额 + 税额 = 价税合计)


@dataclass
class _Line:
    id: int
    item_id: int | None
    contract_id: int | None
    kind: str
    name: str
    period: str
    unit: str
    quantity: Decimal
    unit_price: Decimal
    amount: Decimal
    rate: Decimal
    tax: Decimal
    left: Decimal = ZERO                 # what discounts may still take off it
    discounts: list | None = None        # [(amount, tax)] tied to it


def _tie_discounts(number: str, lines: list[_Line]) -> list[str]:
    """Tie each negative line (a discount item, a downtime credit) to the positive lines it reduces:
    its own item first, then its contract's lines, then the statement's, always at its own rate, never
    taking a line below zero. Returns the refusals (a discount no line can carry)."""
    problems = []
    for ln in lines:
        ln.left, ln.discounts = ln.amount if ln.amount > 0 else ZERO, []
    for neg in (ln for ln in lines if ln.amount < 0):
        def rank(p: _Line, neg=neg) -> int:
            return 0 if p.item_id == neg.item_id else 1 if p.contract_id == neg.contract_id else 2
        todo, tax_todo = -neg.amount, -neg.tax
        for p in sorted((p for p in lines if p.amount > 0 and p.rate == neg.rate and p.left > 0), key=rank):
            if todo == 0:
                break
            part = min(todo, p.left)
            part_tax = tax_todo if part == todo else min(tax_todo, round_fen(part * neg.rate))
            p.discounts.append((part, part_tax))
            p.left -= part
            todo, tax_todo = todo - part, tax_todo - part_tax
        if todo > 0:
            problems.append(f"{number}: “{neg.name}” (¥{format_amount(neg.amount)} at {(neg.rate * 100).normalize():f} %) "
                            f"is more than the lines at that rate it can reduce (¥{format_amount(todo)} left over)")
    return problems


def fapiao_lines(db: Database, period: str) -> tuple[list[list], list[list]]:
    """(invoice rows, line rows) for the issued statements of a period still to invoice (未开票).

    Refused (RuleViolation, nothing written) when a line's kind and rate have no tax code, or a
    discount cannot be tied to lines it reduces: the platform would refuse the batch.
    """
    from app.domain.rating import Period

    label = Period.parse(period).label
    with db.session() as s:
        codes = tax_codes(s)
        sts = list(s.execute(select(Statement).where(
            Statement.period == label, Statement.status == StatementStatus.ISSUED,
            Statement.kind == StatementKind.STATEMENT).order_by(Statement.number)).scalars())
        cov = covers(s, [st.id for st in sts])
        sts = [st for st in sts if cov[st.id].status == FapiaoStatus.NONE and cov[st.id].target > 0]
        profiles = {p.customer_id: p for p in s.execute(select(InvoicingProfile).where(
            InvoicingProfile.customer_id.in_({st.customer_id for st in sts} or {0}))).scalars()}
        customers = {c.id: c for c in s.execute(select(Customer).where(
            Customer.id.in_({st.customer_id for st in sts} or {0}))).scalars()}
        items = {lid: (kind, cid) for lid, kind, cid in s.execute(
            select(StatementLine.id, ContractItem.kind, ContractItem.contract_id)
            .join(ContractItem, ContractItem.id == StatementLine.contract_item_id)
            .where(StatementLine.statement_id.in_([st.id for st in sts] or [0]))).all()}
        contracts = dict(s.execute(select(StatementLine.statement_id, func.min(Contract.number))
                                   .join(ContractItem, ContractItem.id == StatementLine.contract_item_id)
                                   .join(Contract, Contract.id == ContractItem.contract_id)
                                   .where(StatementLine.statement_id.in_([st.id for st in sts] or [0]))
                                   .group_by(StatementLine.statement_id)).all())
        heads, rows, problems, missing = [], [], [], {}
        for st in sts:
            p, c = profiles.get(st.customer_id), customers[st.customer_id]
            heads.append([st.number, FapiaoType.label(p.fapiao_type if p else FapiaoType.DIGITAL_SPECIAL, "zh"),
                          p.title if p else c.name, p.tax_id if p else (c.credit_code or ""),
                          (p.address_phone or "") if p else "", (p.bank_account or "") if p else "",
                          (p.email or "") if p else "",
                          f"对账单 {st.number} {st.period}" + (f" 合同 {contracts[st.id]}" if st.id in contracts else "")])
            lines = []
            for ln in sorted(st.lines, key=lambda ln: ln.id):
                if ln.amount == 0:  # a zero line (no usage) is not a fapiao line: the platform refuses it
                    continue
                kind, cid = items.get(ln.id, (None, None))
                lines.append(_Line(ln.id, ln.contract_item_id, cid, line_kind(kind, ln.charge), ln.description,
                                   ln.period, ln.unit, Decimal(ln.quantity), Decimal(ln.unit_price),
                                   round_fen(Decimal(ln.amount)), _rate(ln.tax_rate), round_fen(Decimal(ln.tax))))
            problems += _tie_discounts(st.number, lines)
            for ln in lines:
                if ln.amount < 0:
                    continue
                tc = codes.get((ln.kind, ln.rate))
                if tc is None:
                    missing.setdefault((ln.kind, ln.rate), f"{st.number} “{ln.name}”")
                    continue
                name = f"*{tc.short_name}*{ln.name}"[:100]
                rate = ln.rate.normalize()
                rows.append([st.number, name, tc.code, ln.period, ln.unit, ln.quantity.normalize(),
                             ln.unit_price.normalize(), ln.amount, rate, ln.tax,
                             ROW_DISCOUNTED if ln.discounts else ROW_NORMAL, TAX_EXCLUSIVE])
                for amount, tax in ln.discounts:
                    rows.append([st.number, name, tc.code, ln.period, "", None, None, -amount, rate, -tax,
                                 ROW_DISCOUNT, TAX_EXCLUSIVE])
        for (kind, rate), where in missing.items():
            problems.append(f"no tax code for {kind} lines at {(rate * 100).normalize():f} % (first: {where}); "
                            f"add one: `fapiao tax-code {kind} --rate {rate.normalize():f} --code … --short-name … "
                            "--name …` or Users & settings → Tax codes / 没有该类项目在此税率下的税收分类编码，"
                            "请管理员在“用户与设置 → 税收分类编码”中添加")
        if problems:
            raise RuleViolation("the bulk-issue workbook is not written: " + "; ".join(problems))
        return heads, rows


def export_fapiao_lines(db: Database, actor: Actor, period: str, path: str | Path) -> tuple[int, int]:
    """Write the bulk-issue workbook of a period's statements not yet invoiced; audited as an export."""
    from openpyxl import Workbook

    require(actor, "export")
    path = Path(path)
    if path.suffix.lower() != ".xlsx":
        raise ValidationError({"output": "the bulk-issue file is an .xlsx workbook"})
    heads, lines = fapiao_lines(db, period)
    wb = Workbook()
    ws = wb.active
    ws.title = "发票基本信息"
    ws.append(list(HEAD_COLUMNS))
    for r in heads:
        ws.append(r)
    wl = wb.create_sheet("发票明细信息")
    wl.append(list(LINE_COLUMNS))
    for r in lines:
        wl.append(r)
    for row in wl.iter_rows(min_row=2):
        row[7].number_format = row[9].number_format = "#,##0.00"
        row[5].number_format = row[6].number_format = "General"
        row[8].number_format = "0%"
        row[10].number_format = row[11].number_format = "@"
    wb.save(path)
    with UnitOfWork(db, actor) as uow:
        uow.audit("export", "fapiao", None, path.name,
                  after={"kind": "fapiao-lines", "period": period, "invoices": len(heads), "lines": len(lines),
                         "file": path.name})
        uow.commit()
    return len(heads), len(lines)
