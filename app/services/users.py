"""Users: the first admin, adding users, logging in (every attempt audited)."""
from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass

from sqlalchemy import func, select, text, update

from app.audit.trail import has_definer_functions, server_hashes
from app.domain import messages as M
from app.domain.actor import Actor
from app.domain.auth import (
    LOGIN_POLICY,
    LoginPolicy,
    burn_password,
    candidate_hash,
    hash_password,
    login_fingerprint,
    needs_rehash,
    require,
    verify_password,
)
from app.domain.errors import AuthenticationFailed, ValidationError
from app.services.entities import (
    check_version,
    flush_or_refuse,
    flush_versioned,
    get_or_404,
    local_time,
    require_reason,
    snapshot,
)
from app.store import dbroles
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import AppSecret, User
from models.choices import Role

USER_FIELDS = ("login", "display_name", "role", "active")


@dataclass(frozen=True)
class UserInfo:
    id: int
    login: str
    display_name: str
    role: str
    active: bool
    version: int
    failed_logins: int = 0
    locked_until: dt.datetime | None = None
    db_login: str | None = None   # PostgreSQL with roles: the person's database login, when just made/changed


def _info(u: User, db_login: str | None = None) -> UserInfo:
    return UserInfo(u.id, u.login, u.display_name, u.role, u.active, u.version, u.failed_logins or 0,
                    u.locked_until, db_login)


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
        errors["password"] = M.PASSWORD_SHORT()
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
        # PostgreSQL with roles: the person's database login, in the same transaction (one path for
        # the CLI's user add and the console's Users page).
        db_login = dbroles.sync_login(s, login, role, True, password)
        after = snapshot(user, USER_FIELDS)
        if db_login:
            after["database_login"] = db_login
        uow.audit("user.create", "user", user.id, login, after=after,
                  reason="first administrator" if first else None)
        uow.commit()
        return _info(user, db_login)


NO_PASSWORD = "!no password: an administrator sets one"  # never a valid hash: nobody can log in with it


def import_user_in(uow: UnitOfWork, login_name: str, display_name: str | None, role: str, active: bool = True,
                   created_at: dt.datetime | None = None) -> str:
    """A user brought over by an import: never with a password. A new user cannot log in until an
    administrator sets a password; an existing one keeps theirs. Returns created/updated/unchanged."""
    require(uow.actor, "manage_users")
    display_name = display_name or login_name
    _validate(login_name, display_name, role, None)
    s = uow.session
    user = s.execute(select(User).where(User.login == login_name)).scalar_one_or_none()
    if user is None:
        user = User(login=login_name, display_name=display_name, role=role, password_hash=NO_PASSWORD,
                    active=active, updated_by=uow.actor.login)
        if created_at is not None:
            user.created_at = created_at
        s.add(user)
        flush_or_refuse(s)
        dbroles.sync_login(s, login_name, role, active)
        uow.audit("user.create", "user", user.id, login_name, after=snapshot(user, USER_FIELDS),
                  reason="imported without a password; an administrator sets one")
        return "created"
    if user.id == uow.actor.id and (role != Role.ADMIN or not active):
        raise ValidationError({"role": "you cannot remove your own administrator rights or disable yourself"})
    before = snapshot(user, USER_FIELDS)
    user.display_name, user.role, user.active = display_name, role, active
    after = snapshot(user, USER_FIELDS)
    if after == before:
        return "unchanged"
    flush_versioned(uow, user, f"user {user.login}")
    dbroles.sync_login(s, user.login, role, active)
    uow.audit("user.update", "user", user.id, user.login, before=before, after=after)
    return "updated"


FAILED = "login failed: unknown user, disabled account or wrong password"
UNKNOWN = Actor(None, "unknown", "unknown login", "unknown")


def _login_key(session) -> str:
    key = session.get(AppSecret, "login_hmac_key")
    if key is None:  # a database from before migration 0006's key (it makes one): make it now
        key = AppSecret(name="login_hmac_key", value=secrets.token_hex(32))
        session.add(key)
        session.flush()
    return key.value


def check_password(session, login_name: str, password: str, known: bool = True) -> tuple[bool, str | None]:
    """(the password is login_name's, a new hash to store instead or None), at the cost of one password
    hash whatever the answer. On PostgreSQL from migration 0029 nobody reads a password hash: the server
    gives the hash's scheme, parameters and salt (idc_password_setting), this process hashes the password
    with them and the server says whether the result is the stored hash (idc_password_matches); both for
    one's own login only (or the schema owner). Elsewhere the stored hash is read and checked here."""
    # The same statements and the same hash computation for a known and an unknown login, so that the
    # answer's timing does not tell which it was.
    if not server_hashes(session):
        stored = session.execute(select(User.password_hash).where(User.login == login_name)).scalar()
        return verify_password(password, stored if known else None)
    person = dbroles.connected_person(session)
    if person is not None and person != login_name:
        burn_password(password)   # another person's login: never checked from this connection
        return False, None
    setting = session.execute(text("SELECT idc_password_setting(:l)"), {"l": login_name}).scalar()
    candidate = candidate_hash(password, setting if known else None)
    matches = session.execute(text("SELECT idc_password_matches(:l, :c)"),
                              {"l": login_name, "c": candidate or "!"}).scalar()
    if candidate is None or not matches:
        return False, None
    return True, (hash_password(password) if needs_rehash(candidate) else None)


def login(db: Database, login_name: str, password: str, *, now: dt.datetime | None = None,
          policy: LoginPolicy | None = None) -> Actor:
    """Check the password; success and failure both leave an audit event.

    Every answer costs one password-hash computation (unknown logins check a dummy hash), a name
    nobody has is recorded only as a keyed hash, and `policy` (default auth.LOGIN_POLICY) locks a
    login for a while after failures in a row; a lock is an audit event of its own. Only someone
    who gives the right password learns that the login is locked.
    """
    policy = policy or LOGIN_POLICY
    now = now or dt.datetime.now(dt.timezone.utc)
    with UnitOfWork(db, UNKNOWN) as uow:
        s = uow.session
        user = s.execute(select(User).where(User.login == login_name)).scalar_one_or_none()
        ok, new_hash = check_password(s, login_name, password, known=user is not None)
        key = None if server_hashes(s) else _login_key(s)   # read for every attempt: the same statements
        if user is None:
            _count_failure_of_nobody(s, login_name)   # what a known login's failure costs
            # on PostgreSQL from 0029 the server keys the name (idc_login_fingerprint), here never read
            after = {"unknown_login": login_name} if server_hashes(s) else \
                {"login_hmac": login_fingerprint(key, login_name)}
            uow.audit("auth.login", "user", None, "unknown login", reason="unknown login", outcome="failure",
                      after=after)
            uow.commit()
            raise AuthenticationFailed(FAILED)
        uow.actor = Actor(user.id, user.login, user.display_name, user.role)
        locked_until = user.locked_until
        if locked_until is not None and locked_until > now:
            uow.audit("auth.login", "user", user.id, user.login, outcome="failure",
                      reason=f"login locked until {locked_until.isoformat()}")
            uow.commit()
            if ok and user.active:
                raise AuthenticationFailed(
                    f"the login {user.login} is locked until {local_time(locked_until)} after repeated failed "
                    "attempts; try again then, or ask an administrator")
            raise AuthenticationFailed(FAILED)
        if not ok or not user.active:
            if not user.active:
                reason = "account disabled"
            else:
                reason = "wrong password"
                failures = _count_failure(s, user)
                lock = policy.lock_after(failures) if failures is not None else None
                if lock is not None:
                    until = _lock(s, user, now + lock)
                    uow.audit("auth.lock", "user", user.id, user.login, outcome="failure",
                              reason=f"{failures} failed login attempts in a row",
                              after={"locked_until": until.isoformat(), "failed_logins": failures})
            uow.audit("auth.login", "user", user.id, user.login, reason=reason, outcome="failure")
            uow.commit()
            raise AuthenticationFailed(FAILED)
        # Bookkeeping of the login itself, not an edit of the user: it leaves `version` alone so
        # that an administrator's open form does not conflict with someone logging in.
        if user.failed_logins or user.locked_until is not None or new_hash:
            _login_succeeded(s, user, new_hash)
        uow.audit("auth.login", "user", user.id, login_name,
                  reason="password hash upgraded to argon2id" if new_hash else None)
        uow.commit()
        return uow.actor


# Login bookkeeping. On PostgreSQL from migration 0016 on it goes through the owner's function
# idc_login_state, so that `db roles` need grant no group (auditors included) any write on app_user.
# From migration 0029 a person's own login counts only its own failures, and the server sets the lock that
# follows from the count (auth.LOGIN_POLICY); only the schema owner's connection still sets a lock itself.
def _count_failure(s, user: User) -> int | None:
    """The failures in a row now, or None when this connection may not count them (another person's)."""
    if has_definer_functions(s):
        person = dbroles.connected_person(s) if server_hashes(s) else None
        if person is not None and person != user.login:
            return None
        return s.execute(text("SELECT idc_login_state(:l, 'fail', NULL, NULL)"), {"l": user.login}).scalar_one()
    return s.execute(update(User).where(User.id == user.id).values(failed_logins=User.failed_logins + 1)
                     .returning(User.failed_logins)).scalar_one()


def _count_failure_of_nobody(s, login_name: str) -> None:
    """The statement _count_failure runs, for a login nobody has (it changes nothing)."""
    if has_definer_functions(s):
        person = dbroles.connected_person(s) if server_hashes(s) else None
        if person is None or person == login_name:
            s.execute(text("SELECT idc_login_state(:l, 'fail', NULL, NULL)"), {"l": login_name})
        return
    s.execute(update(User).where(User.login == login_name).values(failed_logins=User.failed_logins + 1)
              .returning(User.failed_logins), execution_options={"synchronize_session": False}).all()


def _lock(s, user: User, until: dt.datetime) -> dt.datetime:
    """Lock the login until `until`; returns the lock as set (the server's own, for a person's login)."""
    if has_definer_functions(s):
        if server_hashes(s) and dbroles.connected_person(s) is not None:
            server = s.execute(select(User.locked_until).where(User.id == user.id)
                               .execution_options(populate_existing=False)).scalar()
            return until if server is None else server.replace(tzinfo=dt.timezone.utc)
        s.execute(text("SELECT idc_login_state(:l, 'lock', :u, NULL)"),
                  {"l": user.login, "u": until.astimezone(dt.timezone.utc).replace(tzinfo=None)})
    else:
        s.execute(update(User).where(User.id == user.id).values(locked_until=until))
    return until


def _login_succeeded(s, user: User, new_hash: str | None) -> None:
    if has_definer_functions(s):
        s.execute(text("SELECT idc_login_state(:l, 'ok', NULL, :h)"), {"l": user.login, "h": new_hash})
        return
    values = dict(failed_logins=0, locked_until=None)
    if new_hash:
        values["password_hash"] = new_hash
    s.execute(update(User).where(User.id == user.id).values(**values))


def unlock_user(db: Database, actor: Actor, user_id: int, reason: str) -> UserInfo:
    """Lift a login's lock and failure streak (an administrator, with a reason; audited). Like logging in,
    this leaves the user's `version` alone, so an open form of that user does not conflict."""
    require(actor, "manage_users")
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": "say why the login is unlocked; the reason goes into the audit trail"})
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        user = get_or_404(s, User, user_id, "user")
        before = {"failed_logins": user.failed_logins or 0,
                  "locked_until": user.locked_until.isoformat() if user.locked_until else None}
        if not before["failed_logins"] and before["locked_until"] is None:
            raise ValidationError({"locked_until": f"the login {user.login} is not locked and has no failed attempts"})
        s.execute(update(User).where(User.id == user.id).values(failed_logins=0, locked_until=None),
                  execution_options={"synchronize_session": False})
        uow.audit("user.unlock", "user", user.id, user.login, before=before,
                  after={"failed_logins": 0, "locked_until": None}, reason=reason)
        uow.commit()
        s.refresh(user)
        return _info(user)


def find_user(db: Database, login_name: str) -> UserInfo:
    with db.session() as s:
        user = s.execute(select(User).where(User.login == login_name)).scalar_one_or_none()
        if user is None:
            raise ValidationError({"login": f"no user {login_name!r}"})
        return _info(user)


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
        unlocked = False
        if password:
            user.password_hash = hash_password(password)
            # A new password set by an administrator also lifts a lock earned by failed logins.
            unlocked = bool(user.failed_logins or user.locked_until is not None)
            user.failed_logins, user.locked_until = 0, None
        flush_versioned(uow, user, f"user {user.login}")
        after = snapshot(user, USER_FIELDS)
        db_login = None
        if password or after != before:   # group, LOGIN/NOLOGIN and password of the database login
            db_login = dbroles.sync_login(uow.session, user.login, user.role, user.active, password or None)
        if password:
            after["password"] = "(changed)"
            if db_login:
                after["database_password"] = "(changed)"
        if unlocked:
            after["login_lock"] = "lifted"
        uow.audit("user.update", "user", user.id, user.login, before=before, after=after)
        uow.commit()
        return _info(user, db_login)


def change_own_password(db: Database, actor: Actor, current: str, new: str) -> None:
    """Anyone changes their own password by giving the current one; audited (never the passwords)."""
    errors = {}
    if not new or len(new) < 8:
        errors["new"] = M.PASSWORD_SHORT()
    elif new == current:
        errors["new"] = M.PASSWORD_SAME()
    with UnitOfWork(db, actor) as uow:
        user = get_or_404(uow.session, User, actor.id, "user")
        ok, _upgrade = check_password(uow.session, user.login, current or "")
        if not ok:
            errors = {"current": M.PASSWORD_WRONG(), **errors}
        if errors:
            raise ValidationError(errors)
        new_hash = hash_password(new)
        after = {"password": "(changed)"}
        person = dbroles.connected_person(uow.session)
        if person is not None:
            # Connected as a person's database login (PostgreSQL with roles): their program and
            # database passwords change in one call, which may write only that person's own row.
            if person != user.login:
                raise ValidationError({"current": f"this connection is the database login of {person}, not "
                                                  f"{user.login}: connect as {user.login} to change the password"})
            uow.session.expunge(user)
            dbroles.set_own_password(uow.session, new_hash, new)
            after["database_password"] = "(changed)"
        else:
            user.password_hash = new_hash
            flush_versioned(uow, user, f"user {user.login}")
            if dbroles.sync_login(uow.session, user.login, user.role, user.active, new):
                after["database_password"] = "(changed)"
        uow.audit("user.password", "user", user.id, user.login, after=after, reason="changed by the user")
        uow.commit()


def retire_user(db: Database, actor: Actor, user_id: int, reason: str,
                expected_version: int | None = None) -> UserInfo:
    """Disable a login (the user and their history stay); the reason goes into the audit trail."""
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
        dbroles.sync_login(uow.session, user.login, user.role, False)   # NOLOGIN
        uow.audit("user.retire", "user", user.id, user.login, before={"active": before["active"]},
                  after={"active": False}, reason=reason)
        uow.commit()
        return _info(user)


def list_users(db: Database) -> list[UserInfo]:
    with db.session() as s:
        return [_info(u) for u in s.execute(select(User).order_by(User.login)).scalars()]
