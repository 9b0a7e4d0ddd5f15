"""The schema exists only through migrations; they go down and up, and match the models."""
from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

import models
from app.domain.errors import SchemaTooNew
from app.store.startup import prepare_database


def _diff(db):
    with db.engine.connect() as conn:
        dialect = conn.dialect.name

        def include_object(obj, name, type_, reflected, compare_to):
            # an index the models mark as one dialect's own (models.base.pg_trigram_index)
            only = getattr(obj, "info", {}).get("dialect") if type_ == "index" and not reflected else None
            return only is None or only == dialect
        ctx = MigrationContext.configure(conn, opts={"compare_type": True, "render_as_batch": True,
                                                     "include_object": include_object})
        return compare_metadata(ctx, models.Base.metadata)


def test_head_matches_models(db):
    assert db.current_revision() == db.head_revision()
    assert _diff(db) == []


def test_one_step_down_and_up_again(db):
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(db.alembic_config())
    head = script.get_revision(db.head_revision())
    target = head.down_revision or "base"
    db.downgrade(target if isinstance(target, str) else target[0])
    if target == "base":
        assert set(inspect(db.engine).get_table_names()) <= {"alembic_version"}
    db.upgrade()
    assert db.current_revision() == db.head_revision()
    assert _diff(db) == []


def test_electricity_is_a_rate_from_the_first_day_the_others_are(db):
    """0028 (electricity_vat): the category metered energy is taxed in, 13 % from the earliest rate's date;
    its downgrade takes the row (and the category) away and the upgrade brings them back."""
    import datetime as dt
    from decimal import Decimal

    from sqlalchemy import text
    from sqlalchemy.exc import IntegrityError

    from app.services.reference import tax_rates_on

    def rates():
        with db.engine.connect() as c:
            return c.execute(text("SELECT category, rate, valid_from FROM tax_rate ORDER BY category")).all()

    first = min(dt.date.fromisoformat(str(r.valid_from)[:10]) for r in rates())
    with db.session() as s:
        assert tax_rates_on(s, first)["electricity"] == Decimal("0.13")
        assert "electricity" not in tax_rates_on(s, first - dt.timedelta(days=1))
    db.downgrade("0027")
    assert {r.category for r in rates()} == {"idc", "telecom", "equipment_lease"}
    with pytest.raises(IntegrityError), db.engine.begin() as c:  # the category is not allowed there
        c.execute(text("INSERT INTO tax_rate (category, rate, valid_from) VALUES ('electricity', 0.13, '2019-04-01')"))
    db.upgrade()
    assert [(r.category, Decimal(str(r.rate))) for r in rates() if r.category == "electricity"] == [
        ("electricity", Decimal("0.13"))]


def test_refuses_a_database_newer_than_itself(db):
    from sqlalchemy import text

    with db.engine.begin() as c:
        c.execute(text("UPDATE alembic_version SET version_num = 'ffffffffffff'"))
    with pytest.raises(SchemaTooNew, match="newer idc-console"):
        prepare_database(db)


def test_sqlite_upgrade_backs_up_first(tmp_path):
    from app.store.db import Database

    db = Database(f"sqlite:///{tmp_path / 'old.db'}")
    prepare_database(db)
    script_head = db.head_revision()
    from alembic.script import ScriptDirectory
    down = ScriptDirectory.from_config(db.alembic_config()).get_revision(script_head).down_revision
    db.downgrade(down or "base")
    if down is None:
        # An empty schema is created, not upgraded: nothing to back up.
        assert prepare_database(db) is None
        return
    backup = prepare_database(db)
    assert backup is not None and backup.exists()


def _walk_down(db, stop: str) -> list[str]:
    """Every revision from head down to `stop` (exclusive), newest first."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(db.alembic_config())
    revs, rev = [], script.get_revision(db.head_revision())
    while rev is not None and rev.revision != stop:
        revs.append(rev.revision)
        rev = script.get_revision(rev.down_revision) if rev.down_revision else None
    return revs


def _add_what_the_new_revisions_hold(db):
    """Statements (the demo has none), a credited one; rows only the revisions after 0004 can hold:
    a device type of a new role (0007), an installation setting (0008). (The demo already has
    handovers (0005), four-eyes contracts (0008) and the login secret (0006).)"""
    from sqlalchemy import text

    from app.services.billing import billable_periods, credit_statement, rebill_statement, run_billing
    from app.services.users import login

    admin = login(db, "admin", "demo1234")
    run = run_billing(db, admin, billable_periods(1)[0], issue=True)
    assert run.lines_created
    with db.engine.connect() as c:
        issued = c.execute(text("SELECT MIN(id) FROM statement WHERE status = 'issued'")).scalar_one()
    credit_statement(db, admin, issued, "a wrong meter reading")
    assert rebill_statement(db, admin, issued).lines_created  # revision 2 of its lines (0005)
    with db.engine.begin() as c:
        c.execute(text("UPDATE device_type SET role = 'pdu' WHERE id = (SELECT MIN(id) FROM device_type WHERE role = 'switch')"))
        c.execute(text("INSERT INTO app_setting (key, value, version) VALUES ('contract_four_eyes', 'off', 1)"))


@pytest.mark.slow
def test_base_to_head_and_back_to_base_with_data(demo_db):
    """The demo's data at head; down to 0004 and up again with the data in place (each revision after
    0004 upgrades and downgrades filled tables); then one revision at a time down to base."""
    from sqlalchemy import text

    from tests.conftest import table_counts

    db = demo_db
    _add_what_the_new_revisions_hold(db)
    before = table_counts(db)
    lines_sql = text("SELECT id, contract_item_id, charge, period, revision, amount FROM statement_line ORDER BY id")
    with db.engine.connect() as c:
        lines = c.execute(lines_sql).all()
    assert max(ln.revision for ln in lines) == 2
    assert all(before[t] for t in ("customer", "contract", "contract_item", "statement", "statement_line",
                                   "device", "device_type", "gpu_asset", "audit_event", "app_user", "app_setting"))

    db.downgrade("0004")
    assert db.current_revision() == "0004"
    at_0004 = set(inspect(db.engine).get_table_names())
    with db.engine.connect() as c:
        kept = {t: c.execute(text(f'SELECT count(*) FROM "{t}"')).scalar_one() for t in at_0004 if t in before}
        roles = {r for (r,) in c.execute(text("SELECT DISTINCT role FROM device_type"))}
    # the one row a downgrade removes: the electricity rate 0028 (electricity_vat) seeds (0004 has no such category)
    seeded = {"tax_rate": 1}
    assert kept == {t: before[t] - seeded.get(t, 0) for t in kept}, "a downgrade lost rows"
    assert roles <= {"server", "gpu_server", "switch", "other"}

    db.upgrade()
    assert db.current_revision() == db.head_revision()
    after = table_counts(db)
    assert {t: after[t] for t in kept} == {t: before[t] for t in kept}
    with db.engine.connect() as c:
        assert c.execute(lines_sql).all() == lines  # the corrected revisions came back as they were
    assert _diff(db) == []

    for rev in _walk_down(db, stop=""):
        db.downgrade(f"{rev}-1")
    assert db.current_revision() is None
    assert set(inspect(db.engine).get_table_names()) <= {"alembic_version"}

    db.upgrade()
    assert db.current_revision() == db.head_revision()
    assert _diff(db) == []
