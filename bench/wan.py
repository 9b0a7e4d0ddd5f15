"""`idc-console bench --wan`: the console's interactions as a subsidiary sees them.

    python -m bench.wan URL LOGIN PASSWORD RTT_MS     (one run; prints "WAN {json}")

The real main window (offscreen) is driven through the interactions a person makes: the console's
start before its login dialog (the schema check, the first connection), log in, the
main window ready, each page shown, a rack / a contract / a statement selected. Each is timed to
the moment the console is idle again (no background operation running, no statement sent for a
short quiet spell), and its statements (SQLAlchemy's before_cursor_execute) and round trips (at
the relay, bench/wan_relay.py) are counted. The console reaches PostgreSQL through the relay in
every run, the direct one too (no delay: it only counts), so that the three runs differ only in
the delay. `wan_table` runs one child process per delay (fresh caches and pool, like a console
started in that office) and prints the table.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Callable

RTTS_MS = (0, 30, 80)
IDLE_TURNS = 5
QUIET_S = 0.05            # idle this long (no statement, no operation) = the interaction is over
PAGES = ("sites", "racks", "devices", "gpus", "customers", "contracts", "billing", "xconnects", "audit",
         "users", "operations", "clusters")
SELECTIONS = (("select a rack", "racks"), ("select a contract", "contracts"), ("select a statement", "billing"))


class StatementCounter:
    """Statements sent on an engine, counted by SQLAlchemy's before_cursor_execute event."""

    def __init__(self, engine):
        from sqlalchemy import event

        self.engine, self.n, self.last = engine, 0, time.perf_counter()
        self.texts: list[str] = []
        event.listen(engine, "before_cursor_execute", self._on)

    def _on(self, _conn, _cursor, statement, _params, _context, _many) -> None:
        self.n += 1
        self.last = time.perf_counter()
        self.texts.append(statement)

    def close(self) -> None:
        from sqlalchemy import event

        event.remove(self.engine, "before_cursor_execute", self._on)


def ensure_statements(db, actor) -> str | None:
    """A statement to select: when the database has none (the demo as loaded), a billing run of the
    last full month drafts them (a write, like `bench`'s billing group). The period billed, or None."""
    import datetime as dt

    from sqlalchemy import func, select

    from app.services.billing import run_billing
    from models import Statement

    with db.session() as s:
        if s.execute(select(func.count()).select_from(Statement)).scalar_one():
            return None
    first = dt.date.today().replace(day=1)
    period = (first - dt.timedelta(days=1)).strftime("%Y-%m")
    run_billing(db, actor, period)
    return period


def settle(app, counter: StatementCounter, quiet_s: float = QUIET_S, limit_s: float = 60.0) -> float:
    """Run the event loop until the console is idle; returns when it last worked (perf_counter)."""
    from PySide6.QtCore import QEventLoop, QThreadPool

    from ui.shell.operations import Operation

    pool = QThreadPool.globalInstance()
    start = last_busy = time.perf_counter()
    idle_turns = 0       # event-loop turns in a row with nothing running: what a zero timer posts has run
    while True:
        n = counter.n
        app.processEvents(QEventLoop.AllEvents, 5)
        now = time.perf_counter()
        if Operation.running or pool.activeThreadCount() or counter.n != n:
            last_busy, idle_turns = now, 0
        else:
            idle_turns += 1
        last = max(last_busy, counter.last)
        if idle_turns >= IDLE_TURNS and now - last >= quiet_s:
            return last
        if now - start > limit_s:
            raise TimeoutError(f"the console was still busy after {limit_s:.0f} s: operations "
                               f"{[getattr(op, 'label', op) for op in Operation.running]}, "
                               f"{pool.activeThreadCount()} pool threads, {counter.n - n} statements in the last turn")
        if quiet_s:
            time.sleep(0.001)   # the bench's quiet spell; a test (quiet_s=0) only runs the loop


def interactions(app, db, login: str, password: str, counter: StatementCounter,
                 rt: Callable[[], int] = lambda: 0, quiet_s: float = QUIET_S, sql: bool = False,
                 opened: Callable[[], int] = lambda: 0) -> list[dict]:
    """Every interaction on `db`: [{"name", "ms", "statements", "round_trips"}] (with `sql`, also "sql": the
    statements' text, to see what a panel sends). The window is closed at the end."""
    from app.services.users import login as do_login
    from ui.shell.main import prepare_schema
    from ui.shell.mainwindow import MainWindow

    rows: list[dict] = []

    def measure(name: str, action: Callable[[], object]) -> object:
        n0, r0, o0 = counter.n, rt(), opened()
        t0, c0 = time.perf_counter(), time.process_time()
        result = action()
        end = settle(app, counter, quiet_s)
        rows.append({"name": name, "ms": round(1000 * (end - t0), 1), "statements": counter.n - n0,
                     "cpu_ms": round(1000 * (time.process_time() - c0), 1),
                     "round_trips": rt() - r0, "connections": opened() - o0,
                     **({"sql": counter.texts[n0:counter.n]} if sql else {})})
        return result

    # the console's start before its login dialog (ui/shell/main.prepare): the engine's first connection,
    # the schema check; then the login alone, as a person waits for it after pressing Log in
    measure("start (schema check)", lambda: prepare_schema(db))
    actor = measure("log in", lambda: do_login(db, login, password))
    window = measure("main window ready", lambda: _open_window(MainWindow, db, actor))
    try:
        for pid in PAGES:
            measure(f"page: {pid}", lambda pid=pid: window.show_page(pid))
        for name, pid in SELECTIONS:
            window.show_page(pid)
            page = window.lists[pid]
            page.model.ensure_loaded()
            settle(app, counter, quiet_s)
            if page.model.rowCount() == 0:
                continue
            row = 1 if page.model.rowCount() > 1 else 0   # not the row a page may have selected itself
            measure(name, lambda page=page, row=row: page.view.selectRow(row))
    finally:
        window.close()
        window.deleteLater()
        settle(app, counter, quiet_s)
    return rows


def _open_window(cls, db, actor):
    window = cls(db, actor)
    window.resize(1280, 800)
    window.show()
    return window


def _run_one(url: str, login: str, password: str, rtt_ms: float) -> dict:
    """This process: the console through a relay delaying rtt_ms/2 each way."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from sqlalchemy.engine import make_url

    from app.store.db import Database
    from bench.wan_relay import DelayRelay
    from ui.shell.main import make_app
    from ui.shell.settings import settings

    u = make_url(url)
    app = make_app()
    settings().set("window/page", 0)
    with DelayRelay(u.host or "127.0.0.1", u.port or 5432, one_way_ms=rtt_ms / 2) as relay:
        db = Database(u.set(host="127.0.0.1", port=relay.port).render_as_string(hide_password=False))
        counter = StatementCounter(db.engine)
        try:
            rows = interactions(app, db, login, password, counter, rt=lambda: relay.round_trips,
                                opened=lambda: relay.connections)
        finally:
            counter.close()
            db.dispose()
        return {"rtt_ms": rtt_ms, "rows": rows, "connections": relay.connections,
                "load": os.getloadavg()[0]}


def run_child(url: str, login: str, password: str, rtt_ms: float) -> dict:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:   # the console's defaults, not a saved page or layout
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=root,
                   IDC_CONSOLE_SETTINGS=os.path.join(tmp, "settings.ini"))
        proc = subprocess.run([sys.executable, "-m", "bench.wan", url, login, password, str(rtt_ms)],
                              capture_output=True, text=True, env=env, cwd=root, timeout=1800)
    for line in proc.stdout.splitlines():
        if line.startswith("WAN "):
            return json.loads(line[4:])
    return {"rtt_ms": rtt_ms, "error": (proc.stderr or proc.stdout)[-800:]}


def wan_table(url: str, login: str, password: str, rtts=RTTS_MS, out: Callable[[str], None] = print) -> list[dict]:
    """One child per delay; the table: per interaction, ms / statements / round trips at each delay."""
    runs = []
    for rtt in rtts:
        r = run_child(url, login, password, rtt)
        if "error" in r:
            out(f"# at {rtt} ms RTT the run failed: {r['error'].strip().splitlines()[-1] if r['error'].strip() else '?'}")
        runs.append(r)
    ok = [r for r in runs if "rows" in r]
    if not ok:
        return runs
    names = [row["name"] for row in ok[0]["rows"]]
    heads = " | ".join("direct" if r["rtt_ms"] == 0 else "%g ms RTT" % r["rtt_ms"] for r in ok)
    rtts_ = ", ".join("%g" % r["rtt_ms"] for r in ok)
    out(f"| interaction | {heads} | statements | round trips ({rtts_}) |")
    out("|---" * (len(ok) + 3) + "|")
    for name in names:
        cells = []
        for r in ok:
            row = next((x for x in r["rows"] if x["name"] == name), None)
            cells.append("—" if row is None else f"{row['ms']:,.0f} ms (CPU {row.get('cpu_ms', 0):,.0f})")
        first = next(x for x in ok[0]["rows"] if x["name"] == name)
        trips = ", ".join(str(next((x["round_trips"] for x in r["rows"] if x["name"] == name), "—")) for r in ok)
        out(f"| {name} | {' | '.join(cells)} | {first['statements']} | {trips} |")
    out("# load " + ", ".join(f"{r['load']:.1f}" for r in ok) + "; connections opened "
        + ", ".join(str(r["connections"]) for r in ok))
    return runs


if __name__ == "__main__":
    url_, login_, password_, rtt_ = sys.argv[1:5]
    result = _run_one(url_, login_, password_, float(rtt_))
    print("WAN " + json.dumps(result), flush=True)
    os._exit(0)   # the window's threads and Qt's teardown are not what is measured
