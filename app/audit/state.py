"""The audit head this computer last verified, per database (like an immudb client's local state).

A full `audit verify` proves the chain is internally consistent, but whoever can write the
database can cut its tail and move the head row back, or rewrite and re-hash the whole history:
the result is again a consistent chain. A client that remembers `SEQ:HASH` of the last head it
verified notices both: the chain is now shorter than that, or its event at that seq has another
hash. The state is a small JSON file in the local data directory (app/store/config.py), one per
database, named by a hash of a database identity that holds no user and no password
(SQLite: the file's absolute path; PostgreSQL: host:port/dbname), so every login on one
computer shares it.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
import os
from dataclasses import dataclass, replace
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from app.store.config import data_dir

STATE_DIR = "audit-heads"


def database_identity(url: str) -> str:
    """Which database, without user or password: the same for every login to it."""
    u = make_url(url)
    if u.get_backend_name() == "sqlite":
        return "sqlite:" + str(Path(u.database or "").expanduser().resolve())
    return f"postgresql:{(u.host or 'localhost').lower()}:{u.port or 5432}/{u.database}"


def state_path(url: str) -> Path:
    ident = database_identity(url)
    return data_dir() / STATE_DIR / (hashlib.sha256(ident.encode()).hexdigest()[:32] + ".json")


@dataclass(frozen=True)
class Remembered:
    seq: int
    hash: str
    verified_at: str
    database: str

    @property
    def head(self) -> str:
        return f"{self.seq}:{self.hash}"


def load(url: str) -> Remembered | None:
    path = state_path(url)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        seq, h = str(data["head"]).split(":", 1)
        return Remembered(int(seq), h, str(data.get("verified_at", "")), str(data.get("database", "")))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError):
        # an unreadable state file is as good as none; the next verify rewrites it
        logging.getLogger(__name__).warning("the remembered audit head %s is unreadable; ignored", path,
                                            exc_info=True)
        return None


def save(url: str, head: str) -> None:
    """Remember `head` (SEQ:HASH) as verified now; written atomically."""
    path = state_path(url)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"database": database_identity(url), "head": head,
            "verified_at": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
    os.replace(tmp, path)


def compare(session: Session, remembered: Remembered) -> str | None:
    """What is wrong with the database's chain against the remembered head, or None.

    Two reads (the last seq, the event at the remembered seq): cheap enough for every start.
    """
    when = f" on {remembered.verified_at}" if remembered.verified_at else ""
    try:
        last = session.execute(text("SELECT MAX(seq) FROM audit_event")).scalar()
        at = session.execute(text("SELECT hash FROM audit_event WHERE seq = :s"),
                             {"s": remembered.seq}).scalar()
    except Exception as exc:  # a missing table is itself the finding
        from sqlalchemy.exc import SQLAlchemyError
        if not isinstance(exc, SQLAlchemyError):
            raise
        session.rollback()
        return (f"this computer verified this database's audit trail up to event #{remembered.seq}{when}, "
                "but the audit trail cannot be read now (its tables were dropped, or the schema was "
                "downgraded or recreated): the history was removed outside the program")
    last = last or 0
    if remembered.seq == 0:
        return None
    if last < remembered.seq:
        gone = f"#{last + 1}" if last + 1 == remembered.seq else f"#{last + 1}–#{remembered.seq}"
        return (f"the audit trail is shorter than this computer last verified it{when}: it ends at "
                f"#{last}, but event #{remembered.seq} was there. Events {gone} were deleted outside "
                "the program (the tail cut and the head moved back, or the trail wiped), or the "
                "database was restored from an older backup")
    if at is None:
        return (f"event #{remembered.seq}, verified by this computer{when}, is missing: the audit "
                "trail was rewritten outside the program")
    if at != remembered.hash:
        return (f"event #{remembered.seq} had hash {remembered.hash} when this computer verified it{when}, "
                f"and now has hash {at}: the history up to #{remembered.seq} was rewritten and re-hashed "
                "outside the program (or this address now holds another database)")
    return None


def check_at_start(db) -> str | None:
    """The console's start: compare with the remembered head (no full verify); a message or None."""
    remembered = load(db.url)
    if remembered is None:
        return None
    with db.session() as s:
        return compare(s, remembered)


def verify_and_remember(db, session: Session, *, expect_head: str | None = None, progress=None):
    """verify_audit_chain, then the remembered head; a sound result is remembered for next time.

    A chain that verifies but contradicts the remembered head is reported as broken (and the
    remembered head is kept, so the next verify reports it again).
    """
    from app.audit.trail import verify_audit_chain

    result = verify_audit_chain(session, expect_head=expect_head, progress=progress)
    remembered = load(db.url)
    problem = compare(session, remembered) if remembered is not None else None
    if problem:
        if not result.ok:
            return replace(result, problem=f"{result.problem}; and {problem}")
        return replace(result, ok=False, problem=problem, bad_seq=remembered.seq)
    if result.ok and result.head:
        save(db.url, result.head)
    return result
