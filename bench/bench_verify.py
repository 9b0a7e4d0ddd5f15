"""`audit verify` in `idc-console bench` (issue 26): the whole chain as a first call and warm, beside a
floor written by hand, the least any verify of these rows can cost on this machine: the same raw
columns that the exact path reads (app.audit.scan.select_sql's columns, without the ts formatting),
read by a bare driver (PostgreSQL: psycopg's COPY, one message a row; SQLite: sqlite3) and each row's
bytes put through hashlib's SHA-256, over seq ranges in one process per CPU. No JSON is built and no
link is checked, so the floor is below what a verify must do; the ratio is what serialising the
canonical payload (in the server, app.audit.scan.pg_hash_sql) and checking links add on top.

Where the time goes inside the server: bench/verify_profile.py.
"""
from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the floor's worker processes import this module: nothing heavy at its top
    from .bench import Bench

TARGET = 400_000  # events/s (issue 26)


def _columns() -> str:
    from app.audit.scan import SORTED_FIELDS

    return ", ".join(f'"{f}"' for f in SORTED_FIELDS) + ", hash"


def floor_range(dialect: str, dsn: str, lo: int, hi: int) -> int:
    """Events lo..hi read raw and each row hashed with hashlib; returns the rows read."""
    import hashlib

    sha = hashlib.sha256
    n = 0
    sql = f"SELECT {_columns()} FROM audit_event WHERE seq >= {int(lo)} AND seq <= {int(hi)} ORDER BY seq"
    if dialect == "sqlite":
        import sqlite3

        conn = sqlite3.connect(dsn)
        try:
            for row in conn.execute(sql):
                sha("\t".join(map(str, row)).encode()).hexdigest()
                n += 1
        finally:
            conn.close()
        return n
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        with conn.cursor().copy(f"COPY ({sql}) TO STDOUT") as copy:
            for data in copy:  # PostgreSQL sends a COPY TO row as one message
                sha(data).hexdigest()
                n += 1
    return n


def _floor(dialect: str, dsn: str, lo: int, hi: int, workers: int) -> tuple[float, int]:
    """(seconds, rows) of floor_range over lo..hi in `workers` processes, ranges as verify cuts them."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    size = max(10_000, -(-(hi - lo + 1) // (workers * 4)))
    ranges = [(a, min(a + size - 1, hi)) for a in range(lo, hi + 1, size)]
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        # every worker started and imported this module and psycopg (their start is not the floor's)
        list(pool.map(floor_range, *zip(*[(dialect, dsn, lo, lo)] * (2 * workers))))
        t0 = time.perf_counter()
        n = sum(pool.map(floor_range, *zip(*[(dialect, dsn, a, b) for a, b in ranges])))
        return time.perf_counter() - t0, n


def cpu_per_event(dsn: str, lo: int, hi: int) -> dict[str, tuple[float, float]] | None:
    """CPU microseconds an event over lo..hi on one connection, the server's (read from /proc: the server
    must run on this machine, else None) and this process's: the server serialising and hashing
    (app.audit.scan.pg_hash_sql, verify before issue 26), verify's COPY path (app.audit.scan.scan_copy:
    raw columns, the payload built and hashed here) and the floor (the same COPY, hashlib only). Unlike
    wall times these do not stretch with the load; two cores' worth of them is the most either can do."""
    import hashlib

    import psycopg

    from app.audit.scan import pg_hash_sql, scan_copy

    n = hi - lo + 1
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("SET max_parallel_workers_per_gather = 0")
        stat = f"/proc/{conn.info.backend_pid}/stat"
        if not os.path.exists(stat):
            return None

        def both() -> tuple[float, float]:
            with open(stat) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), time.process_time()

        marks = [both()]
        conn.execute(pg_hash_sql(), (lo, hi, -1)).fetchall()
        marks.append(both())
        scan_copy(conn, lo, hi)
        marks.append(both())
        sha = hashlib.sha256
        sql = f"SELECT {_columns()} FROM audit_event WHERE seq >= {int(lo)} AND seq <= {int(hi)} ORDER BY seq"
        with conn.cursor().copy(f"COPY ({sql}) TO STDOUT") as copy:
            for data in copy:
                sha(data).hexdigest()
        marks.append(both())
    us = 1e6 / n
    out = {}
    for i, name in enumerate(("server_hashes", "copy", "floor")):
        out[name] = ((marks[i + 1][0] - marks[i][0]) * us, (marks[i + 1][1] - marks[i][1]) * us)
    return out


def _cpu_rows(b: Bench, dsn: str, lo: int, hi: int) -> None:
    from .bench import Result

    hi = min(hi, lo + 299_999)
    cpu = cpu_per_event(dsn, lo, hi)
    if cpu is None:
        b.add(Result("audit verify, CPU per event", None, None, 0, "", None, "the server's /proc is not readable here"))
        return
    cores = os.cpu_count() or 1
    for label, (server, here) in (("audit verify, CPU per event (COPY, hashed here)", cpu["copy"]),
                                  ("  before: the server hashes (scan_pg)", cpu["server_hashes"]),
                                  ("  floor, CPU per event (COPY + hashlib)", cpu["floor"])):
        most = cores * 1e6 / (server + here)
        b.add(Result(label, None, None, 1, f"≥ {TARGET:,} events/s on {cores} cores", most >= TARGET,
                     f"{server:.2f} µs in the server + {here:.2f} µs here = {server + here:.2f} µs an event over "
                     f"events {lo:,}–{hi:,}: at most {most:,.0f} events/s on {cores} idle cores",
                     {"server_us": server, "here_us": here, "most_events_per_s": most}))


def bench_verify_rows(b: Bench) -> None:
    from sqlalchemy import text

    from .bench import Result, _cpu, _median_ms
    from app.audit.trail import _parallel_dsn, hash_here, verify_audit_chain

    with b.db.session() as s:
        n, lo, hi = s.execute(text("SELECT count(*), min(seq), max(seq) FROM audit_event")).one()
        target = _parallel_dsn(s)
        path = "" if b.db.is_sqlite else ("COPY, hashed here; " if hash_here(s) else "the server hashes; ")
    if not n:
        b.add(Result("audit verify (first call / warm)", None, None, 0, "", None, "no audit events"))
        return
    workers = min(os.cpu_count() or 1, 8)
    floor_s = floor_n = None
    if target is not None:
        floor_s, floor_n = _floor(target[0], target[1], lo, hi, workers)
    samples, cpus, verdict = [], [], None
    for _ in range(1 + max(1, min(b.repeat, 3) - 1)):
        c0, t0 = _cpu(), time.perf_counter()
        with b.db.session() as s:
            res = verify_audit_chain(s)
        samples.append(time.perf_counter() - t0)
        cpus.append(_cpu() - c0)
        verdict = "OK" if res.ok else res.problem
    floor_ms = None if floor_s is None else floor_s * 1000
    server = "" if b.db.is_sqlite else "; the PostgreSQL backends' CPU comes on top"
    for label, secs, cpu_s, runs in (("first call", samples[0], cpus[0], 1),
                                      ("warm", _median_ms(samples[1:]) / 1000, _median_ms(cpus[1:]) / 1000,
                                       len(samples) - 1)):
        rate = n / secs
        b.add(Result(f"audit verify, whole chain ({label})", secs * 1000, floor_ms, runs,
                     f"BACKGROUND; ≥ {TARGET:,} events/s", res.ok and rate >= TARGET,
                     f"BACKGROUND; {path}{n:,} events, {rate:,.0f} events/s; CPU {cpu_s:.1f} s here{server}; {verdict}",
                     {"events": n, "events_per_s": rate, "cpu_s": cpu_s, "background": True}))
    if target is not None and target[0] == "postgresql":
        _cpu_rows(b, target[1], lo, hi)
    if floor_s is not None:
        rate = floor_n / floor_s
        b.add(Result(f"  floor: raw columns + hashlib, {workers} processes", floor_s * 1000, None, 1,
                     f"(≥ {TARGET:,} events/s)", None,
                     f"{floor_n:,} rows, {rate:,.0f} rows/s: {'COPY' if target[0] == 'postgresql' else 'sqlite3'}"
                     f" of the exact path's columns, SHA-256 of each row's bytes, no JSON, no links "
                     f"(on two cores the target is {TARGET / rate:.2f}× this floor's rate)",
                     {"rows": floor_n, "rows_per_s": rate}))
