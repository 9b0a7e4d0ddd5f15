"""Anyone changes their own password (app.services.users.change_own_password), audited."""
from __future__ import annotations

import pytest
from sqlalchemy import select

from app.domain.errors import ValidationError
from app.services.users import change_own_password, login
from models import AuditEvent
from tests.conftest import PASSWORD, table_counts


def test_changing_ones_own_password_needs_the_current_one_and_is_audited(db, admin, auditor):
    before = table_counts(db)
    with pytest.raises(ValidationError) as exc:
        change_own_password(db, auditor, "wrong", "short")
    assert set(exc.value.errors) == {"current", "new"}
    assert table_counts(db) == before
    login_name = auditor.login
    change_own_password(db, auditor, PASSWORD, "a-new-secret-2026")
    assert login(db, login_name, "a-new-secret-2026").login == login_name
    with db.session() as s:
        ev = s.execute(select(AuditEvent).where(AuditEvent.action == "user.password")).scalar_one()
        assert ev.actor_login == login_name and "a-new-secret" not in str(ev.after)
