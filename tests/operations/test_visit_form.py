"""Request a site visit through the real dialog (issue 24): the space offered is what the customer
leases; refused without a visitor, with a resident ID whose check digit is wrong, without space,
with two cages or a cage and racks, for a visitor not authorised without an escort; saved with
Enter (masked ID stored in full, shown masked); Esc leaves without writing."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from sqlalchemy import select

from app.services.users import login
from tests.operations.conftest import rows_of
from models import Contact, Visit, Visitor


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_request_a_site_visit_through_the_form(qtbot, demo_db, language, lang):
    from ui.pages.operations.visits import VisitsTab
    language(lang)
    with demo_db.session() as s:
        customer = s.get(Contact, 20).customer_id          # contact 20 is authorised for its customer's cage
    tab = VisitsTab(demo_db, login(demo_db, "admin", "demo1234"))
    qtbot.addWidget(tab)
    before = rows_of(demo_db, Visit)
    dlg = tab.request_visit()
    qtbot.waitExposed(dlg)
    dlg.customer.setCurrentIndex(dlg.customer.findData(customer))
    assert dlg.contact.findData(20) >= 0 and dlg.space.count() >= 1
    dlg.contact.setCurrentIndex(dlg.contact.findData(20))
    dlg.purpose.setText("新服务器上架 / rack two new servers")
    qtbot.keyClick(dlg, Qt.Key_Return)                      # no space, no visitor: refused
    assert dlg.isVisible() and dlg.error.isVisible() and rows_of(demo_db, Visit) == before
    cage_row = next(i for i in range(dlg.space.count()) if dlg.space.item(i).data(Qt.UserRole)[0] == "cage")
    dlg.space.item(cage_row).setCheckState(Qt.Checked)
    cage_id = dlg.space.item(cage_row).data(Qt.UserRole)[1]
    dlg.visitors.item(0, 0).setText("张三")
    dlg.visitors.item(0, 2).setText("110105194912310021")   # a wrong check digit
    qtbot.keyClick(dlg, Qt.Key_Return)
    assert dlg.isVisible() and rows_of(demo_db, Visit) == before
    dlg.visitors.item(0, 2).setText("11010519491231002x")
    assert dlg.error.isVisible()
    wrong_digit = dlg.error.text()
    qtbot.keyClick(dlg, Qt.Key_Return)                      # not a contact, no escort asked: refused
    assert dlg.error.text() != wrong_digit
    assert dlg.isVisible() and rows_of(demo_db, Visit) == before
    dlg.escort.setChecked(True)
    dlg.add_visitor()
    assert dlg.visitors.rowCount() == 2                     # an empty row is left out
    with qtbot.waitSignal(dlg.requested) as requested:
        qtbot.keyClick(dlg, Qt.Key_Return)
    with demo_db.session() as s:
        v = s.get(Visit, requested.args[0])
        assert (v.customer_id, v.contact_id, v.cage_id, v.escort_needed) == (customer, 20, cage_id, True)
        people = s.execute(select(Visitor.name, Visitor.id_number).where(Visitor.visit_id == v.id)).all()
        assert [tuple(p) for p in people] == [("张三", "11010519491231002X")]
    dlg2 = tab.request_visit()
    qtbot.keyClick(dlg2, Qt.Key_Escape)
    assert not dlg2.isVisible() and rows_of(demo_db, Visit) == before + 1
