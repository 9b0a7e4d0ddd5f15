"""The schema exists only through migrations; they go down and up, and match the models."""
from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

import models
from app.errors import SchemaTooNew
from app.startup import prepare_database


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


def test_refuses_a_database_newer_than_itself(db):
    from sqlalchemy import text

    with db.engine.begin() as c:
        c.execute(text("UPDATE alembic_version SET version_num = 'ffffffffffff'"))
    with pytest.raises(SchemaTooNew, match="newer idc-console"):
        prepare_database(db)


def test_sqlite_upgrade_backs_up_first(tmp_path):
    from app.db import Database

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
