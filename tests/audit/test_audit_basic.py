from app.audit.trail import verify_audit_chain
from app.services.users import login
import pytest
from app.domain.errors import AuthenticationFailed


def test_login_success_and_failure_are_audited(db, admin):
    with pytest.raises(AuthenticationFailed):
        login(db, "admin", "wrong-password")
    with db.session() as s:
        result = verify_audit_chain(s)
    assert result.ok, result.problem
    assert result.count == 3  # user.create, login ok, login failure
