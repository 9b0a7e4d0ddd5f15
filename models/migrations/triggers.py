"""Database-level guarantees that no application bug can bypass.

- audit_event is append-only: UPDATE and DELETE are refused (and TRUNCATE on PostgreSQL).
- an issued statement never changes (only its fapiao number may be recorded), and the
  lines of an issued statement cannot be inserted, changed or deleted.
"""
from alembic import op

AUDIT_MSG = "audit_event is append-only"
STATEMENT_MSG = "an issued statement cannot be changed; issue a credit note instead"

# Columns an issued statement may still change: the fapiao number and the lock bookkeeping.
_FROZEN = ("number", "kind", "subsidiary_id", "customer_id", "period", "status", "subtotal",
           "tax", "total", "issued_at", "original_id", "reason")


def create_triggers() -> None:
    if op.get_context().dialect.name == "sqlite":
        _sqlite_create()
    else:
        _pg_create()


def drop_triggers() -> None:
    if op.get_context().dialect.name == "sqlite":
        for name in ("audit_event_no_update", "audit_event_no_delete", "statement_issued_frozen",
                     "statement_issued_no_delete", "statement_line_issued_ins",
                     "statement_line_issued_upd", "statement_line_issued_del"):
            op.execute(f"DROP TRIGGER IF EXISTS {name}")
    else:
        op.execute("DROP TRIGGER IF EXISTS audit_event_append_only ON audit_event")
        op.execute("DROP TRIGGER IF EXISTS audit_event_no_truncate ON audit_event")
        op.execute("DROP TRIGGER IF EXISTS statement_issued_frozen ON statement")
        op.execute("DROP TRIGGER IF EXISTS statement_line_issued_frozen ON statement_line")
        op.execute("DROP FUNCTION IF EXISTS audit_event_refuse()")
        op.execute("DROP FUNCTION IF EXISTS statement_refuse_issued()")
        op.execute("DROP FUNCTION IF EXISTS statement_line_refuse_issued()")


def _sqlite_create() -> None:
    op.execute(f"""CREATE TRIGGER audit_event_no_update BEFORE UPDATE ON audit_event
        BEGIN SELECT RAISE(ABORT, '{AUDIT_MSG}'); END""")
    op.execute(f"""CREATE TRIGGER audit_event_no_delete BEFORE DELETE ON audit_event
        BEGIN SELECT RAISE(ABORT, '{AUDIT_MSG}'); END""")
    changed = " OR ".join(f"NEW.{c} IS NOT OLD.{c}" for c in _FROZEN)
    op.execute(f"""CREATE TRIGGER statement_issued_frozen BEFORE UPDATE ON statement
        WHEN OLD.status != 'draft' AND ({changed})
        BEGIN SELECT RAISE(ABORT, '{STATEMENT_MSG}'); END""")
    op.execute(f"""CREATE TRIGGER statement_issued_no_delete BEFORE DELETE ON statement
        WHEN OLD.status != 'draft'
        BEGIN SELECT RAISE(ABORT, '{STATEMENT_MSG}'); END""")
    for suffix, when, row in (("ins", "INSERT", "NEW"), ("upd", "UPDATE", "OLD"), ("del", "DELETE", "OLD")):
        op.execute(f"""CREATE TRIGGER statement_line_issued_{suffix} BEFORE {when} ON statement_line
            WHEN (SELECT status FROM statement WHERE id = {row}.statement_id) != 'draft'
            BEGIN SELECT RAISE(ABORT, '{STATEMENT_MSG}'); END""")


def _pg_create() -> None:
    op.execute(f"""CREATE FUNCTION audit_event_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION '{AUDIT_MSG}'; END $$""")
    op.execute("""CREATE TRIGGER audit_event_append_only BEFORE UPDATE OR DELETE ON audit_event
        FOR EACH ROW EXECUTE FUNCTION audit_event_refuse()""")
    op.execute("""CREATE TRIGGER audit_event_no_truncate BEFORE TRUNCATE ON audit_event
        FOR EACH STATEMENT EXECUTE FUNCTION audit_event_refuse()""")
    changed = " OR ".join(f"NEW.{c} IS DISTINCT FROM OLD.{c}" for c in _FROZEN)
    op.execute(f"""CREATE FUNCTION statement_refuse_issued() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF OLD.status <> 'draft' AND (TG_OP = 'DELETE' OR {changed}) THEN
            RAISE EXCEPTION '{STATEMENT_MSG}';
          END IF;
          IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
          RETURN NEW;
        END $$""")
    op.execute("""CREATE TRIGGER statement_issued_frozen BEFORE UPDATE OR DELETE ON statement
        FOR EACH ROW EXECUTE FUNCTION statement_refuse_issued()""")
    op.execute(f"""CREATE FUNCTION statement_line_refuse_issued() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE st text;
        BEGIN
          SELECT status INTO st FROM statement
            WHERE id = CASE WHEN TG_OP = 'INSERT' THEN NEW.statement_id ELSE OLD.statement_id END;
          IF st IS DISTINCT FROM 'draft' AND st IS NOT NULL THEN
            RAISE EXCEPTION '{STATEMENT_MSG}';
          END IF;
          IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
          RETURN NEW;
        END $$""")
    op.execute("""CREATE TRIGGER statement_line_issued_frozen BEFORE INSERT OR UPDATE OR DELETE
        ON statement_line FOR EACH ROW EXECUTE FUNCTION statement_line_refuse_issued()""")
