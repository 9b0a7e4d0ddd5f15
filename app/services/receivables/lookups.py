"""Receivables' look-ups: a customer, a receipt or a statement by what a person types; an amount typed."""
from __future__ import annotations

from decimal import Decimal

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from app.domain.errors import NotFound, ValidationError
from app.domain.validators import money_field
from app.services.billing.statements import find_statement
from models import Customer, Payment, Statement


def find_customer(s: Session, key: str | int) -> Customer:
    """A customer by id, unified social credit code or exact name (or a unique part of it)."""
    text = str(key).strip()
    if not text:
        raise ValidationError({"customer": "name the customer (credit code or name)"})
    if "\x00" in text:  # in no stored name (and PostgreSQL refuses it as a parameter)
        raise NotFound(f"there is no customer {text!r} (give the credit code or the name)")
    if text.isdigit():
        c = s.get(Customer, int(text))
        if c is not None:
            return c
    c = s.execute(select(Customer).where(or_(Customer.credit_code == text.upper(), Customer.name == text))
                  ).scalars().first()
    if c is not None:
        return c
    found = list(s.execute(select(Customer).where(Customer.name.contains(text)).limit(3)).scalars())
    if len(found) == 1:
        return found[0]
    if found:
        raise ValidationError({"customer": f"{text!r} names several customers ({', '.join(c.name for c in found)}…); "
                                           "give the credit code or the full name"})
    raise NotFound(f"there is no customer {text!r} (give the credit code or the name)")


def find_payment(s: Session, key: str | int, lock: bool = False) -> Payment:
    """A receipt by id (P12 or 12) or by its bank reference."""
    text = str(key).strip()
    q = select(Payment)
    digits = text[1:] if text[:1] in "Pp" else text
    cond = and_(Payment.bank_ref == text, Payment.kind == "receipt")
    if digits.isdigit():
        cond = or_(cond, Payment.id == int(digits))
    q = q.where(cond).order_by(Payment.id)
    if lock:
        q = q.with_for_update()
    p = s.execute(q).scalars().first()
    if p is None:
        raise NotFound(f"there is no payment {text!r} (give its id, e.g. P12, or its bank reference)")
    return p


def _find_statement(s: Session, key: str | int, lock: bool = False) -> Statement:
    return find_statement(s, key, lock=lock)


def _money(text, field: str = "amount") -> Decimal:
    """An amount to the fen typed by a person (the one rule: app.domain.validators.money_field)."""
    return money_field(text, field)
