"""Small building blocks the contract, billing, audit and rack views share.

Dates as optional QDateEdits, a red error label, a field with its error under it, a combo over
a list of records, a reason dialog (with an optional date),
and the "why not" tooltip for a button a role may not press.
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation

from PySide6.QtCore import QCoreApplication, QDate, Qt
from PySide6.QtWidgets import (QAbstractButton, QComboBox, QDateEdit, QDialog, QDialogButtonBox, QFormLayout,
                               QLabel, QLineEdit, QPlainTextEdit, QVBoxLayout, QWidget)

from app.billing import local_today
from app.errors import DomainError, ValidationError


TR_CONTEXT = "dialogs"
NO_DATE = QDate(1990, 1, 1)


def tr(text: str) -> str:
    return QCoreApplication.translate(TR_CONTEXT, text)


def date_edit(value: dt.date | None = None, *, optional: bool = False, name: str = "") -> QDateEdit:
    w = QDateEdit()
    w.setCalendarPopup(True)
    w.setDisplayFormat("yyyy-MM-dd")
    if name:
        w.setObjectName(name)
    if optional:
        w.setSpecialValueText(" ")
        w.setMinimumDate(NO_DATE)
    set_date(w, value)
    return w


def set_date(w: QDateEdit, value: dt.date | None) -> None:
    if value is None:
        w.setDate(w.minimumDate() if w.specialValueText() else QDate.currentDate())
    else:
        w.setDate(QDate(value.year, value.month, value.day))


def get_date(w: QDateEdit) -> dt.date | None:
    d = w.date()
    if w.specialValueText() and d == w.minimumDate():
        return None
    return dt.date(d.year(), d.month(), d.day())


def parse_decimal(text: str) -> Decimal | None:
    """None for an empty text; raises ValueError for something that is not a number."""
    text = (text or "").strip().replace(",", "").replace("，", "")
    if not text:
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise ValueError(text) from None
    if not value.is_finite():
        raise ValueError(text)
    return value


def field_box(editor: QWidget, error: QLabel) -> QWidget:
    """One form row's field: the editor with its error label under it."""
    box = QWidget()
    v = QVBoxLayout(box)
    v.setContentsMargins(0, 0, 0, 0)
    v.setSpacing(1)
    v.addWidget(editor)
    v.addWidget(error)
    return box


def options_combo(db, kind: str, none_text: str | None = None) -> QComboBox:
    """An editable combo over `queries.options(kind)` (customers, racks, sites, …) that completes
    on any part of a label; `none_text` adds a first "(none)" entry."""
    from app import queries
    w = QComboBox()
    if none_text is not None:
        w.addItem(none_text, None)
    for value, label in queries.options(db, kind):
        w.addItem(label, value)
    w.setEditable(True)
    w.setInsertPolicy(QComboBox.NoInsert)
    if w.completer():
        w.completer().setFilterMode(Qt.MatchContains)
        w.completer().setCompletionMode(w.completer().CompletionMode.PopupCompletion)
    return w


def error_label(name: str = "") -> QLabel:
    lbl = QLabel()
    lbl.setStyleSheet("color: #c62828;")
    lbl.setWordWrap(True)
    if name:
        lbl.setObjectName(name)
    lbl.hide()
    return lbl


def why_not_text(actor, permission: str) -> str | None:
    """app.auth.why_not in the console's language: who may not do what, and which roles may."""
    from app.auth import PERMISSION_LABELS, PERMISSIONS, can
    from models.choices import Role

    from .i18n import choice_label
    if can(actor, permission):
        return None
    roles = ", ".join(choice_label(Role, r) for r in sorted(PERMISSIONS[permission]))
    what = QCoreApplication.translate("permissions", PERMISSION_LABELS.get(permission, permission))
    return (tr("%1 (%2) may not %3; this needs the role: %4").replace("%1", actor.name)
            .replace("%2", choice_label(Role, actor.role)).replace("%3", what).replace("%4", roles))


def refused_text(exc: BaseException) -> str:
    """What a refused or failed operation tells the person: the service's message (each field's, for
    a validation), or that it failed and why. Every panel shows refusals through this."""
    if isinstance(exc, ValidationError) and exc.errors:
        return "; ".join(exc.errors.values())
    if isinstance(exc, DomainError):
        return exc.message
    return tr("The operation failed: %1").replace("%1", str(exc) or type(exc).__name__)


def guard(button: QAbstractButton, actor, permission: str | None, *, allowed: bool = True,
          tooltip: str = "") -> bool:
    """Enable `button` when the role holds `permission` and `allowed`; say why not in the tooltip."""
    reason = why_not_text(actor, permission) if permission else None
    button.setEnabled(reason is None and allowed)
    button.setToolTip(reason or tooltip)
    return reason is None and allowed


class ReasonDialog(QDialog):
    """Ask for a reason (required) and optionally a date, e.g. the last day of service."""

    def __init__(self, title: str, prompt: str, parent=None, *, date_label: str | None = None,
                 date_value: dt.date | None = None, multiline: bool = False, reason_required: bool = True):
        super().__init__(parent)
        self.setObjectName("reasonDialog")
        self.setWindowTitle(title)
        self.required = reason_required
        form = QFormLayout(self)
        info = QLabel(prompt)
        info.setWordWrap(True)
        form.addRow(info)
        self.reason = QPlainTextEdit() if multiline else QLineEdit()
        self.reason.setObjectName("reason")
        if multiline:
            self.reason.setTabChangesFocus(True)
            self.reason.setFixedHeight(70)
        form.addRow(self.tr("Reason *") if reason_required else self.tr("Text"), self.reason)
        self.date = None
        if date_label:
            self.date = date_edit(date_value, name="date")
            form.addRow(date_label, self.date)
        self.error = error_label("reasonError")
        form.addRow(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.button(QDialogButtonBox.Ok).setText(self.tr("OK"))
        buttons.button(QDialogButtonBox.Cancel).setText(self.tr("Cancel"))
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.resize(460, self.sizeHint().height())

    def text(self) -> str:
        w = self.reason
        return (w.toPlainText() if isinstance(w, QPlainTextEdit) else w.text()).strip()

    def _accept(self) -> None:
        if self.required and not self.text():
            self.error.setText(self.tr("Give a reason: it goes into the audit trail."))
            self.error.show()
            return
        self.accept()

    def value(self) -> tuple[str, dt.date | None]:
        return self.text(), (get_date(self.date) if self.date is not None else None)


def first_of_month(day: dt.date) -> dt.date:
    return day.replace(day=1)


def last_month(today: dt.date | None = None) -> str:
    today = today or local_today()
    first = today.replace(day=1) - dt.timedelta(days=1)
    return f"{first.year:04d}-{first.month:02d}"


def placeholder(parent: QWidget, text: str) -> QLabel:
    lbl = QLabel(text, parent)
    lbl.setWordWrap(True)
    lbl.setStyleSheet("color: #757575;")
    return lbl
