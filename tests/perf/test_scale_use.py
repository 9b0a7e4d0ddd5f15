"""The large provider, shrunk: besides the bulk rows it holds what months of use leave (issued
statements of three months, credit notes, one imported bank file paying 90 % of the oldest
month), its events are spread over people by role, and the audit chain and reconcile stay clean."""
from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import func, select

from bench import scale
from app.audit.trail import verify_audit_chain
from app.audit.reconcile import reconcile
from models import AuditEvent, Payment, PaymentAllocation, Statement
from models.choices import StatementKind, StatementStatus
from tests.conftest import once_across_backends

pytestmark = pytest.mark.slow   # the large data, shrunk: still a minute or more a test
# Each check is about the generator and the trail, not the backend, and each takes 70-100 s a backend:
# the first runs on PostgreSQL (when set), the second on SQLite, so both backends load the large data once.

TODAY = dt.date(2026, 11, 30)


@pytest.fixture
def small(monkeypatch):
    for name, value in dict(N_SITES=2, ROOMS_PER_SITE=8, RACKS_PER_ROOM=5, N_DEVICES=900, N_GPUS=2500,
                            N_CUSTOMERS=40, N_CONTRACTS=160, N_CREDITS=6, N_PARTIAL_CREDITS=3).items():
        monkeypatch.setattr(scale, name, value)


@once_across_backends(1)
def test_the_large_data_holds_months_of_use(db, small):
    summary = scale.load_large(db, today=TODAY, audit_events=30_000)
    assert summary.billed_months == ("2026-07", "2026-08", "2026-09")
    with db.session() as s:
        def count(*where):
            return s.execute(select(func.count()).select_from(Statement).where(*where)).scalar_one()
        per_month = {m: count(Statement.period == m, Statement.kind == StatementKind.STATEMENT,
                              Statement.status == StatementStatus.ISSUED) for m in summary.billed_months}
        assert all(n > 10 for n in per_month.values()), per_month
        assert count(Statement.status == StatementStatus.DRAFT) == 0
        assert count(Statement.period == "2026-10") == 0  # left for the benchmark's run
        assert count(Statement.kind == StatementKind.CREDIT_NOTE) == summary.credit_notes >= 5
        receipts = s.execute(select(func.count()).select_from(Payment)).scalar_one()
        assert receipts == summary.payments == int(per_month["2026-07"] * scale.PAID_SHARE)
        assert s.execute(select(func.count()).select_from(PaymentAllocation)).scalar_one() >= receipts
        # people by role: operators move GPUs, account managers draft, logins by everyone
        by_actor = dict(s.execute(select(AuditEvent.actor_login, func.count()).group_by(AuditEvent.actor_login)).all())
        assert len(by_actor) >= 15 and by_actor.get("lina", 0) > 0, by_actor
        roles = dict(s.execute(select(AuditEvent.actor_role, func.count()).where(
            AuditEvent.action.like("gpu.%")).group_by(AuditEvent.actor_role)).all())
        assert set(roles) == {"operator"}, roles
        logins = dict(s.execute(select(AuditEvent.actor_role, func.count()).where(
            AuditEvent.action == "auth.login").group_by(AuditEvent.actor_role)).all())
        assert set(logins) == {"admin", "operator", "account_manager", "auditor"}, logins
        assert logins["operator"] > logins["auditor"], logins
        # the logins are spread through the year, not appended after the planned events
        early = s.execute(select(func.count()).select_from(AuditEvent).where(
            AuditEvent.action == "auth.login", AuditEvent.seq.between(1000, 10_000))).scalar_one()
        assert early > 1000, early
        assert verify_audit_chain(s).ok
        result = reconcile(s)
        assert result.ok, [d.describe() for d in result.differences[:5]]
    # the GPUs' lease ends, written set-wise by the loader and then by the months of use's sessions
    from tests.clusters.test_capacity import busy_until_follows_leases
    busy_until_follows_leases(db)
    from tests.support.kept import gpu_counts_are_the_gpus
    gpu_counts_are_the_gpus(db)
    # every open ticket's clocks kept, as the console's sweep keeps them: the cards read them
    from models import Ticket, TicketSlaState
    from models.choices import TicketState
    with db.session() as s:
        open_ids = set(s.execute(select(Ticket.id).where(Ticket.state.in_(TicketState.OPEN))).scalars())
        assert open_ids and set(s.execute(select(TicketSlaState.ticket_id)).scalars()) == open_ids


@once_across_backends(0)
def test_a_small_event_budget_still_writes_every_planned_event(db, small, monkeypatch):
    """With fewer audit events asked for than the plan has, no object's trail is cut short (the
    last GPUs' moves were dropped: reconcile then found their state differing from the trail)."""
    monkeypatch.setattr(scale, "BILLED_MONTHS", 1)
    scale.load_large(db, today=TODAY, audit_events=1000)
    with db.session() as s:
        assert verify_audit_chain(s).ok
        result = reconcile(s)
        assert result.ok, [d.describe() for d in result.differences[:5]]
