"""The console's ticket forms through the real dialogs (issue 24): who of the customer raised it
(phone, e-mail, in person, checked against what is on file), and "Open a ticket for this" from a
power feed, prefilled; Enter saves, Esc leaves without writing."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from sqlalchemy import select

from app.services.customers import set_contacts
from app.services.users import login
from tests.operations.conftest import rows_of
from models import PowerFeed, Ticket, TicketObject


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_customer_contact_who_raised_it(qtbot, demo_db, language, lang):
    from ui.pages.operations.queue import QueueTab
    language(lang)
    admin = login(demo_db, "admin", "demo1234")
    set_contacts(demo_db, admin, 1, [{"name": "张伟", "phone": "13800138000", "email": None, "role": "运维"},
                                     {"name": "Li Na", "phone": None, "email": "lina@example.com", "role": None}])
    tab = QueueTab(demo_db, login(demo_db, "wanglei", "demo1234"))
    qtbot.addWidget(tab)
    before = rows_of(demo_db, Ticket)
    dlg = tab.new_ticket()
    qtbot.waitExposed(dlg)
    dlg.title.setText("机柜门锁坏了 / cage lock broken")
    dlg.customer.setCurrentIndex(dlg.customer.findData(1))
    assert [dlg.contact.itemData(i) for i in range(1, dlg.contact.count())] == [c.id for c in dlg.contacts]
    assert len(dlg.contacts) == 2 and dlg.contact.isEnabled()
    qtbot.keyClick(dlg, Qt.Key_Return)                      # Enter saves: refused, no contact chosen
    assert dlg.isVisible() and dlg.error.isVisible() and rows_of(demo_db, Ticket) == before
    dlg.channel.setCurrentIndex(dlg.channel.findData("phone"))
    dlg.contact.setCurrentIndex(2)                          # Li Na has no phone on file
    assert dlg.contact_info.text() == "lina@example.com"
    qtbot.keyClick(dlg, Qt.Key_Return)
    assert dlg.isVisible() and "Li Na" in dlg.error.text() and rows_of(demo_db, Ticket) == before
    dlg.channel.setCurrentIndex(dlg.channel.findData("email"))
    with qtbot.waitSignal(dlg.opened) as opened:
        qtbot.keyClick(dlg, Qt.Key_Return)
    with demo_db.session() as s:
        t = s.get(Ticket, opened.args[0])
        assert (t.customer_id, t.channel) == (1, "email")
        assert t.contact_id == dlg.contacts[1].id
    # a customer without contacts: nothing to choose, and nothing asked
    dlg2 = tab.new_ticket()
    dlg2.customer.setCurrentIndex(0)
    assert not dlg2.contact.isEnabled() and dlg2.contact_id() is None
    qtbot.keyClick(dlg2, Qt.Key_Escape)                     # Esc leaves without writing
    assert not dlg2.isVisible() and rows_of(demo_db, Ticket) == before + 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_open_a_ticket_for_a_power_feed_prefilled(qtbot, demo_db, language, lang):
    from ui.pages.power import RackPowerPanel
    from ui.shell.mainwindow import MainWindow
    language(lang)
    w = MainWindow(demo_db, login(demo_db, "wanglei", "demo1234"))
    qtbot.addWidget(w)
    with demo_db.session() as s:
        feed = s.execute(select(PowerFeed).where(PowerFeed.rack_id.is_not(None)).order_by(PowerFeed.id)).scalars().first()
        feed_id, feed_name, rack_id = feed.id, feed.name, feed.rack_id
    panel = RackPowerPanel(demo_db, w)
    panel.load_rack(rack_id)
    assert not panel.ticket_button.isEnabled()             # no feed chosen yet
    row = panel.feed_ids.index(feed_id)
    panel.feeds.selectRow(row)
    assert panel.ticket_button.isEnabled()
    panel.ticket_button.click()
    dlg = w.pages["operations"].queue.form
    assert dlg.prefill.object_type == "power_feed" and dlg.prefill.object_id == feed_id
    assert dlg.concerns.text() == feed_name and feed_name in dlg.title.text()
    assert dlg.prefill.site_id is not None
    dlg.priority.setCurrentIndex(dlg.priority.findData("P2"))
    if dlg.contacts:
        dlg.contact.setCurrentIndex(1)
    with qtbot.waitSignal(dlg.opened) as opened:
        qtbot.keyClick(dlg, Qt.Key_Enter)
    with demo_db.session() as s:
        t = s.get(Ticket, opened.args[0])
        objs = s.execute(select(TicketObject.object_type, TicketObject.object_id)
                         .where(TicketObject.ticket_id == t.id)).all()
        assert (t.priority, t.site_id) == ("P2", dlg.prefill.site_id)
        assert [tuple(o) for o in objs] == [("power_feed", feed_id)]
