"""The customer form: contacts tab, translated field messages that clear when fixed, region paths."""
from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from app.read import queries
from app.domain.validators import make_uscc
from models import Region


@pytest.fixture(params=["en", "zh"])
def language(request):
    from ui.shell.i18n import install_translators
    app = QApplication.instance()
    install_translators(app, request.param)
    yield request.param
    install_translators(app, "en")


def _regions(db):
    with db.session() as s:
        s.add_all([Region(code="460000", name="海南省", level=1),
                   Region(code="460100", name="海口市", level=2, parent_code="460000"),
                   Region(code="460106", name="龙华区", level=3, parent_code="460100"),
                   Region(code="440000", name="广东省", level=1),
                   Region(code="440300", name="深圳市", level=2, parent_code="440000"),
                   Region(code="440309", name="龙华区", level=3, parent_code="440300")])
        s.commit()


def test_customer_with_two_contacts_errors_translated_beside_fields(qtbot, db, admin, language):
    from ui.kit.forms import open_form
    _regions(db)
    dlg = open_form(db, admin, "customer")
    qtbot.addWidget(dlg)
    region = dlg.editors["region_code"]
    # the picker tells the two 龙华区 apart by their whole path
    both = [region.itemText(i) for i in range(region.count()) if "龙华区" in region.itemText(i)]
    assert both == ["广东省 / 深圳市 / 龙华区 440309", "海南省 / 海口市 / 龙华区 460106"]
    region.setCurrentIndex(region.findData("460106"))
    dlg.editors["credit_code"].setText("91460100MA5T0000")       # 16 characters
    dlg.append_contact({"name": "张伟", "role": "IT 经理", "phone": "13800138000", "email": "zhang@example.cn"})
    dlg.append_contact({"name": "王芳", "role": "财务", "phone": "call me"})
    assert dlg.tabs.tabText(1) == ("联系人（2）" if language == "zh" else "Contacts (2)")
    dlg.save()
    assert dlg.result() == 0
    name_error, code_error = dlg.errors["name"], dlg.errors["credit_code"]
    assert not name_error.isHidden()             # the form's own check comes first
    if language == "zh":
        assert name_error.text() == "必填"
    dlg.editors["name"].setText("海口椰风智算科技有限公司")
    assert name_error.isHidden()                 # cleared as soon as the field is fixed
    dlg.save()                                   # now the service speaks: the credit code's length
    expected = ("统一社会信用代码应为 18 位，此处为 16 位" if language == "zh"
                else "a unified social credit code has 18 characters, this one has 16")
    assert code_error.text() == expected and not code_error.isHidden()
    dlg.editors["credit_code"].setText(make_uscc("91460100MA5T00001"))
    assert code_error.isHidden()
    dlg.save()                                   # the contact's phone is refused, beside its table
    assert dlg.result() == 0 and not dlg.contact_error.isHidden()
    assert ("“call me”不是有效的电话号码" if language == "zh" else "'call me' is not a phone number") \
        in dlg.contact_error.text()
    assert dlg.tabs.currentIndex() == 1
    dlg.contacts.item(1, 2).setText("0898-66123456")
    assert dlg.contact_error.isHidden()
    dlg.save()
    assert dlg.result() == 1
    contacts = queries.customer_contacts(db, dlg.saved_id)
    assert [(c["name"], c["role"], c["phone"]) for c in contacts] == [
        ("张伟", "IT 经理", "13800138000"), ("王芳", "财务", "0898-66123456")]
    assert queries.record(db, "customer", dlg.saved_id)["region_code"] == "460106"
    # reopened: the contacts are there, and removing one saves
    again = open_form(db, admin, "customer", dlg.saved_id)
    qtbot.addWidget(again)
    assert again.contacts.rowCount() == 2
    again.contacts.setCurrentCell(0, 0)
    again._remove_contact()
    again.save()
    assert again.result() == 1
    assert [c["name"] for c in queries.customer_contacts(db, dlg.saved_id)] == ["王芳"]
