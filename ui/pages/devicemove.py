"""Confirm a device move dragged in the elevation, with a reason for the audit trail."""
from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit

from app.read.viewdata import ElevationDevice
from models.choices import Face

from ui.shell.i18n import choice_label
from ui.widgets import fmt_units


class MoveDeviceDialog(QDialog):
    def __init__(self, device: ElevationDevice, rack_name: str, position, face: str, parent=None):
        super().__init__(parent)
        self.setObjectName("moveDeviceDialog")
        self.setWindowTitle(self.tr("Move %1").replace("%1", device.name))
        layout = QFormLayout(self)
        where = (lambda pos, f: f"U{fmt_units(pos)} ({choice_label(Face, f)})")
        text = (self.tr("Move %1 in rack %2 from %3 to %4?").replace("%1", device.name).replace("%2", rack_name)
                .replace("%3", where(device.position, device.face or Face.FRONT)).replace("%4", where(position, face)))
        info = QLabel(text)
        info.setWordWrap(True)
        layout.addRow(info)
        self.reason = QLineEdit()
        self.reason.setObjectName("reason")
        self.reason.setPlaceholderText(self.tr("goes into the audit trail"))
        layout.addRow(self.tr("Reason *"), self.reason)
        self.error = QLabel()
        self.error.setObjectName("error")
        self.error.setStyleSheet("color: #c62828;")
        self.error.hide()
        layout.addRow(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.button(QDialogButtonBox.Ok).setText(self.tr("Move"))
        buttons.button(QDialogButtonBox.Cancel).setText(self.tr("Cancel"))
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        layout.addRow(buttons)
        self.setMinimumWidth(460)

    def _accept(self) -> None:
        if not self.reason.text().strip():
            self.error.setText(self.tr("Give a reason: it goes into the device's history and the audit trail."))
            self.error.show()
            return
        self.accept()

    def value(self) -> str:
        return self.reason.text().strip()


def ask_move_reason(parent, device: ElevationDevice, rack_name: str, position, face: str) -> str | None:
    """The reason the user gave, or None when they cancelled."""
    dlg = MoveDeviceDialog(device, rack_name, position, face, parent)
    try:
        return dlg.value() if dlg.exec() else None
    finally:
        dlg.deleteLater()
