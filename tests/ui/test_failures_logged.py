"""Every refusal or failure a person is shown is also in the log (issue 23 move 5): the errors a
form shows beside its fields, a stored setting that cannot be read, a failure's traceback."""
from __future__ import annotations

import logging


def test_a_refusal_shown_beside_the_fields_is_logged(qtbot, db, admin, caplog):
    from ui.kit.forms import open_form
    dlg = open_form(db, admin, "customer")
    qtbot.addWidget(dlg)
    dlg.editors["name"].setText("海口椰风智算科技有限公司")
    dlg.editors["credit_code"].setText("91460100MA5T0000")       # 16 characters: the service refuses
    with caplog.at_level(logging.INFO, logger="ui.kit.dialogs"):
        dlg.save()
    assert dlg.result() == 0 and not dlg.errors["credit_code"].isHidden()
    lines = [r.getMessage() for r in caplog.records if r.name == "ui.kit.dialogs"]
    assert any(line.startswith("refused:") and "credit_code" in line for line in lines), lines


def test_a_failure_is_logged_with_its_traceback(caplog):
    from ui.kit.dialogs import refused_text
    failure = OSError("disk full")
    try:
        raise failure
    except OSError as exc:
        with caplog.at_level(logging.INFO, logger="ui.kit.dialogs"):
            text = refused_text(exc)
    assert "disk full" in text
    record = next(r for r in caplog.records if r.name == "ui.kit.dialogs")
    assert record.levelno == logging.ERROR and record.exc_info and record.exc_info[1] is failure
    assert record.exc_info[2] is not None          # the traceback, not just the message


def test_a_stored_setting_that_is_not_a_number_is_logged(tmp_path, caplog):
    from PySide6.QtCore import QSettings

    from ui.shell.settings import KEYS, Settings
    key = next(k for k in KEYS.values() if k.type is int)
    s = Settings(QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat))
    s.q.setValue(key.name, "many")
    with caplog.at_level(logging.WARNING, logger="ui.shell.settings"):
        assert s.get(key.name) == key.default
    assert any(key.name in r.getMessage() and "'many'" in r.getMessage() for r in caplog.records)
