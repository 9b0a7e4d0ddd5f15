"""Baseline events for the rows migrations load (VAT rates, tax codes, GPU models).

A migration writes rows before the audit trail can name them: nothing vouched for the VAT rates, so
`UPDATE tax_rate SET rate = 0` went unnoticed (issue 21). Each such row no event names yet gets one
event, `<table>.baseline` by the system, whose `after` is the row as it is; `audit reconcile`
compares the row with it from then on, and a row of these tables that no event names afterwards is
a difference. `db upgrade`, `demo load` and (on PostgreSQL) `db roles` call it; it is idempotent.
The migrations themselves do not write events: a new database's trail still starts with its first
person's work.
"""
from __future__ import annotations

from sqlalchemy import String, cast, exists, select

from app.audit.reconcile import LOADED_BY_MIGRATIONS, NOT_AUDITED_EVERYWHERE
from app.domain.actor import Actor
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import AuditEvent

# what names a row of each table in the trail's list
_LABEL = {"tax_rate": ("category", "valid_from"), "tax_code": ("line_kind", "tax_rate"), "gpu_model": ("name",),
          "holiday_day": ("day", "name"), "sla_calendar": ("name",), "sla_target": ("service_level", "priority")}
_SKIP = NOT_AUDITED_EVERYWHERE | {"updated_by"}


def seed_baselines(db: Database, actor: Actor | None = None) -> int:
    """A baseline event for each row of LOADED_BY_MIGRATIONS that no event names; the number written."""
    from models.base import Base

    actor = actor or Actor.system()
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        uow.defer_audit()   # one append for the lot
        n = 0
        for table_name in LOADED_BY_MIGRATIONS:
            t = Base.metadata.tables[table_name]
            pk = list(t.primary_key.columns)[0]
            named = exists(select(AuditEvent.seq).where(AuditEvent.object_type == table_name,
                                                        AuditEvent.object_id == cast(pk, String)))
            for row in s.execute(select(t).where(~named).order_by(pk)).mappings():
                after = {k: v for k, v in row.items() if k not in _SKIP}
                label = " ".join(str(row[k]) for k in _LABEL[table_name])
                uow.audit(f"{table_name}.baseline", table_name, str(row[pk.name]), label, after=after,
                          reason="baseline: loaded by a migration")
                n += 1
        if n:
            uow.commit()
        return n
