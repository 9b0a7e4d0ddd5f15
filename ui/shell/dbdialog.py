"""Settings: language, database (SQLite file or PostgreSQL URL with a connection test), PDF font."""
from __future__ import annotations

import logging

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QButtonGroup, QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFileDialog,
                               QFormLayout, QHBoxLayout, QLabel, QLineEdit, QPushButton, QRadioButton,
                               QVBoxLayout)
from app.store.config import keyring_account, url_password, url_username, with_url_password, without_password

from ui.shell.settings import settings

log = logging.getLogger(__name__)
KEYRING_SERVICE = "idc-console"


def keyring_get(url: str) -> str | None:
    try:
        import keyring
        return keyring.get_password(KEYRING_SERVICE, keyring_account(url))
    except Exception:  # no backend, locked store: fall back to asking
        log.info("the OS keyring could not be read; the password is asked for", exc_info=True)
        return None


def keyring_set(url: str, password: str) -> str | None:
    """Store the password; returns an error text when the OS keyring is unavailable."""
    try:
        import keyring
        keyring.set_password(KEYRING_SERVICE, keyring_account(url), password)
        return None
    except Exception as exc:  # the reason is shown beside the password field
        log.warning("the OS keyring could not store the password", exc_info=True)
        return str(exc) or type(exc).__name__


def hide_secret(text: str, url: str | None) -> str:
    """`text` (an error message, say) with the URL's password replaced by ***."""
    password = url_password(url)
    if not password:
        return text
    from urllib.parse import quote
    for form in {str(password), quote(str(password), safe="")}:
        text = text.replace(form, "***")
    return text


def store_db_url(url: str, password: str | None, keep_in_keyring: bool) -> str | None:
    """Save the database in the settings: the URL never with its password; the password in the
    keyring when asked (and possible), else asked for at the next start. Returns an error text
    when the keyring was asked for but cannot store it (then nothing is saved)."""
    s = settings()
    password = password or (url_password(url) if url.startswith("postgres") else None) or None
    if url.startswith("postgres") and password and keep_in_keyring:
        problem = keyring_set(url, password)
        if problem:
            return problem
    s.set("db_url", without_password(url))
    s.set("db_keyring", bool(keep_in_keyring))
    s.set("db_ask_password", bool(url.startswith("postgres") and password and not keep_in_keyring))
    s.sync()
    return None


def scrub_stored_password() -> None:
    """A settings file written before this fix may hold the password: move it to the keyring when
    the keyring is in use and works, else drop it (then it is asked for at start)."""
    s = settings()
    url = s.get("db_url")
    if not url.startswith("postgres") or url_password(url) is None:
        return
    keep = s.get("db_keyring")
    if store_db_url(url, None, keep) is not None:    # the keyring failed: ask at start instead
        store_db_url(url, None, False)


def with_password(url: str, ask=None) -> str | None:
    """The URL with its password: its own, else the keyring's, else `ask(url)` when the settings
    say one is needed (None when the user cancels)."""
    if not url.startswith("postgres"):
        return url
    if url_password(url):
        return url
    s = settings()
    pw = keyring_get(url) if s.get("db_keyring") else None
    if not pw and (s.get("db_ask_password") or s.get("db_keyring")) and ask is not None:
        pw = ask(url)
        if pw is None:
            return None
    return with_url_password(url, pw) if pw else url


def _short(text: str, limit: int = 90) -> str:
    """A backend's error reduced to its first sentence (keyring's run to a paragraph)."""
    first = text.strip().splitlines()[0] if text.strip() else text
    first = first.split(". ")[0].rstrip(".")
    return first if len(first) <= limit else first[:limit - 1] + "…"


class DbPasswordDialog(QDialog):
    """At start: the database password, when it is kept nowhere."""

    def __init__(self, url: str, parent=None):
        super().__init__(parent)
        from app.store.config import describe_url
        self.setObjectName("dbPasswordDialog")
        self.setWindowTitle(self.tr("Database password"))
        form = QFormLayout(self)
        info = QLabel(self.tr("The password of %1 on %2 is not stored on this computer.")
                      .replace("%1", url_username(url) or "").replace("%2", describe_url(url)))
        info.setWordWrap(True)
        form.addRow(info)
        self.password = QLineEdit()
        self.password.setObjectName("dbPassword")
        self.password.setEchoMode(QLineEdit.Password)
        form.addRow(self.tr("Password"), self.password)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.button(QDialogButtonBox.Ok).setText(self.tr("Connect"))
        buttons.button(QDialogButtonBox.Cancel).setText(self.tr("Cancel"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.resize(420, self.sizeHint().height())


def ask_db_password(url: str, parent=None) -> str | None:
    dlg = DbPasswordDialog(url, parent)
    return dlg.password.text() if dlg.exec() else None


def test_connection(url: str) -> str | None:
    """None when the database answers; else the reason."""
    from app.store.db import ping
    try:
        ping(url, timeout=5)
        return None
    except Exception as exc:  # any driver error: the reason is shown in the dialog
        log.info("test connection failed", exc_info=True)
        return hide_secret(str(exc).splitlines()[0], url) if str(exc) else type(exc).__name__


class SettingsDialog(QDialog):
    def __init__(self, parent=None, in_use: str | None = None):
        """`in_use`: the database URL the running console uses (from the command line, the
        environment or these settings); shown above the settings, which apply at the next start."""
        super().__init__(parent)
        self.setObjectName("settingsDialog")
        self.setWindowTitle(self.tr("Settings"))
        s = settings()
        layout = QVBoxLayout(self)
        self._in_use_row(layout, s, in_use)
        form = QFormLayout()
        layout.addLayout(form)
        self.language = QComboBox()
        self.language.setObjectName("language")
        self.language.addItem(self.tr("System default"), "")
        self.language.addItem("中文", "zh")
        self.language.addItem("English", "en")
        self.language.setCurrentIndex(max(0, self.language.findData(s.get("language"))))
        form.addRow(self.tr("Language"), self.language)
        self._database_rows(form, s)
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

    def _in_use_row(self, layout: QVBoxLayout, s, in_use: str | None) -> None:
        """The database the running console uses, above the settings (shown only when known)."""
        self.in_use = QLabel()
        self.in_use.setObjectName("databaseInUse")
        self.in_use.setWordWrap(True)
        self.in_use.setTextInteractionFlags(Qt.TextSelectableByMouse)
        if in_use:
            from app.store.config import describe_url
            text = self.tr("Database in use: %1").replace("%1", describe_url(in_use))
            saved = s.get("db_url")
            if saved and without_password(saved) != without_password(in_use):
                text += "\n" + self.tr("(started with another database than the one set below; "
                                        "the setting applies at the next start)")
            self.in_use.setText(text)
            layout.addWidget(self.in_use)

    def _database_rows(self, form: QFormLayout, s) -> None:
        """SQLite file or PostgreSQL server: the path, the URL, the password and the connection test."""
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
            self.pg_url.setText(without_password(url))
        else:
            self.sqlite.setChecked(True)
            self.path.setText(url.replace("sqlite:///", "") if url else "")

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
                url = with_url_password(url, self.pg_password.text())
            return url
        path = self.path.text().strip()
        return f"sqlite:///{path}" if path else ""

    def run_test(self) -> None:
        url = self.url()
        if not url:
            self.test_result.setText(self.tr("Give a file or a URL first."))
            return
        problem = test_connection(with_password(url) or url)
        self.test_result.setText(self.tr("Connected.") if problem is None
                                 else self.tr("Failed: %1").replace("%1", problem))

    def save(self) -> None:
        s = settings()
        url = self.url()
        keep = self.pg.isChecked() and self.use_keyring.isChecked()
        problem = store_db_url(url, self.pg_password.text() if self.pg.isChecked() else None, keep)
        if problem:
            self.test_result.setText(self.tr("The system keyring is not available (%1); the password was not "
                                             "stored. Untick the keyring to be asked for it at each start.")
                                     .replace("%1", _short(hide_secret(problem, url))))
            self.layout().activate()
            self.resize(self.width(), max(self.height(), self.sizeHint().height()))
            return
        s.set("language", self.language.currentData())
        s.set("pdf_font_path", self.font_path.text().strip())
        s.sync()
        self.accept()
