"""What the sweep keeps of each open ticket's clocks (ticket_sla_state, migration 0041) and the
dashboard's cards that read it (queue.desk_counts): the cards are always what counting the queue's
computed rows gives, whether the kept state is used, thrown away by a write, or outrun by the time;
and the database moves the rules' number on every write that can change a clock, whoever writes."""
from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import func, select, text

from models import Ticket, TicketSlaState
from models.choices import ServiceLevel, TicketState

from app.services.operations.queue import desk_counts, queue_rows
from app.services.operations.sla import check_sla, keep_sla_states
from app.services.operations.sla_admin import set_targets, targets_of
from app.services.operations.tickets import change_priority
from app.services.users import login

UTC = dt.timezone.utc


def _counted(db, now: dt.datetime) -> tuple[int, int, int, int]:
    """The cards by counting queue_rows (every clock computed from the history)."""
    rows, soon = queue_rows(db, now=now), now + dt.timedelta(hours=1)
    return (sum(r.priority == "P1" for r in rows), sum(r.priority == "P2" for r in rows),
            sum(1 for r in rows if r.due_at is not None and now <= r.due_at <= soon),
            sum(r.sla_state == "breached" for r in rows))


def _cards(db, now: dt.datetime) -> tuple[int, int, int, int]:
    got = desk_counts(db, now)
    return got.open_p1, got.open_p2, got.breaching_within_hour, got.breached


def _generation(db) -> int:
    with db.engine.connect() as c:
        return c.execute(text("SELECT n FROM sla_rules_generation WHERE id = 1")).scalar_one()


def test_the_cards_use_the_kept_clocks_only_while_they_hold(demo_db):
    admin = login(demo_db, "admin", "demo1234")
    now = dt.datetime.now(UTC).replace(microsecond=0)
    check_sla(demo_db, admin, now)
    with demo_db.session() as s:
        open_ids = set(s.execute(select(Ticket.id).where(Ticket.state.in_(TicketState.OPEN))).scalars())
        kept = set(s.execute(select(TicketSlaState.ticket_id)).scalars())
    assert open_ids and kept == open_ids
    assert _cards(demo_db, now) == _counted(demo_db, now)

    # the kept rows are what the cards read: marked breached by hand, every open ticket counts as breached
    with demo_db.engine.begin() as c:
        c.execute(text("UPDATE ticket_sla_state SET breached = :t"), {"t": True})
    assert _cards(demo_db, now)[3] == len(open_ids)
    assert keep_sla_states(demo_db, now) == len(open_ids)       # computed again: every row differed
    assert _cards(demo_db, now) == _counted(demo_db, now)
    assert keep_sla_states(demo_db, now) == 0                   # and now none does

    # the time alone: running clocks pass their due times, the kept states still give the cards
    for hours in (1, 3, 9, 30):
        later = now + dt.timedelta(hours=hours, seconds=7)
        assert _cards(demo_db, later) == _counted(demo_db, later), hours

    # a ticket's own write: its kept state no longer matches its priority and last event
    with demo_db.session() as s:
        t = s.execute(select(Ticket).where(Ticket.state.in_(TicketState.OPEN), Ticket.priority != "P1")
                      .order_by(Ticket.id)).scalars().first()
        number = t.number
    change_priority(demo_db, admin, number, "P1", "客户升级", at=now + dt.timedelta(minutes=1))
    later = now + dt.timedelta(minutes=2)
    assert _cards(demo_db, later) == _counted(demo_db, later)

    # a rule's write: the number moves, nothing kept is used until the next sweep keeps them again
    before = _generation(demo_db)
    rows = targets_of(demo_db, service_level=ServiceLevel.ONSITE)
    p1 = next(r for r in rows if r.priority == "P1")
    set_targets(demo_db, admin, {"P1": {"calendar_id": p1.calendar_id, "ack_minutes": 1, "onsite_minutes": 2,
                                        "resolve_minutes": 3}}, service_level=ServiceLevel.ONSITE)
    assert _generation(demo_db) > before
    assert _cards(demo_db, later) == _counted(demo_db, later)
    check_sla(demo_db, admin, later)
    assert _cards(demo_db, later) == _counted(demo_db, later)


def test_the_kept_clocks_go_with_their_tickets(demo_db):
    """A ticket resolved or closed leaves the kept rows at the next sweep; none is kept for a ticket
    that is not open."""
    admin = login(demo_db, "admin", "demo1234")
    now = dt.datetime.now(UTC)
    check_sla(demo_db, admin, now)
    with demo_db.engine.begin() as c:
        c.execute(text("UPDATE ticket SET state = 'closed' WHERE id = (SELECT min(ticket_id) FROM ticket_sla_state)"))
    check_sla(demo_db, admin, now + dt.timedelta(seconds=1))
    with demo_db.session() as s:
        not_open = s.execute(select(func.count()).select_from(TicketSlaState).join(Ticket, Ticket.id == TicketSlaState.ticket_id)
                             .where(Ticket.state.not_in(TicketState.OPEN))).scalar_one()
    assert not_open == 0


# each a write by hand (psql): the number moves for these, not for a column no clock reads
MOVES = [
    "UPDATE holiday_day SET name = name",
    "UPDATE sla_calendar SET hours = hours",
    "UPDATE sla_target SET resolve_minutes = resolve_minutes",
    "UPDATE coverage SET service_level = service_level",
    "UPDATE maintenance_window SET title = title",
    "DELETE FROM maintenance_impact WHERE id = (SELECT min(id) FROM maintenance_impact)",
    "INSERT INTO app_setting (key, value, version) VALUES ('maintenance_notice_hours', '24', 1)",
    "UPDATE contract SET subsidiary_id = subsidiary_id",
    "UPDATE customer SET region_code = region_code",
]
STILL = ["UPDATE contract SET title = title", "UPDATE customer SET name = name", "UPDATE ticket SET title = title"]


@pytest.mark.parametrize("db_sql", [MOVES + STILL])
def test_the_database_moves_the_rules_number_on_every_rule_write(demo_db, db_sql):
    for sql in db_sql:
        before = _generation(demo_db)
        with demo_db.engine.begin() as c:
            assert c.execute(text(sql)).rowcount > 0, sql
        assert (_generation(demo_db) > before) == (sql in MOVES), sql
