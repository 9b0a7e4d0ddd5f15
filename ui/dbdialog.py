"""Settings: language, database (SQLite file or PostgreSQL URL with a connection test), PDF font."""
from __future__ import annotations

from PySide6.QtWidgets import (QButtonGroup, QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFileDialog,
                               QFormLayout, QHBoxLayout, QLabel, QLineEdit, QPushButton, QRadioButton,
                               QVBoxLayout)
from sqlalchemy import text
from sqlalchemy.engine import make_url

from .settings import settings

KEYRING_SERVICE = "idc-console"


def keyring_get(url: str) -> str | None:
    try:
        import keyring
        u = make_url(url)
        return keyring.get_password(KEYRING_SERVICE, f"{u.username}@{u.host}:{u.port or 5432}/{u.database}")
    except Exception:  # noqa: BLE001 - no backend, locked store: fall back to asking
        return None


def keyring_set(url: str, password: str) -> str | None:
    """Store the password; returns an error text when the OS keyring is unavailable."""
    try:
        import keyring
        u = make_url(url)
        keyring.set_password(KEYRING_SERVICE, f"{u.username}@{u.host}:{u.port or 5432}/{u.database}", password)
        return None
    except Exception as exc:  # noqa: BLE001
        return str(exc) or type(exc).__name__


def with_password(url: str) -> str:
    """The URL with the keyring's password filled in, when it has none of its own."""
    if not url.startswith("postgres"):
        return url
    u = make_url(url)
    if u.password or not settings().get("db_keyring"):
        return url
    pw = keyring_get(url)
    return u.set(password=pw).render_as_string(hide_password=False) if pw else url


def test_connection(url: str) -> str | None:
    """None when the database answers; else the reason."""
    from app.db import make_engine
    try:
        engine = make_engine(url, **({"connect_args": {"connect_timeout": 5}} if url.startswith("postgres") else {}))
        with engine.connect() as c:
            c.execute(text("SELECT 1"))
        engine.dispose()
        return None
    except Exception as exc:  # noqa: BLE001
        return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


class SettingsDialog(QDialog):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("settingsDialog")
        self.setWindowTitle(self.tr("Settings"))
        s = settings()
        layout = QVBoxLayout(self)
        form = QFormLayout()
        layout.addLayout(form)
        self.language = QComboBox()
        self.language.setObjectName("language")
        self.language.addItem(self.tr("System default"), "")
        self.language.addItem("中文", "zh")
        self.language.addItem("English", "en")
        self.language.setCurrentIndex(max(0, self.language.findData(s.get("language"))))
        form.addRow(self.tr("Language"), self.language)

        self.sqlite = QRadioButton(self.tr("SQLite file"))
        self.pg = QRadioButton(self.tr("PostgreSQL server"))
        group = QButtonGroup(self)
        group.addButton(self.sqlite)
        group.addButton(self.pg)
        url = s.get("db_url")
        self.path = QLineEdit()
        self.path.setObjectName("sqlitePath")
        browse_open = QPushButton(self.tr("Open…"))
        browse_new = QPushButton(self.tr("New…"))
        browse_open.clicked.connect(self._open_file)
        browse_new.clicked.connect(self._new_file)
        row = QHBoxLayout()
        row.addWidget(self.path, 1)
        row.addWidget(browse_open)
        row.addWidget(browse_new)
        self.pg_url = QLineEdit()
        self.pg_url.setObjectName("pgUrl")
        self.pg_url.setPlaceholderText("postgresql://user@host:5432/idc")
        self.pg_password = QLineEdit()
        self.pg_password.setEchoMode(QLineEdit.Password)
        self.pg_password.setObjectName("pgPassword")
        self.use_keyring = QCheckBox(self.tr("Keep the password in the system keyring"))
        self.use_keyring.setChecked(s.get("db_keyring"))
        self.test_button = QPushButton(self.tr("Test connection"))
        self.test_button.setObjectName("testConnection")
        self.test_result = QLabel()
        self.test_result.setObjectName("testResult")
        self.test_result.setWordWrap(True)
        self.test_button.clicked.connect(self.run_test)
        form.addRow(self.sqlite)
        form.addRow(self.tr("File"), row)
        form.addRow(self.pg)
        form.addRow(self.tr("URL"), self.pg_url)
        form.addRow(self.tr("Password"), self.pg_password)
        form.addRow("", self.use_keyring)
        form.addRow(self.test_button, self.test_result)
        if url.startswith("postgres"):
            self.pg.setChecked(True)
            self.pg_url.setText(make_url(url).render_as_string(hide_password=True).replace(":***", ""))
        else:
            self.sqlite.setChecked(True)
            self.path.setText(url.replace("sqlite:///", "") if url else "")
        self.font_path = QLineEdit(s.get("pdf_font_path"))
        self.font_path.setObjectName("pdfFont")
        self.font_path.setPlaceholderText(self.tr("automatic"))
        form.addRow(self.tr("PDF font (TrueType)"), self.font_path)
        self.note = QLabel(self.tr("Language and database changes apply at the next start."))
        layout.addWidget(self.note)
        buttons = QDialogButtonBox(QDialogButtonBox.Save | QDialogButtonBox.Cancel)
        buttons.button(QDialogButtonBox.Save).setText(self.tr("Save"))
        buttons.button(QDialogButtonBox.Cancel).setText(self.tr("Cancel"))
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(620, self.sizeHint().height())

    def _open_file(self):
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open database"), "", self.tr("SQLite (*.db *.sqlite);;All (*)"))
        if path:
            self.path.setText(path)
            self.sqlite.setChecked(True)

    def _new_file(self):
        path, _ = QFileDialog.getSaveFileName(self, self.tr("New database"), "idc-console.db", self.tr("SQLite (*.db)"))
        if path:
            self.path.setText(path)
            self.sqlite.setChecked(True)

    def url(self) -> str:
        if self.pg.isChecked():
            url = self.pg_url.text().strip()
            if url and self.pg_password.text():
                url = make_url(url).set(password=self.pg_password.text()).render_as_string(hide_password=False)
            return url
        path = self.path.text().strip()
        return f"sqlite:///{path}" if path else ""

    def run_test(self) -> None:
        url = self.url()
        if not url:
            self.test_result.setText(self.tr("Give a file or a URL first."))
            return
        problem = test_connection(with_password(url))
        self.test_result.setText(self.tr("Connected.") if problem is None
                                 else self.tr("Failed: %1").replace("%1", problem))

    def save(self) -> None:
        s = settings()
        s.set("language", self.language.currentData())
        s.set("pdf_font_path", self.font_path.text().strip())
        url = self.url()
        s.set("db_keyring", self.use_keyring.isChecked())
        if self.pg.isChecked() and url and self.use_keyring.isChecked() and self.pg_password.text():
            problem = keyring_set(url, self.pg_password.text())
            if problem:
                self.test_result.setText(self.tr("The system keyring is not available (%1); "
                                                 "the password was not stored.").replace("%1", problem))
                s.set("db_keyring", False)
                return
            url = make_url(url).set(password=None).render_as_string(hide_password=False)
        elif self.pg.isChecked() and url:
            url = make_url(url).set(password=None).render_as_string(hide_password=False) \
                if not self.use_keyring.isChecked() else url
        s.set("db_url", url)
        s.sync()
        self.accept()
