"""Small building blocks the contract, billing, audit and rack views share.

Dates (required: QDateEdit; optional: typed or picked, checked as typed), a red error label, a field with its error under it, a combo over
a list of records, a reason dialog (with an optional date),
and the "why not" tooltip for a button a role may not press.
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation

import logging
import re

from PySide6.QtCore import QCoreApplication, QDate, Qt, Signal
from PySide6.QtWidgets import (QAbstractButton, QCalendarWidget, QComboBox, QDateEdit, QDialog, QDialogButtonBox,
                               QFormLayout, QHBoxLayout, QLabel, QLineEdit, QMenu, QPlainTextEdit, QToolButton,
                               QVBoxLayout, QWidget, QWidgetAction)

from app.domain.rating import local_today
from app.domain.errors import DomainError, ValidationError
from app.domain.messages import message_of
from ui.shell.messages import translate_message

log = logging.getLogger(__name__)


TR_CONTEXT = "dialogs"


def tr(text: str) -> str:
    return QCoreApplication.translate(TR_CONTEXT, text)


DATE_TEXT = re.compile(r"\s*(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?\s*")
FIRST_YEAR, LAST_YEAR = 1900, 2999


def parse_typed_date(text: str) -> dt.date | None:
    """A typed date: 2026-03-05 (also 2026/3/5, 2026.3.5, 2026年3月5日); None for an empty text;
    ValueError (with the reason to show) for anything else, e.g. 2026-02-30 or 2026-01-01garbage."""
    if not (text or "").strip():
        return None
    m = DATE_TEXT.fullmatch(text)
    if not m:
        raise ValueError(tr("not a date: type it as YYYY-MM-DD"))
    try:
        day = dt.date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        raise ValueError(tr("no such day: %1").replace("%1", text.strip())) from None
    if not FIRST_YEAR <= day.year <= LAST_YEAR:
        raise ValueError(tr("a year from %1 to %2").replace("%1", str(FIRST_YEAR)).replace("%2", str(LAST_YEAR)))
    return day


class OptionalDateEdit(QWidget):
    """A date that may be empty: typed (YYYY-MM-DD, checked as it is typed, the reason beside the
    field) or picked from a calendar. The calendar opens at the date shown, else at `default`
    (a date, or a callable giving one, e.g. the contract's start), else today in Asia/Shanghai."""

    dateChanged = Signal(object)     # the new date or None; not while the text is not a date

    def __init__(self, value: dt.date | None = None, *, default=None, parent: QWidget | None = None):
        super().__init__(parent)
        self.default = default
        self._value: dt.date | None = None
        self._problem = ""
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(4)
        self.edit = QLineEdit()
        self.edit.setObjectName("dateText")
        self.edit.setPlaceholderText(tr("YYYY-MM-DD (empty: none)"))
        self.edit.setClearButtonEnabled(True)
        self.edit.setMinimumWidth(self.whole_date_width())
        self.edit.setMaximumWidth(max(170, self.whole_date_width()))
        self.button = QToolButton()
        self.button.setObjectName("dateCalendar")
        self.button.setText("▾")
        self.button.setToolTip(tr("Choose from the calendar"))
        self.button.clicked.connect(self.open_calendar)
        self.error = error_label("dateError")
        self.error.setWordWrap(False)
        row.addWidget(self.edit)
        row.addWidget(self.button)
        row.addWidget(self.error)
        row.addStretch(1)
        self.edit.textChanged.connect(self._typed)
        self.edit.editingFinished.connect(self._tidy)
        self.menu: QMenu | None = None
        self.calendar: QCalendarWidget | None = None
        self.set_date(value)

    def whole_date_width(self) -> int:
        """Room for a whole date beside the clear button: narrower, the line edit scrolls to its
        cursor and shows "26-11-25" for 2026-11-25."""
        fm = self.edit.fontMetrics()
        return fm.horizontalAdvance("0000-00-00") + fm.height() + 22   # text, clear button, frame and margins

    # --- value ----------------------------------------------------------------------
    def date_value(self) -> dt.date | None:
        """The date (None when empty, or while the text is not a date: see is_valid())."""
        return self._value if not self._problem else None

    def is_valid(self) -> bool:
        return not self._problem

    def problem(self) -> str:
        return self._problem

    def set_date(self, value: dt.date | None) -> None:
        self.edit.setText(value.isoformat() if value else "")
        self.edit.setCursorPosition(0)     # read from its start (the year), not scrolled to the end

    def show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(bool(text))

    def _typed(self, text: str) -> None:
        try:
            value = parse_typed_date(text)
        except ValueError as exc:
            self._problem = str(exc)
            self.show_error(self._problem)
            return
        self._problem = ""
        self.show_error("")
        if value != self._value:
            self._value = value
            self.dateChanged.emit(value)

    def _tidy(self) -> None:
        if self.is_valid() and self._value and self.edit.text() != self._value.isoformat():
            self.edit.setText(self._value.isoformat())     # 2026/3/5 reads back as 2026-03-05

    # --- calendar -------------------------------------------------------------------
    def opening_date(self) -> dt.date:
        if self.date_value():
            return self.date_value()
        d = self.default() if callable(self.default) else self.default
        return d or local_today()

    def open_calendar(self) -> QCalendarWidget:
        if self.menu is None:
            self.menu = QMenu(self)
            self.calendar = QCalendarWidget()
            self.calendar.setObjectName("datePicker")
            self.calendar.setGridVisible(True)
            self.calendar.setMinimumDate(QDate(FIRST_YEAR, 1, 1))
            self.calendar.setMaximumDate(QDate(LAST_YEAR, 12, 31))
            self.calendar.clicked.connect(self._picked)
            self.calendar.activated.connect(self._picked)
            action = QWidgetAction(self.menu)
            action.setDefaultWidget(self.calendar)
            self.menu.addAction(action)
        d = self.opening_date()
        self.calendar.setSelectedDate(QDate(d.year, d.month, d.day))
        self.calendar.setCurrentPage(d.year, d.month)
        self.menu.popup(self.edit.mapToGlobal(self.edit.rect().bottomLeft()))
        return self.calendar

    def _picked(self, qd: QDate) -> None:
        self.set_date(dt.date(qd.year(), qd.month(), qd.day()))
        if self.menu is not None:
            self.menu.close()
        self.edit.setFocus()


def date_edit(value: dt.date | None = None, *, optional: bool = False, name: str = "", default=None):
    """A required date (QDateEdit, today in Asia/Shanghai when no value) or, with `optional`, an
    OptionalDateEdit whose calendar opens at `default` (a date or a callable) while it is empty."""
    if optional:
        w = OptionalDateEdit(value, default=default)
        if name:
            w.setObjectName(name)
        return w
    w = QDateEdit()
    w.setCalendarPopup(True)
    w.setDisplayFormat("yyyy-MM-dd")
    w.setMinimumDate(QDate(FIRST_YEAR, 1, 1))
    w.setMaximumDate(QDate(LAST_YEAR, 12, 31))
    if name:
        w.setObjectName(name)
    set_date(w, value)
    return w


def set_date(w, value: dt.date | None) -> None:
    if isinstance(w, OptionalDateEdit):
        w.set_date(value)
        return
    if value is None:
        value = local_today()
    w.setDate(QDate(value.year, value.month, value.day))


def get_date(w) -> dt.date | None:
    """The date of a date_edit(); None for an empty optional one. Text that is not a date raises
    ValidationError keyed by the field (its object name without "edit_"), never passes as empty."""
    if isinstance(w, OptionalDateEdit):
        if not w.is_valid():
            from app.domain.errors import ValidationError
            raise ValidationError({re.sub(r"^(edit|item)_", "", w.objectName()) or "date": w.problem()})
        return w.date_value()
    d = w.date()
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
    from app.read import queries
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
    """app.domain.auth.why_not in the console's language: who may not do what, and which roles may."""
    from app.domain.auth import PERMISSION_LABELS, PERMISSIONS, can
    from models.choices import Role

    from ui.shell.i18n import choice_label
    if can(actor, permission):
        return None
    roles = ", ".join(choice_label(Role, r) for r in sorted(PERMISSIONS[permission]))
    what = QCoreApplication.translate("permissions", PERMISSION_LABELS.get(permission, permission))
    return (tr("%1 (%2) may not %3; this needs the role: %4").replace("%1", actor.name)
            .replace("%2", choice_label(Role, actor.role)).replace("%3", what).replace("%4", roles))


def log_failure(exc: BaseException) -> None:
    """The log's line of a refusal or failure a person is shown: a refusal (a DomainError) as one line
    with each field's message, any other failure with its traceback. refused_text() calls it; a screen
    that shows a refusal its own way (the errors beside the fields, a Conflict's reload question)
    calls it itself."""
    if isinstance(exc, DomainError):
        errors = getattr(exc, "errors", None)
        log.info("refused: %s%s", exc.message, f" {errors}" if errors else "")
    else:
        log.error("operation failed", exc_info=exc)


def refused_text(exc: BaseException, *, logged: bool = False, sep: str = "; ") -> str:
    """What a refused or failed operation tells the person: the service's message (each field's, for
    a validation), or that it failed and why. Every panel shows refusals through this, so it also
    logs them (log_failure) unless the caller has `logged` it already."""
    if not logged:
        log_failure(exc)
    if isinstance(exc, ValidationError) and exc.errors:
        return sep.join(translate_message(m) for m in exc.errors.values())
    if isinstance(exc, DomainError):
        return translate_message(exc.message)
    return tr("The operation failed: %1").replace("%1", translate_message(message_of(exc)) or type(exc).__name__)


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

def last_month(today: dt.date | None = None) -> str:
    from app.domain.rating import Period

    return Period.last_month(today).label


def placeholder(parent: QWidget, text: str) -> QLabel:
    lbl = QLabel(text, parent)
    lbl.setWordWrap(True)
    lbl.setStyleSheet("color: #757575;")
    return lbl
