"""The console quits cleanly: exit code 0 and no "Fatal Python error", after real use.

Two causes were found behind `Fatal Python error: none_dealloc` (exit 134) at Ctrl+Q:
- PySide6 6.12.0 on CPython 3.11 takes a reference from None with every void method call and
  from True with every Signal.emit(); a long session used up None's count (ui.shell.main.shield_singletons);
- background jobs still running at quit emitted into objects being deleted while Python shut down
  (ui.shell.operations.shutdown, ui.shell.main.close_down).
The tests run the real console in subprocesses, as a user would.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOUR = Path(__file__).with_name("console_tour.py")


def run_python(code: str, env=None, timeout=120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen", **(env or {})})


def test_many_void_calls_and_emits_do_not_use_up_none_or_true():
    """300,000 void calls and emits: more than None's and True's reference counts in a fresh process."""
    r = run_python("""
from ui.shell.main import make_app
from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QLabel
app = make_app()
class O(QObject):
    ping = Signal()
o, label = O(), QLabel()
for _ in range(300_000):
    label.setText("x")
    o.ping.emit()
del o, label
print("ok", flush=True)
""")
    assert "Fatal" not in r.stderr, r.stderr[-2000:]
    assert r.returncode == 0 and "ok" in r.stdout, r.stderr[-2000:]


@pytest.fixture
def demo_file(demo_templates):
    return demo_templates("sqlite")       # the session's demo database (SQLite file bytes)


TOURS = int(os.environ.get("IDC_TOUR_RUNS", "2"))    # per language; IDC_TOUR_RUNS=20 for a release check
AGE = 60_000     # void calls of a few hours' use: enough to end in none_dealloc before the fix


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_console_toured_then_quit_with_ctrl_q_exits_cleanly(tmp_path, demo_file, lang):
    """The real console (launcher.main) through every page, a background read, a PDF preview and a
    search, twice around, the void calls of a few hours' use, then Ctrl+Q with work still on the
    pool; repeated (IDC_TOUR_RUNS)."""
    for i in range(TOURS):
        db = tmp_path / f"run{i}.db"
        db.write_bytes(demo_file)
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "IDC_CONSOLE_PASSWORD": "demo1234",
               "IDC_CONSOLE_SETTINGS": str(tmp_path / f"settings{i}.ini"), "IDC_CONSOLE_HOME": str(tmp_path / "home")}
        env.pop("IDC_CONSOLE_DB", None)
        r = subprocess.run([sys.executable, str(TOUR), "--db", str(db), "--user", "admin", "--lang", lang,
                            "--rounds", "2", "--age", str(AGE)], cwd=ROOT, env=env, capture_output=True, text=True,
                           timeout=300)
        assert "tour done" in r.stdout, f"run {i}: the tour did not finish\n{r.stderr[-3000:]}"
        assert "Fatal" not in r.stderr, f"run {i}:\n{r.stderr[-3000:]}"
        assert r.returncode == 0, f"run {i}: exit {r.returncode}\n{r.stderr[-3000:]}"


def test_shutdown_abandons_running_work_and_drops_its_results(qtbot):
    """At quit a running job is cancelled at its next progress() and its result is dropped; jobs
    still queued never start; nothing is left for the interpreter's shutdown."""
    import threading

    from PySide6.QtCore import QThreadPool

    from ui.shell.operations import Operation, run_op, shutdown
    started, delivered = [], []

    def endless(progress):
        started.append(1)
        pause = threading.Event()
        while True:
            progress(0, 0)              # raises Cancelled once abandoned
            pause.wait(0.005)
    pool = QThreadPool.globalInstance()
    ops = [run_op(None, endless, show_progress=False, on_success=delivered.append, on_failure=delivered.append)
           for _ in range(pool.maxThreadCount() + 3)]
    qtbot.waitUntil(lambda: len(started) == pool.maxThreadCount())
    assert shutdown(10_000)
    assert pool.activeThreadCount() == 0
    assert len(started) == pool.maxThreadCount()      # the queued ones never ran
    assert delivered == []                            # nothing delivered after quit
    assert not any(op in Operation.running for op in ops)
