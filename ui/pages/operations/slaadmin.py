"""SLA targets and calendars, for an administrator (Ctrl+Shift+L on the Operations page): the minutes
to acknowledge, arrive on site and resolve per priority, of a service level (every contract of a region
with that coverage level) or of one contract (overriding its level's); and each calendar's mode,
business hours per weekday and whether it follows China's holidays. The service checks and audits."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QHeaderView, QLabel,
                               QLineEdit, QTableWidget, QTableWidgetItem, QTabWidget, QVBoxLayout, QWidget)

from app.domain.errors import DomainError
from app.services.operations import sla_admin as A
from models.choices import CalendarMode, ServiceLevel

from ui.kit.dialogs import error_label, guard, refused_text
from ui.shell.i18n import choice_label
from ui.shell.operations import apply

COLUMNS = ("calendar_id", "ack_minutes", "onsite_minutes", "resolve_minutes")


class SlaAdminDialog(QDialog):
    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.setObjectName("slaAdminDialog")
        self.setWindowTitle(self.tr("SLA targets and calendars"))
        self.calendars = A.calendars(db)
        self.tabs = QTabWidget()
        self.tabs.addTab(self._targets_tab(), self.tr("Targets"))
        self.tabs.addTab(self._calendar_tab(), self.tr("Calendars"))
        self.error = error_label("slaAdminError")
        self.error.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.Close)
        self.save_button = self.buttons.addButton(self.tr("Save"), QDialogButtonBox.ApplyRole)
        self.save_button.setObjectName("saveSla")
        self.save_button.setShortcut("Ctrl+S")
        guard(self.save_button, actor, "manage_sla")
        self.save_button.clicked.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(self.tabs, 1)
        lay.addWidget(self.error)
        lay.addWidget(self.buttons)
        self.resize(760, 440)
        self.load_targets()
        self.load_calendar()

    # --- targets ---------------------------------------------------------------------------------
    def _targets_tab(self) -> QWidget:
        w = QWidget()
        self.scope = QComboBox()
        self.scope.setObjectName("slaScope")
        for level in ServiceLevel.values():
            self.scope.addItem(self.tr("Service level: %1").replace("%1", choice_label(ServiceLevel, level)),
                               f"level:{level}")
        for cid, number, customer in A.contract_choices(self.db):
            self.scope.addItem(self.tr("Contract %1 (%2)").replace("%1", number).replace("%2", customer),
                               f"contract:{cid}")
        self.scope.currentIndexChanged.connect(self.load_targets)
        self.scope_note = QLabel()
        self.scope_note.setWordWrap(True)
        self.table = QTableWidget(0, 5)
        self.table.setObjectName("slaTargets")
        self.table.setHorizontalHeaderLabels([self.tr("Priority"), self.tr("Calendar"), self.tr("Acknowledge (min)"),
                                              self.tr("On site (min)"), self.tr("Resolve (min)")])
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.Stretch)
        self.table.verticalHeader().hide()
        lay = QVBoxLayout(w)
        lay.addWidget(self.scope)
        lay.addWidget(self.scope_note)
        lay.addWidget(self.table, 1)
        return w

    def chosen_scope(self) -> dict:
        """{"service_level": …} or {"contract_id": …}: what the scope box names."""
        kind, _sep, key = (self.scope.currentData() or "level:" + ServiceLevel.values()[0]).partition(":")
        return {"service_level": key} if kind == "level" else {"contract_id": int(key)}

    def load_targets(self) -> None:
        scope = self.chosen_scope()
        kind = "level" if "service_level" in scope else "contract"
        rows = {t.priority: t for t in A.targets_of(self.db, **scope)}
        self.scope_note.setText(
            self.tr("The default of every contract in a region with this coverage level.") if kind == "level" else
            self.tr("This contract's own targets override its service level's; a priority left empty keeps "
                    "following the level."))
        self.table.setRowCount(0)
        for p in A.PRIORITIES:
            r = self.table.rowCount()
            self.table.insertRow(r)
            item = QTableWidgetItem(p)
            item.setFlags(item.flags() & ~Qt.ItemIsEditable)
            self.table.setItem(r, 0, item)
            cal = QComboBox()
            for c in self.calendars:
                cal.addItem(c.name, c.id)
            t = rows.get(p)
            if t is not None:
                cal.setCurrentIndex(max(0, cal.findData(t.calendar_id)))
            self.table.setCellWidget(r, 1, cal)
            for c, field in enumerate(COLUMNS[1:], start=2):
                value = getattr(t, field) if t is not None else None
                self.table.setItem(r, c, QTableWidgetItem("" if value is None else str(value)))

    def typed_targets(self) -> dict[str, dict]:
        """What the table says, per priority; a row left wholly empty is not sent."""
        out = {}
        for r in range(self.table.rowCount()):
            texts = [(self.table.item(r, c).text().strip() if self.table.item(r, c) else "") for c in (2, 3, 4)]
            if not any(texts):
                continue
            out[self.table.item(r, 0).text()] = {
                "calendar_id": self.table.cellWidget(r, 1).currentData(),
                "ack_minutes": texts[0], "onsite_minutes": texts[1] or None, "resolve_minutes": texts[2]}
        return out

    # --- calendars -------------------------------------------------------------------------------
    def _calendar_tab(self) -> QWidget:
        w = QWidget()
        self.calendar = QComboBox()
        self.calendar.setObjectName("slaCalendar")
        for c in self.calendars:
            self.calendar.addItem(c.name, c.id)
        self.calendar.currentIndexChanged.connect(self.load_calendar)
        self.mode = QComboBox()
        self.mode.setObjectName("slaMode")
        for mode in CalendarMode.values():
            self.mode.addItem(choice_label(CalendarMode, mode), mode)
        self.hours = QLineEdit()
        self.hours.setObjectName("slaHours")
        self.hours.setPlaceholderText("mon 09:00-18:00; tue 09:00-18:00; …")
        self.follows = QCheckBox(self.tr("Follows China's public holidays and make-up working days (调休)"))
        self.follows.setObjectName("slaFollowsHolidays")
        form = QFormLayout(w)
        form.addRow(self.tr("Calendar"), self.calendar)
        form.addRow(self.tr("Mode"), self.mode)
        form.addRow(self.tr("Business hours"), self.hours)
        form.addRow("", self.follows)
        return w

    def load_calendar(self) -> None:
        cid = self.calendar.currentData()
        c = next((c for c in self.calendars if c.id == cid), None)
        if c is None:
            return
        self.mode.setCurrentIndex(max(0, self.mode.findData(c.mode)))
        self.hours.setText(c.hours or "")
        self.follows.setChecked(c.follows_holidays)

    # --- saving ----------------------------------------------------------------------------------
    def save(self) -> bool:
        """The tab in front is saved; a refusal is shown under the tabs and nothing is written."""
        self.error.hide()
        try:
            if self.tabs.currentIndex() == 0:
                scope = self.chosen_scope()
                apply(lambda: A.set_targets(self.db, self.actor, self.typed_targets(), **scope))
                self.load_targets()
            else:
                cid = self.calendar.currentData()
                apply(lambda: A.set_calendar(self.db, self.actor, cid, mode=self.mode.currentData(),
                                                  hours=self.hours.text(), follows_holidays=self.follows.isChecked()))
                self.calendars = A.calendars(self.db)
                self.load_calendar()
        except DomainError as exc:
            self.error.setText(refused_text(exc))
            self.error.show()
            return False
        return True
