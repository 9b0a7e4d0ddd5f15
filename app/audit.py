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
import weakref
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable, Iterable, Iterator

import orjson
from sqlalchemy import select, text, update
from sqlalchemy.orm import Session, make_transient_to_detached

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


def hash_payload(payload: dict[str, Any]) -> str:
    """THE audit hash: SHA-256 (hex) of the payload as compact JSON with sorted keys (orjson's bytes).

    The payload is HASHED_FIELDS with `ts` as format_ts text and before/after as canonical_json
    text. Appending (event_hash), verifying (_scan) and the synthetic chain (bench.scale) all hash
    through here; the database-built payload of the fast verify path must produce the same bytes
    and is re-checked through here on any mismatch. Pinned by tests/test_audit_hash.py.
    """
    return hashlib.sha256(orjson.dumps(payload, option=orjson.OPT_SORT_KEYS)).hexdigest()


def event_hash(fields: dict[str, Any]) -> str:
    payload = {k: fields[k] for k in HASHED_FIELDS}
    payload["ts"] = format_ts(payload["ts"]) if isinstance(payload["ts"], dt.datetime) else payload["ts"]
    return hash_payload(payload)


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


# The head is never loaded as an ORM object, so its UPDATEs need not search the session for
# copies to refresh; that search is over every object the session holds, which made a bulk
# import quadratic (4,449 device types: ~40 s of 50 s).
NO_SYNC = {"synchronize_session": False}


def append_event(session: Session, actor: Actor, *, request_id: str, action: str, object_type: str,
                 object_id: Any = None, object_label: str | None = None,
                 before: dict | None = None, after: dict | None = None,
                 reason: str | None = None, outcome: str = "success",
                 ts: dt.datetime | None = None) -> AuditEvent:
    return append_events(session, actor, request_id=request_id, ts=ts, events=[dict(
        action=action, object_type=object_type, object_id=object_id, object_label=object_label,
        before=before, after=after, reason=reason, outcome=outcome)])[0]


def append_events(session: Session, actor: Actor, *, request_id: str, events: list[dict],
                  ts: dt.datetime | None = None) -> list[AuditEvent]:
    """Append events (dicts of append_event's keyword arguments) in order, linked as usual.

    The head is moved and rewritten once for the lot, and the events go in as one batch:
    a bulk import's thousands of events cost a few statements instead of three each.
    """
    if not events:
        return []
    session.flush()  # the change itself first, so a refused change never reaches the chain
    through_function = has_definer_functions(session)
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
    added = []
    for seq, e in enumerate(events, start=last_seq - len(events) + 1):
        before, after, object_id = e.get("before"), e.get("after"), e.get("object_id")
        fields = dict(
            seq=seq, ts=when,
            actor_id=actor.id, actor_login=actor.login, actor_name=actor.name, actor_role=actor.role,
            host=HOST, app_version=__version__, request_id=request_id, action=e["action"],
            object_type=e["object_type"], object_id=None if object_id is None else str(object_id),
            object_label=e.get("object_label"),
            before=None if before is None else canonical_json(before),
            after=None if after is None else canonical_json(after),
            reason=e.get("reason"), outcome=e.get("outcome", "success"), prev_hash=prev_hash,
        )
        fields["hash"] = prev_hash = event_hash(fields)
        added.append(AuditEvent(**fields))
    if through_function:
        session.execute(text("SELECT audit_append(CAST(:events AS jsonb))"),
                        {"events": orjson.dumps([_row_json(e) for e in added]).decode()})
        for e in added:  # already in the table: attach them as loaded rows (nothing more is written)
            make_transient_to_detached(e)
            session.add(e)
        return added
    session.add_all(added)
    session.execute(update(AuditHead).where(AuditHead.id == 1).values(hash=prev_hash), execution_options=NO_SYNC)
    return added


def _row_json(e: AuditEvent) -> dict[str, Any]:
    """One event as audit_append's JSON: the stored columns, ts as naive UTC text (microseconds)."""
    row = {k: getattr(e, k) for k in HASHED_FIELDS}
    row["ts"] = e.ts.astimezone(dt.timezone.utc).replace(tzinfo=None).isoformat(timespec="microseconds")
    row["hash"] = e.hash
    return row


_DEFINER_FUNCTIONS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def has_definer_functions(session: Session) -> bool:
    """PostgreSQL at migration 0016 or later: appends and login bookkeeping go through the owner's
    SECURITY DEFINER functions (what `db roles` grants instead of writes on those tables).

    Remembered per engine; Database.upgrade/downgrade forget it (forget_definer_functions).
    """
    bind = session.get_bind()
    if bind.dialect.name != "postgresql":
        return False
    engine = getattr(bind, "engine", bind)
    known = _DEFINER_FUNCTIONS.get(engine)
    if known is None:
        known = bool(session.execute(
            text("SELECT to_regprocedure('public.audit_append(jsonb)') IS NOT NULL")).scalar())
        _DEFINER_FUNCTIONS[engine] = known
    return known


def forget_definer_functions(engine) -> None:
    _DEFINER_FUNCTIONS.pop(engine, None)


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


# Verification reads raw driver rows, with the hashed columns in sorted-key order, and hashes each
# row's payload with hash_payload, the one definition. Large chains are split into seq ranges that worker processes fetch and hash
# on their own connections (each row's hash is checked independently); the main process then
# checks the links between ranges in order, so the first bad event is named exactly as a serial
# scan would name it.
_SORTED_FIELDS = tuple(sorted(HASHED_FIELDS))
_SEQ_AT = _SORTED_FIELDS.index("seq")
_PREV_AT = _SORTED_FIELDS.index("prev_hash")
PARALLEL_MIN_EVENTS = 200_000
# Let the database serialise each payload (measured: SQLite 2× faster; PostgreSQL on the same two
# cores slower, as its backend then does the work the client saved). docs/performance.md.
SERVER_JSON = {"sqlite": True, "postgresql": False}
RANGE_EVENTS = 250_000
RANGE_MIN = 10_000


def _select_sql(dialect: str) -> str:
    cols = []
    for f in _SORTED_FIELDS:
        if f == "ts" and dialect in ("postgresql", "sqlite"):
            cols.append(_ts_sql(dialect))  # SQLite stores SQLAlchemy's text 'YYYY-MM-DD HH:MM:SS.ffffff'

        else:
            cols.append(f'"{f}"')
    return f"SELECT {', '.join(cols)}, hash FROM audit_event WHERE seq >= %s AND seq <= %s ORDER BY seq"


def _ts_sql(dialect: str) -> str:
    if dialect == "postgresql":
        return """to_char(ts, 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')"""
    return "CASE WHEN length(ts) = 26 THEN substr(ts, 1, 10) || 'T' || substr(ts, 12) || 'Z' ELSE ts END"


def _fast_sql(dialect: str) -> str:
    """seq, prev_hash, hash and the hashed payload as UTF-8 bytes, built by the database.

    SQLite's json_object and PostgreSQL's to_json escape strings exactly as orjson does
    (checked for quotes, backslashes, control characters and non-ASCII); a row whose payload
    hashes differently is re-checked with the exact Python serialisation before it is called
    altered, so a difference between serialisers can only cost time, never a wrong verdict.
    """
    if dialect == "sqlite":
        args = ", ".join(f"'{f}', " + (_ts_sql(dialect) if f == "ts" else f'"{f}"') for f in _SORTED_FIELDS)
        payload = f"CAST(json_object({args}) AS BLOB)"
    else:
        parts = []
        for i, f in enumerate(_SORTED_FIELDS):
            key = ("{" if i == 0 else ",") + f'"{f}":'
            if f == "ts":
                value = f"""'"' || {_ts_sql(dialect)} || '"'"""
            elif f in ("seq", "actor_id"):
                value = f"""coalesce("{f}"::text, 'null')"""
            else:
                value = f"""coalesce(to_json("{f}")::text, 'null')"""
            parts.append(f"'{key}' || {value}")
        payload = "convert_to(" + " || ".join(parts) + " || '}', 'UTF8')"
    return (f"SELECT seq, prev_hash, hash, {payload} FROM audit_event "
            "WHERE seq >= %s AND seq <= %s ORDER BY seq")


# PostgreSQL hashes each row itself (sha256() is built in) in one set-based query per seq range and
# sends back only the rows that need a look: the range's first row, and any row whose hash, seq or
# link does not follow the row before it (or that is the checkpoint). The payload is _fast_sql's,
# the same bytes as hash_payload's (tests/test_audit_hash.py compares them); a row the database calls
# altered is re-checked with hash_payload before it is reported, so a serialiser difference can only
# cost time, never a wrong verdict.
SERVER_HASH = {"postgresql": True}


def _pg_hash_sql() -> str:
    payload = _fast_sql("postgresql").split("SELECT seq, prev_hash, hash, ", 1)[1].split(" FROM audit_event", 1)[0]
    return ("SELECT i, seq, prev_hash, hash, ok, p_seq, p_hash FROM ("
            "SELECT seq, prev_hash, hash, "
            f"encode(sha256({payload}), 'hex') = hash AS ok, "
            "lag(seq) OVER w AS p_seq, lag(hash) OVER w AS p_hash, row_number() OVER w AS i "
            "FROM audit_event WHERE seq >= %s AND seq <= %s WINDOW w AS (ORDER BY seq)) r "
            "WHERE i = 1 OR NOT ok OR seq <> p_seq + 1 OR prev_hash <> p_hash OR seq = %s ORDER BY seq")


def _scan_pg(execute: Callable[[str, tuple], list], lo: int, hi: int, expected_seq: int | None,
             expected_hash: str | None) -> dict:
    """_scan's summary of one range, hashed by PostgreSQL; only flagged rows come back."""
    exact = _exact_checker(execute, "postgresql")
    rows = execute(_pg_hash_sql(), (lo, hi, -1 if expected_seq is None else expected_seq))
    if not rows:
        return dict(n=0, first=None, last=(None, None), fail=None, seen=False)
    seen = False
    first = None
    for i, seq, prev, stored, ok, p_seq, p_hash in rows:
        ok = ok or exact(seq)
        if i == 1:
            first = (seq, prev, stored, ok)
            continue
        problem, at_checkpoint = _link_problem(seq, prev, stored, ok, p_seq, p_hash, expected_seq, expected_hash)
        seen = seen or at_checkpoint
        if problem:
            return dict(n=i - 1, first=first, last=(p_seq, p_hash),
                        fail=(i - 1, problem, seq, p_seq, p_hash, stored), seen=seen)
    n, last_seq, last_hash = execute(
        "SELECT (SELECT count(*) FROM audit_event WHERE seq >= %s AND seq <= %s), seq, hash FROM audit_event "
        "WHERE seq >= %s AND seq <= %s ORDER BY seq DESC LIMIT 1", (lo, hi, lo, hi))[0]
    return dict(n=n, first=first, last=(last_seq, last_hash), fail=None, seen=seen)


def _ts_text(value: Any) -> str:
    """The hashed text of a raw ts value (SQLite text, PostgreSQL to_char text, or a datetime)."""
    if isinstance(value, str):
        if len(value) == 27 and value[-1] == "Z":
            return value
        if len(value) == 26 and value[10] == " ":
            return f"{value[:10]}T{value[11:]}Z"
        value = dt.datetime.fromisoformat(value)
    if value.tzinfo is None:
        value = value.replace(tzinfo=dt.timezone.utc)
    return format_ts(value)


def _link_problem(seq, prev, stored, ok, prev_seq, prev_hash, expected_seq, expected_hash) -> tuple[str | None, bool]:
    """One row against the row before it: (what is wrong or None, whether it is the checkpoint)."""
    if seq != prev_seq + 1:
        return "gap", False
    if not ok:
        return "altered", False
    if prev != prev_hash:
        return "link", False
    if expected_seq is not None and seq == expected_seq:
        return (None, True) if stored == expected_hash else ("checkpoint", False)
    return None, False


def _scan(batches: Iterable[list[tuple]], expected_seq: int | None, expected_hash: str | None) -> dict:
    """Check one seq range: every row's hash; links, seqs and the checkpoint from the second row on.

    The first row's link and seq (and checkpoint) are left to the caller, who knows the row before it.
    """
    digest = hash_payload
    fields, seq_at, prev_at = _SORTED_FIELDS, _SEQ_AT, _PREV_AT
    n = 0
    first = fail = None
    seen = False
    prev_seq = prev_hash = None
    for rows in batches:
        for row in rows:
            payload = dict(zip(fields, row))
            ts = payload["ts"]
            if ts.__class__ is not str or len(ts) != 27:
                payload["ts"] = _ts_text(ts)
            stored = row[-1]
            ok = digest(payload) == stored
            seq = row[seq_at]
            if first is None:
                first = (seq, row[prev_at], stored, ok)
            else:
                problem = None
                if seq != prev_seq + 1:
                    problem = "gap"
                elif not ok:
                    problem = "altered"
                elif row[prev_at] != prev_hash:
                    problem = "link"
                elif expected_seq is not None and seq == expected_seq:
                    if stored != expected_hash:
                        problem = "checkpoint"
                    else:
                        seen = True
                if problem:
                    fail = (n, problem, seq, prev_seq, prev_hash, stored)
                    return dict(n=n, first=first, last=(prev_seq, prev_hash), fail=fail, seen=seen)
            prev_seq, prev_hash = seq, stored
            n += 1
    return dict(n=n, first=first, last=(prev_seq, prev_hash), fail=fail, seen=seen)


def _scan_fast(batches: Iterable[list[tuple]], exact: Callable[[int], bool], expected_seq: int | None,
               expected_hash: str | None) -> dict:
    """_scan over (seq, prev_hash, hash, payload bytes) rows; `exact(seq)` re-checks a mismatch."""
    sha = hashlib.sha256
    n = 0
    first = fail = None
    seen = False
    prev_seq = prev_hash = None
    for rows in batches:
        for seq, prev, stored, payload in rows:
            ok = sha(payload).hexdigest() == stored or exact(seq)
            if first is None:
                first = (seq, prev, stored, ok)
            else:
                problem, at_checkpoint = _link_problem(seq, prev, stored, ok, prev_seq, prev_hash,
                                                       expected_seq, expected_hash)
                seen = seen or at_checkpoint
                if problem:
                    fail = (n, problem, seq, prev_seq, prev_hash, stored)
                    return dict(n=n, first=first, last=(prev_seq, prev_hash), fail=fail, seen=seen)
            prev_seq, prev_hash = seq, stored
            n += 1
    return dict(n=n, first=first, last=(prev_seq, prev_hash), fail=fail, seen=seen)


def _exact_checker(execute: Callable[[str, tuple], list], dialect: str) -> Callable[[int], bool]:
    """Re-check one event with the exact serialisation (event_hash's bytes)."""
    sql = _select_sql(dialect)
    if dialect == "sqlite":
        sql = sql.replace("%s", "?")

    def exact(seq: int) -> bool:
        rows = execute(sql, (seq, seq))
        return bool(rows) and _scan([rows], None, None)["first"][3]
    return exact


def _worker_scan(dialect: str, dsn: str, lo: int, hi: int, expected_seq, expected_hash) -> dict:
    """In a worker process: fetch one seq range on its own connection and scan it."""
    sql = _fast_sql(dialect) if SERVER_JSON.get(dialect) else _select_sql(dialect)
    if dialect == "sqlite" and not SERVER_JSON.get(dialect):
        import sqlite3

        conn = sqlite3.connect(dsn)
        try:
            cur = conn.execute(sql.replace("%s", "?"), (lo, hi))
            return _scan(iter(lambda: cur.fetchmany(20000), []), expected_seq, expected_hash)
        finally:
            conn.close()
    if dialect == "sqlite":
        import sqlite3

        conn = sqlite3.connect(dsn)
        try:
            exact = _exact_checker(lambda q, p: conn.execute(q, p).fetchall(), dialect)
            cur = conn.execute(sql.replace("%s", "?"), (lo, hi))
            return _scan_fast(iter(lambda: cur.fetchmany(20000), []), exact, expected_seq, expected_hash)
        finally:
            conn.close()
    import psycopg

    with psycopg.connect(dsn) as conn:
        if SERVER_HASH.get(dialect):
            return _scan_pg(lambda q, p: conn.execute(q, p).fetchall(), lo, hi, expected_seq, expected_hash)
        exact = _exact_checker(lambda q, p: conn.execute(q, p).fetchall(), dialect)
        with conn.cursor(name="audit_verify") as cur:
            cur.itersize = 20000
            cur.execute(sql, (lo, hi))
            batches = iter(lambda: cur.fetchmany(20000), [])
            if SERVER_JSON.get(dialect):
                return _scan_fast(batches, exact, expected_seq, expected_hash)
            return _scan(batches, expected_seq, expected_hash)


def _parallel_dsn(session: Session) -> tuple[str, str] | None:
    """(dialect, DSN) a worker process can open, or None to scan in this process."""
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


def _range_results(session: Session, expected_seq, expected_hash, workers: int | None) -> Iterator[dict]:
    """Scan summaries of consecutive seq ranges, in seq order."""
    lo, hi, n = session.execute(text("SELECT MIN(seq), MAX(seq), COUNT(*) FROM audit_event")).one()
    if not n:
        return
    dialect = session.get_bind().dialect.name
    target = _parallel_dsn(session)
    cpus = os.cpu_count() or 1
    workers = workers if workers is not None else min(cpus, 8)
    if target is None or n < PARALLEL_MIN_EVENTS or workers < 2:
        yield _scan_here(session, dialect, lo, hi, expected_seq, expected_hash)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    size = max(RANGE_MIN, min(RANGE_EVENTS, (hi - lo + 1) // (workers * 4) + 1))
    if SERVER_HASH.get(dialect):
        # the database does the hashing: threads (each on its own connection) are enough, and start at once
        from concurrent.futures import ThreadPoolExecutor

        executor = ThreadPoolExecutor(workers)
    else:
        executor = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
    with executor as pool:
        futures = [pool.submit(_worker_scan, dialect, target[1], a, b, expected_seq, expected_hash)
                   for a, b in _ranges(lo, hi, size)]
        try:
            try:
                first = futures[0].result()
            except BrokenProcessPool:
                # Workers could not start (e.g. a script without an `if __name__ == "__main__"` guard):
                # verify in this process instead.
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


def _scan_here(session: Session, dialect: str, lo: int, hi: int, expected_seq, expected_hash) -> dict:
    conn = session.connection()
    if SERVER_HASH.get(dialect):
        return _scan_pg(lambda q, p: conn.exec_driver_sql(q, p).fetchall(), lo, hi, expected_seq, expected_hash)
    if SERVER_JSON.get(dialect):
        sql = _fast_sql(dialect)
        if dialect == "sqlite":
            sql = sql.replace("%s", "?")
        exact = _exact_checker(lambda q, p: conn.exec_driver_sql(q, p).fetchall(), dialect)
        result = conn.exec_driver_sql(sql, (lo, hi))
        return _scan_fast(iter(lambda: result.fetchmany(20000), []), exact, expected_seq, expected_hash)
    sql = _select_sql(dialect)
    result = conn.exec_driver_sql(sql, (lo, hi))
    return _scan(iter(lambda: result.fetchmany(20000), []), expected_seq, expected_hash)


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


def verify_audit_chain(session: Session, expect_head: str | None = None,
                       progress=None, workers: int | None = None) -> VerifyResult:
    """Recompute every event's hash and every link; compare with the stored head.

    `workers` caps the processes that hash large chains (default: the CPU count; 1 scans here).
    """
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
    for part in _range_results(session, expected_seq, expected_hash, workers):
        if not part["n"] and part["fail"] is None:
            continue
        seq, stored_prev, stored_hash, ok = part["first"]
        # The range's first row, against the last row of the range before it.
        kind, at_checkpoint = _link_problem(seq, stored_prev, stored_hash, ok, prev_seq, prev_hash,
                                            expected_seq, expected_hash)
        checkpoint_seen = checkpoint_seen or at_checkpoint
        if kind:
            return _failure(kind, count, prev_seq, prev_hash, seq, stored_hash, expect_head)
        if part["fail"]:
            i, kind, seq, p_seq, p_hash, stored = part["fail"]
            return _failure(kind, count + i, p_seq, p_hash, seq, stored, expect_head)
        count += part["n"]
        prev_seq, prev_hash = part["last"]
        checkpoint_seen = checkpoint_seen or part["seen"]
        if progress:
            progress(count)
    head_seq, head_hash = session.execute(select(AuditHead.seq, AuditHead.hash).where(AuditHead.id == 1)).one()
    if (head_seq, head_hash) != (prev_seq, prev_hash):
        problem, bad = _head_problem(session, prev_seq, prev_hash, head_seq, head_hash)
        return VerifyResult(False, count, _head(prev_seq, prev_hash), problem, bad)
    if not checkpoint_seen:
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
    expected_seq = expected_hash = None
    if expect_head:
        try:
            s, h = expect_head.split(":", 1)
            expected_seq, expected_hash = int(s), h.strip().lower()
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
    dialect = session.get_bind().dialect.name
    part = _scan_here(session, dialect, first_seq, last_seq, expected_seq, expected_hash)
    if not part["n"] and part["fail"] is None:
        return VerifyResult(False, 0, _head(prev_seq, prev_hash),
                            f"events #{first_seq}–#{last_seq} are missing (deleted)", first_seq)
    seq, stored_prev, stored_hash, ok = part["first"]
    kind, seen = _link_problem(seq, stored_prev, stored_hash, ok, prev_seq, prev_hash, expected_seq, expected_hash)
    if kind:
        return _failure(kind, 0, prev_seq, prev_hash, seq, stored_hash, expect_head)
    if part["fail"]:
        i, kind, seq, p_seq, p_hash, stored = part["fail"]
        return _failure(kind, i, p_seq, p_hash, seq, stored, expect_head)
    end_seq, end_hash = part["last"]
    if end_seq != last_seq:
        return VerifyResult(False, part["n"], _head(end_seq, end_hash),
                            f"event #{end_seq + 1} is missing (deleted): the range ends at #{end_seq}, "
                            f"not #{last_seq}", end_seq + 1)
    if expected_seq is not None and not (seen or part["seen"]):
        return VerifyResult(False, part["n"], _head(end_seq, end_hash),
                            f"checkpoint {expect_head} is outside events #{first_seq}–#{last_seq}", expected_seq)
    return VerifyResult(True, part["n"], _head(end_seq, end_hash))


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


def chain_head(session: Session) -> str:
    seq, h = session.execute(select(AuditHead.seq, AuditHead.hash).where(AuditHead.id == 1)).one()
    return _head(seq, h)


def diff(before: dict, after: dict) -> tuple[dict, dict]:
    """Only the changed fields, for the audit event's before/after."""
    keys = [k for k in after if before.get(k) != after.get(k)]
    return {k: before.get(k) for k in keys}, {k: after.get(k) for k in keys}
