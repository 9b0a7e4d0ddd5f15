"""The audit trail: append in the caller's transaction, verify the whole chain.

Each event's hash is SHA-256 over a canonical JSON (sorted keys, no spaces) of every
field plus prev_hash. Appends lock the single `audit_head` row by updating it first, so
concurrent writers on PostgreSQL queue up instead of forking the chain; on SQLite the
update takes the database write lock.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import os
import socket
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Iterable, Iterator

import orjson
from sqlalchemy import select, text, update
from sqlalchemy.orm import Session

from models import AuditEvent, AuditHead, GENESIS_HASH

from . import __version__

HASHED_FIELDS = (
    "seq", "ts", "actor_id", "actor_login", "actor_name", "actor_role", "host", "app_version",
    "request_id", "action", "object_type", "object_id", "object_label", "before", "after",
    "reason", "outcome", "prev_hash",
)
HOST = socket.gethostname()


def _default(value: Any):
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, (set, frozenset, tuple)):
        return sorted(value) if isinstance(value, (set, frozenset)) else list(value)
    raise TypeError(f"cannot put {type(value).__name__} into the audit trail")


def canonical_json(value: Any) -> str:
    return orjson.dumps(value, default=_default, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS).decode()


def format_ts(ts: dt.datetime) -> str:
    """UTC, microseconds, always the same text for the same instant."""
    return ts.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def event_hash(fields: dict[str, Any]) -> str:
    payload = {k: fields[k] for k in HASHED_FIELDS}
    payload["ts"] = format_ts(payload["ts"]) if isinstance(payload["ts"], dt.datetime) else payload["ts"]
    return hashlib.sha256(orjson.dumps(payload, option=orjson.OPT_SORT_KEYS)).hexdigest()


@dataclass(frozen=True)
class Actor:
    """Who acts, as of now. `id` is None for the system (migrations, first-run setup)."""

    id: int | None
    login: str
    name: str
    role: str

    @classmethod
    def system(cls) -> "Actor":
        return cls(None, "system", "System", "admin")


def append_event(session: Session, actor: Actor, *, request_id: str, action: str, object_type: str,
                 object_id: Any = None, object_label: str | None = None,
                 before: dict | None = None, after: dict | None = None,
                 reason: str | None = None, outcome: str = "success",
                 ts: dt.datetime | None = None) -> AuditEvent:
    session.flush()  # the change itself first, so a refused change never reaches the chain
    seq, prev_hash = session.execute(
        update(AuditHead).where(AuditHead.id == 1).values(seq=AuditHead.seq + 1)
        .returning(AuditHead.seq, AuditHead.hash)).one()
    fields = dict(
        seq=seq,
        ts=(ts or dt.datetime.now(dt.timezone.utc)).replace(),
        actor_id=actor.id, actor_login=actor.login, actor_name=actor.name, actor_role=actor.role,
        host=HOST, app_version=__version__, request_id=request_id, action=action,
        object_type=object_type, object_id=None if object_id is None else str(object_id),
        object_label=object_label,
        before=None if before is None else canonical_json(before),
        after=None if after is None else canonical_json(after),
        reason=reason, outcome=outcome, prev_hash=prev_hash,
    )
    # Store the instant at microsecond precision exactly as it is hashed.
    fields["ts"] = fields["ts"].astimezone(dt.timezone.utc)
    fields["hash"] = event_hash(fields)
    event = AuditEvent(**fields)
    session.add(event)
    session.execute(update(AuditHead).where(AuditHead.id == 1).values(hash=fields["hash"]))
    return event


# --- verification --------------------------------------------------------------

@dataclass(frozen=True)
class VerifyResult:
    ok: bool
    count: int
    head: str | None  # "SEQ:HASH" of the last good event
    problem: str | None = None
    bad_seq: int | None = None

    def summary(self) -> str:
        if self.ok:
            return f"audit chain OK: {self.count} events, head {self.head}"
        return f"audit chain BROKEN: {self.problem}"


def _rows(session: Session, batch: int = 20000) -> Iterator[tuple]:
    cols = [getattr(AuditEvent, f) for f in HASHED_FIELDS] + [AuditEvent.hash]
    result = session.execute(select(*cols).order_by(AuditEvent.seq).execution_options(yield_per=batch))
    for part in result.partitions(batch):
        yield from part


def _check_batch(rows: list[tuple]) -> list[int]:
    """Indices of rows whose stored hash does not match their content."""
    bad = []
    for i, row in enumerate(rows):
        fields = dict(zip(HASHED_FIELDS, row[:-1]))
        if event_hash(fields) != row[-1]:
            bad.append(i)
    return bad


def verify_audit_chain(session: Session, expect_head: str | None = None,
                       progress=None) -> VerifyResult:
    """Recompute every event's hash and every link; compare with the stored head."""
    expected_seq = expected_hash = None
    if expect_head:
        try:
            s, h = expect_head.split(":", 1)
            expected_seq, expected_hash = int(s), h.strip().lower()
        except ValueError:
            return VerifyResult(False, 0, None, f"--expect-head must be SEQ:HASH, got {expect_head!r}")
    count = 0
    prev_seq, prev_hash = 0, GENESIS_HASH
    checkpoint_seen = expected_seq is None
    batch: list[tuple] = []

    def flush(rows: list[tuple]) -> VerifyResult | None:
        nonlocal count, prev_seq, prev_hash, checkpoint_seen
        bad = set(_check_batch(rows))
        for i, row in enumerate(rows):
            seq, stored_prev, stored_hash = row[0], row[HASHED_FIELDS.index("prev_hash")], row[-1]
            if seq != prev_seq + 1:
                what = "missing (deleted)" if seq > prev_seq + 1 else "duplicated or out of order"
                return VerifyResult(False, count, _head(prev_seq, prev_hash),
                                    f"event #{prev_seq + 1} is {what}: found #{seq} after #{prev_seq}",
                                    prev_seq + 1)
            if i in bad:
                return VerifyResult(False, count, _head(prev_seq, prev_hash),
                                    f"event #{seq} was altered: its content does not match its hash", seq)
            if stored_prev != prev_hash:
                return VerifyResult(False, count, _head(prev_seq, prev_hash),
                                    f"event #{seq} does not link to event #{prev_seq} "
                                    "(inserted, reordered or re-hashed)", seq)
            if expected_seq is not None and seq == expected_seq:
                if stored_hash != expected_hash:
                    return VerifyResult(False, count, _head(prev_seq, prev_hash),
                                        f"checkpoint {expect_head} does not match: event #{seq} now has "
                                        f"hash {stored_hash}; the chain was rewritten since", seq)
                checkpoint_seen = True
            prev_seq, prev_hash = seq, stored_hash
            count += 1
        if progress:
            progress(count)
        return None

    for row in _rows(session):
        batch.append(row)
        if len(batch) >= 20000:
            failure = flush(batch)
            if failure:
                return failure
            batch = []
    if batch:
        failure = flush(batch)
        if failure:
            return failure
    head_seq, head_hash = session.execute(select(AuditHead.seq, AuditHead.hash).where(AuditHead.id == 1)).one()
    if (head_seq, head_hash) != (prev_seq, prev_hash):
        return VerifyResult(False, count, _head(prev_seq, prev_hash),
                            f"the chain ends at #{prev_seq} but the recorded head is #{head_seq}: "
                            f"events after #{prev_seq} were deleted", prev_seq + 1)
    if not checkpoint_seen:
        return VerifyResult(False, count, _head(prev_seq, prev_hash),
                            f"checkpoint {expect_head} is beyond the end of the chain", expected_seq)
    return VerifyResult(True, count, _head(prev_seq, prev_hash))


def _head(seq: int, h: str) -> str:
    return f"{seq}:{h}"


def chain_head(session: Session) -> str:
    seq, h = session.execute(select(AuditHead.seq, AuditHead.hash).where(AuditHead.id == 1)).one()
    return _head(seq, h)


def diff(before: dict, after: dict) -> tuple[dict, dict]:
    """Only the changed fields, for the audit event's before/after."""
    keys = [k for k in after if before.get(k) != after.get(k)]
    return {k: before.get(k) for k in keys}, {k: after.get(k) for k in keys}
