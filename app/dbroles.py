"""PostgreSQL roles: the program's four roles enforced by the database itself (`db roles`).

Without them everyone connects with one shared login that can change any row, drop the
triggers or rewrite the audit table with psql. With them:

- four group roles per database, `<db>_admin`, `<db>_operator`, `<db>_account_manager`,
  `<db>_auditor` (NOLOGIN), each with only the table privileges its use cases need (`WRITES`);
- one login role per person, `<db>.<login>`, member of their group, created by `user add` with
  the person's program password (sent as a SCRAM-SHA-256 verifier, never as text), so that one
  password opens both; the console and the CLI connect as the person;
- nobody but the owner may UPDATE or DELETE audit events (INSERT only), change the audit head
  otherwise than by appending (UPDATE of `audit_head` is the append's own step), TRUNCATE any
  table, or ALTER/DROP tables and triggers (only a table's owner may; the groups own nothing);
- an issued statement stays frozen by its trigger, which only the owner can drop;
- `app_user` has row-level security: an administrator may change any user, everyone else only
  their own row's login counters and password hash (what logging in writes).

Role names are cluster-wide in PostgreSQL, hence the database's name in them: two databases of
one cluster (production and a test copy, parallel test runs) do not share roles.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import os

from sqlalchemy import text
from sqlalchemy.engine import Connection, make_url

from .errors import DomainError

GROUPS = ("admin", "operator", "account_manager", "auditor")
NAME_MAX = 63  # PostgreSQL truncates longer identifiers silently: refuse them instead

# Writes each group may make, by table (every group reads every table).
IUD = ("INSERT", "UPDATE", "DELETE")
_REFERENCE = ("region", "subsidiary", "site", "room", "coverage", "tax_rate")
_DCIM = ("rack", "device", "device_type", "rack_reservation")
_GPUS = ("gpu_asset", "gpu_model", "gpu_history", "gpu_lease", "downtime", "meter_reading")
_SALES = ("customer", "contact", "contract", "contract_item", "contract_item_gpu", "rack_reservation",
          "document_counter", "invoicing_profile")
_BILLING = ("statement", "statement_line", "app_setting", "app_user",
            "payment", "payment_allocation", "fapiao", "tax_classification", "deposit_entry", "overdue_decision")
# What every group needs to leave its own trail: append events, move the head with them.
_AUDIT_APPEND = {"audit_event": ("INSERT",), "audit_head": ("UPDATE",)}
NEVER_WRITTEN = ("alembic_version", "app_secret")   # the owner's alone (migrations)

WRITES: dict[str, dict[str, tuple[str, ...]]] = {
    "admin": {t: IUD for t in _REFERENCE + _DCIM + _GPUS + _SALES + _BILLING},
    "operator": {t: IUD for t in _REFERENCE + _DCIM + _GPUS},
    "account_manager": {t: IUD for t in _SALES},
    "auditor": {},
}
# Logging in writes the person's own counters (lockout) and, once, a stronger hash.
SELF_COLUMNS = ("failed_logins", "locked_until", "password_hash")


def prefix_of(url: str) -> str:
    return make_url(url).database or ""


def group_name(prefix: str, role: str) -> str:
    return f"{prefix}_{role}"


def person_name(prefix: str, login: str) -> str:
    return f"{prefix}.{login}"


def person_url(url: str, login: str, password: str) -> str:
    """The URL that connects as the person's own database login."""
    u = make_url(url).set(username=person_name(prefix_of(url), login), password=password)
    return u.render_as_string(hide_password=False)


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _check_name(name: str) -> str:
    if len(name.encode()) > NAME_MAX:
        raise DomainError(f"the database role name {name!r} is longer than PostgreSQL's {NAME_MAX} bytes: "
                          "use a shorter database name or login")
    return name


def scram_verifier(password: str, *, iterations: int = 4096, salt: bytes | None = None) -> str:
    """PostgreSQL's SCRAM-SHA-256 verifier of `password`, as `CREATE ROLE … PASSWORD` accepts it."""
    salt = salt or os.urandom(16)
    salted = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, iterations)
    client_key = hmac.new(salted, b"Client Key", hashlib.sha256).digest()
    stored_key = hashlib.sha256(client_key).digest()
    server_key = hmac.new(salted, b"Server Key", hashlib.sha256).digest()
    b64 = lambda b: base64.b64encode(b).decode()  # noqa: E731
    return f"SCRAM-SHA-256${iterations}:{b64(salt)}${b64(stored_key)}:{b64(server_key)}"


def _role_exists(conn: Connection, name: str) -> bool:
    return conn.execute(text("SELECT 1 FROM pg_roles WHERE rolname = :n"), {"n": name}).first() is not None


def roles_enabled(conn: Connection, url: str) -> bool:
    return _role_exists(conn, group_name(prefix_of(url), "admin"))


def _require_postgresql(conn: Connection) -> None:
    if conn.dialect.name != "postgresql":
        raise DomainError("database roles exist on PostgreSQL only; a SQLite file is single-user and relies "
                          "on the program's own checks (see docs/security.md)")


def setup_roles(conn: Connection, url: str) -> list[str]:
    """Create (or bring up to date) the group roles and their privileges; run by the schema owner.

    Idempotent: run it again after every `db upgrade` (new tables get their grants then).
    """
    _require_postgresql(conn)
    prefix = prefix_of(url)
    owner = conn.execute(text("SELECT tableowner FROM pg_tables WHERE schemaname = 'public' "
                              "AND tablename = 'audit_event'")).scalar()
    me = conn.execute(text("SELECT current_user")).scalar()
    if owner is None:
        raise DomainError("the database has no schema yet: run db upgrade first")
    if owner != me:
        raise DomainError(f"db roles is run by the schema owner ({owner}); this connection is {me}")
    tables = conn.execute(text("SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                               "ORDER BY tablename")).scalars().all()
    db = _q(conn.execute(text("SELECT current_database()")).scalar())
    done = []
    groups = {g: _check_name(group_name(prefix, g)) for g in GROUPS}
    for _g, name in groups.items():
        if not _role_exists(conn, name):
            conn.execute(text(f"CREATE ROLE {_q(name)} NOLOGIN"))
            done.append(f"created group role {name}")
    all_groups = ", ".join(_q(n) for n in groups.values())
    conn.execute(text(f"REVOKE ALL ON DATABASE {db} FROM PUBLIC"))
    conn.execute(text(f"GRANT CONNECT ON DATABASE {db} TO {all_groups}"))
    conn.execute(text("REVOKE ALL ON SCHEMA public FROM PUBLIC"))
    conn.execute(text(f"GRANT USAGE ON SCHEMA public TO {all_groups}"))
    conn.execute(text(f"REVOKE ALL ON ALL TABLES IN SCHEMA public FROM PUBLIC, {all_groups}"))
    conn.execute(text(f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM PUBLIC, {all_groups}"))
    conn.execute(text(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {all_groups}"))
    for g, name in groups.items():
        writes = dict(WRITES[g], **_AUDIT_APPEND)
        for table, privs in sorted(writes.items()):
            if table in tables:
                conn.execute(text(f"GRANT {', '.join(privs)} ON {_q(table)} TO {_q(name)}"))
        if g != "admin":
            cols = ", ".join(SELF_COLUMNS)
            conn.execute(text(f"GRANT UPDATE ({cols}) ON app_user TO {_q(name)}"))
        if WRITES[g]:
            conn.execute(text(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {_q(name)}"))
        done.append(f"{name}: reads every table; writes {', '.join(sorted(WRITES[g])) or 'nothing'}"
                    " (and appends its own audit events)")
    # app_user: an administrator changes anyone; everyone else only their own row (logging in).
    conn.execute(text("ALTER TABLE app_user ENABLE ROW LEVEL SECURITY"))
    for policy in ("idc_user_read", "idc_user_admin", "idc_user_self"):
        conn.execute(text(f"DROP POLICY IF EXISTS {policy} ON app_user"))
    conn.execute(text(f"CREATE POLICY idc_user_read ON app_user FOR SELECT TO {all_groups} USING (true)"))
    conn.execute(text(f"CREATE POLICY idc_user_admin ON app_user FOR ALL TO {_q(groups['admin'])} "
                      "USING (true) WITH CHECK (true)"))
    others = ", ".join(_q(groups[g]) for g in GROUPS if g != "admin")
    own = f"login = substr(current_user::text, {len(prefix) + 2}) AND left(current_user::text, {len(prefix) + 1}) = " \
          f"'{(prefix + '.').replace(chr(39), chr(39) * 2)}'"
    conn.execute(text(f"CREATE POLICY idc_user_self ON app_user FOR UPDATE TO {others} USING ({own}) "
                      f"WITH CHECK ({own})"))
    done.append("app_user: row-level security (administrators: every row; others: their own login counters)")
    return done


def create_login(conn: Connection, url: str, login: str, role: str, password: str) -> str:
    """The person's database login in their group, with their program password; returns its name."""
    _require_postgresql(conn)
    prefix = prefix_of(url)
    name = _check_name(person_name(prefix, login))
    group = group_name(prefix, role)
    if not _role_exists(conn, group):
        raise DomainError(f"the group role {group} does not exist: run db roles as the schema owner first")
    if _role_exists(conn, name):
        raise DomainError(f"the database login {name} exists already")
    may = conn.execute(text("SELECT rolsuper OR rolcreaterole FROM pg_roles WHERE rolname = current_user")).scalar()
    if not may:
        raise DomainError("database logins are made by the schema owner: run user add with the owner's "
                          "--db URL (this connection may not create roles), nothing was added")
    verifier = scram_verifier(password).replace("'", "''")
    conn.exec_driver_sql(f"CREATE ROLE {_q(name)} LOGIN PASSWORD '{verifier}' IN ROLE {_q(group)}")
    return name


def drop_roles(conn: Connection, url: str) -> None:
    """Drop every role of this database (its people and groups), for tests and decommissioning."""
    prefix = prefix_of(url)
    names = conn.execute(text("SELECT rolname FROM pg_roles WHERE rolname LIKE :p OR rolname = ANY(:g)"),
                         {"p": prefix.replace("_", r"\_").replace("%", r"\%") + ".%",
                          "g": [group_name(prefix, g) for g in GROUPS]}).scalars().all()
    for policy in ("idc_user_read", "idc_user_admin", "idc_user_self"):
        conn.execute(text(f"DROP POLICY IF EXISTS {policy} ON app_user"))
    for n in sorted(names, key=lambda n: "." not in n):  # people first, then their groups
        conn.execute(text(f"DROP OWNED BY {_q(n)}"))
        conn.execute(text(f"DROP ROLE {_q(n)}"))
