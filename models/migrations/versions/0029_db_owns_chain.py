"""the database owns the audit chain, the login bookkeeping and the password check

Revision ID: 0029
Revises: 0028
Create Date: 2026-12-01

PostgreSQL only (SQLite has no roles; its path is unchanged). Until now the client computed each
event's hash and named its actor and time, and audit_append only checked the links: any login could
append a correctly hashed, back-dated event naming someone else, or a badly hashed one that broke
`audit verify` for good. From here:

- audit_append(events jsonb) (admins, operators, account managers) and audit_note(events jsonb)
  (every group; only the events an auditor's own work leaves: auth.login, auth.lock, export, print,
  user.password, db.upgrade)
  take each event's content only. The server numbers and links the events, stamps the actor from
  the session's login (`<db>.<login>` -> that active user) and the time from its own clock, and
  computes every hash itself: SHA-256 of the same canonical JSON as app/audit_scan.py's
  hash_payload (the payload pg_payload builds for the fast verify path; pinned by
  tests/audit/test_audit_hash.py). A person's session may not date an event. Only a trusted session
  (the schema owner, a superuser, or any login of a database without `db roles`) may name the
  actor and the time, as the program's system events and the demo history need.
  Set-wise: the payloads are built in one statement, only the chained SHA-256 runs per event, and
  the events go in with one INSERT.
- idc_login_state(login, op, until, hash): 'fail' is the caller's own login only and locks the
  login itself when the count reaches a multiple of five (auth.LOGIN_POLICY: 60 s, doubled per lock,
  at most an hour); 'lock' is a trusted session's only (tests with another policy).
- idc_password_setting(login) and idc_password_matches(login, candidate): a password is checked by
  the client hashing it with the stored salt and parameters and the server saying yes or no; for
  one's own login only (or a trusted session). `db roles` takes SELECT on app_user.password_hash
  and on app_secret from every group; idc_login_fingerprint(login) keys a mistyped login's HMAC
  on the server (audit_note replaces an unknown login's name by it: nobody can ask for it otherwise).
"""
from typing import Sequence, Union

from alembic import op

revision: str = '0029'
down_revision: Union[str, Sequence[str], None] = '0028'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

SAFE = "SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp"
# what a person's own work leaves, whatever their role: logins, exports and prints, their own new
# password, the record of a schema upgrade the console made before they logged in
NOTE_ACTIONS = "ARRAY['auth.login', 'auth.lock', 'export', 'print', 'user.password', 'db.upgrade']"

# The canonical payload of app/audit_scan.py's hash_payload, as PostgreSQL builds it (the same text
# as audit_scan.pg_payload, split around prev_hash, which the loop below fills in event by event).
_BEFORE_PREV = ("""'{"action":' || coalesce(to_json(u.action)::text, 'null') || ',"actor_id":' || """
                """coalesce(u.actor_id::text, 'null') || ',"actor_login":' || coalesce(to_json(u.actor_login)::text, 'null') """
                """|| ',"actor_name":' || coalesce(to_json(u.actor_name)::text, 'null') || ',"actor_role":' || """
                """coalesce(to_json(u.actor_role)::text, 'null') || ',"after":' || coalesce(to_json(u.after)::text, 'null') """
                """|| ',"app_version":' || coalesce(to_json(u.app_version)::text, 'null') || ',"before":' || """
                """coalesce(to_json(u.before)::text, 'null') || ',"host":' || coalesce(to_json(u.host)::text, 'null') || """
                """',"object_id":' || coalesce(to_json(u.object_id)::text, 'null') || ',"object_label":' || """
                """coalesce(to_json(u.object_label)::text, 'null') || ',"object_type":' || """
                """coalesce(to_json(u.object_type)::text, 'null') || ',"outcome":' || """
                """coalesce(to_json(u.outcome)::text, 'null') || ',"prev_hash":"'""")
_AFTER_PREV = ("""'","reason":' || coalesce(to_json(u.reason)::text, 'null') || ',"request_id":' || """
               """coalesce(to_json(u.request_id)::text, 'null') || ',"seq":' || u.seq::text || ',"ts":"' || """
               """to_char(u.ts, 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '"}'""")

FUNCTIONS = ("idc_is_trusted()", "idc_session_person()", "idc_audit_insert(jsonb, text[])", "audit_note(jsonb)",
             "idc_password_setting(text)", "idc_password_matches(text, text)", "idc_login_fingerprint(text)",
             "idc_audit_payload(public.audit_event)")


def upgrade() -> None:
    if op.get_context().dialect.name != "postgresql":
        return
    # Whom the server believes about an event's actor and time: the owner, a superuser, or anyone while
    # the database has no roles (then every login may write every table anyway).
    op.execute(f"""CREATE FUNCTION idc_is_trusted() RETURNS boolean LANGUAGE sql STABLE {SAFE} AS $$
        SELECT session_user = current_user
            OR coalesce((SELECT rolsuper FROM pg_roles WHERE rolname = session_user), false)
            OR NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = current_database() || '_admin') $$""")
    op.execute(f"""CREATE FUNCTION idc_session_person() RETURNS text LANGUAGE sql STABLE {SAFE} AS $$
        SELECT CASE WHEN left(session_user::text, length(current_database()) + 1) = current_database() || '.'
                    THEN substr(session_user::text, length(current_database()) + 2) END $$""")
    # One event's payload, for tests that compare the server's definition with app/audit.py's.
    op.execute(f"""CREATE FUNCTION idc_audit_payload(u public.audit_event) RETURNS text LANGUAGE sql IMMUTABLE
        {SAFE} AS $$ SELECT {_BEFORE_PREV} || u.prev_hash || {_AFTER_PREV} $$""")
    op.execute(f"""CREATE FUNCTION idc_audit_insert(events jsonb, only_actions text[]) RETURNS bigint
        LANGUAGE plpgsql {SAFE} AS $$
        DECLARE
          h_seq bigint; h_hash text; trusted boolean := idc_is_trusted(); who text;
          a_id integer; a_login text; a_name text; a_role text;
          t timestamp := date_trunc('microseconds', clock_timestamp() AT TIME ZONE 'utc');
          evs public.audit_event[]; pa text; pb text; prevs text[] := '{{}}'; hashes text[] := '{{}}'; h text;
          n integer; bad text;
        BEGIN
          IF jsonb_typeof(events) IS DISTINCT FROM 'array' OR jsonb_array_length(events) = 0 THEN
            RAISE EXCEPTION 'audit_append: a non-empty array of events is required';
          END IF;
          IF only_actions IS NOT NULL THEN
            SELECT d->>'action' INTO bad FROM jsonb_array_elements(events) d
             WHERE (d->>'action') IS NULL OR NOT (d->>'action' = ANY(only_actions)) LIMIT 1;
            IF FOUND THEN
              RAISE EXCEPTION 'audit_note records only %; use audit_append for %', only_actions, bad
                USING ERRCODE = '42501';
            END IF;
          END IF;
          IF NOT trusted THEN
            who := idc_session_person();
            SELECT u.id, u.login, u.display_name, u.role INTO a_id, a_login, a_name, a_role
              FROM public.app_user u WHERE u.login = who AND u.active;
            IF who IS NULL OR NOT FOUND THEN
              RAISE EXCEPTION 'audit_append: % is not the database login of an active user', session_user
                USING ERRCODE = '42501';
            END IF;
            IF a_role = 'auditor' AND only_actions IS NULL THEN
              RAISE EXCEPTION 'audit_append: auditors only read (their logins and exports go through audit_note)'
                USING ERRCODE = '42501';
            END IF;
            IF EXISTS (SELECT 1 FROM jsonb_array_elements(events) d
                        WHERE jsonb_typeof(d->'ts') IS DISTINCT FROM 'null' AND d ? 'ts') THEN
              RAISE EXCEPTION 'audit_append: an event''s time is the server''s clock; % may not date it '
                              '(a back-dated event is refused)', session_user USING ERRCODE = '42501';
            END IF;
          END IF;
          SELECT x.seq, x.hash INTO h_seq, h_hash FROM public.audit_head x WHERE x.id = 1 FOR UPDATE;
          -- what the client may say (content, host, version, request); the rest is the server's
          evs := ARRAY(SELECT ROW(h_seq + x.i, CASE WHEN trusted THEN coalesce(r.ts, t) ELSE t END,
                         CASE WHEN trusted THEN r.actor_id ELSE a_id END,
                         CASE WHEN trusted THEN r.actor_login ELSE a_login END,
                         CASE WHEN trusted THEN r.actor_name ELSE a_name END,
                         CASE WHEN trusted THEN r.actor_role ELSE a_role END,
                         r.host, r.app_version, r.request_id, r.action, r.object_type, r.object_id, r.object_label,
                         r.before,
                         -- a login name nobody has is kept only as its HMAC, keyed on the server
                         CASE WHEN r.action = 'auth.login' AND r.after LIKE '{{"unknown_login":%'
                              THEN '{{"login_hmac":"' || idc_login_fingerprint(r.after::jsonb->>'unknown_login') || '"}}'
                              ELSE r.after END,
                         r.reason, r.outcome, '', NULL)::public.audit_event
                       FROM jsonb_array_elements(events) WITH ORDINALITY AS x(d, i),
                            LATERAL jsonb_populate_record(NULL::public.audit_event, x.d) AS r ORDER BY x.i);
          n := cardinality(evs);
          -- the chain itself is sequential (each hash is part of the next payload): only that runs per
          -- event; arrays are appended to (O(1) in PL/pgSQL) and unnested, never subscripted
          h := h_hash;
          FOR pa, pb IN SELECT {_BEFORE_PREV}, {_AFTER_PREV} FROM unnest(evs) WITH ORDINALITY AS u
                        ORDER BY u.ordinality LOOP
            prevs := array_append(prevs, h);
            h := encode(sha256(convert_to(pa || h || pb, 'UTF8')), 'hex');
            hashes := array_append(hashes, h);
          END LOOP;
          INSERT INTO public.audit_event (seq, ts, actor_id, actor_login, actor_name, actor_role, host, app_version,
                 request_id, action, object_type, object_id, object_label, before, after, reason, outcome,
                 prev_hash, hash)
          SELECT u.seq, u.ts, u.actor_id, u.actor_login, u.actor_name, u.actor_role, u.host, u.app_version,
                 u.request_id, u.action, u.object_type, u.object_id, u.object_label, u.before, u.after, u.reason,
                 u.outcome, z.p, z.h
            FROM unnest(evs) WITH ORDINALITY AS u
            JOIN unnest(prevs, hashes) WITH ORDINALITY AS z(p, h, k) ON z.k = u.ordinality;
          UPDATE public.audit_head SET seq = h_seq + n, hash = h WHERE id = 1;
          RETURN h_seq + n;
        END $$""")
    op.execute("REVOKE ALL ON FUNCTION idc_audit_insert(jsonb, text[]) FROM PUBLIC")
    # audit_append keeps its signature (and so its grants until the next `db roles`); the auditor check
    # is inside, whatever the grants say.
    op.execute(f"""CREATE OR REPLACE FUNCTION audit_append(events jsonb) RETURNS bigint LANGUAGE sql {SAFE} AS $$
        SELECT idc_audit_insert(events, NULL) $$""")
    op.execute(f"""CREATE FUNCTION audit_note(events jsonb) RETURNS bigint LANGUAGE sql {SAFE} AS $$
        SELECT idc_audit_insert(events, {NOTE_ACTIONS}) $$""")
    # Logging in. 'fail': one's own login only; the lock follows from the count (auth.LOGIN_POLICY).
    op.execute(f"""CREATE OR REPLACE FUNCTION idc_login_state(p_login text, p_op text, p_until timestamp, p_hash text)
        RETURNS integer LANGUAGE plpgsql {SAFE} AS $$
        DECLARE n integer;
        BEGIN
          IF p_op = 'fail' THEN
            IF NOT (idc_is_self(p_login) OR idc_is_trusted()) THEN
              RAISE EXCEPTION 'idc_login_state: a login records only its own failed attempts (this is %)',
                session_user USING ERRCODE = '42501';
            END IF;
            UPDATE public.app_user SET failed_logins = failed_logins + 1,
                   locked_until = CASE WHEN NOT idc_is_trusted() AND (failed_logins + 1) % 5 = 0
                       THEN (now() AT TIME ZONE 'utc')
                            + least(60 * power(2, (failed_logins + 1) / 5 - 1), 3600) * interval '1 second'
                       ELSE locked_until END
             WHERE login = p_login RETURNING failed_logins INTO n;
            RETURN n;
          ELSIF p_op = 'lock' THEN
            IF NOT idc_is_trusted() THEN
              RAISE EXCEPTION 'idc_login_state: a lock follows from the failed attempts; it is not set directly'
                USING ERRCODE = '42501';
            END IF;
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
    # The password check: the stored hash without its digest (scheme, parameters, salt), then yes or no.
    op.execute(f"""CREATE FUNCTION idc_password_setting(p_login text) RETURNS text LANGUAGE plpgsql STABLE {SAFE} AS $$
        DECLARE stored text;
        BEGIN
          IF NOT (idc_is_self(p_login) OR idc_is_trusted()) THEN
            RAISE EXCEPTION 'a password is checked by its own login only (this is %)', session_user
              USING ERRCODE = '42501';
          END IF;
          SELECT password_hash INTO stored FROM public.app_user WHERE login = p_login;
          IF stored IS NULL OR position('$' IN stored) = 0 THEN
            RETURN NULL;
          END IF;
          RETURN regexp_replace(stored, '[^$]*$', '') || CASE WHEN stored LIKE 'scrypt$%'
              THEN length(decode(substring(stored FROM '[^$]*$'), 'base64'))
              ELSE length(substring(stored FROM '[^$]*$')) * 3 / 4 END;
        END $$""")
    op.execute(f"""CREATE FUNCTION idc_password_matches(p_login text, p_candidate text) RETURNS boolean
        LANGUAGE plpgsql STABLE {SAFE} AS $$
        BEGIN
          IF NOT (idc_is_self(p_login) OR idc_is_trusted()) THEN
            RAISE EXCEPTION 'a password is checked by its own login only (this is %)', session_user
              USING ERRCODE = '42501';
          END IF;
          RETURN coalesce((SELECT password_hash = p_candidate FROM public.app_user WHERE login = p_login), false);
        END $$""")
    # HMAC-SHA256 (RFC 2104) of a login name under app_secret's login_hmac_key: auth.login_fingerprint.
    op.execute(f"""CREATE FUNCTION idc_login_fingerprint(p_login text) RETURNS text LANGUAGE plpgsql {SAFE} AS $$
        DECLARE k bytea; ipad bytea; opad bytea;
        BEGIN
          SELECT convert_to(value, 'UTF8') INTO k FROM public.app_secret WHERE name = 'login_hmac_key';
          IF k IS NULL THEN
            INSERT INTO public.app_secret (name, value)
              VALUES ('login_hmac_key', encode(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text,
                                                                'UTF8')), 'hex'))
              RETURNING convert_to(value, 'UTF8') INTO k;
          END IF;
          IF length(k) > 64 THEN
            k := sha256(k);
          END IF;
          k := k || decode(repeat('00', 64 - length(k)), 'hex');
          ipad := k; opad := k;
          FOR i IN 0..63 LOOP
            ipad := set_byte(ipad, i, get_byte(k, i) # 54);
            opad := set_byte(opad, i, get_byte(k, i) # 92);
          END LOOP;
          RETURN encode(sha256(opad || sha256(ipad || convert_to(p_login, 'UTF8'))), 'hex');
        END $$""")
    for f in FUNCTIONS:
        if f not in ("audit_note(jsonb)", "idc_password_setting(text)", "idc_password_matches(text, text)"):
            op.execute(f"REVOKE ALL ON FUNCTION {f} FROM PUBLIC")
    # A database that already has roles: the groups keep working until the next `db roles`, which
    # grants audit_note and the password functions and takes audit_append from the auditors.


def downgrade() -> None:
    if op.get_context().dialect.name != "postgresql":
        return
    op.execute(f"""CREATE OR REPLACE FUNCTION idc_login_state(p_login text, p_op text, p_until timestamp, p_hash text)
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
    # migration 0023's audit_append: the client's hashes, checked for their links
    op.execute(f"""CREATE OR REPLACE FUNCTION audit_append(events jsonb) RETURNS bigint LANGUAGE plpgsql {SAFE} AS $$
        DECLARE
          h_seq bigint; h_hash text; evs public.audit_event[]; bad record;
        BEGIN
          IF jsonb_typeof(events) IS DISTINCT FROM 'array' OR jsonb_array_length(events) = 0 THEN
            RAISE EXCEPTION 'audit_append: a non-empty array of events is required';
          END IF;
          SELECT h.seq, h.hash INTO h_seq, h_hash FROM public.audit_head h WHERE h.id = 1 FOR UPDATE;
          evs := ARRAY(SELECT r FROM jsonb_array_elements(events) WITH ORDINALITY AS x(doc, i),
                       LATERAL jsonb_populate_record(NULL::public.audit_event, x.doc) AS r ORDER BY x.i);
          SELECT e.seq, e.prev_hash, h_seq + e.i - 1 AS head_seq,
                 CASE WHEN e.i = 1 THEN h_hash ELSE e.before_hash END AS head_hash INTO bad
            FROM (SELECT u.seq, u.prev_hash, u.hash, u.ordinality AS i,
                         lag(u.hash) OVER (ORDER BY u.ordinality) AS before_hash
                    FROM unnest(evs) WITH ORDINALITY AS u) e
           WHERE e.seq IS DISTINCT FROM h_seq + e.i
              OR e.prev_hash IS DISTINCT FROM CASE WHEN e.i = 1 THEN h_hash ELSE e.before_hash END
              OR e.hash IS NULL OR e.hash !~ '^[0-9a-f]{{64}}$'
           ORDER BY e.i LIMIT 1;
          IF FOUND THEN
            IF bad.seq IS DISTINCT FROM bad.head_seq + 1 OR bad.prev_hash IS DISTINCT FROM bad.head_hash THEN
              RAISE EXCEPTION 'audit_append: event #% (previous hash %) does not continue the head #% (%)',
                bad.seq, bad.prev_hash, bad.head_seq, bad.head_hash;
            END IF;
            RAISE EXCEPTION 'audit_append: event #% has no valid hash', bad.seq;
          END IF;
          INSERT INTO public.audit_event SELECT * FROM unnest(evs);
          h_seq := h_seq + cardinality(evs);
          h_hash := evs[cardinality(evs)].hash;
          UPDATE public.audit_head SET seq = h_seq, hash = h_hash WHERE id = 1;
          RETURN h_seq;
        END $$""")
    for f in reversed(FUNCTIONS):
        op.execute(f"DROP FUNCTION IF EXISTS {f}")
