"""Recomputing the audit chain over a stretch of seqs: every event's hash, every link, the seqs.

What `audit verify` runs, in this process or in worker processes (app/audit/trail.py decides and joins
the stretches). No SQLAlchemy and no models here, so that a worker process starts by importing
this module and a database driver only (an import-linter contract keeps it so).

The hash has one definition, hash_payload: SHA-256 of the canonical JSON of the event (orjson,
sorted keys, no spaces). Two ways of checking a stretch:

* exact: the stored columns, serialised by hash_payload (scan_rows). Slow (≈ 6 µs an event), and the
  final word on any event a fast path does not accept.
* fast: the database serialises each payload to the same bytes; SQLite hands back a chunk of events
  as one row (payloads, hashes and prev_hashes joined) and Python hashes them (scan_sqlite);
  PostgreSQL hashes every payload itself and returns only rows that need a look (scan_pg), or sends the
  raw columns by COPY and Python builds each payload from the text row and hashes it (scan_copy).

A fast path may only ACCEPT an event when its payload is byte for byte the canonical one: a forger
who can write the hash column could otherwise hash a payload that the database serialises
differently and have it accepted. So the fast payloads use escaping that is exact for every text
(SQLite json_object, PostgreSQL to_json: both escape as orjson does, tests/audit/test_audit_hash.py), and
whatever they cannot vouch for (a ts not in the stored format, a REAL actor_id on SQLite) makes the
chunk or row fall to the exact path, which then names the first bad event exactly as before.
"""
from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from operator import methodcaller
from typing import Any, Callable, Iterable

import orjson

HASHED_FIELDS = (
    "seq", "ts", "actor_id", "actor_login", "actor_name", "actor_role", "host", "app_version",
    "request_id", "action", "object_type", "object_id", "object_label", "before", "after",
    "reason", "outcome", "prev_hash",
)
SORTED_FIELDS = tuple(sorted(HASHED_FIELDS))
_SEQ_AT = SORTED_FIELDS.index("seq")
_PREV_AT = SORTED_FIELDS.index("prev_hash")
# Events per SQLite chunk: one query, one row back of about half a megabyte.
CHUNK_EVENTS = 2000


def format_ts(ts: dt.datetime) -> str:
    """UTC, microseconds, always the same text for the same instant."""
    return ts.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def hash_payload(payload: dict[str, Any]) -> str:
    """THE audit hash: SHA-256 (hex) of the payload as compact JSON with sorted keys (orjson's bytes).

    The payload is HASHED_FIELDS with `ts` as format_ts text and before/after as canonical_json
    text. Appending (event_hash), verifying (scan_rows) and the synthetic chain (bench.scale) all hash
    through here; the database-built payloads of the fast verify paths must produce the same bytes
    and are re-checked through here on any mismatch. Pinned by tests/audit/test_audit_hash.py.
    """
    return hashlib.sha256(orjson.dumps(payload, option=orjson.OPT_SORT_KEYS)).hexdigest()


@dataclass(frozen=True)
class Span:
    """What a scan of consecutive events found.

    n: events that passed, in order (on failure: those before the bad one); first: (seq, prev_hash,
    hash, own hash ok) of the first event, whose seq, link and checkpoint are left to whoever knows
    the event before it; last: (seq, hash) of the last event that passed; fail: (events passed
    before it, kind, seq, seq before, hash before, stored hash) of the first bad event; seen: the
    checkpoint was met (and matched) after the first event.
    """

    n: int = 0
    first: tuple | None = None
    last: tuple | None = None
    fail: tuple | None = None
    seen: bool = False


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


class Joiner:
    """Joins the spans of consecutive stretches in seq order into one span, checking each stretch's
    first event against the last event of the one before (or against `last`, the event known to come
    before the first stretch)."""

    def __init__(self, expected_seq=None, expected_hash=None, last: tuple | None = None):
        self.expected = (expected_seq, expected_hash)
        self.n, self.first, self.last, self.fail, self.seen = 0, None, last, None, False

    def add(self, span: Span) -> bool:
        """Take the next stretch; False once a bad event was found (later stretches are ignored)."""
        if self.fail is not None:
            return False
        if not span.n and span.fail is None:
            return True
        if self.first is None:
            self.first = span.first
        if self.last is not None:
            seq, prev, stored, ok = span.first
            kind, at_checkpoint = _link_problem(seq, prev, stored, ok, *self.last, *self.expected)
            self.seen = self.seen or at_checkpoint
            if kind:
                self.fail = (self.n, kind, seq, self.last[0], self.last[1], stored)
                return False
        self.seen = self.seen or span.seen
        if span.fail is not None:
            i, kind, seq, p_seq, p_hash, stored = span.fail
            self.fail = (self.n + i, kind, seq, p_seq, p_hash, stored)
            self.n += i
            self.last = (p_seq, p_hash)
            return False
        self.n += span.n
        self.last = span.last
        return True

    def span(self) -> Span:
        return Span(self.n, self.first, self.last, self.fail, self.seen)


# --- the exact path ----------------------------------------------------------------

def _ts_sql(dialect: str) -> str:
    if dialect == "postgresql":
        return """to_char(ts, 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')"""
    # SQLite stores SQLAlchemy's text 'YYYY-MM-DD HH:MM:SS.ffffff'
    return "CASE WHEN length(ts) = 26 THEN substr(ts, 1, 10) || 'T' || substr(ts, 12) || 'Z' ELSE ts END"


def select_sql(dialect: str) -> str:
    """The raw hashed columns in sorted-key order, then hash: what scan_rows reads (placeholders %s)."""
    cols = [_ts_sql(dialect) if f == "ts" else f'"{f}"' for f in SORTED_FIELDS]
    return f"SELECT {', '.join(cols)}, hash FROM audit_event WHERE seq >= %s AND seq <= %s ORDER BY seq"


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


def scan_rows(batches: Iterable[list[tuple]], expected_seq: int | None, expected_hash: str | None) -> Span:
    """Check rows of select_sql exactly: every row's hash (hash_payload); links, seqs and the
    checkpoint from the second row on."""
    digest = hash_payload
    fields, seq_at, prev_at = SORTED_FIELDS, _SEQ_AT, _PREV_AT
    n = 0
    first = None
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
                problem, at_checkpoint = _link_problem(seq, row[prev_at], stored, ok, prev_seq, prev_hash,
                                                       expected_seq, expected_hash)
                seen = seen or at_checkpoint
                if problem:
                    return Span(n, first, (prev_seq, prev_hash), (n, problem, seq, prev_seq, prev_hash, stored), seen)
            prev_seq, prev_hash = seq, stored
            n += 1
    return Span(n, first, (prev_seq, prev_hash) if first else None, None, seen)


def _exact_ok(execute: Callable[[str, tuple], list], dialect: str, seq: int) -> bool:
    """One event's own hash, recomputed exactly."""
    sql = select_sql(dialect)
    rows = execute(sql.replace("%s", "?") if dialect == "sqlite" else sql, (seq, seq))
    return bool(rows) and scan_rows([rows], None, None).first[3]


# --- SQLite: chunks serialised by json_object, hashed here ----------------------------

def _sqlite_payload() -> str:
    """The payload as json_object builds it (its escaping is orjson's), or NULL where it could differ
    from hash_payload's: ts not in the stored 'YYYY-MM-DD HH:MM:SS.ffffff' shape (26 characters, a
    space at the 11th: LIKE's _ is any one character), or a REAL actor_id (json_object and orjson
    write large and small floats differently). A NULL payload sends its chunk to the exact path."""
    args = ", ".join(f"'{f}', " + ("substr(ts, 1, 10) || 'T' || substr(ts, 12) || 'Z'" if f == "ts" else f'"{f}"')
                     for f in SORTED_FIELDS)
    return (f"CASE WHEN ts LIKE '__________ _______________' AND typeof(actor_id) <> 'real' "
            f"THEN json_object({args}) END")


def _sqlite_chunk_sql() -> str:
    """One row for the events lo..hi: their count, first and last seq, prev_hashes and hashes joined
    by commas, payloads joined by newlines (json_object escapes every control character, so a
    payload holds no newline; group_concat skips a NULL payload, which the count then shows)."""
    return ("SELECT count(*), min(seq), max(seq), group_concat(prev_hash, ','), group_concat(hash, ','), "
            "CAST(group_concat(p, char(10)) AS BLOB) "
            f"FROM (SELECT seq, prev_hash, hash, {_sqlite_payload()} AS p "
            "FROM audit_event WHERE seq >= ? AND seq <= ? ORDER BY seq)")


_HEX = methodcaller("hexdigest")


def _chunk_span(row: tuple, expected_seq, expected_hash) -> Span | None:
    """A chunk's span if every event in it is sound (hash, seqs, links, checkpoint after its first
    event), else None: the caller checks the chunk exactly. Comparing the comma-joined strings
    compares event by event: hex digests and separators hold no comma, so equal strings have the same
    commas in the same places."""
    n, lo, hi, prevs, hashes, payloads = row
    if not n:
        return Span()
    if payloads is None or prevs is None or hashes is None or hi - lo + 1 != n:
        return None
    parts = payloads.split(b"\n")
    if len(parts) != n or ",".join(map(_HEX, map(hashlib.sha256, parts))) != hashes:
        return None
    # hashes is now n 64-character digests: prev_hash of events 2..n must be hashes 1..n-1
    cut = prevs.find(",")
    first_prev = prevs if cut < 0 else prevs[:cut]
    if (prevs[cut + 1:] if cut >= 0 else "") != hashes[:-65]:
        return None
    seen = False
    if expected_seq is not None and lo < expected_seq <= hi:
        at = (expected_seq - lo) * 65
        if hashes[at:at + 64] != expected_hash:
            return None
        seen = True
    return Span(n, (lo, first_prev, hashes[:64], True), (hi, hashes[-64:]), None, seen)


def scan_sqlite(conn, lo: int, hi: int, expected_seq=None, expected_hash=None, chunk: int = CHUNK_EVENTS) -> Span:
    """Events lo..hi on a sqlite3 connection, a chunk at a time; a chunk the fast check does not
    accept is checked exactly (and names its first bad event)."""
    fast, exact = _sqlite_chunk_sql(), select_sql("sqlite").replace("%s", "?")
    join = Joiner(expected_seq, expected_hash)
    for a in range(lo, hi + 1, chunk):
        b = min(a + chunk - 1, hi)
        span = _chunk_span(conn.execute(fast, (a, b)).fetchone(), expected_seq, expected_hash)
        if span is None:
            span = scan_rows([conn.execute(exact, (a, b)).fetchall()], expected_seq, expected_hash)
        if not join.add(span):
            break
    return join.span()


# --- PostgreSQL: hashed by the database -----------------------------------------------

def pg_payload() -> str:
    """The payload as PostgreSQL builds it: to_json escapes text as orjson does; the constant parts
    are single literals. prev_hash goes in unescaped: an event is only accepted when its prev_hash
    equals the hash before it, which is then a verified hex digest (GENESIS_HASH for the first)."""
    pieces, literal = [], ""
    for i, f in enumerate(SORTED_FIELDS):
        literal += ("{" if i == 0 else ",") + f'"{f}":'
        if f == "seq":
            value = "seq::text"
        elif f == "actor_id":
            value = "coalesce(actor_id::text, 'null')"
        elif f in ("ts", "prev_hash"):
            literal += '"'
            pieces += [literal, _ts_sql("postgresql") if f == "ts" else "prev_hash"]
            literal = '"'
            continue
        else:
            value = f'coalesce(to_json("{f}")::text, \'null\')'
        pieces += [literal, value]
        literal = ""
    pieces.append(literal + "}")
    sql = " || ".join("'" + p.replace("'", "''") + "'" if i % 2 == 0 else p for i, p in enumerate(pieces))
    return f"convert_to({sql}, 'UTF8')"


def fast_sql(dialect: str) -> str:
    """seq, prev_hash, hash and the payload the fast path hashes, built by the database (for tests)."""
    payload = pg_payload() if dialect == "postgresql" else f"CAST({_sqlite_payload()} AS BLOB)"
    return (f"SELECT seq, prev_hash, hash, {payload} FROM audit_event "
            "WHERE seq >= %s AND seq <= %s ORDER BY seq")


def pg_hash_sql() -> str:
    """One seq range hashed by PostgreSQL (sha256() is built in); back come only the rows that need
    a look: the range's first, and any whose hash, seq or link does not follow the row before it (or
    that is the checkpoint). IS NOT TRUE / IS DISTINCT FROM: a NULL anywhere is flagged, not passed."""
    return ("SELECT seq, prev_hash, hash, ok, p_seq, p_hash FROM ("
            "SELECT seq, prev_hash, hash, "
            f"encode(sha256({pg_payload()}), 'hex') = hash AS ok, "
            "lag(seq) OVER w AS p_seq, lag(hash) OVER w AS p_hash "
            "FROM audit_event WHERE seq >= %s AND seq <= %s WINDOW w AS (ORDER BY seq)) r "
            "WHERE p_seq IS NULL OR ok IS NOT TRUE OR seq <> p_seq + 1 OR prev_hash IS DISTINCT FROM p_hash "
            "OR seq = %s ORDER BY seq")


def scan_pg(execute: Callable[[str, tuple], list], lo: int, hi: int, expected_seq=None, expected_hash=None) -> Span:
    """Events lo..hi hashed by PostgreSQL. A row that comes back has its own hash recomputed
    exactly here (so what is reported of it is the exact verdict), then its link checked."""
    rows = execute(pg_hash_sql(), (lo, hi, -1 if expected_seq is None else expected_seq))
    if not rows:
        return Span()
    seen = False
    first = None
    for seq, prev, stored, _ok, p_seq, p_hash in rows:
        ok = _exact_ok(execute, "postgresql", seq)
        if p_seq is None:
            first = (seq, prev, stored, ok)
            continue
        problem, at_checkpoint = _link_problem(seq, prev, stored, ok, p_seq, p_hash, expected_seq, expected_hash)
        seen = seen or at_checkpoint
        if problem:
            (n,) = execute("SELECT count(*) FROM audit_event WHERE seq >= %s AND seq < %s", (lo, seq))[0]
            return Span(n, first, (p_seq, p_hash), (n, problem, seq, p_seq, p_hash, stored), seen)
    n, last_seq, last_hash = execute(
        "SELECT (SELECT count(*) FROM audit_event WHERE seq >= %s AND seq <= %s), seq, hash FROM audit_event "
        "WHERE seq >= %s AND seq <= %s ORDER BY seq DESC LIMIT 1", (lo, hi, lo, hi))[0]
    return Span(n, first, (last_seq, last_hash), None, seen)


# --- PostgreSQL: raw columns by COPY, hashed here ---------------------------------------

def copy_sql(lo: int, hi: int) -> str:
    """The raw columns of select_sql (ts as its hashed text) for COPY TO, one text row per event."""
    return f"COPY ({select_sql('postgresql') % (int(lo), int(hi))}) TO STDOUT"


# The payload as orjson writes it for hash_payload, one %s per field in SORTED_FIELDS: seq and actor_id
# bare, every other field quoted. A NULL comes from COPY as \N; quoted, it becomes null afterwards.
_BARE = ("seq", "actor_id")
_TEMPLATE = ("{" + ",".join(f'"{f}":' + ("%s" if f in _BARE else '"%s"') for f in SORTED_FIELDS) + "}").encode()
_ACTOR_AT = SORTED_FIELDS.index("actor_id")
_TS_AT = SORTED_FIELDS.index("ts")
_NULL = b"\\N"
# What COPY's text rows and orjson write differently: control characters (orjson escapes them, COPY
# sends some raw), DEL, and a backslash (COPY's escape; a NULL is the whole field \N).
_REJECT = bytes([*range(0x00, 0x09), *range(0x0B, 0x20), 0x7F, 0x5C])


def copy_payload(row: bytes) -> tuple[bytes, list[bytes], bytes] | None:
    r"""(payload, fields, stored hash) of one COPY text row of copy_sql, or None where the payload
    could differ from hash_payload's bytes.

    A row is built into the payload only when it holds no byte the two escape differently: no control
    character or DEL, no backslash but those of its NULLs (COPY escapes every backslash of a value, so
    each \N is a NULL field); a quote is escaped as orjson escapes it. Then the only \N in the payload are
    the NULLs, each between the template's quotes: "\N" -> null is exact. ts must be the 27 characters
    of its hashed text (to_char in copy_sql); seq and actor_id are integers, written alike."""
    nulls = row.count(_NULL)
    if len(row) - len(row.translate(None, _REJECT)) != nulls or row[-1:] != b"\n":
        return None
    if b'"' in row:
        row = row.replace(b'"', b'\\"')
    f = row[:-1].split(b"\t")
    if len(f) != 19 or len(f[_TS_AT]) != 27:
        return None
    stored = f.pop()
    if not nulls:
        return _TEMPLATE % tuple(f), f, stored
    if f[_ACTOR_AT] == _NULL:
        f[_ACTOR_AT] = b"null"
    return (_TEMPLATE % tuple(f)).replace(b'"\\N"', b"null"), f, stored


def _copy_chunk(rows: list[bytes], first_seq: int, expected_seq, expected_hash) -> Span | None:
    """A chunk of COPY rows (events first_seq.. in seq order) if every event in it is sound and its
    payload is byte for byte the canonical one (copy_payload), else None (the caller checks the chunk
    exactly)."""
    sha, build, seq_at, prev_at = hashlib.sha256, copy_payload, _SEQ_AT, _PREV_AT
    first = last = None
    seen = False
    want_seq = first_seq
    for row in rows:
        built = build(row)
        if built is None:
            return None
        payload, f, stored = built
        if int(f[seq_at]) != want_seq or sha(payload).hexdigest().encode() != stored:
            return None
        if first is None:
            first = (want_seq, f[prev_at].decode(), stored.decode(), True)
        elif f[prev_at] != last:
            return None
        elif expected_seq == want_seq:
            if stored.decode() != expected_hash:
                return None
            seen = True
        last = stored
        want_seq += 1
    if first is None:
        return Span()
    return Span(want_seq - first_seq, first, (want_seq - 1, last.decode()), None, seen)


def scan_copy(conn, lo: int, hi: int, expected_seq=None, expected_hash=None, chunk: int = CHUNK_EVENTS * 5) -> Span:
    """Events lo..hi on a psycopg connection: the raw columns by COPY, hashed here a chunk at a time;
    a chunk the fast check does not accept (or with a seq missing) is checked exactly by scan_rows
    (and names its first bad event)."""
    join = Joiner(expected_seq, expected_hash)
    exact = select_sql("postgresql")
    for a in range(lo, hi + 1, chunk):
        b = min(a + chunk - 1, hi)
        with conn.cursor().copy(copy_sql(a, b)) as copy:
            rows = [bytes(data) for data in copy]
        span = _copy_chunk(rows, a, expected_seq, expected_hash) if len(rows) == b - a + 1 else None
        if span is None:
            span = scan_rows([conn.execute(exact, (a, b)).fetchall()], expected_seq, expected_hash)
        if not join.add(span):
            break
    return join.span()


# --- in a worker ----------------------------------------------------------------------

def worker_scan(dialect: str, dsn: str, lo: int, hi: int, expected_seq, expected_hash,
                chunk: int = CHUNK_EVENTS, copy: bool = False) -> Span:
    """Events lo..hi on a connection of its own: a worker process for SQLite and for PostgreSQL's COPY
    rows (`copy`), both hashed here; a thread for PostgreSQL whose server does the hashing."""
    if dialect == "sqlite":
        import sqlite3

        conn = sqlite3.connect(dsn)
        try:
            return scan_sqlite(conn, lo, hi, expected_seq, expected_hash, chunk)
        finally:
            conn.close()
    import psycopg

    with psycopg.connect(dsn) as conn:
        if copy:
            return scan_copy(conn, lo, hi, expected_seq, expected_hash, chunk * 5)
        return scan_pg(lambda q, p: conn.execute(q, p).fetchall(), lo, hi, expected_seq, expected_hash)
