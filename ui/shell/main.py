"""`idc-console` with no command: start the window.

Order: application and fonts, language, database (settings or --db), schema upgrade with a
progress dialog (SQLite backed up first), first-run wizard or login, main window.
"""
from __future__ import annotations

import inspect
import logging
import os
import sys
from pathlib import Path

from PySide6.QtCore import QEventLoop
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QMessageBox

from app.store.config import describe_url, resolve_db_url, resolve_read_db_url
from app.store.db import Database
from app.domain.errors import DomainError, SchemaTooNew
from app.store.logs import setup_logging

from ui.shell.i18n import install_translators, system_language
from ui.shell.operations import run_op
from ui.shell.settings import settings

TR_CONTEXT = "main"


log = logging.getLogger(__name__)


def tr(text: str) -> str:
    return QApplication.translate(TR_CONTEXT, text)


def log_uncaught_exceptions() -> None:
    """An exception no slot caught goes to the log as well as to stderr (PySide6 hands it to sys.excepthook)."""
    previous = sys.excepthook
    if getattr(previous, "idc_logs", False):
        return

    def hook(kind, exc, tb):
        log.error("uncaught exception", exc_info=(kind, exc, tb))
        previous(kind, exc, tb)
    hook.idc_logs = True
    sys.excepthook = hook


ICON = Path(__file__).resolve().parents[2] / "resources" / "icons" / "idc-console.png"


def shield_singletons() -> bool:
    """Work around a reference-count bug of PySide6 6.12.0 on CPython 3.11; True when applied.

    There, every call of a void method (label.setText, timer.start, deleteLater …) returns None
    without the new reference it owes, and Signal.emit() returns True the same way: each call takes
    one reference from None or True. A long session uses up None's count and the interpreter
    aborts with `Fatal Python error: none_dealloc` (or `bool_dealloc`), mostly at exit, when every
    module gives its references back. CPython 3.12 makes these objects immortal (PEP 683), so the
    bug costs nothing there; here they get a reference count no session can use up. None, True
    and False are static objects that are never freed, so the extra count changes nothing else.
    Applied only where a probe shows the loss (PySide6 6.11 and CPython 3.12+ need nothing)."""
    if sys.version_info >= (3, 12):
        return False
    import ctypes

    from PySide6.QtCore import QObject, Signal

    class _Probe(QObject):
        ping = Signal()
    probe = _Probe()
    none0, true0 = sys.getrefcount(None), sys.getrefcount(True)
    for _ in range(64):
        probe.setObjectName("probe")          # a void method
        probe.ping.emit()
    lost = none0 - sys.getrefcount(None) >= 32 or true0 - sys.getrefcount(True) >= 32
    del probe
    if lost and not getattr(shield_singletons, "applied", False):
        for obj in (None, True, False):
            # ob_refcnt is a PyObject's first field (Py_ssize_t) in CPython's release builds
            ctypes.c_ssize_t.from_address(id(obj)).value += 1 << 56
        shield_singletons.applied = True
    return lost


def make_app(argv=None) -> QApplication:
    shield_singletons()
    app = QApplication.instance() or QApplication(argv or sys.argv[:1])
    app.setApplicationName("idc-console")
    app.setOrganizationName("IDC")
    app.setApplicationDisplayName("IDC console")
    if ICON.exists():
        app.setWindowIcon(QIcon(str(ICON)))
    from ui.shell.fonts import apply_ui_font
    apply_ui_font(app)   # the bundled CJK font (or the settings' one), system fonts as fallbacks
    return app


def choose_language(args) -> str:
    return getattr(args, "lang", None) or settings().get("language") or system_language()


def database_url(args, ask=None) -> str | None:
    """The database to open: --db, IDC_CONSOLE_DB or the settings, with its password from the
    keyring or asked for (`ask(url)`, by default a dialog); None when the user cancels."""
    from ui.shell.dbdialog import ask_db_password, scrub_stored_password, with_password
    scrub_stored_password()
    explicit = getattr(args, "db", None) or os.environ.get("IDC_CONSOLE_DB") or settings().get("db_url") or None
    return with_password(resolve_db_url(explicit), ask=ask or ask_db_password)


def wait(op) -> tuple[bool, object]:
    """Block (with a running event loop) until a background operation ends."""
    loop = QEventLoop()
    outcome: list = []
    op.succeeded.connect(lambda r: outcome.append((True, r)))
    op.failed.connect(lambda e: outcome.append((False, e)))
    op.done.connect(loop.quit)
    if not outcome:
        loop.exec()
    return outcome[0] if outcome else (False, None)


def prepare_schema(db: Database) -> None:
    """What the console's start does before its login dialog: the schema created or upgraded, the shipped
    regions in a new database (`idc-console bench --wan` times it as its "start" row)."""
    from app.services.reference import seed_regions
    from app.store.startup import prepare_database

    before, has_regions = db.revision_and_regions()   # one statement at an existing database
    prepare_database(db, current=before)
    if not (has_regions and before == db.head_revision()):
        seed_regions(db)  # a new database gets the shipped regions, as `db upgrade` does
    db.warm()         # the read connections opened while the login dialog waits
    if before is not None and before != db.head_revision():
        db.upgraded_from = before   # recorded with the first login (record_console_upgrade)


def prepare(db: Database, parent=None) -> bool:
    """Create or upgrade the schema off the GUI thread; False when it cannot be opened."""
    def work(progress):
        progress(0, 0)
        prepare_schema(db)

    ok, result = wait(run_op(parent, work, label=tr("Preparing the database (backup and schema upgrade)…"),
                             on_failure=lambda e: None))
    if ok:
        return True
    if isinstance(result, DomainError):   # other failures: the operation logged them with their traceback
        log.warning("the database could not be prepared: %s", result.message)
    if isinstance(result, SchemaTooNew):
        QMessageBox.critical(parent, tr("Database is newer than this console"), result.message)
    else:
        from ui.shell.dbdialog import hide_secret
        QMessageBox.critical(parent, tr("Cannot open the database"),
                             tr("%1\n\nCheck the database in the settings.").replace("%1", hide_secret(str(result), db.url)))
    return False


def refuse_missing_db(url: str, parent=None) -> bool:
    """A SQLite file named by --db, IDC_CONSOLE_DB or the settings that does not exist is refused (no
    folder or file is made); only the default file is created at a first start. True when refused."""
    from app.store.config import DatabaseUnavailable
    from app.store.db import check_console_db

    try:
        check_console_db(url)
    except DatabaseUnavailable as exc:
        log.warning("the database is refused: %s", exc.message)
        QMessageBox.critical(parent, tr("Cannot open the database"), exc.message)
        return True
    return False


def record_console_upgrade(db: Database, actor) -> None:
    """The schema upgrade made at this start (after the backup), recorded as the person who logged in."""
    if not db.upgraded_from:
        return
    import getpass

    from app.domain.errors import DomainError
    from app.services.schema import record_upgrade
    try:
        record_upgrade(db, actor, db.upgraded_from, db.current_revision(),
                       f"console start: upgraded after a backup by OS account {getpass.getuser()}; "
                       "recorded at the first login after it")
    except DomainError:
        log.warning("could not record the schema upgrade", exc_info=True)
    db.upgraded_from = None


def load_demo(db: Database, actor, parent=None) -> bool:
    from app.demo import load as demo
    fn = demo.load_demo
    params = inspect.signature(fn).parameters

    def work(progress):
        kw = {}
        if "progress" in params:
            kw["progress"] = lambda step, *rest: progress(step, *rest)
        if "actor" in params:
            return fn(db, actor, **kw)
        return fn(db, **kw)
    ok, _r = wait(run_op(parent, work, label=tr("Loading the demo data…")))
    return ok


def authenticate(db: Database, args, parent=None, ask: bool = False):
    """The first-run wizard on an empty database, else the login dialog; returns the Actor or None.
    `ask`: always the dialog (after log out), never the environment's password."""
    from app.services.users import has_users, login
    from app.domain.errors import DomainError

    from ui.shell.startup import FirstRunWizard, LoginDialog

    if not has_users(db):
        wizard = FirstRunWizard(db, parent)
        if not wizard.exec() or wizard.actor is None:
            return None
        if wizard.load_demo_requested:
            load_demo(db, wizard.actor, parent)
        return wizard.actor
    password = None if ask else os.environ.get("IDC_CONSOLE_PASSWORD")
    user = getattr(args, "user", None)
    if user and password:
        try:
            return login(db, user, password)
        except DomainError as exc:   # then the login dialog asks
            log.info("login of %s with IDC_CONSOLE_PASSWORD refused: %s", user, exc.message)
    dlg = LoginDialog(db, parent)
    if user:
        dlg.login.setText(user)
        dlg.password.setFocus()
    return dlg.actor if dlg.exec() else None


def warn_remembered_head(db: Database, parent=None) -> None:
    """The audit head this computer last verified, against the database's chain (app/audit/state.py)."""
    from app.audit.state import check_at_start

    problem = check_at_start(db)
    if problem:
        log.warning("the audit trail was changed outside the program: %s", problem)
        QMessageBox.warning(parent, tr("The audit trail was changed outside the program"), problem)


def run_console(args) -> int:
    log.info("console starting (log: %s)", setup_logging())
    log_uncaught_exceptions()
    app = make_app()
    install_translators(app, choose_language(args))
    while True:
        url = database_url(args)
        if url is None:              # the password was asked for and not given
            return 1
        if not refuse_missing_db(url):
            db = Database(url, read_url=resolve_read_db_url(getattr(args, "read_db", None)))
            if prepare(db):
                break
            db.dispose()
        from ui.shell.dbdialog import SettingsDialog
        if not SettingsDialog().exec():
            return 1
        args.db = None
    warn_remembered_head(db)
    actor = authenticate(db, args)
    if actor is None:
        db.dispose()
        return 1
    record_console_upgrade(db, actor)
    from ui.shell.mainwindow import MainWindow
    while True:
        window = MainWindow(db, actor)
        log.info("console open on %s as %s", describe_url(db.url), actor.login)
        if os.environ.get("IDC_CONSOLE_EXIT_AFTER_START"):   # smoke tests of a build: start, paint, quit
            watch = _FirstPaint(window, lambda age, window=window, actor=actor: (print(  # noqa: F841  (kept alive)
                f"console started: {window.windowTitle()} on {describe_url(db.url)} as {actor.login}"
                + (f"; first paint {age:.3f} s after the process started" if age is not None else "")
                + f" (CPU {_cpu_seconds():.3f} s, load {os.getloadavg()[0]:.2f})", flush=True),
                app.quit()))
        window.show()
        code = app.exec()
        if not window.switch_requested:
            return close_down(app, window, db, code)
        # log out / switch user: this window goes, the login dialog asks who is next
        from PySide6.QtCore import QEvent
        from ui.shell.operations import shutdown
        shutdown()
        window.deleteLater()
        app.sendPostedEvents(None, QEvent.DeferredDelete)
        args.user = None
        actor = authenticate(db, args, ask=True)
        if actor is None:
            db.dispose()
            return 0


def process_age() -> float | None:
    """Seconds since this process was started (Linux), for `idc-console bench`'s cold start."""
    try:
        with open("/proc/self/stat") as f:
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        import time
        return time.clock_gettime(time.CLOCK_BOOTTIME) - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def _cpu_seconds() -> float:
    """CPU seconds this process has used (user + system): what the start costs whatever the load."""
    t = os.times()
    return t.user + t.system


def _FirstPaint(window, then):
    """Calls then(process age) once, on the window's first paint."""
    from PySide6.QtCore import QEvent, QObject, QTimer

    class Watch(QObject):
        done = False

        def eventFilter(self, obj, ev):
            if ev.type() == QEvent.Paint and not self.done:
                self.done = True
                age = process_age()
                QTimer.singleShot(0, lambda: then(age))
            return False
    watch = Watch(window)
    window.installEventFilter(watch)
    return watch


def close_down(app: QApplication, window, db: Database, code: int) -> int:
    """After the event loop: background work ended, then the window deleted (its pages, models and
    timers with it, children before parents, by Qt) while Python is whole, then the database."""
    from PySide6.QtCore import QEvent

    from ui.shell.operations import shutdown
    if not shutdown():
        # a job still runs (a query on a hung connection): finalising Python under it would crash;
        # the settings are saved (closeEvent), so leave without tearing down
        sys.stderr.write("idc-console: background work did not end within 30 s; exiting without cleanup\n")
        sys.stderr.flush()
        os._exit(code)
    window.deleteLater()
    app.sendPostedEvents(None, QEvent.DeferredDelete)
    db.dispose()
    return code
