"""The signed-in user's own account: change one's password (app.services.users.change_own_password)."""
from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit

from app.domain.actor import Actor
from app.store.db import Database
from app.domain.errors import DomainError, ValidationError

from ui.kit.dialogs import error_label, field_box, log_failure
from ui.shell.messages import translate_message


class ChangePasswordDialog(QDialog):
    def __init__(self, db: Database, actor: Actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.setObjectName("changePasswordDialog")
        self.setWindowTitle(self.tr("Change my password"))
        form = QFormLayout(self)
        form.addRow(QLabel(self.tr("User: %1 (%2)").replace("%1", actor.name).replace("%2", actor.login)))
        self.edits: dict[str, QLineEdit] = {}
        self.errors: dict[str, QLabel] = {}
        for key, label in (("current", self.tr("Current password")), ("new", self.tr("New password")),
                           ("again", self.tr("New password again"))):
            edit = QLineEdit()
            edit.setObjectName(f"password_{key}")
            edit.setEchoMode(QLineEdit.Password)
            err = error_label(f"error_{key}")
            edit.textChanged.connect(err.hide)
            form.addRow(label, field_box(edit, err))
            self.edits[key], self.errors[key] = edit, err
        self.message = error_label("passwordMessage")
        form.addRow(self.message)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.button(QDialogButtonBox.Ok).setText(self.tr("Change password"))
        buttons.button(QDialogButtonBox.Cancel).setText(self.tr("Cancel"))
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.resize(420, self.sizeHint().height())

    def show_errors(self, errors: dict[str, str]) -> None:
        for key, msg in errors.items():
            lbl = self.errors.get(key, self.message)
            lbl.setText(translate_message(msg))
            lbl.show()

    def save(self) -> None:
        from app.services.users import change_own_password
        for lbl in list(self.errors.values()) + [self.message]:
            lbl.hide()
        current, new, again = (self.edits[k].text() for k in ("current", "new", "again"))
        if new != again:
            self.show_errors({"again": self.tr("the two new passwords differ")})
            return
        try:
            change_own_password(self.db, self.actor, current, new)
        except ValidationError as exc:
            log_failure(exc)
            self.show_errors(exc.errors)
            return
        except DomainError as exc:
            log_failure(exc)
            self.show_errors({"": exc.message})
            return
        self.accept()
