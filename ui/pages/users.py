"""The Users page's login locks: a locked login shows until when and after how many failures (the
list's columns), and an administrator unlocks it with a reason (app.services.users.unlock_user)."""
from __future__ import annotations

import datetime as dt

from PySide6.QtWidgets import QMessageBox, QPushButton

from app.domain.actor import Actor
from app.domain.clock import local_text
from app.store.db import Database
from app.domain.errors import DomainError
from app.services.users import list_users, unlock_user

from ui.kit.dialogs import ReasonDialog, refused_text, why_not_text


class UnlockButton(QPushButton):
    """'Unlock login…' for the user selected on `page` (a ListPage of kind "user")."""

    def __init__(self, db: Database, actor: Actor, page, parent=None):
        super().__init__(self.tr("Unlock login…"), parent)
        self.db, self.actor, self.page = db, actor, page
        self.setObjectName("unlockButton")
        reason = why_not_text(actor, "manage_users")
        self.setEnabled(reason is None)
        self.setToolTip(reason or self.tr("Lifts the lock of the selected login after repeated failed attempts; "
                                          "the reason goes into the audit trail."))
        self.clicked.connect(self.unlock_selected)

    def selected_user(self):
        ids = self.page.view.selected_ids()
        if len(ids) != 1:
            return None
        return next((u for u in list_users(self.db) if u.id == ids[0]), None)

    def unlock_selected(self, *, reason: str | None = None) -> bool:
        user = self.selected_user()
        if user is None:
            QMessageBox.information(self, self.text(), self.tr("Select one user first."))
            return False
        if reason is None:
            dlg = ReasonDialog(self.tr("Unlock %1").replace("%1", user.login), self.lock_text(user), self)
            if not dlg.exec():
                return False
            reason = dlg.value()[0]
        try:
            unlock_user(self.db, self.actor, user.id, reason)
        except DomainError as exc:
            QMessageBox.warning(self, self.tr("Refused"), refused_text(exc))
            return False
        self.page.refresh()
        return True

    def lock_text(self, user) -> str:
        """'Locked until … after N failed attempts' / 'N failed attempts' / 'not locked', in the UI language."""
        now = dt.datetime.now(dt.timezone.utc)
        if user.locked_until is not None and user.locked_until > now:
            return (self.tr("%1 is locked until %2 after %3 failed attempts.")
                    .replace("%1", user.login).replace("%2", local_text(user.locked_until))
                    .replace("%3", str(user.failed_logins)))
        if user.failed_logins:
            return self.tr("%1 has %2 failed attempts in a row.").replace("%1", user.login).replace(
                "%2", str(user.failed_logins))
        return self.tr("%1 is not locked.").replace("%1", user.login)
