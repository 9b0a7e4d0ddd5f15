"""The Operations page reads the queue a page at a time (issue 24): its first rows are the first rows
of the whole queue, as it showed them when it read every row; its filters and counts come from the
service."""
from __future__ import annotations

import datetime as dt

import pytest

from models.choices import TicketState
from ui.shell.i18n import choice_label
from ui.shell.operations import forget_bus


@pytest.fixture(autouse=True)
def own_bus():
    yield
    forget_bus()     # this test's tab hears no later test's writes (its database is dropped)


def test_the_queue_page_shows_the_first_rows_of_the_whole_queue(qtbot, demo_db, monkeypatch):
    from app.services.operations.queue import queue_rows
    from app.services.operations.sla import check_sla
    from app.services.users import login
    from ui.pages.operations import queue as page_module

    op = login(demo_db, "wanglei", "demo1234")
    check_sla(demo_db, login(demo_db, "admin", "demo1234"))
    whole = queue_rows(demo_db, now=dt.datetime.now(dt.timezone.utc))
    assert len(whole) > 3
    monkeypatch.setattr(page_module, "PAGE_ROWS", 3)
    tab = page_module.QueueTab(demo_db, op)
    qtbot.addWidget(tab)
    tab.load()
    shown = [tab.table.item(i, 0).text() for i in range(tab.table.rowCount())]
    assert shown == [r.number for r in whole[:3]]
    assert [tab.table.item(i, 9).text() for i in range(3)] == [r.title for r in whole[:3]]
    summary = tab.summary.text()
    assert summary.startswith(f"{len(whole)} tickets, {sum(r.priority == 'P1' for r in whole)} P1, "
                              f"{sum(r.sla_state == 'breached' for r in whole)} breached")
    assert "the first 3 by SLA due" in summary
    # a column filter is read by the service after typing stops, by the label shown
    state = whole[-1].state
    tab.filters[2].setText(choice_label(TicketState, state)[:5])
    assert tab.refilter.isActive()
    tab.refilter.timeout.emit()
    wanted = [r.number for r in whole if choice_label(TicketState, state)[:5].lower()
              in choice_label(TicketState, r.state).lower()][:3]
    assert [tab.table.item(i, 0).text() for i in range(tab.table.rowCount())] == wanted
    assert not tab.filters[5].isEnabled()       # the countdown is no filter
