"""Installation-wide settings kept in the database (app/services/settings), on the users page.

Unlike the console's own settings (ui/dbdialog.py, per machine), these bind every user; only an
administrator changes them, and each change is audited with its reason.
"""
from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QMessageBox

from app.audit import Actor
from app.db import Database
from app.errors import DomainError
from app.services.settings import CONTRACT_FOUR_EYES, change_setting, get_setting

from .dialogs import ReasonDialog, why_not_text


class FourEyesCheck(QCheckBox):
    """'Contracts need a second approver': on by default; a one-person shop turns it off."""

    def __init__(self, db: Database, actor: Actor, parent=None):
        super().__init__(self.tr("Contracts are approved by a second person (four eyes)"), parent)
        self.db, self.actor = db, actor
        self.setObjectName("fourEyesCheck")
        self.load()
        self.toggled.connect(self.change)

    def load(self) -> None:
        self.blockSignals(True)
        self.setChecked(get_setting(self.db, CONTRACT_FOUR_EYES))
        self.blockSignals(False)
        reason = why_not_text(self.actor, "manage_users")
        self.setEnabled(reason is None)
        self.setToolTip(reason or self.tr("Off lets whoever drafted a contract approve it; the change is audited "
                                          "and the contract's approval line says so."))

    def change(self, on: bool) -> None:
        dlg = ReasonDialog(self.text(), self.tr("Why? The change goes into the audit trail."), self,
                           reason_required=False)
        if dlg.exec():
            try:
                change_setting(self.db, self.actor, CONTRACT_FOUR_EYES, on, reason=dlg.value()[0])
            except DomainError as exc:
                QMessageBox.warning(self, self.tr("Refused"), exc.message)
        self.load()
