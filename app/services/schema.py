"""Who upgraded the schema: `db upgrade` on a database that holds users is an administrator's, checked
before anything changes and recorded in the audit trail afterwards (the console records the person who
logs in after its own upgrade)."""
from __future__ import annotations

from sqlalchemy import inspect, text

from app.domain.actor import Actor
from app.domain.auth import candidate_hash, verify_password
from app.domain.errors import AuthenticationFailed, PermissionDenied
from app.store.config import describe_url
from app.store.db import Database
from app.store.uow import UnitOfWork


def holds_users(db: Database) -> bool:
    """Whether the database (at any schema revision) has a user table with someone in it."""
    with db.engine.connect() as conn:
        if not inspect(conn).has_table("app_user"):
            return False
        return conn.execute(text("SELECT count(*) FROM app_user")).scalar() > 0


def check_upgrader(db: Database, login_name: str, password: str) -> Actor:
    """Before an upgrade, on the schema as it is: `login_name` is an active administrator whose password
    this is (read with plain SQL, since older schemas lack newer columns). Refuses otherwise; returns the
    administrator as the upgrade's actor."""
    with db.engine.connect() as conn:
        if conn.dialect.name == "postgresql" and conn.execute(
                text("SELECT to_regprocedure('public.idc_password_setting(text)')")).scalar() is not None:
            # from migration 0029 nobody reads a password hash; the server says yes or no (users.check_password)
            row = conn.execute(text("SELECT id, login, display_name, role, active FROM app_user WHERE login = :l"),
                               {"l": login_name}).first()
            setting = conn.execute(text("SELECT idc_password_setting(:l)"), {"l": login_name}).scalar() \
                if row is not None else None
            candidate = candidate_hash(password, setting)
            ok = candidate is not None and bool(conn.execute(
                text("SELECT idc_password_matches(:l, :c)"), {"l": login_name, "c": candidate}).scalar())
        else:
            row = conn.execute(text("SELECT id, login, display_name, password_hash, role, active FROM app_user "
                                    "WHERE login = :l"),
                               {"l": login_name}).first()
            ok, _rehash = verify_password(password, row.password_hash if row is not None else None)
    if row is None or not ok or not row.active:
        raise AuthenticationFailed("db upgrade: login failed (unknown user, disabled account or wrong password); "
                                   "nothing was changed")
    if row.role != "admin":
        raise PermissionDenied(f"db upgrade of a database that holds users is an administrator's; {login_name} is "
                               f"{row.role}. Nothing was changed")
    return Actor(row.id, row.login, row.display_name, row.role)


def upgrade_event(connection, actor: Actor, before: str | None, after: str, how: str) -> None:
    """The upgrade's audit event (`db.upgrade`), written on the upgrade's own connection inside its
    transaction (PostgreSQL: it commits with the new schema or not at all)."""
    import uuid

    from sqlalchemy.orm import Session

    from app.audit.trail import append_event, forget_definer_functions

    forget_definer_functions(connection.engine)   # the functions of the schema just made
    session = Session(bind=connection)
    try:
        append_event(session, actor, request_id=str(uuid.uuid4()), action="db.upgrade", object_type="database",
                     object_label=describe_url(db_url(connection)), before={"revision": before},
                     after={"revision": after}, reason=how)
        session.flush()
    finally:
        session.close()
    forget_definer_functions(connection.engine)


def db_url(connection) -> str:
    return connection.engine.url.render_as_string(hide_password=True)


def record_upgrade(db: Database, actor: Actor, before: str | None, after: str, how: str) -> None:
    """The upgrade's audit event (`db.upgrade`), in the upgraded schema."""
    with UnitOfWork(db, actor) as uow:
        uow.audit("db.upgrade", "database", None, describe_url(db.url),
                  before={"revision": before}, after={"revision": after}, reason=how)
        uow.commit()
