"""Audit log: the list, "Verify chain" (with the SEQ:HASH checkpoint to copy), the audit report
PDF with period/actor/action filters, and the audit export (CSV/XLSX) over the same filter."""
from __future__ import annotations


from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QApplication, QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout,
                               QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget)

from app import queries
from app.billing import local_today
from app.audit import Actor, verify_audit_chain
from app.audit_query import AuditFilter
from app.auth import can
from app.db import Database
from app.errors import DomainError

from .dialogs import date_edit, error_label, get_date, guard
from .listview import ListPage
from .operations import run_op


class AuditFilterDialog(QDialog):
    """Period (local dates), actor and action (exact, or a prefix ending in '.')."""

    def __init__(self, db: Database, title: str, ok_text: str, parent=None):
        super().__init__(parent)
        self.setObjectName("auditFilterDialog")
        self.setWindowTitle(title)
        today = local_today()
        form = QFormLayout(self)
        self.date_from = date_edit(today.replace(day=1), name="dateFrom")
        self.date_to = date_edit(today, name="dateTo")
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
        prefixes = sorted({a.split(".")[0] + "." for a in actions if "." in a})
        for a in prefixes + actions:
            self.action.addItem(a, a)
        self.action.setToolTip(self.tr("An action (e.g. contract.approve) or a prefix ending in a dot (e.g. gpu.)"))
        form.addRow(self.tr("Action"), self.action)
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
                           self.action_filter())

    def action_filter(self) -> str | None:
        """The action box's text decides (it is editable: currentData may belong to an entry the
        text no longer shows). A listed entry gives its data, so "(every action)" gives None;
        anything else typed is an action or a prefix, as `--action` on the command line."""
        text = self.action.currentText().strip()
        if not text:
            return None
        i = self.action.findText(text, Qt.MatchFixedString | Qt.MatchCaseSensitive)
        return self.action.itemData(i) if i >= 0 else text


class AuditPage(QWidget):
    def __init__(self, db: Database, actor: Actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.setObjectName("page_audit_view")
        self.list = ListPage(db, actor, "audit", self)
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
        v.addWidget(self.list, 1)
        self.head: str | None = None

    def verify(self):
        db = self.db

        def work(progress):
            progress(self.tr("Verifying the audit chain…"))
            with db.session() as s:
                return verify_audit_chain(s, progress=lambda n: progress(n, 0))
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

    def ask_report(self) -> None:
        dlg = AuditFilterDialog(self.db, self.tr("Audit report"), self.tr("Preview"), self)
        if dlg.exec():
            self.report(dlg.filter())

    def report(self, flt: AuditFilter):
        if not can(self.actor, "print"):
            return None
        from .pdfpreview import print_document_preview
        return print_document_preview(self, self.db, self.actor, "audit", flt,
                                      title=self.tr("Audit report %1").replace("%1", flt.describe()),
                                      on_ready=lambda d: setattr(self, "preview", d))

    def ask_export(self) -> None:
        dlg = AuditFilterDialog(self.db, self.tr("Export the audit trail"), self.tr("Export…"), self)
        if not dlg.exec():
            return
        path, _f = QFileDialog.getSaveFileName(self, self.tr("Export the audit trail"), "audit.csv",
                                               self.tr("CSV (*.csv);;Excel (*.xlsx)"))
        if path:
            self.export(dlg.filter(), path)

    def export(self, flt: AuditFilter, path: str):
        from pathlib import Path
        from app.audit_query import write_audit_export
        db, actor = self.db, self.actor
        fmt = "xlsx" if path.lower().endswith(".xlsx") else "csv"

        def work(progress):
            return write_audit_export(db, actor, flt, Path(path), fmt)
        return run_op(self, work, label=self.tr("Exporting…"), changes={"audit"},
                      on_success=lambda n: self.exported(n, flt, path), on_failure=self.failed)

    def exported(self, n: int, flt: AuditFilter, path: str) -> None:
        if n == 0:    # an empty file is not a success to report as one
            self.result.setStyleSheet("color: #c62828;")
            self.result.setText(self.tr("No audit event matches %1: %2 holds only the header row.")
                                .replace("%1", flt.describe()).replace("%2", path))
        else:
            self.result.setStyleSheet("")
            self.result.setText(self.tr("%1 audit events (%2) written to %3.").replace("%1", f"{n:,}")
                                .replace("%2", flt.describe()).replace("%3", path))
