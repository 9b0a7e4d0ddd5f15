"""One way to run work off the GUI thread, and one signal saying what changed.

`run_op(parent, fn, ...)` runs `fn(progress)` on the thread pool. `progress(done, total)`
reports and raises `Cancelled` once the user pressed Cancel. The result or the failure
arrives on the GUI thread; failures show a dialog unless `on_failure` handles them.
Nothing ORM-bound crosses: `fn` opens its own unit of work and returns plain values.
A read (`reads=True`, and every `Latest` run) reads in `app.store.db.reading(replica=True)`: its
sessions send no transaction control (issue 26: across a WAN each BEGIN and ROLLBACK is a round
trip), and come from the read replica when there is one (after this console's own writes, once
the replica has replayed them).

What changed is not written by hand: every unit of work that commits inside `fn` reports the
kinds its audit events named (`app.domain.changes.collect_changes`, like Anki's OpChanges), and the
operation announces them on the change bus (`bus().changed`, a frozenset of kinds, e.g.
{"gpu", "audit"}) once it succeeded; every view decides whether to refresh. Short writes that
the caller needs to finish before going on (a form's Save, which shows field errors in place)
run on the GUI thread through `apply(fn)`, which collects and announces the same way.
"""
from __future__ import annotations

import gc
import inspect
import logging
import threading
import weakref
import traceback
from contextlib import nullcontext
from typing import Any, Callable

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, QRunnable, Qt, QThreadPool, QTimer, Signal
from PySide6.QtWidgets import QMessageBox, QProgressDialog, QWidget

from app.domain.errors import DomainError
from app.domain.changes import collect_changes
from app.store.db import reading
from ui.shell.messages import translate_error


TR_CONTEXT = "operations"
log = logging.getLogger(__name__)


def tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication
    return QCoreApplication.translate(TR_CONTEXT, text)


class Cancelled(Exception):
    pass


class ChangeBus(QObject):
    changed = Signal(object)   # frozenset[str] of changed kinds; {"*"} means everything


_bus: ChangeBus | None = None


def bus() -> ChangeBus:
    global _bus
    if _bus is None:
        _bus = ChangeBus()
    return _bus


def forget_bus() -> None:
    """The next bus() is a new one: pages made for an earlier window (the tests' pages, their
    database dropped) no longer hear the announcements."""
    global _bus
    _bus = None


def listen(owner: QObject, slot: Callable[[frozenset], Any]) -> None:
    """Call `slot(kinds)` on every announcement for as long as `owner` lives and its window is open.

    The bus outlives every window (log out / switch user opens a new one in the same process); a
    slot connected straight to it would still be called after its widget was deleted (a lambda is
    not disconnected by Qt: "… already deleted"). So every view listens through here: the
    connection goes when `owner` is destroyed, or when its window closes (`forget_window`)."""
    changes = bus()
    # weakly held, like Qt's own connection to a bound method: listening keeps no page alive
    call = weakref.WeakMethod(slot) if inspect.ismethod(slot) else (lambda: slot)
    owner_ref = weakref.ref(owner)

    def heard(kinds):
        who, fn = owner_ref(), call()
        if who is None or fn is None or not shiboken6.isValid(who):
            _drop(heard)
            return
        fn(kinds)

    _listeners.append((owner_ref, heard, changes))
    changes.changed.connect(heard)
    owner.destroyed.connect(lambda *_: _drop(heard))


_listeners: list[tuple[weakref.ref, Callable, ChangeBus]] = []


def _drop(heard) -> None:
    for i, (_o, h, changes) in enumerate(_listeners):
        if h is heard:
            del _listeners[i]
            if shiboken6.isValid(changes):
                changes.changed.disconnect(heard)
            return


def listeners_of(window: QObject) -> int:
    """How many bus connections `window` and what it holds still have (a closed window: none)."""
    return sum(1 for o, _h, _b in _listeners if _within(o(), window))


def _within(obj: QObject, window: QObject) -> bool:
    while obj is not None and shiboken6.isValid(obj):
        if obj is window:
            return True
        obj = obj.parent()
    return False


def forget_window(window: QObject) -> None:
    """Disconnect from the bus everything `window` and its children connected (its closeEvent)."""
    for o, heard, _b in list(_listeners):
        if o() is None or not shiboken6.isValid(o()) or _within(o(), window):
            _drop(heard)


def announce(kinds) -> None:
    kinds = getattr(kinds, "kinds", kinds)
    if kinds:
        bus().changed.emit(frozenset(kinds))


def apply(fn: Callable[[], Any]) -> Any:
    """Run a short write on the GUI thread and announce what it changed; its exceptions go to the
    caller (a form shows a ValidationError beside its fields). Nothing is announced on failure."""
    with collect_changes() as changes:
        result = fn()
    announce(changes)
    return result


class _Signals(QObject):
    progress = Signal(int, int)
    message = Signal(str)
    finished = Signal(object)
    failed = Signal(object, str)


class _Job(QRunnable):
    def __init__(self, fn, signals: _Signals, cancel: threading.Event, reads: bool = False):
        super().__init__()
        self.fn, self.signals, self.cancel, self.reads = fn, signals, cancel, reads
        self.setAutoDelete(True)

    def run(self):
        def progress(done, total: int = 0) -> None:
            if self.cancel.is_set():
                raise Cancelled()
            if isinstance(done, str):  # a step's description instead of a count
                self.signals.message.emit(done)
            else:
                self.signals.progress.emit(int(done), int(total))
        try:
            with collect_changes() as changes, (reading(replica=True) if self.reads else nullcontext()):
                result = self.fn(progress)
        except BaseException as exc:  # delivered to the GUI thread, never lost
            if not isinstance(exc, (Cancelled, DomainError)):
                log.error("a background operation failed", exc_info=True)
            self.signals.failed.emit(exc, traceback.format_exc())
        else:
            self.signals.finished.emit((result, frozenset(changes.kinds)))


def collect_due_garbage() -> int | None:
    """Run the cyclic garbage collector's generation that is due, by Python's own thresholds; on
    the GUI thread (the timer below, or a test between tests). Returns the generation, or None."""
    counts, limits = gc.get_count(), gc.get_threshold()
    due = [g for g in (2, 1, 0) if counts[g] > limits[g]]
    if not due:
        return None
    gc.collect(due[0])
    return due[0]


_collector: QTimer | None = None


def collect_garbage_on_gui_thread() -> None:
    """Python collects reference cycles in whichever thread happens to allocate when a threshold
    is passed. With work on the thread pool, that can be a pool thread freeing a cycle that holds
    Qt objects (a widget, a timer, a signal's lambda) away from the GUI thread, which crashes the
    process: seen as a segmentation fault "Garbage-collecting" in a billing run's thread while a
    test waited for it. So once the pool is used, automatic collection is off and the GUI thread
    collects what is due, twice a second. Idempotent."""
    global _collector
    app = QCoreApplication.instance()
    if _collector is not None or app is None:
        return
    gc.disable()
    _collector = QTimer(app)
    _collector.setObjectName("guiThreadGarbageCollector")
    _collector.setInterval(500)
    _collector.timeout.connect(collect_due_garbage)
    _collector.start()


class Operation(QObject):
    """A running background job; keeps its signals alive until it is done."""

    succeeded = Signal(object)
    failed = Signal(object)
    done = Signal()

    running: set["Operation"] = set()

    def __init__(self, parent: QWidget | None, fn: Callable[[Callable[[int, int], None]], Any], *,
                 label: str | None = None, on_success: Callable[[Any], None] | None = None,
                 on_failure: Callable[[BaseException], None] | None = None, changes=None,
                 show_progress: bool = True, reads: bool = False):
        super().__init__(None)
        collect_garbage_on_gui_thread()   # before any work reaches a pool thread
        self.parent_widget = parent
        self.cancel_event = threading.Event()
        self.changes = changes
        self._on_success, self._on_failure = on_success, on_failure
        self.dialog: QProgressDialog | None = None
        self.abandoned = False
        if show_progress and parent is not None:
            self.dialog = QProgressDialog(label or self.tr("Working…"), self.tr("Cancel"), 0, 0, parent)
            self.dialog.setWindowModality(Qt.WindowModal)
            self.dialog.setMinimumDuration(400)
            self.dialog.setAutoClose(False)
            self.dialog.setAutoReset(False)
            self.dialog.canceled.connect(self.cancel)
        # The job on the pool thread holds these signals too, and may let go of them last: owned by
        # the application (not by Python), they are deleted on the GUI thread by deleteLater() in
        # _close(), never by a pool thread dropping its reference (a QObject deleted on the wrong
        # thread with queued events for it crashed the interpreter, now and then).
        self.signals = _Signals(QCoreApplication.instance())
        self.signals.progress.connect(self._progress, Qt.QueuedConnection)
        self.signals.message.connect(self._message, Qt.QueuedConnection)
        self.signals.finished.connect(self._finished, Qt.QueuedConnection)
        self.signals.failed.connect(self._failed, Qt.QueuedConnection)
        Operation.running.add(self)
        QThreadPool.globalInstance().start(_Job(fn, self.signals, self.cancel_event, reads))

    def cancel(self) -> None:
        self.cancel_event.set()

    def abandon(self) -> None:
        """At quit: cancel, and drop the result or failure when it comes (nothing opens or refreshes
        after the window has gone)."""
        self.abandoned = True
        self.cancel()
        if self.dialog is not None:
            self.dialog.hide()

    def _progress(self, done: int, total: int) -> None:
        if self.dialog is not None:
            self.dialog.setMaximum(max(total, 0))
            self.dialog.setValue(min(done, total) if total else 0)

    def _message(self, text: str) -> None:
        if self.dialog is not None:
            self.dialog.setLabelText(text)

    def _close(self) -> None:
        self.signals.deleteLater()
        if self.dialog is not None:
            self.dialog.reset()
            self.dialog.hide()
            self.dialog.deleteLater()
            self.dialog = None
        Operation.running.discard(self)

    def _finished(self, outcome) -> None:
        result, changed = outcome
        self._close()
        if self.abandoned:
            return
        if self.changes is not None:  # kinds a caller knows of beyond its writes (e.g. {"*"})
            extra = self.changes(result) if callable(self.changes) else self.changes
            changed = changed | frozenset(getattr(extra, "kinds", extra) or ())
        announce(changed)
        if self._on_success:
            self._on_success(result)
        self.succeeded.emit(result)
        self.done.emit()

    def _failed(self, exc: BaseException, tb: str) -> None:
        self._close()
        if self.abandoned:
            return
        if self._on_failure:
            self._on_failure(exc)
        elif not isinstance(exc, Cancelled):
            show_error(self.parent_widget, exc, tb)
        self.failed.emit(exc)
        self.done.emit()


def run_op(parent, fn, **kw) -> Operation:
    return Operation(parent, fn, **kw)


def shutdown(timeout_ms: int = 30_000) -> bool:
    """Before the window and the application are deleted: every running operation is abandoned
    (cancelled where its work checks, its result dropped), jobs not yet started are removed, and
    the pool is waited for, so no pool thread runs Python or emits into deleted objects while the
    interpreter shuts down. The results already queued are then delivered (and dropped), which
    deletes their signal objects on this thread. False when the pool did not empty in time."""
    from PySide6.QtCore import QEvent
    for op in list(Operation.running):
        op.abandon()
    pool = QThreadPool.globalInstance()
    pool.clear()                                     # queued, never started: they will not run
    if not pool.waitForDone(timeout_ms):
        return False
    QCoreApplication.sendPostedEvents()              # the queued results: _finished/_failed close them
    for op in list(Operation.running):              # removed by clear(): nothing will come
        op._close()
    QCoreApplication.sendPostedEvents(None, QEvent.DeferredDelete)
    return True


class Latest:
    """Background reads of which only the newest counts (a list's sort or filter, a search).

    `run(fn, on_success, on_failure)` runs `fn(check)` on the thread pool; `check()` raises
    Cancelled once a newer run (or `invalidate()`) has superseded it, before the work and wherever
    `fn` calls it (e.g. between batches), so superseded reads do not keep the pool busy. Results
    and failures of a superseded run, or of one whose `owner` is gone, are dropped."""

    def __init__(self, owner: QObject):
        self.owner = owner
        self.generation = 0

    def invalidate(self) -> None:
        self.generation += 1

    def run(self, fn: Callable[[Callable[[], None]], Any], on_success: Callable[[Any], None],
            on_failure: Callable[[BaseException], None]) -> None:
        self.invalidate()
        generation = self.generation

        def check() -> None:
            if generation != self.generation:
                raise Cancelled()

        def deliver(handler):
            def call(value) -> None:
                import shiboken6
                if shiboken6.isValid(self.owner) and generation == self.generation:
                    handler(value)
            return call
        run_op(None, lambda _progress: (check(), fn(check))[1], show_progress=False, reads=True,
               on_success=deliver(on_success), on_failure=deliver(on_failure))


def show_error(parent, exc: BaseException, tb: str = "") -> None:
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Warning)
    if isinstance(exc, DomainError):
        logging.getLogger(__name__).info("refused: %s", exc.message)
        box.setWindowTitle(tr("Refused"))
        box.setText(translate_error(exc))   # the catalogue's sentences in the console's language
    else:
        logging.getLogger(__name__).error("an operation failed: %s\n%s", str(exc) or type(exc).__name__, tb)
        box.setWindowTitle(tr("Error"))
        box.setText(tr("The operation failed: %1").replace("%1", str(exc) or type(exc).__name__))
        if tb:
            box.setDetailedText(tb)
    box.setObjectName("errorBox")
    if parent is None or not parent.isVisible():
        box.show()
    else:
        box.open()


class Debouncer(QObject):
    """Calls `fn` once, `ms` after the last `poke()`."""

    def __init__(self, ms: int, fn: Callable[[], None], parent=None):
        super().__init__(parent)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(ms)
        self.timer.timeout.connect(fn)

    def poke(self, *_):
        self.timer.start()
