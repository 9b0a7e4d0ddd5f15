"""definer functions: audit appends, login bookkeeping and database logins without table rights

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-30

PostgreSQL only (SQLite has no roles). SECURITY DEFINER functions owned by the schema owner, so
that `db roles` can take INSERT/UPDATE on the audit tables and every write of `app_user` from the
non-admin groups (auditors read only) while the program still appends its trail, counts failed
logins and keeps each person's database login in step with their program account:

- audit_head_lock(): the head (seq, hash), locked for this transaction (what the client links to);
- audit_append(events jsonb): inserts events that continue the head exactly (seq + 1, prev_hash =
  head hash, each next one linked to the one before) and moves the head, in one call; anything
  else is refused. The client computes each hash (app/audit.py, the one definition);
- idc_login_state(login, op, until, hash): a login's failure counter, lock and rehash (logging in);
- idc_person_login(login, role, active, verifier): create or update the person's database login
  `<db>.<login>` (group, LOGIN/NOLOGIN, SCRAM verifier); administrators and the owner only;
- idc_own_password(hash, verifier): the connected person's own password, program and database.

`db roles` (app/dbroles.py) revokes EXECUTE from PUBLIC and grants it to the groups.
"""
from typing import Sequence, Union

from alembic import op

revision: str = '0016'
down_revision: Union[str, Sequence[str], None] = '0015'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

GROUPS = "('admin', 'operator', 'account_manager', 'auditor')"
SAFE = "SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp"
FUNCTIONS = ("idc_is_manager()", "idc_is_self(text)", "audit_head_lock()", "audit_append(jsonb)",
             "idc_login_state(text, text, timestamp without time zone, text)",
             "idc_person_login(text, text, boolean, text)", "idc_own_password(text, text)")


def upgrade() -> None:
    if op.get_context().dialect.name != "postgresql":
        return
    # Who may manage logins: the owner (session_user = this function's owner), a superuser, or a
    # member of this database's admin group.
    op.execute(f"""CREATE FUNCTION idc_is_manager() RETURNS boolean LANGUAGE sql STABLE {SAFE} AS $$
        SELECT session_user = current_user
            OR coalesce((SELECT rolsuper FROM pg_roles WHERE rolname = session_user), false)
            OR CASE WHEN EXISTS (SELECT 1 FROM pg_roles WHERE rolname = current_database() || '_admin')
                    THEN pg_has_role(session_user, current_database() || '_admin', 'MEMBER')
                    ELSE false END $$""")
    op.execute(f"""CREATE FUNCTION idc_is_self(p_login text) RETURNS boolean LANGUAGE sql STABLE {SAFE} AS $$
        SELECT session_user::text = current_database() || '.' || p_login $$""")
    op.execute(f"""CREATE FUNCTION audit_head_lock(OUT seq bigint, OUT hash text) LANGUAGE sql {SAFE} AS $$
        SELECT h.seq::bigint, h.hash::text FROM public.audit_head h WHERE h.id = 1 FOR UPDATE $$""")
    op.execute(f"""CREATE FUNCTION audit_append(events jsonb) RETURNS bigint LANGUAGE plpgsql {SAFE} AS $$
        DECLARE
          h_seq bigint; h_hash text; e public.audit_event;
        BEGIN
          IF jsonb_typeof(events) IS DISTINCT FROM 'array' OR jsonb_array_length(events) = 0 THEN
            RAISE EXCEPTION 'audit_append: a non-empty array of events is required';
          END IF;
          SELECT h.seq, h.hash INTO h_seq, h_hash FROM public.audit_head h WHERE h.id = 1 FOR UPDATE;
          FOR e IN SELECT r.* FROM jsonb_array_elements(events) WITH ORDINALITY AS x(doc, i),
                   LATERAL jsonb_populate_record(NULL::public.audit_event, x.doc) AS r ORDER BY x.i LOOP
            IF e.seq IS DISTINCT FROM h_seq + 1 OR e.prev_hash IS DISTINCT FROM h_hash THEN
              RAISE EXCEPTION 'audit_append: event #% (previous hash %) does not continue the head #% (%)',
                e.seq, e.prev_hash, h_seq, h_hash;
            END IF;
            IF e.hash IS NULL OR e.hash !~ '^[0-9a-f]{{64}}$' THEN
              RAISE EXCEPTION 'audit_append: event #% has no valid hash', e.seq;
            END IF;
            INSERT INTO public.audit_event SELECT e.*;
            h_seq := e.seq; h_hash := e.hash;
          END LOOP;
          UPDATE public.audit_head SET seq = h_seq, hash = h_hash WHERE id = 1;
          RETURN h_seq;
        END $$""")
    # Logging in: count a failure (returns the count), lock for at most a day, or end the streak
    # (and store a rehashed password: the person themselves, an administrator or the owner only).
    op.execute(f"""CREATE FUNCTION idc_login_state(p_login text, p_op text, p_until timestamp, p_hash text)
        RETURNS integer LANGUAGE plpgsql {SAFE} AS $$
        DECLARE n integer;
        BEGIN
          IF p_op = 'fail' THEN
            UPDATE public.app_user SET failed_logins = failed_logins + 1 WHERE login = p_login
              RETURNING failed_logins INTO n;
            RETURN n;
          ELSIF p_op = 'lock' THEN
            IF p_until IS NULL OR p_until > (now() AT TIME ZONE 'utc') + interval '1 day' THEN
              RAISE EXCEPTION 'idc_login_state: a lock lasts at most a day';
            END IF;
            UPDATE public.app_user SET locked_until = p_until WHERE login = p_login AND failed_logins > 0;
            RETURN NULL;
          ELSIF p_op = 'ok' THEN
            IF NOT (idc_is_self(p_login) OR idc_is_manager()) THEN
              RAISE EXCEPTION 'idc_login_state: only % or an administrator may end its failure streak', p_login
                USING ERRCODE = '42501';
            END IF;
            UPDATE public.app_user SET failed_logins = 0, locked_until = NULL,
                   password_hash = coalesce(p_hash, password_hash) WHERE login = p_login;
            RETURN 0;
          END IF;
          RAISE EXCEPTION 'idc_login_state: unknown operation %', p_op;
        END $$""")
    op.execute(f"""CREATE FUNCTION idc_person_login(p_login text, p_role text, p_active boolean, p_verifier text)
        RETURNS text LANGUAGE plpgsql {SAFE} AS $$
        DECLARE
          prefix text := current_database();
          person text := current_database() || '.' || p_login;
          grp text := current_database() || '_' || p_role;
          g text; made boolean := false;
        BEGIN
          IF NOT idc_is_manager() THEN
            RAISE EXCEPTION 'database logins are managed by administrators' USING ERRCODE = '42501';
          END IF;
          IF p_role NOT IN {GROUPS} THEN
            RAISE EXCEPTION 'idc_person_login: unknown role %', p_role;
          END IF;
          IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = grp) THEN
            RAISE EXCEPTION 'the group role % does not exist: run db roles as the schema owner first', grp;
          END IF;
          IF octet_length(person) > 63 THEN
            RAISE EXCEPTION 'the database role name % is longer than 63 bytes', person;
          END IF;
          IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = person) THEN
            EXECUTE format('CREATE ROLE %I NOLOGIN', person);
            made := true;
          END IF;
          EXECUTE format('ALTER ROLE %I %s', person, CASE WHEN p_active THEN 'LOGIN' ELSE 'NOLOGIN' END);
          IF p_verifier IS NOT NULL THEN
            EXECUTE format('ALTER ROLE %I PASSWORD %L', person, p_verifier);
          END IF;
          FOREACH g IN ARRAY ARRAY['admin', 'operator', 'account_manager', 'auditor'] LOOP
            IF prefix || '_' || g <> grp AND EXISTS (
                SELECT 1 FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.roleid
                JOIN pg_roles u ON u.oid = m.member WHERE r.rolname = prefix || '_' || g AND u.rolname = person) THEN
              EXECUTE format('REVOKE %I FROM %I', prefix || '_' || g, person);
            END IF;
          END LOOP;
          IF NOT EXISTS (SELECT 1 FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.roleid
                         JOIN pg_roles u ON u.oid = m.member WHERE r.rolname = grp AND u.rolname = person) THEN
            EXECUTE format('GRANT %I TO %I', grp, person);
          END IF;
          RETURN CASE WHEN made THEN 'created' ELSE 'updated' END;
        END $$""")
    op.execute(f"""CREATE FUNCTION idc_own_password(p_hash text, p_verifier text) RETURNS text
        LANGUAGE plpgsql {SAFE} AS $$
        DECLARE who text;
        BEGIN
          IF left(session_user::text, length(current_database()) + 1) <> current_database() || '.' THEN
            RAISE EXCEPTION 'idc_own_password: % is not a person''s database login', session_user
              USING ERRCODE = '42501';
          END IF;
          who := substr(session_user::text, length(current_database()) + 2);
          UPDATE public.app_user SET password_hash = p_hash, version = version + 1,
                 updated_at = now() AT TIME ZONE 'utc', updated_by = who
           WHERE login = who AND active;
          IF NOT FOUND THEN
            RAISE EXCEPTION 'idc_own_password: no active user %', who USING ERRCODE = '42501';
          END IF;
          EXECUTE format('ALTER ROLE %I PASSWORD %L', session_user, p_verifier);
          RETURN who;
        END $$""")
    # EXECUTE stays with PUBLIC (PostgreSQL's default) until `db roles`, which revokes it and grants it
    # to the four groups: a database without roles keeps working with whatever login it is used with
    # (the functions check who calls where it matters), and `db roles` also takes CONNECT and the
    # schema's USAGE from PUBLIC.


def downgrade() -> None:
    if op.get_context().dialect.name != "postgresql":
        return
    for f in reversed(FUNCTIONS):
        op.execute(f"DROP FUNCTION IF EXISTS {f}")
