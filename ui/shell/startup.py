"""First run (create the admin, offer the demo data) and the login dialog."""
from __future__ import annotations

import logging

from PySide6.QtWidgets import (QCheckBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit,
                               QVBoxLayout, QWizard, QWizardPage)

from app.domain.actor import Actor
from app.store.db import Database
from app.domain.errors import DomainError, ValidationError

from ui.shell.settings import settings
from ui.kit.dialogs import refused_text

log = logging.getLogger(__name__)


def demo_available() -> bool:
    try:
        from app.demo import load as demo  # noqa: F401
        return hasattr(demo, "load_demo")
    except ImportError:  # a build without the demo module
        log.info("the demo data is not part of this build", exc_info=True)
        return False


class FirstRunWizard(QWizard):
    """An empty database: create the administrator, then optionally load the demo data."""

    def __init__(self, db: Database, parent=None):
        super().__init__(parent)
        self.db = db
        self.setObjectName("firstRunWizard")
        self.setWindowTitle(self.tr("Welcome to the IDC console"))
        self.actor: Actor | None = None
        self.load_demo_requested = False
        page = QWizardPage()
        page.setTitle(self.tr("Create the administrator"))
        page.setSubTitle(self.tr("This database has no users yet. The first user is the administrator."))
        form = QFormLayout(page)
        self.login = QLineEdit("admin")
        self.login.setObjectName("adminLogin")
        self.name = QLineEdit()
        self.name.setObjectName("adminName")
        self.password = QLineEdit()
        self.password.setObjectName("adminPassword")
        self.password.setEchoMode(QLineEdit.Password)
        self.password2 = QLineEdit()
        self.password2.setObjectName("adminPassword2")
        self.password2.setEchoMode(QLineEdit.Password)
        form.addRow(self.tr("Login"), self.login)
        form.addRow(self.tr("Display name"), self.name)
        form.addRow(self.tr("Password (8+ characters)"), self.password)
        form.addRow(self.tr("Repeat password"), self.password2)
        self.demo = QCheckBox(self.tr("Load the demo data (sites, racks, GPUs, customers, contracts)"))
        self.demo.setObjectName("loadDemo")
        self.demo.setEnabled(demo_available())
        self.demo.setChecked(demo_available())
        form.addRow(self.demo)
        self.error = QLabel()
        self.error.setObjectName("wizardError")
        self.error.setStyleSheet("color: #c62828;")
        self.error.setWordWrap(True)
        form.addRow(self.error)
        page.validatePage = self._create
        self.addPage(page)
        self.setOption(QWizard.NoBackButtonOnStartPage)
        self.setButtonText(QWizard.FinishButton, self.tr("Create"))
        self.setButtonText(QWizard.CancelButton, self.tr("Cancel"))

    def _create(self) -> bool:
        from app.services.users import add_user, login
        if self.password.text() != self.password2.text():
            self.error.setText(self.tr("The two passwords differ."))
            return False
        try:
            add_user(self.db, None, self.login.text().strip(), "admin", self.password.text(),
                     self.name.text().strip() or None)
            self.actor = login(self.db, self.login.text().strip(), self.password.text())
        except ValidationError as exc:
            self.error.setText(refused_text(exc, sep="\n"))
            return False
        except DomainError as exc:
            self.error.setText(refused_text(exc))
            return False
        self.load_demo_requested = self.demo.isChecked()
        settings().set("last_login", self.actor.login)
        return True


class LoginDialog(QDialog):
    def __init__(self, db: Database, parent=None):
        super().__init__(parent)
        from app.store.config import describe_url
        self.db = db
        self.actor: Actor | None = None
        self.setObjectName("loginDialog")
        self.setWindowTitle(self.tr("Log in"))
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(self.tr("Database: %1").replace("%1", describe_url(db.url))))
        form = QFormLayout()
        self.login = QLineEdit(settings().get("last_login"))
        self.login.setObjectName("login")
        self.password = QLineEdit()
        self.password.setObjectName("password")
        self.password.setEchoMode(QLineEdit.Password)
        form.addRow(self.tr("Login"), self.login)
        form.addRow(self.tr("Password"), self.password)
        layout.addLayout(form)
        self.error = QLabel()
        self.error.setObjectName("loginError")
        self.error.setStyleSheet("color: #c62828;")
        self.error.setWordWrap(True)
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.button(QDialogButtonBox.Ok).setText(self.tr("Log in"))
        buttons.button(QDialogButtonBox.Cancel).setText(self.tr("Cancel"))
        buttons.accepted.connect(self.try_login)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        (self.password if self.login.text() else self.login).setFocus()

    def try_login(self) -> None:
        from app.services.users import login
        try:
            self.actor = login(self.db, self.login.text().strip(), self.password.text())
        except DomainError as exc:
            log.info("login refused: %s", exc.message)
            self.error.setText(self.tr("Login failed: unknown user, disabled account or wrong password."))
            self.password.selectAll()
            self.password.setFocus()
            return
        settings().set("last_login", self.actor.login)
        self.accept()
