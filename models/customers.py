"""Customers, their contacts, and users of the console."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import Boolean, CheckConstraint, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .base import Base, IdMixin, Versioned, utcnow
from .choices import CustomerStatus, Role


class User(IdMixin, Versioned, Base):
    __tablename__ = "app_user"
    login: Mapped[str] = mapped_column(String(64), unique=True)
    display_name: Mapped[str] = mapped_column(String(128))
    role: Mapped[str] = mapped_column(String(16))
    # deferred: on PostgreSQL with roles no group may read it (checked by the server, migration 0029)
    password_hash: Mapped[str] = mapped_column(String(255), deferred=True)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    # Login throttling (migration 0006): failed attempts in a row, and the lock they earned.
    failed_logins: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    locked_until: Mapped[dt.datetime | None]
    __table_args__ = (CheckConstraint(Role.check_sql("role"), name="role"),)


class AppSecret(Base):
    """Per-database secrets made at install (migration 0006), e.g. the key that hashes unknown
    login names in the audit trail so that a password typed as a login is never stored."""

    __tablename__ = "app_secret"
    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


class Customer(IdMixin, Versioned, Base):
    __tablename__ = "customer"
    name: Mapped[str] = mapped_column(String(128), index=True)
    credit_code: Mapped[str] = mapped_column(String(18), unique=True)
    region_code: Mapped[str | None] = mapped_column(ForeignKey("region.code"), index=True)
    address: Mapped[str | None] = mapped_column(String(255))
    account_manager_id: Mapped[int | None] = mapped_column(ForeignKey("app_user.id"))
    status: Mapped[str] = mapped_column(String(16), default=CustomerStatus.ACTIVE)
    contacts: Mapped[list["Contact"]] = relationship(
        back_populates="customer", cascade="all, delete-orphan", order_by="Contact.id")
    __table_args__ = (
        CheckConstraint(CustomerStatus.check_sql("status"), name="status"),
        # Performance (migration 0003): contains-filters and search on PostgreSQL.
        Index("ix_customer_name_trgm", "name", postgresql_using="gin", postgresql_ops={"name": "gin_trgm_ops"}),
    )


class Contact(IdMixin, Base):
    __tablename__ = "contact"
    customer_id: Mapped[int] = mapped_column(ForeignKey("customer.id"), index=True)
    name: Mapped[str] = mapped_column(String(64))
    phone: Mapped[str | None] = mapped_column(String(32))
    email: Mapped[str | None] = mapped_column(String(128))
    role: Mapped[str | None] = mapped_column(String(64))
    customer: Mapped[Customer] = relationship(back_populates="contacts")
