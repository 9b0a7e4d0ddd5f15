"""Render every PDF document from sample data into a folder, for people to look at.

    python scripts/sample_reports.py [OUT_DIR] [--lang zh|en] [--events N]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reports import (render_audit_report, render_capacity, render_contract, render_fleet,  # noqa: E402
                     render_rack_sheet, render_statement)
from reports import samples  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="sample_reports")
    parser.add_argument("--lang", choices=("zh", "en"), default="zh")
    parser.add_argument("--events", type=int, default=500, help="audit events to generate")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    jobs = [
        ("statement", render_statement, samples.sample_statement(args.lang)),
        ("contract", render_contract, samples.sample_contract(args.lang)),
        ("audit_report", render_audit_report, samples.sample_audit(args.events, args.lang)),
        ("rack_sheet", render_rack_sheet, samples.sample_rack_sheet(args.lang)),
        ("capacity", render_capacity, samples.sample_capacity(args.lang)),
        ("fleet", render_fleet, samples.sample_fleet(args.lang)),
    ]
    for name, render, doc in jobs:
        started = time.perf_counter()
        result = render(doc, out / f"{name}_{args.lang}.pdf")
        print(f"{result.path}  {result.pages} page(s)  {time.perf_counter() - started:.2f}s  "
              f"data sha256 {result.sha256[:16]}…")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
