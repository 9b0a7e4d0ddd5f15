"""Fapiao records, customers' invoicing profiles, deposits and prepayments, overdue decisions.

Like payments, none of these rows is edited after the fact except the invoicing profile (a
customer's current 开票信息) and the tax code of each kind of line and rate (reference data):
a wrong fapiao is reversed by a red-letter one, a deposit moves by entries that sum to its balance.
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import CheckConstraint, ForeignKey, Index, Integer, Numeric, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, IdMixin, Money, utcnow
from .choices import DepositKind, FapiaoType, ItemKind

# the kinds of line a tax code is chosen by: every item kind, and metered electricity
TAX_CODE_KINDS = tuple(ItemKind.values()) + ("electricity",)
TAX_CODE_KINDS_SQL = "line_kind IN (" + ", ".join(f"'{k}'" for k in TAX_CODE_KINDS) + ")"


class InvoicingProfile(IdMixin, Base):
    """A customer's 开票信息: what goes on the buyer's side of a fapiao, and where it is sent."""

    __tablename__ = "invoicing_profile"
    customer_id: Mapped[int] = mapped_column(ForeignKey("customer.id"), unique=True)
    title: Mapped[str] = mapped_column(String(255))              # 名称 (the buyer's name on the fapiao)
    tax_id: Mapped[str] = mapped_column(String(20))              # 纳税人识别号
    address_phone: Mapped[str | None] = mapped_column(String(255))  # 地址、电话
    bank_account: Mapped[str | None] = mapped_column(String(255))   # 开户行及账号
    fapiao_type: Mapped[str] = mapped_column(String(20), default=FapiaoType.DIGITAL_SPECIAL)
    email: Mapped[str | None] = mapped_column(String(255))       # 收票邮箱
    updated_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    updated_by: Mapped[str | None] = mapped_column(String(64))
    __table_args__ = (CheckConstraint(FapiaoType.check_sql("fapiao_type"), name="fapiao_type"),)


class TaxCode(IdMixin, Base):
    """The tax classification (商品和服务税收分类编码) a kind of line is invoiced under at one VAT rate.

    The code follows the kind of line *and* its rate (a code carries its own rate on the tax
    platform: GPU rental at 13 % is 有形动产经营租赁, at 6 % 信息系统增值服务). `line_kind` is an item
    kind, or `electricity` for metered energy (the `power` charge of a rack or circuit). Defaults and
    their sources: resources/tax_codes.csv; edited by app/services/fapiao.set_tax_code (audited).
    """

    __tablename__ = "tax_code"
    line_kind: Mapped[str] = mapped_column(String(16))
    tax_rate: Mapped[Decimal] = mapped_column(Numeric(5, 4))
    code: Mapped[str] = mapped_column(String(19))           # 19 digits
    short_name: Mapped[str] = mapped_column(String(32))     # 简称, printed as *简称*项目名称
    item_name: Mapped[str] = mapped_column(String(64))      # default 项目名称 after the short name
    source: Mapped[str | None] = mapped_column(Text)        # where the code was taken from / verified
    updated_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    updated_by: Mapped[str | None] = mapped_column(String(64))
    __table_args__ = (
        UniqueConstraint("line_kind", "tax_rate", name="uq_tax_code_kind_rate"),
        CheckConstraint(TAX_CODE_KINDS_SQL, name="line_kind"),
    )


class Fapiao(IdMixin, Base):
    """A fapiao issued on the tax platform, recorded against a statement (blue) or against the
    credit note it reverses (red, negative amounts, linked to the original blue fapiao)."""

    __tablename__ = "fapiao"
    statement_id: Mapped[int] = mapped_column(ForeignKey("statement.id"), index=True)
    kind: Mapped[str] = mapped_column(String(8), default="blue")  # blue | red
    number: Mapped[str] = mapped_column(String(32), unique=True)
    issued_on: Mapped[dt.date]
    fapiao_type: Mapped[str] = mapped_column(String(20))
    amount: Mapped[Decimal] = mapped_column(Money())   # 金额 (without tax)
    tax: Mapped[Decimal] = mapped_column(Money())      # 税额
    original_id: Mapped[int | None] = mapped_column(ForeignKey("fapiao.id"), index=True)
    note: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    created_by: Mapped[str | None] = mapped_column(String(64))
    __table_args__ = (
        CheckConstraint(FapiaoType.check_sql("fapiao_type"), name="fapiao_type"),
        CheckConstraint("kind IN ('blue', 'red')", name="kind"),
        CheckConstraint("(kind = 'blue' AND amount > 0 AND tax >= 0 AND original_id IS NULL) OR "
                        "(kind = 'red' AND amount < 0 AND tax <= 0 AND original_id IS NOT NULL)", name="sign"),
    )


class DepositEntry(IdMixin, Base):
    """One movement of a customer's deposit (押金) or prepayment (预付款), per contract when given:
    received (+), applied to a statement (−) or refunded (−). The balance is the sum."""

    __tablename__ = "deposit_entry"
    customer_id: Mapped[int] = mapped_column(ForeignKey("customer.id"), index=True)
    contract_id: Mapped[int | None] = mapped_column(ForeignKey("contract.id"), index=True)
    kind: Mapped[str] = mapped_column(String(12))      # deposit | prepayment
    entry: Mapped[str] = mapped_column(String(8))      # receipt | apply | refund
    on_date: Mapped[dt.date]
    amount: Mapped[Decimal] = mapped_column(Money())
    statement_id: Mapped[int | None] = mapped_column(ForeignKey("statement.id"))
    ref: Mapped[str | None] = mapped_column(String(64))
    note: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    created_by: Mapped[str | None] = mapped_column(String(64))
    __table_args__ = (
        Index("ix_deposit_entry_statement_id", "statement_id"),
        CheckConstraint(DepositKind.check_sql("kind"), name="kind"),
        CheckConstraint("(entry = 'receipt' AND amount > 0 AND statement_id IS NULL) OR "
                        "(entry = 'apply' AND amount < 0 AND statement_id IS NOT NULL) OR "
                        "(entry = 'refund' AND amount < 0 AND statement_id IS NULL)", name="sign"),
    )


class OverdueDecision(IdMixin, Base):
    """A person's decision on a suspension proposal for an overdue customer."""

    __tablename__ = "overdue_decision"
    customer_id: Mapped[int] = mapped_column(ForeignKey("customer.id"), index=True)
    decision: Mapped[str] = mapped_column(String(8))   # suspend | keep
    reason: Mapped[str] = mapped_column(Text)
    overdue_amount: Mapped[Decimal] = mapped_column(Money())
    overdue_days: Mapped[int] = mapped_column(Integer)
    decided_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    decided_by: Mapped[str | None] = mapped_column(String(64))
    __table_args__ = (CheckConstraint("decision IN ('suspend', 'keep')", name="decision"),
                      UniqueConstraint("customer_id", "decided_at", name="uq_overdue_decision_customer_at"))
