"""Where `audit verify` spends its CPU, per event, over one seq range of a real chain (read-only).

    python -m bench.verify_profile sqlite:////work/large.db [LO HI]
    python -m bench.verify_profile postgresql://postgres@127.0.0.1:5432/idc_large [LO HI]

SQLite: the chunk query with and without the payload (json_object) and its guards, then the Python
side (split, SHA-256, compare) and the old per-row fetch for comparison. PostgreSQL: the server's CPU
(read from /proc, so the server must run on this machine) for the scan, the payload, SHA-256 and the
window, each added to the one before. Figures are CPU microseconds per event; run under
`flock /work/wt/bench.lock` and note the load it printed (docs/performance.md, "Verify").
"""
from __future__ import annotations

import hashlib
import os
import sys
import time

from app.audit import scan


def _sqlite(path: str, lo: int, hi: int) -> None:
    import sqlite3

    conn = sqlite3.connect(path)
    n = hi - lo + 1
    chunk = scan.CHUNK_EVENTS
    full = scan._sqlite_chunk_sql()
    guard = "CASE WHEN ts LIKE '__________ _______________' AND typeof(actor_id) <> 'real' THEN "
    variants = [
        ("seqs only (index walk, ordered subquery)",
         "SELECT count(*) FROM (SELECT seq FROM audit_event WHERE seq >= ? AND seq <= ? ORDER BY seq)"),
        ("+ hashes and prev_hashes joined",
         "SELECT count(*), group_concat(prev_hash, ','), group_concat(hash, ',') FROM (SELECT prev_hash, hash "
         "FROM audit_event WHERE seq >= ? AND seq <= ? ORDER BY seq)"),
        ("+ payloads by json_object, no shape guards", full.replace(guard, "").replace(" END AS p", " AS p")),
        ("+ shape guards (the query verify runs)", full),
    ]
    def best(fn) -> float:  # the least of three runs: the load only ever adds
        times = []
        for _ in range(3):
            t0 = time.process_time()
            fn()
            times.append(time.process_time() - t0)
        return min(times) / n * 1e6

    for name, sql in variants:
        cost = best(lambda sql=sql: [conn.execute(sql, (a, min(a + chunk - 1, hi))).fetchone()
                                     for a in range(lo, hi + 1, chunk)])
        print(f"  SQLite  {name:48s} {cost:5.2f} µs", flush=True)
    rows = [conn.execute(full, (a, min(a + chunk - 1, hi))).fetchone() for a in range(lo, hi + 1, chunk)]
    cost = best(lambda: [scan._chunk_span(row, None, None) for row in rows])
    print(f"  Python  {'split, SHA-256 of each payload, compare':48s} {cost:5.2f} µs")

    def per_row():
        sha = hashlib.sha256
        for a in range(lo, hi + 1, chunk):
            for _seq, _prev, stored, payload in conn.execute(scan.fast_sql("sqlite").replace("%s", "?"),
                                                              (a, min(a + chunk - 1, hi))):
                sha(payload).hexdigest() == stored  # noqa: B015
    print(f"  (for comparison, a row per event to Python and hashed there, all in: {best(per_row):5.2f} µs)")


def _pg(url: str, lo: int, hi: int) -> None:
    import psycopg

    conn = psycopg.connect(url, autocommit=True)
    conn.execute("SET max_parallel_workers_per_gather = 0")
    pid = conn.info.backend_pid
    n = hi - lo + 1

    def server_cpu() -> float:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    where = "FROM audit_event WHERE seq >= %s AND seq <= %s"
    payload = scan.pg_payload()
    variants = [
        ("scan in seq order", f"SELECT count(*) {where}", (lo, hi)),
        ("+ payload (to_json, to_char, ||)", f"SELECT sum(octet_length({payload})) {where}", (lo, hi)),
        ("+ SHA-256, hex, compare", f"SELECT count(*) FILTER (WHERE encode(sha256({payload}), 'hex') = hash) {where}",
         (lo, hi)),
        ("+ window (seqs, links; the query verify runs)", scan.pg_hash_sql(), (lo, hi, -1)),
    ]
    for name, sql, args in variants:
        b0 = server_cpu()
        conn.execute(sql, args).fetchall()
        print(f"  server  {name:48s} {(server_cpu() - b0) / n * 1e6:5.2f} µs", flush=True)


def main(argv: list[str]) -> int:
    url = argv[0]
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///"):]
        bounds = (1, 500_000)
    else:
        path = url.replace("postgresql+psycopg://", "postgresql://")
        bounds = (1, 300_000)
    lo, hi = (int(argv[1]), int(argv[2])) if len(argv) >= 3 else bounds
    print(f"audit verify, CPU per event over events {lo:,}–{hi:,}; load {os.getloadavg()[0]:.1f}")
    (_sqlite if url.startswith("sqlite") else _pg)(path, lo, hi)
    print(f"load {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
