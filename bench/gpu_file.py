"""Write a realistic GPU import file for profiling the real command (issue 26):

    python -m bench.gpu_file DB OUT N TAG [COST_STEP]

N new GPUs (serials REAL<TAG>-…, mixed states, a purchase cost: bench.bench._realistic_gpu_csv); with
COST_STEP (e.g. 7) the same serials' updates (another cost, half of them another warranty end)."""
from __future__ import annotations

import sys

from app.store.config import resolve_db_url
from app.store.db import Database
from bench.bench import _realistic_gpu_csv


def main(argv: list[str]) -> int:
    db_url, out, n, tag = argv[:4]
    step = int(argv[4]) if len(argv) > 4 else 0
    db = Database(resolve_db_url(db_url))
    try:
        _realistic_gpu_csv(db, out, int(n), tag, cost_step=step)
    finally:
        db.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
