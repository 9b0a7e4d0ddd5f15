"""The refusals of amounts, dates, files, fapiao, panels and ports as typed read in Chinese in the
console (catalogue messages, app/domain/messages.py, translated in resources/translations by id)."""
from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from app.domain import messages as M
from app.domain.clock import DateError, parse_date
from app.domain.errors import ValidationError
from app.domain.money import AmountError, parse_money


def _refusal(call):
    try:
        call()
    except (AmountError, DateError) as exc:
        return exc.args[0]
    raise AssertionError("not refused")


@pytest.mark.parametrize("message,chinese", [
    (_refusal(lambda: parse_money("1e400")), "“1e400”不是金额"),
    (_refusal(lambda: parse_money("1234567890123")), "小数点前最多 12 位"),
    (_refusal(lambda: parse_money("1.234", places=2)), "金额最多两位小数"),
    (_refusal(lambda: parse_date("20261101")), "“20261101”不是有效日期"),
    (_refusal(lambda: parse_date("9999-12-31")), "超出范围"),
    (ValidationError({"amount": _refusal(lambda: parse_money("1e400"))}), "amount: “1e400”不是金额"),
    (M.DISK_FULL("the folder of /data/idc.db"), "磁盘已满（the folder of /data/idc.db）"),
    (M.PORT_NAME.quoting("0"), "“0”不是端口"),
    (M.FAPIAO_NUMBER(), "发票号码：8 至 32 位"),
])
def test_input_refusals_read_in_chinese(qtbot, message, chinese):
    from ui.shell.i18n import install_translators
    from ui.shell.messages import translate_error, translate_message

    app = QApplication.instance()
    install_translators(app, "zh")
    try:
        text = translate_error(message) if isinstance(message, ValidationError) else translate_message(message)
    finally:
        install_translators(app, "en")
    assert chinese in text


def test_every_catalogue_sentence_has_chinese_and_keeps_its_english(qtbot):
    """Each id of the catalogue (app/domain/messages.py) is translated in the Chinese console; the
    English, filled with arguments, is the sentence the service always wrote."""
    from PySide6.QtCore import QCoreApplication

    from ui.shell.i18n import install_translators

    app = QApplication.instance()
    install_translators(app, "zh")
    try:
        missing = [e.id for e in M.CATALOGUE.values()
                   if QCoreApplication.translate("messages", e.template) == e.template]
    finally:
        install_translators(app, "en")
    assert not missing, f"no Chinese for {missing}: add it to scripts/translations_zh/msg23.py"
    assert M.USCC_LENGTH(17) == "a unified social credit code has 18 characters, this one has 17"
    assert M.EMAIL_INVALID.quoting("it's") == '"it\'s" is not an e-mail address'
    assert M.EMAIL_INVALID.quoting("it's").args == ("it's",) and M.USCC_LENGTH(17).id == "uscc.length"
