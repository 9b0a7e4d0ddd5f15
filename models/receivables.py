"""Receivables: bank receipts (payments) and their allocation to statements.

Nothing here is ever edited or deleted: a wrong payment is reversed by a counter-entry (a payment
row of kind "reversal" with the negated amount, and negated allocations), so the ledger sums.
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, IdMixin, Money, utcnow


class Payment(IdMixin, Base):
    """A bank receipt from a customer (kind "receipt"), or the counter-entry reversing one."""

    __tablename__ = "payment"
    customer_id: Mapped[int] = mapped_column(ForeignKey("customer.id"), index=True)
    kind: Mapped[str] = mapped_column(String(12), default="receipt")  # receipt | reversal
    received_on: Mapped[dt.date] = mapped_column(index=True)
    amount: Mapped[Decimal] = mapped_column(Money())
    payer: Mapped[str | None] = mapped_column(String(255))
    bank_ref: Mapped[str] = mapped_column(String(64))
    method: Mapped[str] = mapped_column(String(16), default="transfer")
    reverses_id: Mapped[int | None] = mapped_column(ForeignKey("payment.id"), unique=True)
    reason: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    created_by: Mapped[str | None] = mapped_column(String(64))
    __table_args__ = (
        # one receipt per bank reference (an import run twice finds its rows already there)
        UniqueConstraint("bank_ref", "kind", name="uq_payment_bank_ref_kind"),
        CheckConstraint("kind IN ('receipt', 'reversal')", name="kind"),
        CheckConstraint("(kind = 'receipt' AND amount > 0 AND reverses_id IS NULL) OR "
                        "(kind = 'reversal' AND amount < 0 AND reverses_id IS NOT NULL)", name="sign"),
    )


class PaymentAllocation(IdMixin, Base):
    """Part of a payment settled against one statement; a reversal allocates the negated amount."""

    __tablename__ = "payment_allocation"
    payment_id: Mapped[int] = mapped_column(ForeignKey("payment.id"), index=True)
    statement_id: Mapped[int] = mapped_column(ForeignKey("statement.id"))
    amount: Mapped[Decimal] = mapped_column(Money())
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    created_by: Mapped[str | None] = mapped_column(String(64))
    __table_args__ = (
        Index("ix_payment_allocation_statement_id", "statement_id"),
        CheckConstraint("amount <> 0", name="nonzero"),
    )
