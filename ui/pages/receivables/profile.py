"""The invoicing-profile tab (开票信息) of the customer form."""
from __future__ import annotations

import logging

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (QFormLayout, QMessageBox, QPushButton, QWidget)

from app.domain.actor import Actor
from app.store.db import Database
from app.domain.errors import DomainError
from models.choices import FapiaoType

from ui.kit.dialogs import error_label, guard, refused_text
from ui.shell.operations import apply
from ui.pages.receivables.widgets import _choice, _edit

log = logging.getLogger(__name__)


class InvoicingProfileTab(QWidget):
    """The customer form's 开票信息 tab: saved by its own button (or with the form's OK)."""

    def __init__(self, db: Database, actor: Actor, customer_id: int, parent=None, read_only: bool = False):
        super().__init__(parent)
        from app.services.receivables.fapiao import get_profile
        self.db, self.actor, self.customer_id = db, actor, customer_id
        f = QFormLayout(self)
        p = get_profile(db, customer_id)
        self.fields = {k: _edit(f"profile_{k}", text=getattr(p, k) if p else "")
                       for k in ("title", "tax_id", "address_phone", "bank_account", "email")}
        self.type = _choice("profile_fapiao_type", FapiaoType)
        if p:
            self.type.setCurrentIndex(max(0, self.type.findData(p.fapiao_type)))
        for key, label in (("title", self.tr("Name on the fapiao")), ("tax_id", self.tr("Taxpayer ID")),
                           ("address_phone", self.tr("Address and phone")),
                           ("bank_account", self.tr("Bank and account"))):
            f.addRow(label, self.fields[key])
        f.addRow(self.tr("Fapiao type"), self.type)
        f.addRow(self.tr("E-mail for delivery"), self.fields["email"])
        self.save_button = QPushButton(self.tr("Save &invoicing profile"))
        self.save_button.setObjectName("saveProfile")
        self.save_button.clicked.connect(self.save)
        guard(self.save_button, actor, "manage_customers", allowed=not read_only)
        f.addRow(self.save_button)
        self.error = error_label("error_profile")
        f.addRow(self.error)
        self.dirty = False
        for w in self.fields.values():
            w.textEdited.connect(self._edited)
            w.setReadOnly(read_only)
        self.type.currentIndexChanged.connect(self._edited)
        self.type.setEnabled(not read_only)

    def _edited(self, *_a) -> None:
        self.dirty = True

    def values(self) -> dict:
        return {**{k: w.text() for k, w in self.fields.items()}, "fapiao_type": self.type.currentData()}

    def save(self) -> bool:
        from app.services.receivables.fapiao import set_profile
        self.error.hide()
        try:
            apply(lambda: set_profile(self.db, self.actor, self.customer_id, **self.values()))
        except DomainError as exc:  # the service's refusal is shown
            self.error.setText(refused_text(exc))
            self.error.show()
            return False
        except Exception as exc:  # any other failure is shown too, and logged with its traceback
            log.exception("a receivables dialog failed")
            self.error.setText(refused_text(exc, logged=True))
            self.error.show()
            return False
        self.dirty = False
        return True


def attach_profile_tab(dialog, read_only: bool = False) -> InvoicingProfileTab | None:
    """Add the invoicing-profile tab to a customer form (an existing customer's); saved with OK too."""
    if getattr(dialog, "id", None) is None:
        return None
    tab = InvoicingProfileTab(dialog.db, dialog.actor, dialog.id, dialog, read_only=read_only)
    dialog.tabs.addTab(tab, QCoreApplication.translate("InvoicingProfileTab", "Invoicing profile"))

    def on_accepted() -> None:
        if tab.dirty and not tab.save():
            QMessageBox.warning(dialog, QCoreApplication.translate("InvoicingProfileTab", "Invoicing profile not saved"),
                                tab.error.text())
    dialog.accepted.connect(on_accepted)
    return tab
