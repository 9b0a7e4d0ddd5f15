"""Audit log: the list with its filter bar (period, user, action, object type), an event's detail,
"Verify chain" (with the SEQ:HASH checkpoint to copy), the audit report PDF with period/actor/action
filters, and the audit export (CSV/XLSX) over the same filter. Action and object codes are shown
by name in the reader's language, the codes beside them."""
from __future__ import annotations

import logging

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (QApplication, QComboBox, QDialog, QDialogButtonBox, QFileDialog,
                               QFormLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget)


from app.read import queries
from app.domain.rating import local_today
from app.domain.actor import Actor
from app.audit.state import verify_and_remember
from app.audit.query import (OBJECT_NAMES, AuditFilter, audit_choices, event_detail, filter_text)
from app.domain.auth import can
from app.store.db import Database
from app.domain.errors import DomainError

from ui.kit.dialogs import OptionalDateEdit, date_edit, error_label, get_date, guard
from ui.shell.i18n import ui_language
from ui.kit.auditevent import AuditEventDialog, action_name, named, object_name
from ui.kit.listview import ListPage
from ui.shell.operations import listen, run_op

class AuditFilterDialog(QDialog):
    """Period (local dates), actor, action (exact, or a prefix ending in '.') and object type;
    `start` (the audit page's filter bar) fills them in, so nobody types the filter twice."""

    def __init__(self, db: Database, title: str, ok_text: str, parent=None, start: AuditFilter | None = None,
                 types: list[str] | None = None):
        super().__init__(parent)
        self.setObjectName("auditFilterDialog")
        self.setWindowTitle(title)
        today = local_today()
        start = start or AuditFilter()
        form = QFormLayout(self)
        self.date_from = date_edit(start.date_from or today.replace(day=1), name="dateFrom")
        self.date_to = date_edit(start.date_to or max(today, start.date_from or today), name="dateTo")
        form.addRow(self.tr("From"), self.date_from)
        form.addRow(self.tr("To"), self.date_to)
        actors, actions = queries.audit_actors_and_actions(db)
        self.actor = QComboBox()
        self.actor.setObjectName("actor")
        self.actor.addItem(self.tr("(everyone)"), None)
        for a in actors:
            self.actor.addItem(a, a)
        form.addRow(self.tr("User"), self.actor)
        self.action = QComboBox()
        self.action.setObjectName("action")
        self.action.setEditable(True)
        self.action.addItem(self.tr("(every action)"), None)
        fill_actions(self.action, actions)
        self.action.setToolTip(self.tr("An action (e.g. contract.approve) or a prefix ending in a dot (e.g. gpu.)"))
        form.addRow(self.tr("Action"), self.action)
        self.object_type = QComboBox()
        self.object_type.setObjectName("objectType")
        self.object_type.addItem(self.tr("(every type)"), None)
        for t in sorted(set(types or []) | ({start.object_type} if start.object_type else set())):
            self.object_type.addItem(named(t, object_name(t)), t)
        form.addRow(self.tr("Object type"), self.object_type)
        if start.actor_login:
            self.actor.setCurrentIndex(max(0, self.actor.findData(start.actor_login)))
        if start.action:
            i = self.action.findData(start.action)
            if i >= 0:
                self.action.setCurrentIndex(i)
            else:
                self.action.setEditText(start.action)
        if start.object_type:
            self.object_type.setCurrentIndex(self.object_type.findData(start.object_type))
        self.error = error_label("filterError")
        form.addRow(self.error)
        bb = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        bb.button(QDialogButtonBox.Ok).setText(ok_text)
        bb.button(QDialogButtonBox.Cancel).setText(self.tr("Cancel"))
        bb.accepted.connect(self._accept)
        bb.rejected.connect(self.reject)
        form.addRow(bb)
        self.resize(420, self.sizeHint().height())

    def _accept(self) -> None:
        f = self.filter()
        if f.date_to < f.date_from:
            self.error.setText(self.tr("The period ends before it starts."))
            self.error.show()
            return
        self.accept()

    def filter(self) -> AuditFilter:
        return AuditFilter(get_date(self.date_from), get_date(self.date_to), self.actor.currentData(),
                           self.action_filter(), self.object_type.currentData())

    def action_filter(self) -> str | None:
        """The action box's text decides (it is editable: currentData may belong to an entry the
        text no longer shows). A listed entry gives its data, so "(every action)" gives None;
        anything else typed is an action or a prefix, as `--action` on the command line."""
        text = self.action.currentText().strip()
        if not text:
            return None
        i = self.action.findText(text, Qt.MatchFixedString | Qt.MatchCaseSensitive)
        return self.action.itemData(i) if i >= 0 else text


def fill_actions(box: QComboBox, actions: list[str]) -> None:
    """Prefixes ("every GPU action", data "gpu.") then each action by name, its code as data."""
    prefixes = sorted({a.split(".")[0] for a in actions if "." in a})
    for p in prefixes:
        label = object_name(p) if p in OBJECT_NAMES else p
        box.addItem(QCoreApplication.translate("AuditFilterBar", "every %1 action").replace("%1", label)
                    + f"  ({p}.)", p + ".")
    for a in actions:
        box.addItem(named(a, action_name(a)), a)


def _combo_value(box: QComboBox) -> str | None:
    """An editable box: a listed entry gives its data; typed text is taken as typed (a code)."""
    text = box.currentText().strip()
    if not text:
        return None
    i = box.findText(text, Qt.MatchFixedString | Qt.MatchCaseSensitive)
    return box.itemData(i) if i >= 0 else text


class AuditFilterBar(QWidget):
    """The audit list's filter: period, user, action (or a prefix), object type."""

    changed = Signal()

    def __init__(self, db: Database, parent=None):
        super().__init__(parent)
        self.setObjectName("auditFilterBar")
        row = QHBoxLayout(self)
        row.setContentsMargins(6, 0, 6, 0)
        self.date_from = OptionalDateEdit()
        self.date_from.setObjectName("filterFrom")
        self.date_to = OptionalDateEdit(default=local_today)
        self.date_to.setObjectName("filterTo")
        for w in (self.date_from, self.date_to):
            w.edit.setMaximumWidth(w.whole_date_width())
            w.edit.setPlaceholderText("YYYY-MM-DD")
            w.dateChanged.connect(lambda _d: self.changed.emit())
        self.actor = QComboBox()
        self.actor.setObjectName("filterActor")
        self.action = QComboBox()
        self.action.setObjectName("filterAction")
        self.action.setEditable(True)
        self.action.setInsertPolicy(QComboBox.NoInsert)
        self.action.setToolTip(self.tr("An action, or a prefix ending in a dot (e.g. gpu.)"))
        self.action.setMinimumContentsLength(22)
        self.action.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
        self.action.currentIndexChanged.connect(lambda _i: self.action.lineEdit().setCursorPosition(0))
        self.object_type = QComboBox()
        self.object_type.setObjectName("filterType")
        self.clear_button = QPushButton(self.tr("Clear"))
        self.clear_button.setObjectName("filterClear")
        self.clear_button.clicked.connect(self.clear)
        for label, w in ((self.tr("From"), self.date_from), (self.tr("To"), self.date_to),
                         (self.tr("User"), self.actor), (self.tr("Action"), self.action),
                         (self.tr("Object type"), self.object_type)):
            row.addWidget(QLabel(label))
            row.addWidget(w, (2 if w is self.action else 1) if isinstance(w, QComboBox) else 0)
        row.addWidget(self.clear_button)
        self.set_choices([], [], [])         # filled in the background when the page is first shown
        self.actor.currentIndexChanged.connect(lambda _i: self.changed.emit())
        self.object_type.currentIndexChanged.connect(lambda _i: self.changed.emit())
        self.action.activated.connect(lambda _i: self.changed.emit())
        self.action.lineEdit().editingFinished.connect(self.changed.emit)

    def set_choices(self, actors: list[str], actions: list[str], types: list[str]) -> None:
        keep = (self.actor.currentData(), _combo_value(self.action), self.object_type.currentData())
        for box in (self.actor, self.action, self.object_type):
            box.blockSignals(True)
            box.clear()
        self.actor.addItem(self.tr("(everyone)"), None)
        for a in actors:
            self.actor.addItem(a, a)
        self.action.addItem(self.tr("(every action)"), None)
        fill_actions(self.action, actions)
        self.object_type.addItem(self.tr("(every type)"), None)
        for t in types:
            self.object_type.addItem(named(t, object_name(t)), t)
        self.actor.setCurrentIndex(max(0, self.actor.findData(keep[0])))
        i = self.action.findData(keep[1]) if keep[1] else 0
        if i >= 0:
            self.action.setCurrentIndex(i)
        else:
            self.action.setEditText(keep[1])
        self.object_type.setCurrentIndex(max(0, self.object_type.findData(keep[2])))
        for box in (self.actor, self.action, self.object_type):
            box.blockSignals(False)

    def filter(self) -> AuditFilter:
        return AuditFilter(self.date_from.date_value(), self.date_to.date_value(), self.actor.currentData(),
                           _combo_value(self.action), self.object_type.currentData())

    def clear(self) -> None:
        for w in (self.date_from, self.date_to, self.actor, self.action, self.object_type):
            w.blockSignals(True)
        self.date_from.set_date(None)
        self.date_to.set_date(None)
        self.actor.setCurrentIndex(0)
        self.action.setCurrentIndex(0)
        self.object_type.setCurrentIndex(0)
        for w in (self.date_from, self.date_to, self.actor, self.action, self.object_type):
            w.blockSignals(False)
        self.changed.emit()


class AuditPage(QWidget):
    openObject = Signal(str, object)      # object type, id: the main window shows the record

    def __init__(self, db: Database, actor: Actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.setObjectName("page_audit_view")
        self.list = ListPage(db, actor, "audit", self)
        self.bar = AuditFilterBar(db, self)
        self.list.extra_filter = lambda: filter_text(self.bar.filter())
        self.bar.changed.connect(self.list.apply_filter)
        self.list.openRecord.connect(lambda _kind, seq: self.open_event(seq))
        self.choices_stale = True
        listen(self, self._changed)
        self.event_dialog: AuditEventDialog | None = None
        v = QVBoxLayout(self)
        v.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        bar.setContentsMargins(6, 6, 6, 0)
        self.verify_button = QPushButton(self.tr("Verify chain"))
        self.verify_button.setObjectName("verifyChain")
        self.verify_button.clicked.connect(lambda: self.verify())
        self.report_button = QPushButton(self.tr("Audit report PDF…"))
        self.report_button.setObjectName("auditReport")
        self.report_button.clicked.connect(lambda: self.ask_report())
        self.export_button = QPushButton(self.tr("Export period…"))
        self.export_button.setObjectName("auditExport")
        self.export_button.clicked.connect(lambda: self.ask_export())
        guard(self.verify_button, actor, "read")
        guard(self.report_button, actor, "print")
        guard(self.export_button, actor, "export")
        for b in (self.verify_button, self.report_button, self.export_button):
            bar.addWidget(b)
        self.result = QLabel(self.tr("Verify recomputes every event's hash and link."))
        self.result.setObjectName("verifyResult")
        self.result.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.result.setWordWrap(True)
        bar.addWidget(self.result, 1)
        self.copy_button = QPushButton(self.tr("Copy SEQ:HASH"))
        self.copy_button.setObjectName("copyHead")
        self.copy_button.setToolTip(self.tr("For audit verify --expect-head later"))
        self.copy_button.clicked.connect(self.copy_head)
        self.copy_button.setEnabled(False)
        bar.addWidget(self.copy_button)
        v.addLayout(bar)
        v.addWidget(self.bar)
        v.addWidget(self.list, 1)
        self.head: str | None = None

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self.choices_stale:
            self.load_choices()

    def _changed(self, _kinds) -> None:
        self.choices_stale = True           # any change adds events: new users, actions, types
        if self.isVisible():
            self.load_choices()

    def load_choices(self):
        """The filter bar's users, actions and types, read on the pool (a scan of a big trail)."""
        self.choices_stale = False
        db = self.db

        def done(choices) -> None:
            import shiboken6
            if shiboken6.isValid(self.bar):
                self.bar.set_choices(*choices)
        return run_op(None, lambda _p: audit_choices(db), show_progress=False, reads=True, on_success=done,
                      on_failure=lambda _e: setattr(self, "choices_stale", True))

    def open_event(self, seq) -> AuditEventDialog | None:
        ev = event_detail(self.db, int(seq))
        if ev is None:
            return None
        dlg = AuditEventDialog(ev, self)
        dlg.setAttribute(Qt.WA_DeleteOnClose)
        dlg.openObject.connect(self._open_object)
        self.event_dialog = dlg
        dlg.open()
        return dlg

    def _open_object(self, kind: str, id_: str) -> None:
        try:
            self.openObject.emit(kind, int(id_))
        except ValueError:   # an object named by a code, not an id: nothing to open
            logging.getLogger(__name__).debug("audit object %s %r has no id to open", kind, id_)

    def verify(self):
        db = self.db

        def work(progress):
            progress(self.tr("Verifying the audit chain…"))
            with db.session() as s:
                return verify_and_remember(db, s, progress=lambda n: progress(n, 0))
        return run_op(self, work, label=self.tr("Verifying the audit chain…"), on_success=self.show_result,
                      on_failure=self.failed)

    def show_result(self, r) -> None:
        self.head = r.head
        if r.ok:
            text = self.tr("Chain intact: %1 events; head %2").replace("%1", f"{r.count:,}").replace("%2", r.head or "")
            self.result.setStyleSheet("color: #2e7d32;")
        else:
            text = self.tr("Chain BROKEN: %1").replace("%1", r.problem or "")
            if r.head:
                text += " " + self.tr("(last good event %1)").replace("%1", r.head)
            self.result.setStyleSheet("color: #c62828; font-weight: bold;")
        self.result.setText(text)
        self.copy_button.setEnabled(bool(r.head))

    def failed(self, exc: BaseException) -> None:
        self.result.setStyleSheet("color: #c62828;")
        self.result.setText(exc.message if isinstance(exc, DomainError) else str(exc) or type(exc).__name__)

    def copy_head(self) -> None:
        if self.head:
            QApplication.clipboard().setText(self.head)

    def filter_dialog(self, title: str, ok_text: str) -> AuditFilterDialog:
        """The report's or export's filter, filled in from the filter bar above the list."""
        types = [self.bar.object_type.itemData(i) for i in range(1, self.bar.object_type.count())]
        return AuditFilterDialog(self.db, title, ok_text, self, start=self.bar.filter(), types=types)

    def ask_report(self) -> None:
        dlg = self.filter_dialog(self.tr("Audit report"), self.tr("Preview"))
        if dlg.exec():
            self.report(dlg.filter())

    def report(self, flt: AuditFilter):
        if not can(self.actor, "print"):
            return None
        from ui.kit.pdfpreview import print_document_preview
        return print_document_preview(self, self.db, self.actor, "audit", flt, language=ui_language(),
                                      title=self.tr("Audit report %1").replace("%1", flt.describe()),
                                      on_ready=lambda d: setattr(self, "preview", d))

    def ask_export(self) -> None:
        dlg = self.filter_dialog(self.tr("Export the audit trail"), self.tr("Export…"))
        if not dlg.exec():
            return
        flt = dlg.filter()
        path, _f = QFileDialog.getSaveFileName(self, self.tr("Export the audit trail"), str(export_path(flt)),
                                               self.tr("CSV (*.csv);;Excel (*.xlsx)"))
        if path:
            from pathlib import Path
            from ui.shell.settings import settings
            settings().set("last_save_dir", str(Path(path).resolve().parent))
            self.export(flt, path)

    def export(self, flt: AuditFilter, path: str):
        from pathlib import Path
        from app.importexport.export import write_audit_export
        db, actor, lang = self.db, self.actor, ui_language()
        fmt = "xlsx" if path.lower().endswith(".xlsx") else "csv"

        def work(progress):
            return write_audit_export(db, actor, flt, Path(path), fmt, language=lang)
        return run_op(self, work, label=self.tr("Exporting…"),
                      on_success=lambda n: self.exported(n, flt, path), on_failure=self.failed)

    def exported(self, n: int, flt: AuditFilter, path: str) -> None:
        from pathlib import Path
        path = str(Path(path).resolve())     # the whole path: where to find the file
        if n == 0:    # an empty file is not a success to report as one
            self.result.setStyleSheet("color: #c62828;")
            self.result.setText(self.tr("No audit event matches %1: %2 holds only the header row.")
                                .replace("%1", flt.describe()).replace("%2", path))
        else:
            self.result.setStyleSheet("color: #2e7d32;")
            self.result.setText(self.tr("%1 audit events (%2) written to %3.").replace("%1", f"{n:,}")
                                .replace("%2", flt.describe()).replace("%3", path))
        window = self.window()
        if hasattr(window, "statusBar"):
            window.statusBar().showMessage(self.result.text(), 15000)


def export_path(flt: AuditFilter):
    """audit-FROM-TO.csv in the folder used last for a document or export (else the home folder),
    never the program's working folder."""
    from pathlib import Path
    from ui.shell.settings import settings
    folder = Path(settings().get("last_save_dir") or Path.home())
    if not folder.is_dir():
        folder = Path.home()
    span = "-".join(d.isoformat() for d in (flt.date_from, flt.date_to) if d)
    return folder / (f"audit-{span}.csv" if span else "audit.csv")
