"""Leasable space in the console (issue 15, issue 9): the demo's shared rack and cage on the
elevation and the room view, cancelling a reservation from the elevation, selling a cage."""
from __future__ import annotations

from PySide6.QtWidgets import QInputDialog
from sqlalchemy import select

from app.services.users import login
from models import Cage, Rack, RackReservation, Room, Site
from models.choices import ReservationStatus
from ui.widgets.rack_elevation import RackPanel
from ui.widgets.room_view import RoomPanel


def _ids(db):
    with db.session() as s:
        room = s.execute(select(Room.id).join(Site).where(Site.code == "SH-ZJ1")).scalar_one()
        shared = s.execute(select(Rack.id).where(Rack.room_id == room, Rack.name == "A05")).scalar_one()
        cage = s.execute(select(Cage.id).where(Cage.room_id == room)).scalar_one()
    return room, shared, cage


def test_elevation_shows_two_customers_ranges_and_cancels_a_reservation(qtbot, demo_db, monkeypatch):
    _room, shared, _cage = _ids(demo_db)
    panel = RackPanel(demo_db, login(demo_db, "lina", "demo1234"))
    qtbot.addWidget(panel)
    panel.resize(640, 1000)
    panel.load_rack(shared)
    d = panel.data()
    assert [(l.u_from, l.u_to) for l in d.leases] == [(1, 14), (15, 28)]
    assert len({l.customer_id for l in d.leases}) == 2
    assert (d.space.leased_u, d.space.reserved_u, d.space.free_u) == (28, 4, 10)
    menu = panel.menu_for(panel.scene_point("front", 36.5))
    cancel = [a for a in menu.actions() if a.objectName() == "cancelReservation"]
    assert len(cancel) == 1 and cancel[0].isEnabled()
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: ("客户放弃", True)))
    cancel[0].trigger()
    with demo_db.session() as s:
        assert s.execute(select(RackReservation.status).where(RackReservation.rack_id == shared)).scalar_one() \
            == ReservationStatus.CANCELLED
    assert panel.data().reservations == () and panel.data().space.reserved_u == 0


def test_room_view_outlines_the_cage(qtbot, demo_db):
    room, _shared, cage = _ids(demo_db)
    view = RoomPanel(demo_db)
    qtbot.addWidget(view)
    view.load_room(room)
    cages = view.data().cages
    assert len(cages) == 1 and cages[0].id == cage and len(cages[0].rack_ids) == 4 and cages[0].lessee_name
    assert "196 U" in view.title.text() or "已租 196 U" in view.title.text()


def test_a_contract_item_can_name_a_cage(qtbot, demo_db):
    import datetime as dt

    from ui.kit.dialogs import set_date
    from ui.pages.contracts.editor import ContractDialog
    _room, _shared, cage = _ids(demo_db)
    dlg = ContractDialog(demo_db, login(demo_db, "lina", "demo1234"))
    qtbot.addWidget(dlg)
    dlg.header["customer_id"].setCurrentIndex(1)
    # after the demo's lease of the cage ends (2027-08-31): capacity is checked when a draft is saved
    set_date(dlg.header["start_date"], dt.date(2027, 9, 1))
    set_date(dlg.header["end_date"], dt.date(2028, 8, 31))
    it = dlg.item_edit
    it["kind"].setCurrentIndex(it["kind"].findData("rack"))
    it["description"].setText("笼位租赁")
    it["unit_price"].setText("25600")
    it["cage_id"].setCurrentIndex(it["cage_id"].findData(cage))
    assert dlg.save(), dlg.message.text()
    assert dlg.saved.items[0].cage_id == cage and dlg.saved.items[0].rack_id is None
