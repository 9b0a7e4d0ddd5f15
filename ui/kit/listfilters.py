"""A list page's filter bar: which column the status filter works on, and the choice column's filter dialog."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QListWidget, QListWidgetItem, QVBoxLayout

from ui.shell.i18n import choice_label


# The column a list's status filter works on (its first choice column of these).
STATUS_KEYS = ("status", "state", "role", "outcome")


class ChoiceFilterDialog(QDialog):
    """Which labels of a choice column to keep (in the reader's language)."""

    def __init__(self, name: str, choices, checked: list[str], parent=None):
        super().__init__(parent)
        self.setObjectName("choiceFilterDialog")
        self.setWindowTitle(self.tr("Filter by %1").replace("%1", name))
        v = QVBoxLayout(self)
        self.list = QListWidget()
        self.list.setObjectName("choiceFilterList")
        for value in choices.values():
            item = QListWidgetItem(choice_label(choices, value))
            item.setData(Qt.UserRole, value)
            item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
            item.setCheckState(Qt.Checked if not checked or value in checked else Qt.Unchecked)
            self.list.addItem(item)
        v.addWidget(self.list)
        bb = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        bb.button(QDialogButtonBox.Ok).setText(self.tr("Filter"))
        bb.button(QDialogButtonBox.Cancel).setText(self.tr("Cancel"))
        bb.accepted.connect(self.accept)
        bb.rejected.connect(self.reject)
        v.addWidget(bb)

    def values(self) -> list[str]:
        return [self.list.item(i).data(Qt.UserRole) for i in range(self.list.count())
                if self.list.item(i).checkState() == Qt.Checked]
