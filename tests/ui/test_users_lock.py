"""The Users page shows a locked login (until when, after how many failures) and an administrator
unlocks it there with a reason (ui/pages/users.py → app.services.users.unlock_user), in both languages."""
from __future__ import annotations

import os

import pytest
from sqlalchemy import select

from app.domain.auth import LoginPolicy
from app.domain.errors import AuthenticationFailed
from app.services.users import add_user, login
from models import AuditEvent, User

PNG_DIR = os.environ.get("IDC_UI_PNG_DIR")


@pytest.mark.parametrize("language", ["en", "zh"])
def test_users_page_shows_a_lock_and_unlocks_it(qtbot, monkeypatch, db, admin, language):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication, QVBoxLayout, QWidget

    from ui.shell.i18n import install_translators
    from ui.kit.listview import ListPage
    from ui.pages.users import UnlockButton

    app = QApplication.instance()
    install_translators(app, language)
    try:
        uid = add_user(db, admin, "lina", "operator", "long-password-1", "李娜").id
        for _ in range(3):
            with pytest.raises(AuthenticationFailed):
                login(db, "lina", "wrong-password", policy=LoginPolicy(max_failures=3, lock_seconds=900))
        w = QWidget()
        v = QVBoxLayout(w)
        page = ListPage(db, admin, "user")
        button = UnlockButton(db, admin, page, w)
        v.addWidget(page)
        v.addWidget(button)
        qtbot.addWidget(w)
        w.resize(1000, 360)
        w.show()
        page.refresh()
        qtbot.waitUntil(lambda: page.model.rowCount() == 2, timeout=5000)
        headers = [page.model.headerData(c, Qt.Horizontal) for c in range(page.model.columnCount())]
        assert ("锁定至" if language == "zh" else "Locked until") in headers
        assert ("失败次数" if language == "zh" else "Failed logins") in headers
        row = next(r for r in range(page.model.rowCount()) if page.model.id_at(r) == uid)
        shown = [page.model.index(row, c).data() for c in range(page.model.columnCount())]
        assert "3" in [str(x) for x in shown]
        page.view.selectRow(row)
        user = button.selected_user()
        text = button.lock_text(user)
        assert ("锁定至" if language == "zh" else "locked until") in text and "3" in text
        if PNG_DIR:
            w.grab().save(os.path.join(PNG_DIR, f"users_locked_{language}.png"))
        assert button.unlock_selected(reason="电话确认本人" if language == "zh" else "phoned the helpdesk")
        with db.session() as s:
            u = s.get(User, uid)
            assert u.failed_logins == 0 and u.locked_until is None
            ev = s.execute(select(AuditEvent).where(AuditEvent.action == "user.unlock")).scalar_one()
            assert ev.actor_login == "admin" and ev.reason
        assert login(db, "lina", "long-password-1").login == "lina"
        qtbot.waitUntil(lambda: "3" not in [str(page.model.index(row, c).data())
                                            for c in range(page.model.columnCount())], timeout=5000)
        # nothing selected: refused politely, nothing written
        from PySide6.QtWidgets import QMessageBox
        told = []
        monkeypatch.setattr(QMessageBox, "information", lambda *a: told.append(a[2]))
        page.view.clearSelection()
        assert button.unlock_selected(reason="x") is False
        assert told == [("请先选择一个用户。" if language == "zh" else "Select one user first.")]
    finally:
        install_translators(app, "en")
