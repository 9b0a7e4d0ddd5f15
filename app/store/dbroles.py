"""PostgreSQL roles: the program's four roles enforced by the database itself (`db roles`).

Without them everyone connects with one shared login that can change any row, drop the
triggers or rewrite the audit table with psql. With them:

- four group roles per database, `<db>_admin`, `<db>_operator`, `<db>_account_manager`,
  `<db>_auditor` (NOLOGIN), each with only the table privileges its use cases need (`WRITES`);
  auditors read only;
- one login role per person, `<db>.<login>`, member of their group, kept in step with the program's
  user by the users service (add, password, role change, disable: `sync_login`) and made for every
  existing user by `db roles` itself; the password is sent as a SCRAM-SHA-256 verifier, never as
  text, so that one password opens both; the console and the CLI connect as the person;
- no group may write the audit tables: appends go through the owner's SECURITY DEFINER function
  `audit_append` (migration 0016), which accepts only events that continue the head and moves the
  head with them; `app_user` is written directly only by administrators, logging in goes through
  `idc_login_state` and one's own password through `idc_own_password`;
- nobody but the owner may TRUNCATE any table or ALTER/DROP tables and triggers (only a table's
  owner may; the groups own nothing); an issued statement stays frozen by its trigger.

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

from app.domain.errors import DomainError

GROUPS = ("admin", "operator", "account_manager", "auditor")
NAME_MAX = 63  # PostgreSQL truncates longer identifiers silently: refuse them instead

# Writes each group may make, by table (every group reads every table), in one table: what each of the
# program's permissions writes. A group writes what the permissions of its role (auth.PERMISSIONS) write,
# so the database grants exactly what the services may do (WRITES is derived, never declared apart).
IUD = ("INSERT", "UPDATE", "DELETE")
INSERT_ONLY = ("INSERT",)   # readings are imported, never changed or deleted by the program
PERMISSION_WRITES: dict[str, dict[str, tuple[str, ...]]] = {
    "read": {}, "export": {}, "print": {}, "override_power": {},
    "manage_users": {"app_user": IUD, "app_setting": IUD,   # settings set: app/services/settings.py
                     "tax_code": IUD},                       # fapiao.set_tax_code
    # tax_rate is loaded by migrations only: no group writes it
    "manage_reference": {t: IUD for t in ("region", "subsidiary", "site", "room", "coverage")},
    "manage_dcim": {t: IUD for t in ("rack", "device", "device_type", "power_panel", "power_feed", "pdu_feed",
                                     "power_connection", "cable", "cross_connect")},
    "reserve_racks": {t: IUD for t in ("rack_reservation", "space_lease", "cage")},
    "manage_gpus": {t: IUD for t in ("gpu_asset", "device_gpu_count", "gpu_model", "gpu_history", "gpu_lease", "downtime",
                                     # GPU clusters (issue 25, app/services/clusters/): topology, node
                                     # state and history, burn-in, health events; a swap of a leased
                                     # node moves the item's GPUs and leases (contract_item_gpu)
                                     "gpu_cluster", "scaleup_domain", "gpu_node", "fabric_switch",
                                     "gpu_node_history", "health_event", "node_burn_in", "node_swap",
                                     "contract_item_gpu")},
    "import": {"meter_reading": INSERT_ONLY, "circuit_reading": INSERT_ONLY},
    "manage_customers": {t: IUD for t in ("customer", "contact", "invoicing_profile")},
    "draft_contracts": {t: IUD for t in ("contract", "contract_item", "contract_item_gpu", "document_counter",
                                         # holds and quotes (app/services/capacity/)
                                         "capacity_hold", "capacity_hold_node", "quote", "quote_line")},
    "manage_prices": {"price_list": IUD},
    "approve_contracts": {t: IUD for t in ("contract", "contract_item", "contract_item_gpu", "gpu_asset", "device_gpu_count",
                                           "gpu_history", "gpu_lease")},
    "run_billing": {t: IUD for t in ("statement", "statement_line", "payment", "payment_allocation", "fapiao",
                                     "deposit_entry", "overdue_decision",
                                     "document_counter")},
    # the operations desk (app/services/operations/)
    "raise_tickets": {t: IUD for t in ("ticket", "ticket_object", "ticket_event", "ticket_attachment")},
    "work_tickets": {t: IUD for t in ("ticket", "ticket_object", "ticket_event", "ticket_attachment",
                                      "sla_breach", "sla_credit", "notification",   # the sweep proposes credits
                                      "ticket_sla_state")},                          # and keeps the clocks it found
    "manage_oncall": {t: IUD for t in ("oncall_shift", "notification")},
    "manage_sla": {t: IUD for t in ("sla_calendar", "holiday_day", "sla_target", "sla_credit_rule")},
    "approve_credits": {t: IUD for t in ("sla_credit",)},
    # the operations desk (app/services/operations/maintenance.py, visits.py)
    "plan_maintenance": {t: IUD for t in ("maintenance_window", "maintenance_impact")},
    "authorise_access": {"site_access": IUD},
    "request_visits": {t: IUD for t in ("visit", "visit_rack", "visitor")},
    "approve_visits": {"visit": ("UPDATE",)},
    "guard_desk": {t: ("UPDATE",) for t in ("visit", "visitor")},
    "see_id_numbers": {},
}


def _writes_of(role: str) -> dict[str, tuple[str, ...]]:
    from app.domain.auth import PERMISSIONS

    out: dict[str, set[str]] = {}
    for permission, roles in PERMISSIONS.items():
        if role in roles:
            for table, privs in PERMISSION_WRITES[permission].items():
                out.setdefault(table, set()).update(privs)
    return {t: tuple(p for p in IUD if p in privs) for t, privs in sorted(out.items())}


WRITES: dict[str, dict[str, tuple[str, ...]]] = {g: _writes_of(g) for g in GROUPS}
# Each function's callers: every group, or the groups named (migration 0029: auditors only read, so
# they may not call audit_append; their logins and exports go through audit_note).
FUNCTIONS = ("audit_head_lock()", "audit_append(jsonb)", "audit_note(jsonb)",
             "idc_login_state(text, text, timestamp without time zone, text)",
             "idc_person_login(text, text, boolean, text)", "idc_own_password(text, text)",
             "idc_password_setting(text)", "idc_password_matches(text, text)")
CALLERS: dict[str, tuple[str, ...]] = {"audit_append(jsonb)": ("admin", "operator", "account_manager")}
# Owner-only helpers the functions above use (nobody may call them directly).
INTERNAL_FUNCTIONS = ("idc_is_manager()", "idc_is_self(text)", "idc_is_trusted()", "idc_session_person()",
                      "idc_audit_insert(jsonb, text[])", "idc_audit_payload(audit_event)",
                      "idc_login_fingerprint(text)",
                      "idc_sla_rules_moved()")   # migration 0041's trigger function
NEVER_WRITTEN = ("alembic_version", "app_secret",   # the owner's alone (migrations)
                 "sla_rules_generation")           # moved by migration 0041's triggers, as the owner
LOADED_BY_MIGRATIONS = ("tax_rate",)                 # no program path writes them: no group either
# Rows a migration loads that get a baseline event (app/services/baselines.py, baseline_events below), so
# that audit reconcile compares them (app/audit/reconcile.py).
BASELINE_TABLES = ("tax_rate", "tax_code", "gpu_model", "holiday_day", "sla_calendar", "sla_target")
# (their rows get baseline events: baseline_events below, app/services/baselines.py)
NEVER_READ = ("app_secret",)                         # the login-HMAC key: the server's alone
HIDDEN_COLUMNS = {"app_user": ("password_hash",)}    # checked through idc_password_matches, never read

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

    Idempotent. Every `db upgrade` of a database that has roles grants again in its own transaction
    (regrant_after_upgrade): new tables and functions get their grants with the schema that makes them.
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
    if conn.execute(text("SELECT to_regprocedure('public.audit_note(jsonb)')")).scalar() is None:
        raise DomainError("the database is at an older schema (no audit_note function): run db upgrade first")
    done = []
    groups = {g: _check_name(group_name(prefix, g)) for g in GROUPS}
    for _g, name in groups.items():
        if not _role_exists(conn, name):
            conn.execute(text(f"CREATE ROLE {_q(name)} NOLOGIN"))
            done.append(f"created group role {name}")
    all_groups = ", ".join(_q(n) for n in groups.values())
    done.extend(grant(conn, groups))
    # app_user: only administrators write it directly; logging in and one's own password go through
    # idc_login_state / idc_own_password.
    conn.execute(text("ALTER TABLE app_user ENABLE ROW LEVEL SECURITY"))
    for policy in ("idc_user_read", "idc_user_admin", "idc_user_self"):
        conn.execute(text(f"DROP POLICY IF EXISTS {policy} ON app_user"))
    conn.execute(text(f"CREATE POLICY idc_user_read ON app_user FOR SELECT TO {all_groups} USING (true)"))
    conn.execute(text(f"CREATE POLICY idc_user_admin ON app_user FOR ALL TO {_q(groups['admin'])} "
                      "USING (true) WITH CHECK (true)"))
    done.append("app_user: row-level security; written by administrators, and by logging in only through "
                "idc_login_state")
    n = baseline_events(conn)
    if n:
        done.append(f"audit trail: a baseline event for each of {n} rows loaded by migrations (audit reconcile "
                    "compares them from now on)")
    done.extend(sync_all_logins(conn))
    return done


def grant(conn: Connection, groups: dict[str, str]) -> list[str]:
    """Every privilege of the groups (`group -> role name`), taken and given again: database, schema,
    tables and columns, sequences, functions (EXECUTE from PUBLIC taken). Run by `db roles` and, on a
    database that has roles, by every `db upgrade` in the migrations' own transaction (`regrant_after_upgrade`),
    so that a new table or function is never left with PostgreSQL's defaults (EXECUTE for PUBLIC) until
    someone runs `db roles` again."""
    tables = conn.execute(text("SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                               "ORDER BY tablename")).scalars().all()
    db = _q(conn.execute(text("SELECT current_database()")).scalar())
    done = []
    all_groups = ", ".join(_q(n) for n in groups.values())
    conn.execute(text(f"REVOKE ALL ON DATABASE {db} FROM PUBLIC"))
    conn.execute(text(f"GRANT CONNECT ON DATABASE {db} TO {all_groups}"))
    conn.execute(text("REVOKE ALL ON SCHEMA public FROM PUBLIC"))
    conn.execute(text(f"GRANT USAGE ON SCHEMA public TO {all_groups}"))
    conn.execute(text(f"REVOKE ALL ON ALL TABLES IN SCHEMA public FROM PUBLIC, {all_groups}"))
    conn.execute(text(f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM PUBLIC, {all_groups}"))
    conn.execute(text(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {all_groups}"))
    # (REVOKE ALL on the tables above also took the column grants of an earlier version of db roles.)
    for table in NEVER_READ:
        conn.execute(text(f"REVOKE SELECT ON {_q(table)} FROM {all_groups}"))
    for table, hidden in HIDDEN_COLUMNS.items():
        cols = conn.execute(text("SELECT column_name FROM information_schema.columns WHERE table_schema = "
                                 "'public' AND table_name = :t ORDER BY ordinal_position"), {"t": table}).scalars()
        shown = ", ".join(_q(c) for c in cols if c not in hidden)
        conn.execute(text(f"REVOKE SELECT ON {_q(table)} FROM {all_groups}"))
        conn.execute(text(f"GRANT SELECT ({shown}) ON {_q(table)} TO {all_groups}"))
    for f in INTERNAL_FUNCTIONS:   # used inside the others only
        if conn.execute(text("SELECT to_regprocedure(:f)"), {"f": f}).scalar() is not None:
            conn.execute(text(f"REVOKE ALL ON FUNCTION {f} FROM PUBLIC, {all_groups}"))
    for f in FUNCTIONS:
        if conn.execute(text("SELECT to_regprocedure(:f)"), {"f": f}).scalar() is None:
            continue   # (an upgrade stopped at an older revision)
        conn.execute(text(f"REVOKE ALL ON FUNCTION {f} FROM PUBLIC, {all_groups}"))
        callers = ", ".join(_q(groups[g]) for g in CALLERS.get(f, GROUPS))
        conn.execute(text(f"GRANT EXECUTE ON FUNCTION {f} TO {callers}"))
    for g, name in groups.items():
        for table, privs in sorted(WRITES[g].items()):
            if table in tables:
                conn.execute(text(f"GRANT {', '.join(privs)} ON {_q(table)} TO {_q(name)}"))
        if WRITES[g]:
            conn.execute(text(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {_q(name)}"))
        done.append(f"{name}: reads every table; writes {', '.join(sorted(WRITES[g])) or 'nothing'}"
                    " (appends to the audit trail only through audit_append)")
    return done


def regrant_after_upgrade(conn: Connection) -> bool:
    """On a PostgreSQL database that has roles (its `<db>_admin` group exists): grant() again, in the
    upgrade's transaction. False (nothing done) on SQLite or without roles."""
    if conn.dialect.name != "postgresql":
        return False
    prefix = conn.execute(text("SELECT current_database()")).scalar()
    groups = {g: group_name(prefix, g) for g in GROUPS}
    if not all(_role_exists(conn, n) for n in groups.values()):
        return False
    grant(conn, groups)
    return True


def baseline_events(conn: Connection) -> int:
    """A baseline event (`<table>.baseline`, by the system) for each row loaded by a migration that no event
    names yet (the VAT rates, tax codes and GPU models: BASELINE_TABLES), so that
    `audit reconcile` compares them; the server hashes them like every other event. Idempotent. The same
    events as app/services/baselines.py writes at `db upgrade` (this one in db roles' own transaction)."""
    labels = {"tax_rate": "t.category || ' ' || t.valid_from::text", "tax_code": "t.line_kind || ' ' || t.tax_rate::text",
              "gpu_model": "t.name", "holiday_day": "t.day::text || ' ' || t.name", "sla_calendar": "t.name",
              "sla_target": "coalesce(t.service_level, '') || ' ' || t.priority"}
    keys = {"holiday_day": "day"}   # the rest have an id
    total = 0
    for table in BASELINE_TABLES:
        key = keys.get(table, "id")
        missing = (f"FROM {table} t WHERE NOT EXISTS (SELECT 1 FROM audit_event e WHERE e.object_type = '{table}' "
                   f"AND e.object_id = t.{key}::text)")
        n = conn.execute(text(f"SELECT count(*) {missing}")).scalar()
        if n:
            conn.execute(text(f"""SELECT idc_audit_insert(jsonb_agg(jsonb_build_object(
                'actor_id', NULL, 'actor_login', 'system', 'actor_name', 'System', 'actor_role', 'admin',
                'host', 'db roles', 'app_version', 'baseline', 'request_id', gen_random_uuid()::text,
                'action', '{table}.baseline', 'object_type', '{table}', 'object_id', t.{key}::text,
                'object_label', {labels[table]},
                'after', (to_jsonb(t) - 'id' - 'version' - 'updated_at' - 'updated_by' - 'created_at')::text,
                'reason', 'baseline: loaded by a migration', 'outcome', 'success') ORDER BY t.{key}), NULL) """ + missing))
        total += n
    return total


def sync_all_logins(conn: Connection) -> list[str]:
    """Every program user gets a database login in their group (active: LOGIN, else NOLOGIN).

    A login made here has no password yet (the program keeps only an argon2id hash): it opens once an
    administrator sets the person's password (`user password LOGIN`, or the Users page) or the person
    changes it while connected otherwise.
    """
    rows = conn.execute(text("SELECT login, role, active FROM app_user ORDER BY login")).all()
    done = []
    for login, role, active in rows:
        name = person_name(conn.execute(text("SELECT current_database()")).scalar(), login)
        existed = _role_exists(conn, name)
        has_password = existed and conn.execute(
            text("SELECT rolpassword IS NOT NULL FROM pg_authid WHERE rolname = :n"), {"n": name}).scalar() \
            if _can_read_authid(conn) else existed
        conn.execute(text("SELECT idc_person_login(:l, :r, :a, NULL)"), {"l": login, "r": role, "a": active})
        state = "LOGIN" if active else "NOLOGIN (disabled)"
        note = "" if has_password or not active else "; no password yet: set one with user password " + login
        done.append(f"{'kept' if existed else 'created'} database login {name} in {role}, {state}{note}")
    return done


def _can_read_authid(conn: Connection) -> bool:
    return bool(conn.execute(text("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")).scalar())


def connection_has_roles(session) -> bool:
    """PostgreSQL with `db roles` done for this database (its admin group exists)."""
    if session.get_bind().dialect.name != "postgresql":
        return False
    return bool(session.execute(text("SELECT EXISTS (SELECT 1 FROM pg_roles "
                                     "WHERE rolname = current_database() || '_admin')")).scalar())


def connected_person(session) -> str | None:
    """The program login whose database login this connection is (`<db>.<login>`), else None; read once
    per engine, with the trail's other facts about the server (app.audit.trail.connected_person)."""
    from app.audit.trail import connected_person as person_of
    return person_of(session)


def sync_login(session, login: str, role: str, active: bool, password: str | None = None) -> str | None:
    """Keep the person's database login in step with their program account, in the caller's transaction:
    create it if missing, its group = their role, LOGIN while active (else NOLOGIN), and the password
    (as a SCRAM-SHA-256 verifier) when one is given. None when the database has no roles (SQLite, or
    PostgreSQL before `db roles`); else the login's name."""
    if not connection_has_roles(session):
        return None
    prefix = session.execute(text("SELECT current_database()")).scalar()
    name = _check_name(person_name(prefix, login))
    session.execute(text("SELECT idc_person_login(:l, :r, :a, :v)"),
                    {"l": login, "r": role, "a": active, "v": scram_verifier(password) if password else None})
    return name


def set_own_password(session, password_hash: str, password: str) -> str:
    """The connected person's own password, program and database, in one statement (idc_own_password)."""
    return session.execute(text("SELECT idc_own_password(:h, :v)"),
                           {"h": password_hash, "v": scram_verifier(password)}).scalar()


def check_scram(verifier: str, password: str) -> bool:
    """Whether a stored SCRAM-SHA-256 verifier (pg_authid.rolpassword) accepts `password` (RFC 5802/7677):
    SaltedPassword = PBKDF2-HMAC-SHA-256(password, salt, i); StoredKey = H(HMAC(SaltedPassword,
    "Client Key")); ServerKey = HMAC(SaltedPassword, "Server Key")."""
    try:
        mech, rest = verifier.split("$", 1)
        params, keys = rest.split("$", 1)
        iterations, salt = params.split(":", 1)
        stored_key, server_key = keys.split(":", 1)
    except ValueError:
        return False
    if mech != "SCRAM-SHA-256":
        return False
    salted = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), base64.b64decode(salt), int(iterations))
    client_key = hmac.new(salted, b"Client Key", hashlib.sha256).digest()
    ok_stored = hmac.compare_digest(hashlib.sha256(client_key).digest(), base64.b64decode(stored_key))
    ok_server = hmac.compare_digest(hmac.new(salted, b"Server Key", hashlib.sha256).digest(),
                                    base64.b64decode(server_key))
    return ok_stored and ok_server


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
