"""`idc-console bench`: measure every hot path against its raw-SQL floor."""
from __future__ import annotations

import os
import sys


def register(sub) -> None:
    p = sub.add_parser("bench", help="measure every hot path (median, raw floor, ratio, load) against --db; writes: billing, imports (and an audit event per export)")
    p.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    p.add_argument("--repeat", type=int, default=5, help="runs per interactive operation (median)")
    p.add_argument("--only", action="append", metavar="GROUP",
                   choices=["lists", "sorts", "views", "operations", "writes", "billing", "bankfile", "imports",
                            "bulk", "exports", "verify", "reports", "console"],
                   help="measure only these groups (repeatable)")
    p.add_argument("--quick", action="store_true", help="small report sizes (for the smoke test)")
    p.add_argument("--wan", action="store_true",
                   help="the console's interactions (real window, offscreen) direct and through a delay relay "
                        "at 30 and 80 ms RTT: time, statements, round trips (PostgreSQL)")
    p.add_argument("--rtt", type=float, action="append", metavar="MS",
                   help="with --wan: the round-trip times to measure (repeatable; default 0, 30, 80)")
    p.set_defaults(handler=bench)


def _load_large(db, actor, progress):
    from .scale import load_large

    return load_large(db, actor, progress=progress)


# `demo load --scale large` (app/cli/core.py) finds the generator here: app/ does not import bench/.
DEFAULTS = {"load_large": _load_large}


def bench(ctx, args) -> int:
    from .bench import run_bench, write_json

    actor = ctx.actor()
    password = os.environ.get("IDC_CONSOLE_PASSWORD", "")
    if args.wan:
        return bench_wan(ctx, args, actor.login, password)
    results = run_bench(ctx.db, actor, repeat=args.repeat, only=args.only, heavy=not args.quick,
                        login=actor.login, password=password, out=lambda line: print(line, flush=True))
    if args.json:
        write_json(args.json, ctx.db, results)
        print(f"figures written to {args.json}", file=sys.stderr)
    return 0


def bench_wan(ctx, args, login: str, password: str) -> int:
    import json

    from .wan import RTTS_MS, wan_table

    if ctx.db.is_sqlite:
        print("bench --wan measures a PostgreSQL server across a delay: give --db postgresql://…", file=sys.stderr)
        return 2
    from .wan import ensure_statements

    made = ensure_statements(ctx.db, ctx.actor())
    if made:
        print(f"# the database had no statement to select: billed {made} (a billing run of the last full month)")
    url = ctx.db.engine.url.render_as_string(hide_password=False)
    print(f"# idc-console bench --wan on {ctx.db.engine.url.render_as_string(hide_password=True)}: the real "
          "main window offscreen, through a delay relay on loopback (direct: the relay without delay)", flush=True)
    runs = wan_table(url, login, password, tuple(args.rtt or RTTS_MS), out=lambda line: print(line, flush=True))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(runs, f, ensure_ascii=False, indent=1)
    return 0 if all("rows" in r for r in runs) else 1
