"""The audit trail: append in the caller's transaction, verify the whole chain (app/audit/scan.py).

Each event's hash is SHA-256 over a canonical JSON (sorted keys, no spaces) of every
field plus prev_hash. Appends lock the single `audit_head` row by updating it first, so
concurrent writers on PostgreSQL queue up instead of forking the chain; on SQLite the
update takes the database write lock.
"""
from __future__ import annotations

import datetime as dt
import os
import socket
import sys
import weakref
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Iterator

import orjson
from sqlalchemy import insert, select, text, update
from sqlalchemy.orm import Session

from app import __version__
from app.audit.scan import (  # noqa: F401  (format_ts, hash_payload, HASHED_FIELDS: the hash's one definition)
    CHUNK_EVENTS,
    HASHED_FIELDS,
    Joiner,
    Span,
    format_ts,
    hash_payload,
    scan_copy,
    scan_pg,
    scan_rows,
    scan_sqlite,
    select_sql,
    worker_scan,
)
from app.domain.actor import Actor
from app.domain.runs import logged_run
from models import GENESIS_HASH, AuditEvent, AuditHead

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


def event_hash(fields: dict[str, Any]) -> str:
    payload = {k: fields[k] for k in HASHED_FIELDS}
    payload["ts"] = format_ts(payload["ts"]) if isinstance(payload["ts"], dt.datetime) else payload["ts"]
    return hash_payload(payload)


# The head is never loaded as an ORM object, so its UPDATEs need not search the session for
# copies to refresh; that search is over every object the session holds, which made a bulk
# import quadratic (4,449 device types: ~40 s of 50 s).
NO_SYNC = {"synchronize_session": False}


def append_event(session: Session, actor: Actor, *, request_id: str, action: str, object_type: str,
                 object_id: Any = None, object_label: str | None = None,
                 before: dict | None = None, after: dict | None = None,
                 reason: str | None = None, outcome: str = "success",
                 ts: dt.datetime | None = None) -> AuditEvent:
    """One event; returned as a (detached) AuditEvent with its seq and hash."""
    fields = append_events(session, actor, request_id=request_id, ts=ts, rows=True, events=[dict(
        action=action, object_type=object_type, object_id=object_id, object_label=object_label,
        before=before, after=after, reason=reason, outcome=outcome)])[0]
    return AuditEvent(**fields)


_EVENT_TABLE = AuditEvent.__table__


def append_events(session: Session, actor: Actor, *, request_id: str, events: list[dict],
                  ts: dt.datetime | None = None, rows: bool = False) -> list[dict[str, Any]]:
    """Append events (dicts of append_event's keyword arguments) in order, linked as usual; returns
    the stored rows (dicts of the audit_event columns). On PostgreSQL from migration 0029 the server
    makes the rows, and they are read back only when `rows` is asked for (one more statement a batch).

    The head is moved and rewritten once for the lot, and the events go in as one statement
    (a multi-row INSERT, or one audit_append call on PostgreSQL): a bulk import's thousands of events
    cost a few statements instead of three each, and no ORM object each.
    """
    if not events:
        return []
    session.flush()  # the change itself first, so a refused change never reaches the chain
    through_function = has_definer_functions(session)
    if through_function and server_hashes(session):
        return _append_on_server(session, actor, request_id, events, ts, rows)
    if through_function:
        # PostgreSQL: the groups may not write the audit tables (db roles); the owner's functions
        # lock the head here and append below, refusing events that do not continue it.
        head_seq, prev_hash = session.execute(text("SELECT seq, hash FROM audit_head_lock()")).one()
        last_seq = head_seq + len(events)
    else:
        last_seq, prev_hash = session.execute(
            update(AuditHead).where(AuditHead.id == 1).values(seq=AuditHead.seq + len(events))
            .returning(AuditHead.seq, AuditHead.hash), execution_options=NO_SYNC).one()
    # Store the instant at microsecond precision exactly as it is hashed.
    when = (ts or dt.datetime.now(dt.timezone.utc)).astimezone(dt.timezone.utc)
    when_text = format_ts(when)
    common = dict(actor_id=actor.id, actor_login=actor.login, actor_name=actor.name, actor_role=actor.role,
                  host=HOST, app_version=__version__, request_id=request_id)
    added = []
    for seq, e in enumerate(events, start=last_seq - len(events) + 1):
        fields = dict(common, seq=seq, ts=when_text, **_content(e), prev_hash=prev_hash)
        fields["hash"] = prev_hash = hash_payload({k: fields[k] for k in HASHED_FIELDS})
        fields["ts"] = when
        added.append(fields)
    if through_function:
        naive = when.replace(tzinfo=None).isoformat(timespec="microseconds")
        session.execute(text("SELECT audit_append(CAST(:events AS jsonb))"),
                        {"events": orjson.dumps([dict(f, ts=naive) for f in added]).decode()})
        return added
    session.execute(insert(_EVENT_TABLE), added)
    session.execute(update(AuditHead).where(AuditHead.id == 1).values(hash=prev_hash), execution_options=NO_SYNC)
    return added


def _content(e: dict) -> dict[str, Any]:
    """An event's own columns (what the caller says), as stored and hashed."""
    before, after, object_id = e.get("before"), e.get("after"), e.get("object_id")
    return dict(action=e["action"], object_type=e["object_type"],
                object_id=None if object_id is None else str(object_id), object_label=e.get("object_label"),
                before=None if before is None else canonical_json(before),
                after=None if after is None else canonical_json(after),
                reason=e.get("reason"), outcome=e.get("outcome", "success"))


# What audit_note takes (migration 0029): the events an auditor's own work leaves. Every other event goes
# through audit_append, which auditors may not call.
NOTE_ACTIONS = frozenset({"auth.login", "auth.lock", "export", "print", "user.password", "db.upgrade"})
_STORED = ("seq", "ts", "actor_id", "actor_login", "actor_name", "actor_role", "host", "app_version",
           "request_id", "action", "object_type", "object_id", "object_label", "before", "after", "reason",
           "outcome", "prev_hash", "hash")


def _append_on_server(session: Session, actor: Actor, request_id: str, events: list[dict],
                      ts: dt.datetime | None, want_rows: bool) -> list[dict[str, Any]]:
    """PostgreSQL from migration 0029: the server numbers, links, dates and hashes the events and, for a
    person's own login, names the actor itself (the client's actor and time count only for the schema
    owner). Returns the rows as stored when asked (want_rows), else nothing."""
    common = dict(actor_id=actor.id, actor_login=actor.login, actor_name=actor.name, actor_role=actor.role,
                  host=HOST, app_version=__version__, request_id=request_id)
    if ts is not None:
        common["ts"] = ts.astimezone(dt.timezone.utc).replace(tzinfo=None).isoformat(timespec="microseconds")
    docs = [dict(common, **_content(e)) for e in events]
    function = "audit_note" if all(e["action"] in NOTE_ACTIONS for e in events) else "audit_append"
    last = session.execute(text(f"SELECT {function}(CAST(:events AS jsonb))"),
                           {"events": orjson.dumps(docs).decode()}).scalar_one()
    if not want_rows:
        return []
    rows = session.execute(text(f"SELECT {', '.join(_STORED)} FROM audit_event WHERE seq > :a AND seq <= :b "
                                "ORDER BY seq"), {"a": last - len(events), "b": last}).all()
    added = []
    for row in rows:
        fields = dict(zip(_STORED, row))
        fields["ts"] = fields["ts"].replace(tzinfo=dt.timezone.utc)
        added.append(fields)
    return added


_DEFINER_FUNCTIONS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def has_definer_functions(session: Session) -> bool:
    """PostgreSQL at migration 0016 or later: appends and login bookkeeping go through the owner's
    SECURITY DEFINER functions (what `db roles` grants instead of writes on those tables).

    Remembered per engine; Database.upgrade/downgrade forget it (forget_definer_functions).
    """
    return _probed(session, _DEFINER_FUNCTIONS, False)


def _probed(session: Session, facts: "weakref.WeakKeyDictionary", elsewhere):
    """One of the facts `_probe_server` learns of a PostgreSQL engine (once, then remembered);
    `elsewhere` on SQLite."""
    bind = session.get_bind()
    if bind.dialect.name != "postgresql":
        return elsewhere
    engine = getattr(bind, "engine", bind)
    if engine not in facts:
        _probe_server(session, engine)
    return facts[engine]


_SERVER_HASHES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def server_hashes(session: Session) -> bool:
    """PostgreSQL at migration 0029 or later: the server computes each event's hash and stamps its actor
    and time (audit_note exists); remembered per engine like has_definer_functions."""
    return _probed(session, _SERVER_HASHES, False)


_PERSON_SQL = ("CASE WHEN left(session_user::text, length(current_database()) + 1) = current_database() || '.' "
               "THEN substr(session_user::text, length(current_database()) + 2) END")
# engine -> its person: every connection of an engine logs in as its URL's user, which does not change
_PERSONS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def connected_person(session: Session) -> str | None:
    """The program login whose database login this connection is (`<db>.<login>`), else None
    (app.store.dbroles.connected_person); remembered per engine like server_hashes."""
    return _probed(session, _PERSONS, None)


def _probe_server(session: Session, engine) -> None:
    """What has_definer_functions, server_hashes and connected_person remember (a login asks all three), in
    one statement: across a WAN each was a round trip of its own (issue 26)."""
    definer, notes, person = session.execute(text(
        "SELECT to_regprocedure('public.audit_append(jsonb)') IS NOT NULL, "
        f"to_regprocedure('public.audit_note(jsonb)') IS NOT NULL, {_PERSON_SQL}")).one()
    _DEFINER_FUNCTIONS[engine] = bool(definer)
    _SERVER_HASHES[engine] = bool(notes)
    _PERSONS[engine] = person


def forget_definer_functions(engine) -> None:
    _DEFINER_FUNCTIONS.pop(engine, None)
    _SERVER_HASHES.pop(engine, None)


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


# The checking itself is app/audit/scan.py (exact and fast paths). Stretches of PARALLEL_MIN_EVENTS
# or more are split into seq ranges checked on connections of their own, worker processes on SQLite
# and for PostgreSQL's COPY (Python hashes), threads when PostgreSQL hashes; this process joins the ranges in
# order, so the first bad event is named exactly as a serial scan names it. docs/performance.md.
# PostgreSQL on another machine (through psycopg) sends the raw columns by COPY and the console's
# processes hash them (scan_copy): the shared server spends 2 µs an event instead of 7 (bench/
# bench_verify.py); on this machine's own server both paths cost about the same CPU (the COPY path
# ~10 % more), so the server hashes. IDC_AUDIT_HASH_HERE=1 or 0 chooses either way.
PARALLEL_MIN_EVENTS = 200_000
RANGE_MIN = 10_000  # CHUNK_EVENTS (imported): events per SQLite chunk, handed to the workers


def hash_here(session: Session) -> bool:
    """Whether verify hashes PostgreSQL's events in this program (COPY) instead of in the server."""
    bind = session.get_bind()
    if bind.dialect.name != "postgresql" or bind.dialect.driver != "psycopg":
        return False
    forced = os.environ.get("IDC_AUDIT_HASH_HERE")
    if forced in ("0", "1"):
        return forced == "1"
    host = bind.url.host or ""
    return bool(host) and not host.startswith("/") and host not in ("localhost", "127.0.0.1", "::1")


def _scan_here(session: Session, dialect: str, lo: int, hi: int, expected_seq, expected_hash) -> Span:
    conn = session.connection()
    if dialect == "sqlite":
        return scan_sqlite(conn.connection.driver_connection, lo, hi, expected_seq, expected_hash, CHUNK_EVENTS)
    if hash_here(session):
        return scan_copy(conn.connection.driver_connection, lo, hi, expected_seq, expected_hash, CHUNK_EVENTS * 5)
    if dialect == "postgresql":
        return scan_pg(lambda q, p: conn.exec_driver_sql(q, p).fetchall(), lo, hi, expected_seq, expected_hash)
    result = conn.exec_driver_sql(select_sql(dialect), (lo, hi))
    return scan_rows(iter(lambda: result.fetchmany(20000), []), expected_seq, expected_hash)


def _parallel_dsn(session: Session) -> tuple[str, str] | None:
    """(dialect, DSN) a worker can open, or None to scan in this process."""
    bind = session.get_bind()
    url = bind.url
    name = bind.dialect.name
    if name == "sqlite":
        if not url.database or url.database == ":memory:" or url.database.startswith("file:"):
            return None
        return name, url.database
    if name == "postgresql" and bind.dialect.driver == "psycopg":
        return name, url.set(drivername="postgresql").render_as_string(hide_password=False)
    return None


def _ranges(lo: int, hi: int, size: int) -> list[tuple[int, int]]:
    return [(a, min(a + size - 1, hi)) for a in range(lo, hi + 1, size)]


def _spans(session: Session, lo: int, hi: int, expected_seq, expected_hash, workers: int | None) -> Iterator[Span]:
    """Spans of consecutive seq ranges covering lo..hi, in seq order."""
    dialect = session.get_bind().dialect.name
    target = _parallel_dsn(session)
    workers = workers if workers is not None else min(os.cpu_count() or 1, 8)
    # IDC_AUDIT_PARALLEL_MIN lowers the threshold (the bundle's smoke test starts workers on a small chain)
    least = int(os.environ.get("IDC_AUDIT_PARALLEL_MIN") or PARALLEL_MIN_EVENTS)
    if target is None or hi - lo + 1 < least or workers < 2:
        yield _scan_here(session, dialect, lo, hi, expected_seq, expected_hash)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    size = max(RANGE_MIN, -(-(hi - lo + 1) // (workers * 4)))
    copy = hash_here(session)
    if dialect == "postgresql" and not copy:
        executor = ThreadPoolExecutor(workers)  # the server hashes: threads wait on their connections
    else:
        # spawn: a clean interpreter that imports app.audit.scan and the driver (no fork of this process's
        # threads and connections); each worker's own connection reads its ranges
        executor = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
    with executor as pool:
        futures = [pool.submit(worker_scan, dialect, target[1], a, b, expected_seq, expected_hash, CHUNK_EVENTS, copy)
                   for a, b in _ranges(lo, hi, size)]
        try:
            try:
                first = futures[0].result()
            except BrokenProcessPool:
                # Workers could not start (e.g. a script without an `if __name__ == "__main__"` guard,
                # a frozen program without multiprocessing.freeze_support()): verify in this process
                # instead, and say so (slower, not less strict).
                print("audit verify: worker processes could not start; checking in this process",
                      file=sys.stderr, flush=True)
                first = None
            if first is None:
                yield _scan_here(session, dialect, lo, hi, expected_seq, expected_hash)
                return
            yield first
            for f in futures[1:]:
                yield f.result()
        finally:
            for f in futures:
                f.cancel()


def _parse_head(expect_head: str | None) -> tuple[int | None, str | None]:
    if not expect_head:
        return None, None
    s, h = expect_head.split(":", 1)
    return int(s), h.strip().lower()


def _failure(kind: str, count: int, prev_seq: int, prev_hash: str, seq: int, stored: str,
             expect_head: str | None) -> VerifyResult:
    head = _head(prev_seq, prev_hash)
    if kind == "gap":
        what = "missing (deleted)" if seq > prev_seq + 1 else "duplicated or out of order"
        return VerifyResult(False, count, head, f"event #{prev_seq + 1} is {what}: found #{seq} after #{prev_seq}",
                            prev_seq + 1)
    if kind == "altered":
        return VerifyResult(False, count, head, f"event #{seq} was altered: its content does not match its hash", seq)
    if kind == "link":
        return VerifyResult(False, count, head, f"event #{seq} does not link to event #{prev_seq} "
                                                "(inserted, reordered or re-hashed)", seq)
    return VerifyResult(False, count, head, f"checkpoint {expect_head} does not match: event #{seq} now has "
                                            f"hash {stored}; the chain was rewritten since", seq)


@logged_run("audit verify", start=lambda session, expect_head=None, **kw: dict(expect_head=expect_head),
            end=lambda r: dict(ok=r.ok, events=r.count, head=r.head, problem=r.problem))
def verify_audit_chain(session: Session, expect_head: str | None = None,
                       progress=None, workers: int | None = None) -> VerifyResult:
    """Recompute every event's hash and every link; compare with the stored head.

    `workers` caps the processes that hash large chains (default: the CPU count; 1 scans here).
    """
    try:
        expected_seq, expected_hash = _parse_head(expect_head)
    except ValueError:
        return VerifyResult(False, 0, None, f"--expect-head must be SEQ:HASH, got {expect_head!r}")
    # The chain's extent and the head in one statement (one snapshot): events appended while the
    # chain is checked are neither read nor expected.
    lo, hi, head_seq, head_hash = session.execute(text(
        "SELECT (SELECT MIN(seq) FROM audit_event), (SELECT MAX(seq) FROM audit_event), seq, hash "
        "FROM audit_head WHERE id = 1")).one()
    join = Joiner(expected_seq, expected_hash, last=(0, GENESIS_HASH))
    if lo is not None:
        for span in _spans(session, lo, hi, expected_seq, expected_hash, workers):
            if not join.add(span):
                break
            if progress:
                progress(join.n)
    if join.fail:
        count, kind, seq, p_seq, p_hash, stored = join.fail
        return _failure(kind, count, p_seq, p_hash, seq, stored, expect_head)
    count, (prev_seq, prev_hash) = join.n, join.last
    if (head_seq, head_hash) != (prev_seq, prev_hash):
        problem, bad = _head_problem(session, prev_seq, prev_hash, head_seq, head_hash)
        return VerifyResult(False, count, _head(prev_seq, prev_hash), problem, bad)
    if expected_seq is not None and not join.seen:
        return VerifyResult(False, count, _head(prev_seq, prev_hash),
                            f"checkpoint {expect_head} is beyond the end of the chain", expected_seq)
    return VerifyResult(True, count, _head(prev_seq, prev_hash))


def verify_audit_range(session: Session, first_seq: int, last_seq: int,
                       expect_head: str | None = None) -> VerifyResult:
    """Verify events first_seq..last_seq only: every hash and link inside, the link of the first to
    the event before it, and `expect_head` (SEQ:HASH, normally the range's last event).

    What an audit report covers: its period's stretch of the chain, tied to the chain before it
    and to its checkpoint, without re-hashing millions of events outside the period (the full
    check stays `audit verify`). An empty range (first_seq > last_seq) is trivially sound.
    """
    try:
        expected_seq, expected_hash = _parse_head(expect_head)
    except ValueError:
        return VerifyResult(False, 0, None, f"--expect-head must be SEQ:HASH, got {expect_head!r}")
    first_seq = max(1, first_seq)
    if first_seq > last_seq:
        return VerifyResult(True, 0, None)
    prev_seq = first_seq - 1
    if prev_seq == 0:
        prev_hash = GENESIS_HASH
    else:
        prev_hash = session.execute(select(AuditEvent.hash).where(AuditEvent.seq == prev_seq)).scalar_one_or_none()
        if prev_hash is None:
            return VerifyResult(False, 0, None, f"event #{prev_seq} is missing (deleted): the period cannot "
                                                f"be linked to the chain before it", prev_seq)
    join = Joiner(expected_seq, expected_hash, last=(prev_seq, prev_hash))
    for span in _spans(session, first_seq, last_seq, expected_seq, expected_hash, None):
        if not join.add(span):
            break
    if join.fail:
        count, kind, seq, p_seq, p_hash, stored = join.fail
        return _failure(kind, count, p_seq, p_hash, seq, stored, expect_head)
    if not join.n:
        return VerifyResult(False, 0, _head(prev_seq, prev_hash),
                            f"events #{first_seq}–#{last_seq} are missing (deleted)", first_seq)
    end_seq, end_hash = join.last
    if end_seq != last_seq:
        return VerifyResult(False, join.n, _head(end_seq, end_hash),
                            f"event #{end_seq + 1} is missing (deleted): the range ends at #{end_seq}, "
                            f"not #{last_seq}", end_seq + 1)
    if expected_seq is not None and not join.seen:
        return VerifyResult(False, join.n, _head(end_seq, end_hash),
                            f"checkpoint {expect_head} is outside events #{first_seq}–#{last_seq}", expected_seq)
    return VerifyResult(True, join.n, _head(end_seq, end_hash))


def _head_problem(session: Session, end_seq: int, end_hash: str, head_seq: int, head_hash: str
                  ) -> tuple[str, int]:
    """The chain itself is sound but disagrees with the `audit_head` row: say which side was touched.

    Every append moves the head in the same transaction, so a head behind a sound chain whose
    event at the head's seq has the head's hash means events were appended by something else;
    a head that matches no event was itself edited.
    """
    if head_seq == end_seq:
        return (f"the recorded head row was edited: it says #{head_seq} has hash {head_hash}, "
                f"but event #{end_seq} has hash {end_hash}"), end_seq
    if head_seq < end_seq:
        at_head = session.execute(select(AuditEvent.hash).where(AuditEvent.seq == head_seq)).scalar_one_or_none()
        if head_seq == 0 and head_hash == GENESIS_HASH or at_head == head_hash:
            n = end_seq - head_seq
            which = f"#{head_seq + 1}" if n == 1 else f"#{head_seq + 1}–#{end_seq}"
            return (f"event {which} was appended without moving the recorded head (#{head_seq}): "
                    f"{'it was' if n == 1 else 'they were'} written outside the program (forged)"), head_seq + 1
        return (f"the recorded head row was edited: it says #{head_seq} has hash {head_hash}, but event "
                f"#{head_seq} has hash {at_head}; the chain itself ends at #{end_seq}"), head_seq
    if head_hash == end_hash:
        return (f"the recorded head row was edited: it says #{head_seq}, but its hash is that of "
                f"event #{end_seq}, where the chain ends"), end_seq
    return (f"the chain ends at #{end_seq} but the recorded head is #{head_seq}: "
            f"events after #{end_seq} were deleted"), end_seq + 1


def _head(seq: int, h: str) -> str:
    return f"{seq}:{h}"


def diff(before: dict, after: dict) -> tuple[dict, dict]:
    """Only the changed fields, for the audit event's before/after."""
    keys = [k for k in after if before.get(k) != after.get(k)]
    return {k: before.get(k) for k in keys}, {k: after.get(k) for k in keys}
