"""Import: choose a file, see every row with the bad ones marked, then import (all or nothing).

Device types (NetBox YAML, a file or a folder) have their own dialog below: every valid file
is imported and the refused ones are listed.
"""
from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (QCheckBox, QDialog, QDialogButtonBox, QFileDialog, QHBoxLayout, QLabel, QLineEdit,
                               QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout)

from app.domain.actor import Actor
from app.store.db import Database

from ui.shell.operations import run_op

log = logging.getLogger(__name__)

BAD = QColor("#ffcdd2")


def normalise_preview(preview) -> tuple[list[str], list[list], dict[int, str]]:
    """(headers, rows, {row index: problems}) from app.importexport.ImportPreview.

    Errors name the file line; rows that could not be read at all get a row of their own.
    """
    headers = list(preview.columns)
    by_line: dict[int, int] = {}
    table = []
    for r in preview.rows:
        by_line[r.line] = len(table)
        table.append([r.values.get(h) for h in headers])
    problems: dict[int, str] = {}
    for e in preview.errors:
        idx = by_line.get(e.line)
        if idx is None:
            idx = len(table)
            by_line[e.line] = idx
            table.append([""] * len(headers))
        text = f"{e.column}: {e.reason}" if e.column else e.reason
        text = f"{QCoreApplication.translate('import', 'line %1').replace('%1', str(e.line))}: {text}"
        problems[idx] = (problems[idx] + "; " + text) if idx in problems else text
    return headers, table, problems


class ImportDialog(QDialog):
    def __init__(self, db: Database, actor: Actor, kind: str, parent=None):
        super().__init__(parent)
        self.db, self.actor, self.kind = db, actor, kind
        self.setObjectName("importDialog")
        self.setWindowTitle(self.tr("Import %1").replace("%1", kind))
        self.path = QLineEdit()
        self.path.setObjectName("importPath")
        browse = QPushButton(self.tr("Choose file…"))
        browse.clicked.connect(self.choose)
        preview = QPushButton(self.tr("Preview"))
        preview.setObjectName("previewButton")
        preview.clicked.connect(self.preview)
        row = QHBoxLayout()
        row.addWidget(self.path, 1)
        row.addWidget(browse)
        row.addWidget(preview)
        self.table = QTableWidget()
        self.table.setObjectName("previewTable")
        self.table.setEditTriggers(QTableWidget.NoEditTriggers)
        self.summary = QLabel()
        self.summary.setObjectName("importSummary")
        self.summary.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Close)
        self.import_button = self.buttons.button(QDialogButtonBox.Ok)
        self.import_button.setText(self.tr("Import"))
        self.import_button.setEnabled(False)
        self.buttons.button(QDialogButtonBox.Close).setText(self.tr("Close"))
        self.buttons.accepted.connect(self.run_import)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.summary)
        layout.addWidget(self.buttons)
        self.problems: dict[int, str] = {}
        self.rows: list = []
        self.resize(900, 560)

    def choose(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Import file"), "",
                                              self.tr("Tables (*.csv *.xlsx);;All (*)"))
        if path:
            self.path.setText(path)
            self.preview()

    def preview(self) -> None:
        from app.importexport import preview_import
        path = Path(self.path.text().strip())
        self.import_button.setEnabled(False)
        try:
            result = preview_import(self.db, self.kind, path)
        except Exception as exc:  # unreadable file, wrong columns: say so
            log.info("the import preview of %s failed", path, exc_info=True)
            self.summary.setText(self.tr("Cannot read the file: %1").replace("%1", getattr(exc, "message", str(exc))))
            self.table.setRowCount(0)
            return
        headers, rows, problems = normalise_preview(result)
        self.rows, self.problems = rows, problems
        self.table.clear()
        self.table.setColumnCount(len(headers) + 1)
        self.table.setHorizontalHeaderLabels([self.tr("Problem")] + [str(h) for h in headers])
        self.table.setRowCount(len(rows))
        for r, values in enumerate(rows):
            problem = problems.get(r, "")
            cells = [problem] + ["" if v is None else str(v) for v in values]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if problem:
                    item.setBackground(QBrush(BAD))
                    item.setToolTip(problem)
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        bad = len(problems)
        if bad:
            self.summary.setText(self.tr("%1 rows, %2 with problems (marked red). Fix the file and preview again; "
                                         "nothing is imported while a row is bad.")
                                 .replace("%1", str(len(rows))).replace("%2", str(bad)))
        else:
            self.summary.setText(self.tr("%1 rows, all good. Press Import to write them.").replace("%1", str(len(rows))))
        self.import_button.setEnabled(bad == 0 and len(rows) > 0)

    def run_import(self) -> None:
        from app.importexport import run_import
        db, actor, kind, path = self.db, self.actor, self.kind, Path(self.path.text().strip())
        self.import_button.setEnabled(False)

        def done(result):
            self.import_result = result
            self.summary.setText(self.tr("Imported."))
            self.accept()
        def failed(exc):
            from app.importexport import ImportFailed
            from ui.shell.operations import Cancelled
            self.import_button.setEnabled(False)
            if isinstance(exc, Cancelled):  # the import's transaction was rolled back: nothing half-done
                self.summary.setText(self.tr("Import cancelled; nothing was imported."))
                self.import_button.setEnabled(True)
            elif isinstance(exc, ImportFailed):
                self.summary.setText(self.tr("Nothing was imported: %1 bad row(s). Preview again to see them.")
                                     .replace("%1", str(len(exc.row_errors))))
            else:
                self.summary.setText(getattr(exc, "message", str(exc)))
        self.op = run_op(self, lambda progress: run_import(db, actor, kind, path, progress=progress),
                         on_failure=failed,
                         label=self.tr("Importing…"), changes={"*"}, on_success=done)


WARN = QColor("#fff3c4")


class DeviceTypeImportDialog(QDialog):
    """Device types from NetBox's devicetype-library: a YAML file or a whole folder of them.

    Preview is a dry run in the background (a folder of 4,449 files takes seconds): the table
    lists only the files that need a look, refused (red) or flagged for power (amber). Import
    takes every valid file and lists the refused ones; "all or nothing" refuses everything
    if one file is refused.
    """

    def __init__(self, db: Database, actor: Actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.setObjectName("deviceTypeImportDialog")
        self.setWindowTitle(self.tr("Import device types"))
        self.path = QLineEdit()
        self.path.setObjectName("importPath")
        self.path.setPlaceholderText(self.tr("A .yaml/.yml file, or a folder such as devicetype-library/device-types"))
        choose_file = QPushButton(self.tr("Choose file…"))
        choose_file.clicked.connect(self.choose_file)
        choose_folder = QPushButton(self.tr("Choose folder…"))
        choose_folder.clicked.connect(self.choose_folder)
        self.preview_button = QPushButton(self.tr("Preview"))
        self.preview_button.setObjectName("previewButton")
        self.preview_button.clicked.connect(self.preview)
        row = QHBoxLayout()
        row.addWidget(self.path, 1)
        row.addWidget(choose_file)
        row.addWidget(choose_folder)
        row.addWidget(self.preview_button)
        self.strict = QCheckBox(self.tr("All or nothing: import nothing if any file is refused"))
        self.strict.setObjectName("strictImport")
        self.table = QTableWidget()
        self.table.setObjectName("previewTable")
        self.table.setEditTriggers(QTableWidget.NoEditTriggers)
        self.summary = QLabel()
        self.summary.setObjectName("importSummary")
        self.summary.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Close)
        self.import_button = self.buttons.button(QDialogButtonBox.Ok)
        self.import_button.setText(self.tr("Import"))
        self.import_button.setEnabled(False)
        self.buttons.button(QDialogButtonBox.Close).setText(self.tr("Close"))
        self.buttons.accepted.connect(self.run_import)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.strict)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.summary)
        layout.addWidget(self.buttons)
        self.op = None
        self.result_ = None
        self.path.textChanged.connect(lambda _t: self.import_button.setEnabled(False))
        self.resize(960, 560)

    def choose_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Device type file"), "",
                                              self.tr("Device types (*.yaml *.yml);;All (*)"))
        if path:
            self.path.setText(path)
            self.preview()

    def choose_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, self.tr("Folder of device types"))
        if path:
            self.path.setText(path)
            self.preview()

    def _start(self, dry_run: bool, label: str) -> None:
        from app.importexport.devicetypes import import_device_types
        db, actor, path, strict = self.db, self.actor, Path(self.path.text().strip()), self.strict.isChecked()
        self.import_button.setEnabled(False)
        self.preview_button.setEnabled(False)

        def work(progress):
            return import_device_types(db, actor, path, dry_run=dry_run, strict=strict and not dry_run,
                                       progress=progress)
        self.op = run_op(self, work, label=label, on_success=lambda r: self.show_result(r, dry_run),
                         on_failure=self.show_failure, changes=None if dry_run else {"device_type", "device"})

    def preview(self) -> None:
        self._start(True, self.tr("Checking device types…"))

    def run_import(self) -> None:
        self._start(False, self.tr("Importing device types…"))

    def show_failure(self, exc: BaseException) -> None:
        from app.importexport import ImportFailed
        from ui.shell.operations import Cancelled
        self.preview_button.setEnabled(True)
        if isinstance(exc, Cancelled):
            self.summary.setText(self.tr("Cancelled; nothing was imported."))
        elif isinstance(exc, ImportFailed):
            self.fill(exc.row_errors, [])
            self.summary.setText(self.tr("Nothing was imported: %1 file(s) refused (listed above).")
                                 .replace("%1", str(len({e.file for e in exc.row_errors}))))
        else:
            self.summary.setText(getattr(exc, "message", str(exc)))

    def fill(self, refused, notes) -> None:
        """One row per refused reason (red) and per file flagged for power (amber)."""
        rows = [(e.file or "", self.tr("refused"), (f"line {e.line}, {e.column}: " if e.column else "") + e.reason, BAD)
                for e in refused]
        for note in notes:
            where, _sep, why = note.partition(": ")
            rows.append((where, self.tr("power to check"), why, WARN))
        self.table.clear()
        self.table.setColumnCount(3)
        self.table.setHorizontalHeaderLabels([self.tr("File"), self.tr("Status"), self.tr("Reason")])
        self.table.setRowCount(len(rows))
        for r, (file, status, reason, colour) in enumerate(rows):
            for c, text in enumerate((file, status, reason)):
                item = QTableWidgetItem(text)
                item.setBackground(QBrush(colour))
                item.setToolTip(reason)
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()

    def show_result(self, result, dry_run: bool) -> None:
        self.result_ = result
        self.preview_button.setEnabled(True)
        self.fill(result.refused, result.notes)
        good = result.rows - result.refused_files
        counts = (self.tr("%1 new, %2 updated, %3 unchanged").replace("%1", str(result.created))
                  .replace("%2", str(result.updated)).replace("%3", str(result.unchanged)))
        if dry_run:
            text = (self.tr("%1 file(s): %2 can be imported (%3), %4 refused, %5 with power to check.")
                    .replace("%1", str(result.rows)).replace("%2", str(good)).replace("%3", counts)
                    .replace("%4", str(result.refused_files)).replace("%5", str(len(result.notes))))
            self.summary.setText(text)
            self.import_button.setEnabled(good > 0 and not (self.strict.isChecked() and result.refused))
            return
        self.import_result = result
        self.summary.setText(self.tr("Imported %1 of %2 file(s) (%3); %4 refused, listed above.")
                             .replace("%1", str(good)).replace("%2", str(result.rows)).replace("%3", counts)
                             .replace("%4", str(result.refused_files)))
        if not result.refused:
            self.accept()
