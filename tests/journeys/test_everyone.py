"""Everyone's console: the window fits a 1280×800 screen with a taskbar, the account menu (own
password, users & settings, log out), the settings dialog names the database in use, a saved PDF
is named by its number in the folder used last, Qt's own dialogs speak Chinese."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QFileDialog

from tests.conftest import PASSWORD


@pytest.fixture
def window(qtbot, db, admin, estate):
    from ui.shell.mainwindow import MainWindow
    w = MainWindow(db, admin)
    qtbot.addWidget(w)
    w.show()
    return w


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_window_fits_1280_by_760_with_its_status_bar(qtbot, window, language):
    from ui.shell.i18n import install_translators
    app = QApplication.instance()
    install_translators(app, language)
    try:
        from ui.shell.mainwindow import MainWindow
        w = MainWindow(window.db, window.actor)
        qtbot.addWidget(w)
        w.show()
        hint = w.minimumSizeHint()
        assert hint.width() <= 1280 and hint.height() <= 760, hint     # 800 less a taskbar
        w.resize(1280, 760)
        assert w.height() == 760 and w.statusBar().isVisible()
        assert w.statusBar().geometry().bottom() < 760
    finally:
        install_translators(app, "en")


def test_account_menu_password_users_and_log_out(qtbot, window, db, admin, monkeypatch):
    from app.services.users import login
    from ui.shell.account import ChangePasswordDialog
    assert {a.objectName() for a in window.account_button.menu().actions()} >= {"actPassword", "actUsers", "actLogout"}
    window.show_page("dashboard")
    window.act_users.trigger()                                        # Ctrl+, : users & settings
    assert window.nav.currentRow() == [p[0] for p in __import__("ui.shell.mainwindow").shell.mainwindow.PAGES].index("users")
    dlg = ChangePasswordDialog(db, admin, window)
    qtbot.addWidget(dlg)
    dlg.edits["current"].setText("wrong")
    dlg.edits["new"].setText("new-secret-2026")
    dlg.edits["again"].setText("new-secret-2026")
    dlg.save()
    assert dlg.result() == 0 and not dlg.errors["current"].isHidden()
    dlg.edits["current"].setText(PASSWORD)
    assert dlg.errors["current"].isHidden()                           # cleared when fixed
    dlg.save()
    assert dlg.result() == 1
    assert login(db, "admin", "new-secret-2026").login == "admin"
    window.log_out()
    assert window.switch_requested and not window.isVisible()


def test_authenticate_after_log_out_always_asks(qtbot, db, admin, monkeypatch):
    """After log out the login dialog is shown even when the environment holds a password."""
    from types import SimpleNamespace
    from ui.shell import main as ui_main
    from ui.shell import startup
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", PASSWORD)
    asked = []
    monkeypatch.setattr(startup.LoginDialog, "exec", lambda self: asked.append(True) or 0)
    assert ui_main.authenticate(db, SimpleNamespace(user="admin")).login == "admin"
    assert asked == []
    assert ui_main.authenticate(db, SimpleNamespace(user=None), ask=True) is None and asked == [True]


def test_settings_dialog_names_the_database_in_use(qtbot, window, db):
    from app.store.config import describe_url
    from ui.shell.dbdialog import SettingsDialog
    dlg = SettingsDialog(window, in_use=db.url)
    qtbot.addWidget(dlg)
    assert describe_url(db.url) in dlg.in_use.text()


def test_a_saved_pdf_is_named_by_its_number_in_the_last_folder(qtbot, tmp_path, monkeypatch):
    from ui.kit.pdfpreview import PdfPreviewDialog, saved_name
    assert saved_name("statement", "FZ-202610-000009") == "FZ-202610-000009.pdf"
    assert saved_name("contract", "FZ-2026-0013") == "FZ-2026-0013.pdf"
    pdf = tmp_path / "tmp-build.pdf"
    from reportlab.pdfgen import canvas
    c = canvas.Canvas(str(pdf))
    c.drawString(100, 700, "FZ-2026-0013")
    c.save()
    dlg = PdfPreviewDialog(pdf, save_name=saved_name("contract", "FZ-2026-0013"))
    qtbot.addWidget(dlg)
    folder = tmp_path / "contracts"
    folder.mkdir()
    offered = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda _p, _t, start, _f: offered.append(start) or (str(folder / Path(start).name), ""))
    assert dlg.save_as() == folder / "FZ-2026-0013.pdf"
    assert Path(offered[0]).name == "FZ-2026-0013.pdf"
    dlg.save_as()
    assert Path(offered[1]) == folder / "FZ-2026-0013.pdf"          # the folder is remembered


def test_qt_own_dialog_buttons_are_translated(qtbot):
    from ui.shell.i18n import install_translators
    app = QApplication.instance()
    install_translators(app, "zh")
    try:
        buttons = QDialogButtonBox(QDialogButtonBox.Yes | QDialogButtonBox.Cancel)
        qtbot.addWidget(buttons)
        assert "是" in buttons.button(QDialogButtonBox.Yes).text()
        assert "取消" in buttons.button(QDialogButtonBox.Cancel).text()
    finally:
        install_translators(app, "en")


def test_after_log_out_the_old_window_hears_no_change(qtbot, db, admin, estate):
    """Log out / switch user: everything the closed window (and each page it built) connected to the
    change bus is disconnected, so a change made in the next window reaches no deleted widget."""
    from PySide6.QtCore import QEvent

    from ui.shell.mainwindow import PAGE_IDS, MainWindow
    from ui.shell.operations import announce, listeners_of
    old = MainWindow(db, admin)
    old.show()
    for pid in PAGE_IDS:                    # every page built (receivables tabs, dashboard, audit …)
        old.show_page(pid)
    assert listeners_of(old) > 5
    old.log_out()
    assert listeners_of(old) == 0
    old.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.DeferredDelete)
    new = MainWindow(db, admin)
    qtbot.addWidget(new)
    new.show()
    new.show_page("billing")
    assert listeners_of(new) > 0
    announce({"payment", "statement", "audit"})      # raised "… ReceivablesTabs already deleted" before
    announce({"*"})
