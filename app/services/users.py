"""Users: the first admin, adding users, logging in (every attempt audited)."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select

from models import User
from models.choices import Role

from ..audit import Actor
from ..auth import check_password, hash_password, require
from ..db import Database
from ..errors import AuthenticationFailed, ValidationError
from ..uow import UnitOfWork
from .common import check_version, flush_or_refuse, flush_versioned, get_or_404, snapshot

USER_FIELDS = ("login", "display_name", "role", "active")


@dataclass(frozen=True)
class UserInfo:
    id: int
    login: str
    display_name: str
    role: str
    active: bool
    version: int


def _info(u: User) -> UserInfo:
    return UserInfo(u.id, u.login, u.display_name, u.role, u.active, u.version)


def has_users(db: Database) -> bool:
    with db.session() as s:
        return s.execute(select(func.count()).select_from(User)).scalar_one() > 0


def _validate(login: str, display_name: str, role: str, password: str | None) -> None:
    errors = {}
    if not login or not login.replace("_", "").replace(".", "").replace("-", "").isalnum():
        errors["login"] = "a login is letters, digits, '.', '-' or '_'"
    if not display_name:
        errors["display_name"] = "a display name is required"
    if role not in Role.values():
        errors["role"] = f"role must be one of {', '.join(Role.values())}"
    if password is not None and len(password) < 8:
        errors["password"] = "a password has at least 8 characters"
    if errors:
        raise ValidationError(errors)


def add_user(db: Database, actor: Actor | None, login: str, role: str, password: str,
             display_name: str | None = None) -> UserInfo:
    """The very first user must be an admin and needs no actor; later ones need an admin."""
    display_name = display_name or login
    _validate(login, display_name, role, password)
    first = not has_users(db)
    if first:
        if role != Role.ADMIN:
            raise ValidationError({"role": "the first user must be an admin"})
        actor = Actor.system()
    elif actor is None:
        raise AuthenticationFailed("adding a user needs an administrator's login (--user)")
    else:
        require(actor, "manage_users")
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        if s.execute(select(User.id).where(User.login == login)).first():
            raise ValidationError({"login": f"the login {login!r} is taken"})
        user = User(login=login, display_name=display_name, role=role,
                    password_hash=hash_password(password), active=True, updated_by=actor.login)
        s.add(user)
        flush_or_refuse(s)
        uow.audit("user.create", "user", user.id, login, after=snapshot(user, USER_FIELDS),
                  reason="first administrator" if first else None)
        uow.commit()
        return _info(user)


def login(db: Database, login_name: str, password: str) -> Actor:
    """Check the password; success and failure both leave an audit event."""
    with UnitOfWork(db, Actor(None, login_name, login_name, "unknown")) as uow:
        user = uow.session.execute(select(User).where(User.login == login_name)).scalar_one_or_none()
        ok = user is not None and user.active and check_password(password, user.password_hash)
        if user is not None:
            uow.actor = Actor(user.id, user.login, user.display_name, user.role)
        if not ok:
            reason = ("unknown login" if user is None else
                      "account disabled" if not user.active else "wrong password")
            uow.audit("auth.login", "user", user.id if user else None, login_name,
                      reason=reason, outcome="failure")
            uow.commit()
            raise AuthenticationFailed("login failed: unknown user, disabled account or wrong password")
        uow.audit("auth.login", "user", user.id, login_name)
        uow.commit()
        return uow.actor


def update_user(db: Database, actor: Actor, user_id: int, expected_version: int | None = None, *,
                display_name: str | None = None, role: str | None = None, active: bool | None = None,
                password: str | None = None) -> UserInfo:
    require(actor, "manage_users")
    with UnitOfWork(db, actor) as uow:
        user = get_or_404(uow.session, User, user_id, "user")
        check_version(user, expected_version, f"user {user.login}")
        before = snapshot(user, USER_FIELDS)
        new = dict(display_name=display_name or user.display_name, role=role or user.role)
        _validate(user.login, new["display_name"], new["role"], password)
        if user.id == actor.id and ((role and role != Role.ADMIN) or active is False):
            raise ValidationError({"role": "you cannot remove your own administrator rights or disable yourself"})
        user.display_name, user.role = new["display_name"], new["role"]
        if active is not None:
            user.active = active
        if password:
            user.password_hash = hash_password(password)
        flush_versioned(uow, user, f"user {user.login}")
        after = snapshot(user, USER_FIELDS)
        uow.audit("user.update", "user", user.id, user.login, before=before,
                  after=dict(after, password="(changed)") if password else after)
        uow.commit()
        return _info(user)


def retire_user(db: Database, actor: Actor, user_id: int, reason: str,
                expected_version: int | None = None) -> UserInfo:
    """Disable a login (the user and their history stay); the reason goes into the audit trail."""
    from .registry import require_reason

    require(actor, "manage_users")
    reason = require_reason(reason, "user")
    with UnitOfWork(db, actor) as uow:
        user = get_or_404(uow.session, User, user_id, "user")
        check_version(user, expected_version, f"user {user.login}")
        if user.id == actor.id:
            raise ValidationError({"active": "you cannot disable yourself; ask another administrator"})
        before = snapshot(user, USER_FIELDS)
        user.active = False
        flush_versioned(uow, user, f"user {user.login}")
        uow.audit("user.retire", "user", user.id, user.login, before={"active": before["active"]},
                  after={"active": False}, reason=reason)
        uow.commit()
        return _info(user)


def list_users(db: Database) -> list[UserInfo]:
    with db.session() as s:
        return [_info(u) for u in s.execute(select(User).order_by(User.login)).scalars()]
