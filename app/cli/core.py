"""Core commands: db, user, demo, import, export, audit."""
from __future__ import annotations

import datetime as dt
import getpass
import os
import sys
from pathlib import Path

from app.cli.main import ENV_USER, LOGIN_MAX, checkpoint_arg, date_arg, output_arg
from app.domain.errors import DomainError, ValidationError
from app.domain.runs import logged_run
from app.store.config import ENV_PASSWORD, describe_url, resolve_db_url
from app.store.db import sqlite_path

ENV_NEW_PASSWORD = "IDC_CONSOLE_NEW_PASSWORD"
# The order a full migration imports them in (each refers only to kinds before it).
IMPORT_KINDS = ("regions", "subsidiaries", "users", "customers", "sites", "rooms", "racks", "device-types",
                "devices", "gpus", "contracts", "leases", "power-panels", "power-feeds", "pdus", "cables",
                "cross-connects", "maintenance", "clusters", "nodes", "health-events", "price-list")
EXPORT_KINDS = IMPORT_KINDS + ("audit", "payments", "statements", "visits")
# app/importexport/netbox.py NETBOX_ORDER (written here so that --help needs no import of the package)
NETBOX_ORDER = ("regions", "tenants", "sites", "locations", "racks", "manufacturers", "device-roles", "device-types",
                "devices", "power-panels", "power-feeds", "cables")
NETBOX_ONLY_KINDS = tuple(k for k in NETBOX_ORDER if k not in EXPORT_KINDS)


def register(sub) -> None:
    _register_db(sub)
    _register_user(sub)
    _register_demo(sub)
    _register_import_export(sub)
    _register_audit(sub)
    _register_reservation_customer(sub)


def _register_db(sub) -> None:
    """db: upgrade, current, roles, backup."""
    db = sub.add_parser("db", help="create, upgrade, inspect or back up the database")
    dbs = db.add_subparsers(dest="db_command", required=True, metavar="ACTION")
    up = dbs.add_parser("upgrade", help="create the schema or upgrade it to this version (a database that holds "
                                        "users: an administrator's --user, audited)")
    up.add_argument("--if-no-users", action="store_true",
                    help="the launcher's step: leave a database that holds users to the console's start (which "
                         "backs it up, upgrades it and records who logs in) instead of asking for an administrator")
    up.set_defaults(handler=db_upgrade)
    dbs.add_parser("current", help="show the schema revision").set_defaults(handler=db_current)
    dbs.add_parser("roles", help="PostgreSQL: create the group roles and their least privileges (run by the schema "
                                 "owner, again after each db upgrade)").set_defaults(handler=db_roles)
    b = dbs.add_parser("backup", help="copy the SQLite database to PATH (online, consistent)")
    b.add_argument("path", type=output_arg)
    b.set_defaults(handler=db_backup)


def _register_user(sub) -> None:
    """user: add, list, password, unlock."""
    user = sub.add_parser("user", help="manage users")
    us = user.add_subparsers(dest="user_command", required=True, metavar="ACTION")
    add = us.add_parser("add", help=f"add a user (password from {ENV_NEW_PASSWORD} or a prompt); "
                                    "the very first user must be an admin and needs no --user")
    add.add_argument("login")
    add.add_argument("--role", required=True, choices=["admin", "operator", "account_manager", "auditor"])
    add.add_argument("--name", help="display name")
    add.set_defaults(handler=user_add)
    us.add_parser("list", help="list users").set_defaults(handler=user_list)
    pw = us.add_parser("password", help=f"set a user's password (an administrator; new password from "
                                        f"{ENV_NEW_PASSWORD} or a prompt); your own --user LOGIN: give the current "
                                        f"one in {ENV_PASSWORD}. On PostgreSQL with roles the database login's "
                                        "password changes with it")
    pw.add_argument("login")
    pw.set_defaults(handler=user_password)
    ul = us.add_parser("unlock", help="lift a login's lock after failed attempts (an administrator; audited)")
    ul.add_argument("login")
    ul.add_argument("--reason", required=True, help="why (goes into the audit trail)")
    ul.set_defaults(handler=user_unlock)


def _register_demo(sub) -> None:
    """demo load."""
    demo = sub.add_parser("demo", help="demo data")
    ds = demo.add_subparsers(dest="demo_command", required=True, metavar="ACTION")
    load = ds.add_parser("load", help="load the deterministic demo into an empty database")
    load.add_argument("--scale", choices=["small", "large"], default="small")
    load.add_argument("--if-empty", action="store_true", help="do nothing (exit 0) when data is already there")
    load.add_argument("--force", action="store_true",
                      help="load the demo even though the database already holds users or data")
    load.set_defaults(handler=demo_load)


def _register_import_export(sub) -> None:
    """import and export."""
    imp = sub.add_parser("import", help="import CSV/XLSX (all or nothing) or device-type YAML (a file or a folder)")
    imp.add_argument("kind", choices=IMPORT_KINDS)
    imp.add_argument("file")
    imp.add_argument("--dry-run", action="store_true", help="check every row, write nothing")
    imp.add_argument("--strict", action="store_true",
                     help="device-types from YAML: refuse everything if one file is refused (default: import every "
                          "valid file, list the refused ones and exit 1)")
    imp.set_defaults(handler=import_file)

    exp = sub.add_parser("export", help="export a kind to CSV or XLSX")
    exp.add_argument("kind", choices=EXPORT_KINDS + NETBOX_ONLY_KINDS)
    exp.add_argument("--format", choices=["csv", "xlsx"],
                     help="default: the output's suffix (.xlsx: xlsx), else csv")
    exp.add_argument("--netbox", action="store_true",
                     help="write the file NetBox's bulk import takes as it is (CSV; docs/import-netbox.md): "
                          + ", ".join(NETBOX_ORDER) + ", imported into NetBox in that order")
    exp.add_argument("-o", "--output", required=True, type=output_arg)
    exp.add_argument("--filter", help="only rows containing this text")
    exp.set_defaults(handler=export_file)


def _register_audit(sub) -> None:
    """audit: verify, reconcile, export."""
    audit = sub.add_parser("audit", help="the audit trail")
    aus = audit.add_subparsers(dest="audit_command", required=True, metavar="ACTION")
    v = aus.add_parser("verify", help="recompute every link of the chain")
    v.add_argument("--expect-head", metavar="SEQ:HASH", type=checkpoint_arg, help="also prove the chain up to this checkpoint is unchanged")
    v.set_defaults(handler=audit_verify)
    rc = aus.add_parser("reconcile", help="compare every audited row with the values the trail last recorded "
                                          "(exit 1 when a row was changed outside the program)")
    rc.add_argument("--fields", action="store_true", help="also list the columns compared, by table")
    rc.set_defaults(handler=audit_reconcile)
    ae = aus.add_parser("export", help="export audit events between two dates")
    ae.add_argument("--from", dest="date_from", required=True, type=date_arg, help="YYYY-MM-DD (Asia/Shanghai)")
    ae.add_argument("--to", dest="date_to", required=True, type=date_arg, help="YYYY-MM-DD inclusive")
    ae.add_argument("--actor")
    ae.add_argument("--action")
    ae.add_argument("--format", choices=["csv", "xlsx"], default="csv")
    ae.add_argument("-o", "--output", required=True, type=output_arg)
    ae.set_defaults(handler=audit_export)


def _register_reservation_customer(sub) -> None:
    """reservation cancel, customer contacts."""
    res = sub.add_parser("reservation", help="rack reservations")
    rs = res.add_subparsers(dest="reservation_command", required=True, metavar="ACTION")
    rc = rs.add_parser("cancel", help="cancel an active reservation")
    rc.add_argument("reservation", type=int, metavar="ID")
    rc.add_argument("--reason", required=True)
    rc.set_defaults(handler=reservation_cancel)

    cust = sub.add_parser("customer", help="customers")
    cus = cust.add_subparsers(dest="customer_command", required=True, metavar="ACTION")
    cc = cus.add_parser("contacts", help="replace a customer's contacts with those of a CSV file "
                                         "(columns name,phone,email,role; UTF-8)")
    cc.add_argument("customer", type=int, metavar="CUSTOMER_ID")
    cc.add_argument("file")
    cc.add_argument("--remove-all", action="store_true",
                    help="with a file that lists no contacts, remove every contact of the customer "
                         "(without it such a file is refused)")
    cc.set_defaults(handler=customer_contacts)


def db_upgrade(ctx, args) -> int:
    """Create or upgrade the schema. A database that already holds users is upgraded only by an
    administrator (--user, checked before anything changes) and the upgrade is audited; a new or
    empty database needs no login."""
    from app.services.schema import check_upgrader, holds_users, record_upgrade, upgrade_event

    ctx.may_create = True
    path = sqlite_path(resolve_db_url(ctx.args.db))
    before = None if path is not None and not path.exists() else ctx.db.probe()
    upgrader = None
    if before is not None and before != ctx.db.head_revision():
        ctx.db.check_not_newer()
        if holds_users(ctx.db):
            if getattr(args, "if_no_users", False):
                print(f"{describe_url(ctx.db.url)}: schema {before}, behind {ctx.db.head_revision()}; it holds users, "
                      "so the console's start upgrades it (after a backup) or an administrator runs db upgrade --user")
                return 0
            name = ctx.args.user or os.environ.get(ENV_USER)
            if not name:
                raise DomainError("this database holds users: db upgrade needs an administrator's --user LOGIN "
                                  f"(password from {ENV_PASSWORD} or a prompt); nothing was changed")
            password = os.environ.get(ENV_PASSWORD)
            if password is None:
                if not sys.stdin or not sys.stdin.isatty():
                    raise DomainError(f"no password: set {ENV_PASSWORD} or run in a terminal to be asked")
                password = getpass.getpass(f"Password for {name}: ")
            upgrader = check_upgrader(ctx.db, name, password)
            credentials = (name, password)
    how = "idc-console db upgrade"
    in_transaction = None
    if upgrader is not None and not ctx.db.is_sqlite:
        # PostgreSQL: the event commits with the upgrade (DDL is transactional), never one without the other
        def in_transaction(connection):
            upgrade_event(connection, upgrader, before, ctx.db.head_revision(), how)
    ctx.open_upgraded(in_transaction)
    from app.services.reference import seed_regions
    seeded = seed_regions(ctx.db)  # a new database: the shipped GB/T 2260 list (README, "Regions")
    if seeded is not None:
        print(f"{describe_url(ctx.db.url)}: loaded {seeded.added} regions (GB/T 2260, 民政部 2024-12-31)")
    from app.services.baselines import seed_baselines
    based = seed_baselines(ctx.db)  # the rows migrations loaded: a baseline event each (audit reconcile)
    if based:
        print(f"{describe_url(ctx.db.url)}: a baseline audit event for each of {based} rows loaded by migrations")
    after = ctx.db.current_revision()
    if upgrader is not None and in_transaction is None:   # SQLite: as before, the person's login, then the event
        from app.services.users import login

        record_upgrade(ctx.db, login(ctx.db, *credentials), before, after, how)
    print(f"{describe_url(ctx.db.url)}: schema {before or '(empty)'} -> {after}"
          + (f" (by {upgrader.login}, audited)" if upgrader else ""))
    return 0


def db_current(ctx, args) -> int:
    ctx.db.check_not_newer()
    cur, head = ctx.db.current_revision(), ctx.db.head_revision()
    print(f"{describe_url(ctx.db.url)}: {cur or '(empty)'}{' (head)' if cur == head else f' (head is {head})'}")
    return 0


def db_roles(ctx, args) -> int:
    from app.store.dbroles import setup_roles

    db = ctx.current()
    with db.engine.begin() as conn:
        done = setup_roles(conn, db.url)
    for line in done:
        print(line)
    print("user add, user password and the Users page keep each person's database login in step; connect as a "
          "person with --user LOGIN and a --db URL that names no user")
    return 0


def db_backup(ctx, args) -> int:
    ctx.db.check_not_newer()
    if not ctx.db.is_sqlite:
        raise DomainError("db backup copies SQLite files; for PostgreSQL use pg_dump")
    path = ctx.db.backup_sqlite(Path(args.path))
    print(f"backed up {describe_url(ctx.db.url)} to {path}")
    return 0


def _new_password(login: str) -> str:
    pw = os.environ.get(ENV_NEW_PASSWORD)
    if pw:
        return pw
    if not sys.stdin or not sys.stdin.isatty():
        raise DomainError(f"no password for {login}: set {ENV_NEW_PASSWORD} or run in a terminal")
    pw = getpass.getpass(f"New password for {login}: ")
    if pw != getpass.getpass("Again: "):
        raise ValidationError({"password": "the two passwords differ"})
    return pw


def user_add(ctx, args) -> int:
    from app.services.users import add_user, has_users

    if len(args.login) > LOGIN_MAX:
        raise ValidationError({"login": f"at most {LOGIN_MAX} characters"})
    ctx.current()
    actor = ctx.actor() if has_users(ctx.db) else None
    if actor is None and not os.environ.get(ENV_NEW_PASSWORD) and os.environ.get(ENV_PASSWORD):
        os.environ[ENV_NEW_PASSWORD] = os.environ[ENV_PASSWORD]  # first admin: one password variable is enough
    password = _new_password(args.login)
    user = add_user(ctx.db, actor, args.login, args.role, password, args.name)
    print(f"added {user.login} ({user.role})" + (f"; database login {user.db_login}" if user.db_login else ""))
    return 0


def user_password(ctx, args) -> int:
    from app.services.users import change_own_password, find_user, update_user

    actor = ctx.actor()
    new = _new_password(args.login)
    if args.login == actor.login:
        change_own_password(ctx.db, actor, os.environ.get(ENV_PASSWORD) or "", new)
        print(f"changed your password ({actor.login})")
        return 0
    target = find_user(ctx.db, args.login)
    info = update_user(ctx.db, actor, target.id, target.version, password=new)
    print(f"set {info.login}'s password" + (f" and that of the database login {info.db_login}" if info.db_login else ""))
    return 0


def user_unlock(ctx, args) -> int:
    from app.services.users import find_user, unlock_user

    actor = ctx.actor()
    info = unlock_user(ctx.db, actor, find_user(ctx.db, args.login).id, args.reason)
    print(f"unlocked {info.login}")
    return 0


def user_list(ctx, args) -> int:
    from app.services.users import list_users

    ctx.reader()
    from app.domain.clock import local_text

    for u in list_users(ctx.db):
        lock = ""
        if u.locked_until is not None and u.locked_until > dt.datetime.now(dt.timezone.utc):
            lock = f"  locked until {local_text(u.locked_until)} ({u.failed_logins} failed)"
        elif u.failed_logins:
            lock = f"  {u.failed_logins} failed login(s)"
        print(f"{u.login:16} {u.role:16} {'active' if u.active else 'disabled':9} {u.display_name}{lock}")
    return 0


def demo_load(ctx, args) -> int:
    from app.services.users import has_users, list_users

    ctx.current()
    if _has_data(ctx.db) or has_users(ctx.db):
        if args.if_empty:
            print("the database already has data; demo not loaded")
            return 0
        if not args.force:
            n_users = len(list_users(ctx.db))
            raise DomainError(f"{describe_url(ctx.db.url)} already holds data ({n_users} user(s)"
                              f"{', customers and sites' if _has_data(ctx.db) else ''}); the demo is for an "
                              "empty database: use a new --db, or add --force to load it on top")
    actor = ctx.actor() if has_users(ctx.db) else None
    if args.scale == "large":
        load_large = getattr(args, "load_large", None)   # given by the bench package (bench/cli.py), not app/
        if load_large is None:
            raise DomainError("--scale large comes with the bench package: run it through idc-console")
        summary = load_large(ctx.db, actor, progress=lambda m: print(m, file=sys.stderr, flush=True))
    else:
        from app.demo.load import load_demo

        summary = load_demo(ctx.db, actor, progress=lambda m: print(f"loading {m} …", file=sys.stderr, flush=True))
    print(describe_summary(summary, describe_url(ctx.db.url)))
    return 0


def describe_summary(summary, where: str) -> str:
    """`loaded the demo into X: 6 users, 7 sites, …` and the login hint on its own line."""
    import dataclasses

    if not dataclasses.is_dataclass(summary):
        return str(summary)
    counts, notes = [], []
    for f in dataclasses.fields(summary):
        value = getattr(summary, f.name)
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            counts.append(f"{value:,} {f.name.replace('_', ' ')}")
        elif isinstance(value, str) and value:
            notes.append(value)
    return "\n".join([f"loaded the demo into {where}: " + ", ".join(counts)] + notes)


def _has_data(db) -> bool:
    from sqlalchemy import func, select

    from models import Subsidiary

    with db.session() as s:
        return s.execute(select(func.count()).select_from(Subsidiary)).scalar_one() > 0


def import_file(ctx, args) -> int:
    from app.domain.progress import terminal_progress
    from app.importexport import _is_yaml_source, run_import

    actor = ctx.actor()
    if args.kind == "device-types" and _is_yaml_source(args.file):
        from app.importexport.devicetypes import import_device_types

        result = import_device_types(ctx.db, actor, Path(args.file), dry_run=args.dry_run, strict=args.strict)
        print(result.summary())
        return 1 if result.refused else 0
    progress = terminal_progress(f"importing {args.kind}")  # stderr, only on a terminal
    try:
        result = run_import(ctx.db, actor, args.kind, Path(args.file), dry_run=args.dry_run, progress=progress)
    finally:
        if progress is not None:
            progress.close()
    print(result.summary() if hasattr(result, "summary") else result)
    return 1 if getattr(result, "failing", ()) else 0


def export_file(ctx, args) -> int:
    from app.domain.progress import terminal_progress
    from app.importexport import export_total, output_format, run_export

    actor = ctx.actor() if ctx.args.user else ctx.reader()
    if args.netbox or args.kind in NETBOX_ONLY_KINDS:
        from app.importexport.netbox import run_netbox_export
        if not args.netbox:
            raise ValidationError({"kind": f"{args.kind} is a NetBox file: add --netbox"})
        if args.filter or args.format == "xlsx":
            raise ValidationError({"netbox": "--netbox writes a whole kind as CSV (no --filter, no xlsx)"})
        print(run_netbox_export(ctx.db, actor, args.kind, Path(args.output)).summary())
        return 0
    progress = terminal_progress(f"exporting {args.kind}")  # stderr, only on a terminal
    if progress is not None and not args.filter:
        progress.total = export_total(ctx.db, args.kind)
    try:
        result = run_export(ctx.db, actor, args.kind, Path(args.output), args.format or output_format(args.output),
                            filter_text=args.filter, progress=progress)
    finally:
        if progress is not None:
            progress.close()
    print(result.summary() if hasattr(result, "summary") else result)
    return 0


def audit_verify(ctx, args) -> int:
    from app.audit.state import verify_and_remember

    ctx.current()
    with ctx.db.session() as s:
        result = verify_and_remember(ctx.db, s, expect_head=args.expect_head)
    if result.ok:
        print(f"OK {result.count} events; head {result.head}")
        if args.expect_head:
            print(f"checkpoint {args.expect_head} is part of this chain")
        return 0
    print(f"FAILED at event #{result.bad_seq}: {result.problem}", file=sys.stderr)
    print(f"verified {result.count} events before it; last good {result.head}", file=sys.stderr)
    return 1


def audit_reconcile(ctx, args) -> int:
    from app.audit.reconcile import reconcile

    ctx.current()
    with ctx.db.session() as s:
        result = logged_run("audit reconcile", name=__name__, end=lambda r: dict(
            ok=r.ok, rows=r.compared_rows, fields=r.compared_fields, events=r.events,
            not_audited=r.not_audited_rows, differences=len(r.differences)))(reconcile)(s)
    print(f"compared {result.compared_rows:,} rows ({result.compared_fields:,} fields) with the values "
          f"{result.events:,} audit events recorded; {result.not_audited_rows:,} rows named by no event "
          "were not compared")
    for table, (n, keys) in sorted(result.unexplained.items()):
        print(f"  named by no event: {table}: {n:,} rows ({', '.join(keys)}{' …' if n > len(keys) else ''})")
    if args.fields:
        for table, fields in sorted(result.fields_by_table.items()):
            print(f"  {table}: {', '.join(fields)}")
    if result.ok:
        print("OK: every audited row holds the values the audit trail last recorded")
        return 0
    for d in result.differences:
        print(d.describe())
    print(f"{len(result.differences):,} difference(s): these rows were changed outside the program "
          "(with SQL, or by restoring part of a backup)", file=sys.stderr)
    return 1


def audit_export(ctx, args) -> int:
    from app.importexport.export import export_audit

    actor = ctx.actor() if ctx.args.user else ctx.reader()
    result = export_audit(ctx.db, actor, args.date_from, args.date_to, Path(args.output), args.format,
                          actor_login=args.actor, action=args.action, language=ctx.args.lang or "zh")
    print(result)
    return 0


def reservation_cancel(ctx, args) -> int:
    from app.services.dcim import cancel_reservation

    cancel_reservation(ctx.db, ctx.actor(), args.reservation, args.reason)
    print(f"reservation {args.reservation} cancelled")
    return 0


def customer_contacts(ctx, args) -> int:
    from app.domain.errors import ValidationError
    from app.services.customers import set_contacts
    from app.store.tablefile import read_records

    rows = [{str(k).strip().lower(): (str(v).strip() if v is not None else "") or None
             for k, v in row.items() if k and isinstance(k, str)} for row in read_records(args.file)]
    if not rows and not getattr(args, "remove_all", False):
        raise ValidationError({"file": f"{args.file} lists no contacts, and the file replaces the customer's "
                                       "contacts: nothing was changed. To remove them all, add --remove-all"})
    set_contacts(ctx.db, ctx.actor(), args.customer, rows)
    print(f"customer {args.customer}: {len(rows)} contact(s)")
    return 0
