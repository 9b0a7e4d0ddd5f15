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
    results = run_bench(ctx.db, actor, repeat=args.repeat, only=args.only, heavy=not args.quick,
                        login=actor.login, password=password, out=lambda line: print(line, flush=True))
    if args.json:
        write_json(args.json, ctx.db, results)
        print(f"figures written to {args.json}", file=sys.stderr)
    return 0
