"""The operations desk's rows of `idc-console bench` (issue 24), each printed as its first call (a
fresh process's caches cold: the calendars' working-time index, SQLAlchemy's compiled statements)
and warm (the median of the following runs): the queue's first page by SLA due, the SLA state of
every open ticket (computed from their histories, never stored), a large customer's monthly SLA
report (its data and its PDF)."""
from __future__ import annotations

import datetime as dt
import time
from typing import Any, Callable

from .bench import Bench, Result, _median_ms, _pick

UTC = dt.timezone.utc


def _first_and_warm(b: Bench, name: str, fn: Callable[[], Any], target_ms: float, repeat: int, note: str) -> None:
    samples, cpu = [], []
    for _ in range(1 + max(1, repeat)):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        samples.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    first_ms, warm_ms = samples[0] * 1000, _median_ms(samples[1:])
    # the CPU time of this process beside the wall time: under other work (load above 2) it is the fairer figure
    b.add(Result(f"{name} (first call)", first_ms, None, 1, f"≤ {target_ms:,.0f} ms", first_ms <= target_ms,
                 f"CPU {cpu[0] * 1000:,.0f} ms; {note}"))
    b.add(Result(f"{name} (warm)", warm_ms, None, len(samples) - 1, f"≤ {target_ms:,.0f} ms", warm_ms <= target_ms,
                 f"CPU {_median_ms(cpu[1:]):,.0f} ms; {note}"))


def bench_operations(b: Bench) -> None:
    import os
    import tempfile

    from app.documents.printing import build_document, render_document
    from app.services.operations.queue import queue_view
    from app.services.operations.sla import open_sla_states

    opened = _pick(b.db, "SELECT count(*) FROM ticket WHERE state NOT IN ('resolved', 'closed')") or 0
    total = _pick(b.db, "SELECT count(*) FROM ticket") or 0
    if not opened:
        b.add(Result("operations queue first page", None, None, 0, "", None, "no open ticket in this database"))
        return

    def states():
        with b.db.session() as s:
            return open_sla_states(s)
    _first_and_warm(b, "operations queue first page (50 by SLA due)", lambda: queue_view(b.db, limit=50), 100.0,
                    b.repeat, f"{opened:,} open of {total:,}; what the Operations page reads: the first page (only the "
                    "tickets that can come first are computed) and its counts")
    _first_and_warm(b, f"SLA state of the open tickets ({opened:,})", states, 1000.0, b.repeat,
                    "every open ticket's clocks from its history, never stored")
    now = dt.datetime.now(UTC)
    month = (now.replace(day=1) - dt.timedelta(days=1)).strftime("%Y-%m")
    big = _pick(b.db, "SELECT customer_id FROM ticket WHERE customer_id IS NOT NULL GROUP BY customer_id "
                      "ORDER BY count(*) DESC, customer_id LIMIT 1")
    n = _pick(b.db, f"SELECT count(*) FROM ticket WHERE customer_id = {int(big)}") if big else 0
    out = os.path.join(tempfile.mkdtemp(prefix="idc-bench-"), "sla.pdf")

    def report():
        pages = render_document(build_document(b.db, "sla", f"{big}@{month}", language="zh"), out)
        os.unlink(out)
        return pages
    _first_and_warm(b, f"monthly SLA report PDF, largest customer ({month})", report, 5000.0, 1,
                    f"customer #{big}: {n:,} tickets in all; data (the month's clocks) and the PDF")
