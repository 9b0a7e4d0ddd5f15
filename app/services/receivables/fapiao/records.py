"""Fapiao records: a blue fapiao against a statement, a red one against a credit note, the list and the export."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import func, select
from sqlalchemy.orm import Session, aliased

from app.domain import messages as M
from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.clock import local_today
from app.domain.errors import NotFound, RuleViolation, ValidationError
from app.domain.money import format_amount, round_fen
from app.domain.validators import fapiao_number_problem
from app.services.receivables.fapiao.cover import covers
from app.services.receivables.fapiao.fields import _date, _statement, _type
from app.services.receivables.lookups import _money, find_customer
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import Customer, Fapiao, InvoicingProfile, Statement, StatementLine
from models.choices import FapiaoStatus, FapiaoType, StatementKind, StatementStatus


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
