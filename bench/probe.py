"""The console half of `idc-console bench`: cold start and memory, run as a child process.

    python -m bench.probe MODE URL LOGIN PASSWORD

The real console's main window, then MODE: "scroll" (memory with the GPU list read to the end),
"steps" (the GPU list scrolled to the end a step at a time, each step timed on the GUI thread),
"stalls" (the longest GUI-thread stall in heavy list actions). Prints one line "BENCH {json}".
bench/bench.py starts it in a child process (it imports Qt).
"""
import os, sys, time, resource
t0 = time.perf_counter()
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
mode, url, login, password = sys.argv[1:5]
from PySide6.QtCore import QObject, QEvent, QTimer
def rss_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
if True:   # the real console's window, as run_console builds it
    from ui.shell.main import make_app
    from app.store.db import Database
    from app.services.users import login as do_login
    app = make_app()
    db = Database(url)
    actor = do_login(db, login, password)
    from ui.shell.mainwindow import MainWindow, PAGE_IDS
    if mode in ("steps", "scroll"):     # open on the GPU list: the dashboard's loading is not the list's cost
        from ui.shell.settings import settings
        settings().set("window/page", PAGE_IDS.index("gpus"))
    window = MainWindow(db, actor)
    window.resize(1280, 800)
class FirstPaint(QObject):
    def eventFilter(self, obj, ev):
        if ev.type() == QEvent.Paint and not hasattr(self, "t"):
            self.t = time.perf_counter() - t0
            QTimer.singleShot(0, app.quit)
        return False
fp = FirstPaint(); window.installEventFilter(fp)
window.show()
app.exec()
out = {"first_paint_s": getattr(fp, "t", None), "rss_mb_start": rss_mb()}
if mode == "scroll":
    window.show_page("gpus")           # pages are made when first shown
    model = window.lists["gpus"].model
    app.processEvents()
    t1 = time.perf_counter()
    if model is not None:
        while model.canFetchMore():
            model.fetchMore()
        app.processEvents()
        out["rows"] = model.rowCount()
    out["scroll_s"] = time.perf_counter() - t1
    out["rss_mb"] = rss_mb()
    out["max_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
if mode == "steps":
    # The default sort scrolled to the end, a step at a time as a person dragging the scroll bar to
    # the bottom would: each step is the scroll bar to its maximum (fetchMore: the next window) and
    # the paint, timed on the GUI thread; Python's garbage collections are timed beside them.
    import gc
    window.show_page("gpus")
    page = window.lists["gpus"]
    model, view = page.model, page.view
    app.processEvents()
    while not model.loaded or model.busy:
        app.processEvents()
    gcs, gc_t = [], [0.0]
    def on_gc(phase, info):
        if phase == "start":
            gc_t[0] = time.perf_counter()
        else:
            gcs.append((info["generation"], time.perf_counter() - gc_t[0]))
    gc.callbacks.append(on_gc)
    bar, steps, step_gc, step_cpu = view.verticalScrollBar(), [], [], []
    limit = float(os.environ.get("IDC_BENCH_SCROLL_SECONDS", "600"))
    t_all = time.perf_counter()
    while model.canFetchMore() and time.perf_counter() - t_all < limit:
        n_gc = len(gcs)
        t1, c1 = time.perf_counter(), time.thread_time()
        bar.setValue(bar.maximum())
        view.viewport().repaint()
        app.processEvents()
        steps.append(time.perf_counter() - t1)
        step_cpu.append(time.thread_time() - c1)     # the GUI thread's own CPU: what the load does not stretch
        step_gc.append(sum(d for g, d in gcs[n_gc:]))
    gc.callbacks.remove(on_gc)
    ordered = sorted(steps)
    worst = max(range(len(steps)), key=steps.__getitem__) if steps else -1
    out.update(rows=model.rowCount(), steps=len(steps), total_s=time.perf_counter() - t_all,
               median_ms=1000 * ordered[len(ordered) // 2] if steps else None,
               p99_ms=1000 * ordered[int(len(ordered) * 0.99)] if steps else None,
               max_ms=1000 * max(steps) if steps else None, worst_step=worst,
               worst_gc_ms=1000 * step_gc[worst] if steps else None,
               cpu_median_ms=1000 * sorted(step_cpu)[len(step_cpu) // 2] if steps else None,
               cpu_max_ms=1000 * max(step_cpu) if steps else None,
               worst_cpu_ms=1000 * step_cpu[worst] if steps else None,
               over_100=sum(1 for x in steps if x > 0.1), gc_max_ms=1000 * max((d for g, d in gcs), default=0),
               gen2=sum(1 for g, d in gcs if g == 2), rss_mb=rss_mb(),
               slowest=[(i, round(1000 * steps[i], 1), round(1000 * step_gc[i], 1))
                        for i in sorted(range(len(steps)), key=steps.__getitem__)[-8:]])
if mode == "stalls":
    # The longest the GUI thread went without running its event loop (a 5 ms heartbeat) while the
    # GPU list is sorted by customer and scrolled, and the GPU and audit lists are filtered.
    from PySide6.QtCore import QEventLoop, Qt
    gaps, last = [], [time.perf_counter()]
    def beat():
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now
    hb = QTimer(); hb.setInterval(5); hb.timeout.connect(beat)
    def settle(page):
        # until the page's background read and count are in (the event loop runs meanwhile; a new
        # QEventLoop would return at once here, after the first paint's app.quit())
        poll = QTimer(); poll.start(5)
        while page.model.busy or page.model.filtered_count < 0:
            app.processEvents(QEventLoop.AllEvents | QEventLoop.WaitForMoreEvents)
        poll.stop()
    steps = {}
    def step(name, page, action):
        window.show_page(page.kind_pid)
        app.processEvents()
        del gaps[:]
        last[0] = time.perf_counter()
        hb.start()
        t1 = time.perf_counter()
        action(page)
        settle(page)
        app.processEvents()
        hb.stop()
        steps[name] = {"s": round(time.perf_counter() - t1, 3), "max_stall_ms": round(1000 * max(gaps or [0]), 1)}
    gpu, audit = window.lists["gpus"], window.lists["audit"]
    gpu.kind_pid, audit.kind_pid = "gpus", "audit"
    for page in (gpu, audit):      # first shown and read, as a person would have them
        window.show_page(page.kind_pid)
        app.processEvents()
        settle(page)
    col = gpu.model.spec.keys().index("customer")
    step("gpu: sort by customer", gpu, lambda p: p.view.sortByColumn(col, Qt.AscendingOrder))
    step("gpu: scroll to the end", gpu, lambda p: p.view.scrollToBottom())
    step("gpu: filter 'AB1'", gpu, lambda p: (p.filter.setText("AB1"), p.apply_filter()))
    step("gpu: filter 'a' (broad)", gpu, lambda p: (p.filter.setText("a"), p.apply_filter()))
    step("audit: filter 'transition'", audit, lambda p: (p.filter.setText("transition"), p.apply_filter()))
    step("audit: filter 'zzzz'", audit, lambda p: (p.filter.setText("zzzz"), p.apply_filter()))
    out["steps"] = steps
    out["max_stall_ms"] = max(v["max_stall_ms"] for v in steps.values())
import json; print("BENCH " + json.dumps(out), flush=True)
