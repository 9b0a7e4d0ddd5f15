"""Direct-SQL tampering for the tamper tests: what someone holding the database login can do."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import select, text

from app.audit.trail import HASHED_FIELDS, event_hash
from models import GENESIS_HASH, AuditEvent


def drop_triggers(db):
    with db.engine.begin() as c:
        if db.is_sqlite:
            c.execute(text("DROP TRIGGER audit_event_no_update"))
            c.execute(text("DROP TRIGGER audit_event_no_delete"))
        else:
            c.execute(text("DROP TRIGGER audit_event_append_only ON audit_event"))


def rehash(db, from_seq: int = 1) -> str:
    """Recompute hash and prev_hash of every event from `from_seq` on and move the head to the end:
    a forger who knows the (public) hashing rule makes the chain consistent again."""
    with db.session() as s:
        events = s.execute(select(AuditEvent).order_by(AuditEvent.seq)).scalars().all()
        prev = GENESIS_HASH
        for e in events:
            if e.seq >= from_seq:
                fields = {k: getattr(e, k) for k in HASHED_FIELDS}
                ts = fields["ts"]
                fields["ts"] = ts.replace(tzinfo=dt.timezone.utc) if ts.tzinfo is None else ts
                fields["prev_hash"] = e.prev_hash = prev
                e.hash = event_hash(fields)
            prev = e.hash
        s.flush()
        last = events[-1] if events else None
        s.execute(text("UPDATE audit_head SET seq = :s, hash = :h WHERE id = 1"),
                  {"s": last.seq if last else 0, "h": last.hash if last else "0" * 64})
        s.commit()
        return f"{last.seq}:{last.hash}" if last else ""


def head_row(db):
    with db.engine.connect() as c:
        return tuple(c.execute(text("SELECT seq, hash FROM audit_head WHERE id = 1")).one())


def drop_statement_triggers(db, lines: bool = False):
    """An issued statement (and, with `lines`, its lines' UPDATE) is frozen by a trigger on both backends; the
    tamperer drops it first."""
    with db.engine.begin() as c:
        if db.is_sqlite:
            c.execute(text("DROP TRIGGER statement_issued_frozen"))
        else:
            c.execute(text("DROP TRIGGER statement_issued_frozen ON statement"))
        if lines:
            c.execute(text("DROP TRIGGER statement_line_issued_upd" if db.is_sqlite
                           else "DROP TRIGGER statement_line_issued_frozen ON statement_line"))


def bill_last_month(db, monkeypatch):
    """The demo's last month billed and issued through the CLI, as the program does it."""
    from app.cli.main import main

    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", "demo1234")
    assert main(["--db", db.url, "--user", "admin", "billing", "run", "--period", "last", "--issue"]) == 0
