"""The append-only, hash-chained audit trail."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import BigInteger, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base

GENESIS_HASH = "0" * 64


class AuditEvent(Base):
    __tablename__ = "audit_event"
    seq: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=False)
    ts: Mapped[dt.datetime] = mapped_column(index=True)
    actor_id: Mapped[int | None] = mapped_column(Integer)
    actor_login: Mapped[str] = mapped_column(String(64))
    actor_name: Mapped[str] = mapped_column(String(128))
    actor_role: Mapped[str] = mapped_column(String(16))
    host: Mapped[str] = mapped_column(String(128))
    app_version: Mapped[str] = mapped_column(String(32))
    request_id: Mapped[str] = mapped_column(String(36), index=True)
    action: Mapped[str] = mapped_column(String(48))
    object_type: Mapped[str] = mapped_column(String(32))
    object_id: Mapped[str | None] = mapped_column(String(64))
    object_label: Mapped[str | None] = mapped_column(String(255))
    before: Mapped[str | None] = mapped_column(Text)  # canonical JSON
    after: Mapped[str | None] = mapped_column(Text)
    reason: Mapped[str | None] = mapped_column(Text)
    outcome: Mapped[str] = mapped_column(String(16))
    prev_hash: Mapped[str] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64))
    __table_args__ = (
        # (column, seq): filters by actor or action, and the audit list sorted by them pages by keyset
        # without sorting millions of rows (migration 0003 replaced the single-column indexes).
        Index("ix_audit_event_actor_login_seq", "actor_login", "seq"),
        Index("ix_audit_event_action_seq", "action", "seq"),
    )


class AuditHead(Base):
    """Single row (id=1) holding the chain head; locking it serialises appends."""

    __tablename__ = "audit_head"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    seq: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), default=0)
    hash: Mapped[str] = mapped_column(String(64), default=GENESIS_HASH)
