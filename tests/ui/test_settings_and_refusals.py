"""The database-wide settings on the users page (admin only, audited), and one wording of refusals."""
from __future__ import annotations

from sqlalchemy import select

from models import AuditEvent


def test_the_four_eyes_setting_on_the_users_page(qtbot, monkeypatch, db, admin, operator):
    from ui.kit.dialogs import ReasonDialog
    from ui.shell.installsettings import FourEyesCheck
    from app.services.settings import four_eyes_required
    monkeypatch.setattr(ReasonDialog, "exec", lambda self: True)
    monkeypatch.setattr(ReasonDialog, "value", lambda self: ("一人公司", None))
    box = FourEyesCheck(db, admin)
    qtbot.addWidget(box)
    assert box.isChecked() and box.isEnabled()
    box.setChecked(False)
    assert not four_eyes_required(db)
    with db.session() as s:
        assert s.execute(select(AuditEvent.reason).where(AuditEvent.action == "setting.update")).scalar() == "一人公司"
    assert not FourEyesCheck(db, operator).isEnabled()


def test_every_panel_words_a_refusal_the_same(qtbot):
    """refused() was written three times (contracts, statements, billing runs): now one text."""
    from app.domain.errors import RuleViolation, ValidationError
    from ui.kit.dialogs import refused_text
    assert refused_text(ValidationError({"a": "x is required", "b": "y is not a number"})) == \
        "x is required; y is not a number"
    assert refused_text(RuleViolation("contract X is draft")) == "contract X is draft"
    assert refused_text(RuntimeError("disk full")) == "The operation failed: disk full"


def test_a_refusal_or_failure_a_person_sees_is_logged(qtbot, caplog):
    """refused_text is where every panel words what went wrong, so it is where it reaches the log:
    a refusal as one line, any other failure with its traceback, once."""
    import logging
    from app.domain.errors import RuleViolation
    from ui.kit.dialogs import refused_text
    caplog.set_level(logging.INFO, logger="ui.kit.dialogs")
    refused_text(RuleViolation("rack A01 is full"))
    try:
        raise OSError("disk full")
    except OSError as exc:
        failure = exc
    refused_text(failure)
    refused_text(failure, logged=True)          # the caller logged it already: not twice
    records = [r for r in caplog.records if r.name == "ui.kit.dialogs"]
    assert [(r.levelno, r.getMessage()) for r in records] == [
        (logging.INFO, "refused: rack A01 is full"), (logging.ERROR, "operation failed")]
    assert records[0].exc_info is None
    assert records[1].exc_info[1] is failure and "disk full" in caplog.text


def test_the_tax_codes_dialog_lists_and_edits_the_codes_by_kind_and_rate(qtbot, monkeypatch, db, admin, operator):
    from decimal import Decimal

    from PySide6.QtWidgets import QMessageBox

    from app.services.receivables.fapiao import list_tax_codes
    from ui.shell.installsettings import TaxCodesDialog
    dlg = TaxCodesDialog(db, admin)
    qtbot.addWidget(dlg)
    kinds = [(dlg.table.item(i, 0).text(), dlg.table.item(i, 1).text()) for i in range(dlg.table.rowCount())]
    assert ("gpu", "6 %") in kinds and ("gpu", "13 %") in kinds and ("electricity", "13 %") in kinds
    row = kinds.index(("gpu", "13 %"))
    dlg.table.selectRow(row)
    assert dlg.code.text() == "3040502019900000000" and dlg.rate.text() == "0.13"
    dlg.name.setText("GPU 服务器经营租赁")
    assert dlg.save()
    assert {(t.line_kind, t.tax_rate): t for t in list_tax_codes(db)}[("gpu", Decimal("0.1300"))].item_name \
        == "GPU 服务器经营租赁"
    with db.session() as s:
        assert s.execute(select(AuditEvent.action).where(AuditEvent.object_type == "tax_code")).scalar() \
            == "tax_code.update"
    warned = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: warned.append(a[2]))
    dlg.code.setText("123")
    assert not dlg.save() and "19 digits" in warned[0]
    ro = TaxCodesDialog(db, operator)
    qtbot.addWidget(ro)
    assert not ro.save_button.isEnabled()
