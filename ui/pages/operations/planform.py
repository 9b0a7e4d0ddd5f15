"""Plan a maintenance window (issue 24): what is worked on (a feed, panel, UPS, PDU, rack, device,
cross-connect or a room's cooling), when (Asia/Shanghai), what the work is, emergency with its
reason, a contact. The service checks and works out who is affected; Enter saves, Esc leaves."""
from __future__ import annotations

import datetime as dt

from PySide6.QtCore import QDateTime, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDateTimeEdit, QDialog, QDialogButtonBox, QFormLayout,
                               QLineEdit, QPlainTextEdit, QVBoxLayout)

from app.domain.clock import TZ
from app.domain.errors import DomainError, ValidationError
from models.choices import MaintenanceTarget

from ui.kit.dialogs import error_label, options_combo, refused_text
from ui.shell.i18n import choice_label
from ui.shell.operations import apply

UTC = dt.timezone.utc


def _when(default: dt.datetime) -> QDateTimeEdit:
    w = QDateTimeEdit(QDateTime(default.date(), default.time()))
    w.setDisplayFormat("yyyy-MM-dd HH:mm")
    w.setCalendarPopup(True)
    return w


class PlanMaintenanceDialog(QDialog):
    planned = Signal(int)

    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.setObjectName("planMaintenanceDialog")
        self.setWindowTitle(self.tr("Plan maintenance"))
        self.kind = QComboBox()
        self.kind.setObjectName("targetKind")
        for v in MaintenanceTarget.values():
            self.kind.addItem(choice_label(MaintenanceTarget, v), v)
        self.target = QComboBox()
        self.target.setObjectName("target")
        self.target.setEditable(True)        # a UPS is named; the others are chosen (type to narrow)
        self.site = options_combo(db, "site", self.tr("(none)"))
        self.site.setObjectName("site")
        start = (dt.datetime.now(TZ) + dt.timedelta(days=4)).replace(hour=2, minute=0, second=0, microsecond=0)
        self.start, self.end = _when(start), _when(start + dt.timedelta(hours=4))
        self.start.setObjectName("plannedStart")
        self.end.setObjectName("plannedEnd")
        self.title = QLineEdit()
        self.title.setObjectName("title")
        self.title.setPlaceholderText(self.tr("e.g. UPS-A battery replacement"))
        self.description = QPlainTextEdit()
        self.description.setObjectName("description")
        self.description.setMaximumHeight(80)
        self.emergency = QCheckBox(self.tr("Emergency (cannot wait for the notice period)"))
        self.emergency.setObjectName("emergency")
        self.reason = QLineEdit()
        self.reason.setObjectName("emergencyReason")
        self.contact = QLineEdit(getattr(actor, "display_name", "") or "")
        self.contact.setObjectName("contact")
        self.error = error_label("formError")
        form = QFormLayout()
        form.addRow(self.tr("Worked on"), self.kind)
        form.addRow(self.tr("Object"), self.target)
        form.addRow(self.tr("Site"), self.site)
        form.addRow(self.tr("Starts"), self.start)
        form.addRow(self.tr("Ends"), self.end)
        form.addRow(self.tr("Work"), self.title)
        form.addRow(self.tr("Description"), self.description)
        form.addRow("", self.emergency)
        form.addRow(self.tr("Why it cannot wait"), self.reason)
        form.addRow(self.tr("Contact"), self.contact)
        buttons = QDialogButtonBox(QDialogButtonBox.Save | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(self.error)
        lay.addWidget(buttons)
        self.kind.currentIndexChanged.connect(self.load_targets)
        self.emergency.toggled.connect(self.reason.setEnabled)
        self.reason.setEnabled(False)
        self.load_targets()

    def load_targets(self) -> None:
        from app.services.operations.targets import maintenance_targets
        kind = self.kind.currentData()
        self.target.clear()
        for value, label in maintenance_targets(self.db, kind):
            self.target.addItem(label, value)
        ups = kind == MaintenanceTarget.UPS
        self.target.lineEdit().setPlaceholderText(self.tr("the UPS's name, e.g. UPS-A") if ups else "")
        self.site.setEnabled(ups)

    def chosen_target(self):
        if self.kind.currentData() == MaintenanceTarget.UPS:
            return self.target.currentText().strip() or None
        i = self.target.findText(self.target.currentText())
        if i < 0:
            raise ValidationError({"target": self.tr("choose what is worked on from the list")})
        return self.target.itemData(i)

    def write(self) -> int:
        from app.services.operations.maintenance import plan_maintenance
        start = self.start.dateTime().toPython().replace(tzinfo=TZ)
        end = self.end.dateTime().toPython().replace(tzinfo=TZ)
        return plan_maintenance(self.db, self.actor, target_kind=self.kind.currentData(), target=self.chosen_target(),
                                planned_start=start, planned_end=end, title=self.title.text(),
                                description=self.description.toPlainText() or None,
                                site_id=self.site.currentData() if self.site.isEnabled() else None,
                                emergency=self.emergency.isChecked(), emergency_reason=self.reason.text() or None,
                                contact=self.contact.text() or None)

    def save(self) -> int | None:
        try:
            wid = apply(self.write)
        except DomainError as exc:
            self.error.setText(refused_text(exc))
            self.error.show()
            return None
        self.planned.emit(wid)
        self.accept()
        return wid
