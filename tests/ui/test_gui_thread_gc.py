"""Garbage is collected on the GUI thread only: a pool thread that freed a cycle holding Qt objects
crashed the process (a segmentation fault "Garbage-collecting" inside a billing run's thread)."""
from __future__ import annotations

import gc

from PySide6.QtCore import QCoreApplication, QTimer


def test_once_the_pool_is_used_only_the_gui_thread_collects(qtbot):
    from ui.shell.operations import run_op

    op = run_op(None, lambda progress: gc.isenabled(), show_progress=False)
    with qtbot.waitSignal(op.succeeded, timeout=10_000) as got:
        pass
    assert got.args == [False]                      # no automatic collection while the job ran
    timer = QCoreApplication.instance().findChild(QTimer, "guiThreadGarbageCollector")
    assert timer is not None and timer.isActive()


def test_the_gui_thread_collects_what_is_due_by_pythons_thresholds():
    from ui.shell.operations import collect_due_garbage

    was_enabled, limits = gc.isenabled(), gc.get_threshold()
    gc.disable()
    try:
        gc.collect()
        assert collect_due_garbage() is None            # nothing due right after a collection
        gc.set_threshold(10, limits[1], limits[2])

        class Node:
            pass
        for _ in range(50):                             # cycles only the collector frees
            a, b = Node(), Node()
            a.b, b.a = b, a
        del a, b
        assert collect_due_garbage() == 0
        assert gc.get_count()[0] < 10
    finally:
        gc.set_threshold(*limits)
        if was_enabled:
            gc.enable()
