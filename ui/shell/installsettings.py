"""Installation-wide settings kept in the database (app/services/settings, the tax codes of
app/services/fapiao), on the users page.

Unlike the console's own settings (ui/shell/dbdialog.py, per machine), these bind every user; only an
administrator changes them, and each change is audited with its reason.
"""
from __future__ import annotations

from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout,
                               QLabel, QLineEdit, QMessageBox, QPushButton, QTableWidget, QTableWidgetItem,
                               QVBoxLayout)

from app.domain.actor import Actor
from app.store.db import Database
from app.domain.errors import DomainError
from app.services.settings import CONTRACT_FOUR_EYES, change_setting, get_setting

from ui.kit.dialogs import ReasonDialog, refused_text, why_not_text


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
                QMessageBox.warning(self, self.tr("Refused"), refused_text(exc))
        self.load()


class TaxCodesDialog(QDialog):
    """The tax code (税收分类编码) of each kind of line at each VAT rate: what the fapiao export uses.

    Reads and writes through app/services/fapiao (administrators only; every change audited). A
    row is edited by selecting it (or typing a new kind and rate) and saving.
    """

    COLUMNS = ("kind", "rate", "code", "short_name", "item_name", "source")

    def __init__(self, db: Database, actor: Actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.setObjectName("taxCodesDialog")
        self.setWindowTitle(self.tr("Tax codes (税收分类编码)"))
        self.resize(1000, 520)
        v = QVBoxLayout(self)
        v.addWidget(QLabel(self.tr("The fapiao export codes each line by its kind and VAT rate; a discount goes out "
                                   "under the line it reduces. Confirm each code with your tax office.")))
        self.table = QTableWidget(0, len(self.COLUMNS), self)
        self.table.setObjectName("taxCodesTable")
        self.table.setHorizontalHeaderLabels([self.tr("Kind of line"), self.tr("VAT rate"), self.tr("Code"),
                                              self.tr("Short name (简称)"), self.tr("Item name"), self.tr("Source")])
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.itemSelectionChanged.connect(self._pick)
        v.addWidget(self.table, 1)
        form = QFormLayout()
        self.kind = QComboBox(self)
        self.kind.setObjectName("taxKind")
        from models.choices import ItemKind

        from ui.shell.i18n import choice_label
        for k in ItemKind.values():
            if k != ItemKind.DISCOUNT:
                self.kind.addItem(f"{choice_label(ItemKind, k)} ({k})", k)
        self.kind.addItem(self.tr("Metered electricity (electricity)"), "electricity")
        self.rate, self.code, self.short, self.name, self.source = (QLineEdit(self) for _ in range(5))
        self.rate.setPlaceholderText("0.06")
        self.code.setPlaceholderText(self.tr("19 digits"))
        self.code.setObjectName("taxCode")
        for label, w in ((self.tr("Kind of line"), self.kind), (self.tr("VAT rate"), self.rate),
                         (self.tr("Code"), self.code), (self.tr("Short name (简称)"), self.short),
                         (self.tr("Item name"), self.name), (self.tr("Source"), self.source)):
            form.addRow(label, w)
        v.addLayout(form)
        buttons = QDialogButtonBox(QDialogButtonBox.Save | QDialogButtonBox.Close, self)
        self.save_button = buttons.button(QDialogButtonBox.Save)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        reason = why_not_text(actor, "manage_users")
        self.save_button.setEnabled(reason is None)
        self.save_button.setToolTip(reason or "")
        v.addWidget(buttons)
        self.load()

    def load(self) -> None:
        from app.services.receivables.fapiao import list_tax_codes

        self.codes = list_tax_codes(self.db)
        self.table.setRowCount(len(self.codes))
        for i, t in enumerate(self.codes):
            for j, text in enumerate((t.line_kind, t.rate_text, t.code, t.short_name, t.item_name, t.source)):
                self.table.setItem(i, j, QTableWidgetItem(text))
        self.table.resizeColumnsToContents()
        self.table.setColumnWidth(5, 200)

    def _pick(self) -> None:
        rows = {i.row() for i in self.table.selectedItems()}
        if len(rows) != 1:
            return
        t = self.codes[rows.pop()]
        self.kind.setCurrentIndex(max(0, self.kind.findData(t.line_kind)))
        self.rate.setText(f"{t.tax_rate.normalize():f}")
        self.code.setText(t.code)
        self.short.setText(t.short_name)
        self.name.setText(t.item_name)
        self.source.setText(t.source)

    def save(self) -> bool:
        from app.services.receivables.fapiao import set_tax_code

        from ui.shell.operations import apply
        try:
            apply(lambda: set_tax_code(self.db, self.actor, self.kind.currentData(), self.rate.text(),
                                       code=self.code.text(), short_name=self.short.text(),
                                       item_name=self.name.text(), source=self.source.text()))
        except DomainError as exc:
            QMessageBox.warning(self, self.tr("Refused"), refused_text(exc))
            return False
        self.load()
        return True


class TaxCodesButton(QPushButton):
    def __init__(self, db: Database, actor: Actor, parent=None):
        super().__init__(self.tr("Tax codes…"), parent)
        self.db, self.actor = db, actor
        self.setObjectName("taxCodesButton")
        self.clicked.connect(lambda: TaxCodesDialog(self.db, self.actor, self.window()).exec())
