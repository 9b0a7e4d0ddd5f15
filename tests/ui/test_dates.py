"""Optional dates: typed and checked as typed, a calendar that opens somewhere sensible, and a
typed date that reaches the database (or is refused with its reason, never dropped)."""
from __future__ import annotations

import datetime as dt

import pytest
from PySide6.QtCore import QDate
from PySide6.QtTest import QTest

from app.read import queries
from app.domain.rating import local_today
from app.domain.errors import ValidationError
from models import RackReservation
from ui.kit.dialogs import OptionalDateEdit, date_edit, get_date, set_date


def type_into(qtbot, w: OptionalDateEdit, text: str) -> None:
    w.edit.clear()
    if text.isascii():
        QTest.keyClicks(w.edit, text)
    else:                                    # QTest types ASCII only; an input method inserts the rest
        w.edit.insert(text)
    w.edit.editingFinished.emit()


@pytest.mark.parametrize("text, value", [
    ("2026-03-05", dt.date(2026, 3, 5)), ("2026/3/5", dt.date(2026, 3, 5)), ("2026.03.05", dt.date(2026, 3, 5)),
    ("2026年3月5日", dt.date(2026, 3, 5)), ("", None), ("   ", None)])
def test_typed_dates_are_taken(qtbot, text, value):
    w = date_edit(optional=True, name="edit_warranty_end")
    qtbot.addWidget(w)
    seen = []
    w.dateChanged.connect(seen.append)
    type_into(qtbot, w, "2020-01-01")
    type_into(qtbot, w, text)
    assert w.is_valid() and get_date(w) == value
    assert w.error.isHidden()
    assert seen[-1] == value
    if value:
        assert w.edit.text() == "2026-03-05"          # read back in one form once typed


@pytest.mark.parametrize("text, says", [("2026-02-30", "no such day"), ("2026-01-01garbage", "YYYY-MM-DD"),
                                        ("5 March", "YYYY-MM-DD"), ("0999-01-01", "year")])
def test_a_bad_date_shows_why_beside_the_field_and_is_never_empty(qtbot, text, says):
    w = date_edit(dt.date(2026, 1, 1), optional=True, name="edit_warranty_end")
    qtbot.addWidget(w)
    w.show()
    type_into(qtbot, w, text)
    assert not w.is_valid()
    assert w.error.isVisible() and says in w.error.text()
    assert w.error.parentWidget() is w and w.layout().indexOf(w.error) > w.layout().indexOf(w.edit)   # beside it
    with pytest.raises(ValidationError) as exc:
        get_date(w)
    assert exc.value.errors == {"warranty_end": w.problem()}
    type_into(qtbot, w, "2026-01-31")                    # corrected: the reason goes
    assert w.is_valid() and w.error.isHidden() and get_date(w) == dt.date(2026, 1, 31)


def test_the_calendar_opens_at_the_value_else_the_default_else_today(qtbot):
    start = dt.date(2027, 4, 1)
    w = date_edit(optional=True, default=lambda: start)
    qtbot.addWidget(w)
    cal = w.open_calendar()
    assert (cal.yearShown(), cal.monthShown()) == (2027, 4) and cal.selectedDate() == QDate(2027, 4, 1)
    w.menu.close()
    set_date(w, dt.date(2026, 11, 20))
    cal = w.open_calendar()
    assert (cal.yearShown(), cal.monthShown()) == (2026, 11)
    cal.clicked.emit(QDate(2026, 11, 25))                # picking fills the field
    assert get_date(w) == dt.date(2026, 11, 25) and w.edit.text() == "2026-11-25"
    plain = date_edit(optional=True)
    qtbot.addWidget(plain)
    cal = plain.open_calendar()
    today = local_today()
    assert (cal.yearShown(), cal.monthShown()) == (today.year, today.month)
    assert get_date(plain) is None                        # opening the calendar chooses nothing


def test_required_dates_default_to_today_in_shanghai(qtbot):
    w = date_edit()
    qtbot.addWidget(w)
    assert get_date(w) == local_today()


def test_a_typed_warranty_end_is_saved(qtbot, db, admin, estate):
    from ui.kit.forms import FormDialog
    gid = estate.gpu_ids[0]
    dlg = FormDialog(db, admin, "gpu", gid)
    qtbot.addWidget(dlg)
    purchase, warranty = dlg.editors["purchase_date"], dlg.editors["warranty_end"]
    type_into(qtbot, purchase, "2026-01-10")
    type_into(qtbot, warranty, "2029-01-09")
    dlg.save()
    assert dlg.result() == 1, dlg.message.text()
    rec = queries.record(db, "gpu", gid)
    assert (rec["purchase_date"], rec["warranty_end"]) == (dt.date(2026, 1, 10), dt.date(2029, 1, 9))


def test_a_bad_typed_date_refuses_the_save_and_changes_nothing(qtbot, db, admin, estate):
    from ui.kit.forms import FormDialog
    gid = estate.gpu_ids[0]
    before = queries.record(db, "gpu", gid)
    dlg = FormDialog(db, admin, "gpu", gid)
    qtbot.addWidget(dlg)
    dlg.show()
    type_into(qtbot, dlg.editors["warranty_end"], "2029-13-01")
    dlg.save()
    assert dlg.result() == 0
    assert dlg.editors["warranty_end"].error.isVisible()
    assert queries.record(db, "gpu", gid) == before
    # an empty purchase date: the warranty calendar opens at today; with one, at the purchase
    cal = dlg.editors["warranty_end"].open_calendar()
    assert (cal.yearShown(), cal.monthShown()) == (local_today().year, local_today().month)
    type_into(qtbot, dlg.editors["purchase_date"], "2025-06-15")
    type_into(qtbot, dlg.editors["warranty_end"], "")
    cal = dlg.editors["warranty_end"].open_calendar()
    assert (cal.yearShown(), cal.monthShown()) == (2025, 6)


def test_a_bad_typed_reservation_end_is_refused_not_open_ended(qtbot, db, admin, estate):
    from sqlalchemy import func, select

    from ui.pages.rackforms import ReserveDialog
    dlg = ReserveDialog(db, admin, estate.rack_ids[0], "front", 10, 11)
    qtbot.addWidget(dlg)
    dlg.editors["customer_id"].setCurrentIndex(1)
    type_into(qtbot, dlg.editors["end_date"], "2027-02-29")
    dlg.save()
    assert dlg.result() == 0
    assert not dlg.errors["end_date"].isHidden() and "no such day" in dlg.errors["end_date"].text()
    with db.session() as s:
        assert s.execute(select(func.count()).select_from(RackReservation)).scalar_one() == 0
