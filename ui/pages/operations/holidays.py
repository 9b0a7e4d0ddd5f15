"""Add a year of China's holidays and make-up working days (调休) to the SLA calendar: an
administrator picks a file in the format of resources/holidays_cn (holiday-cn JSON), sees its days
and adds the year (the service checks the permission and audits each day). Ctrl+Shift+H on the
Operations page opens it."""
from __future__ import annotations

from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFileDialog, QHBoxLayout, QHeaderView, QLabel, QLineEdit,
                               QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout)

from app.domain.errors import DomainError
from app.services.operations.holidays import add_year, read_year

from ui.kit.dialogs import error_label, guard, refused_text
from ui.shell.operations import apply


class HolidayYearDialog(QDialog):
    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        self.db, self.actor, self.year = db, actor, None
        self.setObjectName("holidayYearDialog")
        self.setWindowTitle(self.tr("Add a holiday year"))
        self.path = QLineEdit()
        self.path.setObjectName("holidayFile")
        self.path.setPlaceholderText(self.tr("a holiday-cn JSON file, e.g. 2028.json"))
        self.path.editingFinished.connect(self.load)
        browse = QPushButton(self.tr("Choose…"))
        browse.clicked.connect(self.browse)
        self.summary = QLabel()
        self.summary.setObjectName("holidaySummary")
        self.summary.setWordWrap(True)
        self.table = QTableWidget(0, 3)
        self.table.setObjectName("holidayDays")
        self.table.setHorizontalHeaderLabels([self.tr("Date"), self.tr("Day"), self.tr("Holiday")])
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.Stretch)
        self.table.setEditTriggers(QTableWidget.NoEditTriggers)
        self.error = error_label("holidayError")
        self.buttons = QDialogButtonBox(QDialogButtonBox.Cancel)
        self.add = self.buttons.addButton(self.tr("Add the year"), QDialogButtonBox.AcceptRole)
        self.add.setObjectName("addHolidayYear")
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(self.path, 1)
        row.addWidget(browse)
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel(self.tr("Public holidays and make-up working days as the State Council publishes "
                                     "them (the format of resources/holidays_cn). A day already on record "
                                     "is updated.")))
        lay.addLayout(row)
        lay.addWidget(self.summary)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.error)
        lay.addWidget(self.buttons)
        self.resize(640, 560)
        self.allowed = guard(self.add, actor, "manage_sla", allowed=False)  # enabled once a year is read

    def browse(self) -> None:
        path, _f = QFileDialog.getOpenFileName(self, self.tr("Holiday year"), "", self.tr("JSON (*.json)"))
        if path:
            self.path.setText(path)
            self.load()

    def load(self) -> bool:
        self.error.hide()
        self.year = None
        self.table.setRowCount(0)
        try:
            self.year = read_year(self.path.text().strip())
        except DomainError as exc:
            self.error.setText(refused_text(exc))
            self.error.show()
            self.summary.clear()
            guard(self.add, self.actor, "manage_sla", allowed=False)
            return False
        off = sum(1 for _d, o, _n in self.year.days if o)
        self.summary.setText(self.tr("%1: %2 days off, %3 make-up working days; source %4").replace(
            "%1", str(self.year.year)).replace("%2", str(off)).replace("%3", str(len(self.year.days) - off))
            .replace("%4", self.year.source or self.tr("(none)")))
        for day, is_off, name in self.year.days:
            r = self.table.rowCount()
            self.table.insertRow(r)
            for c, text in enumerate((day.isoformat(), self.tr("Day off") if is_off else self.tr("Working day (调休)"),
                                      name)):
                self.table.setItem(r, c, QTableWidgetItem(text))
        guard(self.add, self.actor, "manage_sla", allowed=True)
        return True

    def save(self) -> dict | None:
        if self.year is None and not self.load():
            return None
        try:
            counts = apply(lambda: add_year(self.db, self.actor, self.year))
        except DomainError as exc:
            self.error.setText(refused_text(exc))
            self.error.show()
            return None
        self.accept()
        return counts
