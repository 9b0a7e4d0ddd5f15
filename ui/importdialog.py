"""Import: choose a file, see every row with the bad ones marked, then import (all or nothing)."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFileDialog, QHBoxLayout, QLabel, QLineEdit,
                               QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout)

from app.audit import Actor
from app.db import Database

from .operations import run_op

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
        except Exception as exc:  # noqa: BLE001 - unreadable file, wrong columns: say so
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
            self.import_button.setEnabled(False)
            if isinstance(exc, ImportFailed):
                self.summary.setText(self.tr("Nothing was imported: %1 bad row(s). Preview again to see them.")
                                     .replace("%1", str(len(exc.row_errors))))
            else:
                self.summary.setText(getattr(exc, "message", str(exc)))
        self.op = run_op(self, lambda progress: run_import(db, actor, kind, path, progress=progress),
                         on_failure=failed,
                         label=self.tr("Importing…"), changes={"*"}, on_success=done)
