"""An administrator adds a year of China's holidays and make-up working days through the real
Operations page (Ctrl+Shift+H): a file in the format of resources/holidays_cn is read and shown,
a wrong file is refused with nothing written, the year is added and audited per day; an operator's
button is disabled and the service refuses them (both languages)."""
from __future__ import annotations

import datetime as dt
import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from sqlalchemy import select

from models import AuditEvent, HolidayDay

from app.domain.errors import PermissionDenied
from app.services.operations.holidays import add_year, read_year
from tests.operations.conftest import rows_of

YEAR = {"year": 2028, "papers": ["https://www.gov.cn/zhengce/example-2028.htm"],
        "days": [{"name": "元旦", "date": "2028-01-01", "isOffDay": True},
                 {"name": "春节", "date": "2028-01-26", "isOffDay": True},
                 {"name": "春节", "date": "2028-02-05", "isOffDay": False}]}


def _file(tmp_path, data, name="2028.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_administrator_adds_a_holiday_year_from_the_operations_page(qtbot, db, admin, language, lang, tmp_path):
    from ui.pages.operations import OperationsPage
    from ui.pages.operations.holidays import HolidayYearDialog
    language(lang)
    page = OperationsPage(db, admin)
    qtbot.addWidget(page)
    page.show()
    qtbot.waitExposed(page)
    page.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is page)
    assert page.holidays_button.isEnabled()
    qtbot.keyClick(page, Qt.Key_H, Qt.ControlModifier | Qt.ShiftModifier)
    dlg = page.findChild(HolidayYearDialog, "holidayYearDialog")       # the shortcut opened it
    assert dlg is not None
    qtbot.waitExposed(dlg)
    assert dlg.windowTitle() == ("添加节假日年度" if lang == "zh" else "Add a holiday year")
    # a day dated outside the file's year: refused, the year cannot be added
    dlg.path.setText(_file(tmp_path, {**YEAR, "days": [{"name": "元旦", "date": "2027-12-31", "isOffDay": True}]},
                           "bad.json"))
    assert not dlg.load() and dlg.error.isVisible() and not dlg.add.isEnabled()
    assert ("2028" in dlg.error.text()) and (("日期" in dlg.error.text()) == (lang == "zh"))
    dlg.path.setText(_file(tmp_path, YEAR))
    assert dlg.load() and dlg.table.rowCount() == 3 and dlg.add.isEnabled()
    assert dlg.table.item(2, 0).text() == "2028-02-05"
    assert dlg.table.item(2, 1).text() == ("调休上班" if lang == "zh" else "Working day (调休)")
    before = rows_of(db, HolidayDay)
    dlg.add.click()
    assert not dlg.isVisible() and rows_of(db, HolidayDay) == before + 3
    with db.session() as s:
        assert (s.get(HolidayDay, dt.date(2028, 2, 5)).off, s.get(HolidayDay, dt.date(2028, 1, 1)).off) == (False, True)
        assert s.get(HolidayDay, dt.date(2028, 1, 1)).source == YEAR["papers"][0]
        events = s.execute(select(AuditEvent).where(AuditEvent.action == "holiday.set",
                                                    AuditEvent.reason == "holiday year 2028 added")).scalars().all()
        assert len(events) == 3 and {e.actor_login for e in events} == {"admin"}


def test_an_operator_cannot_add_a_holiday_year(qtbot, db, operator, language, tmp_path):
    from ui.pages.operations import OperationsPage
    page = OperationsPage(db, operator)
    qtbot.addWidget(page)
    assert not page.holidays_button.isEnabled() and page.holidays_button.toolTip()
    assert page.add_holiday_year() is None
    before = rows_of(db, HolidayDay)
    with pytest.raises(PermissionDenied):
        add_year(db, operator, read_year(_file(tmp_path, YEAR)))
    assert rows_of(db, HolidayDay) == before
