"""The refusals of amounts, dates, files, fapiao, panels and ports as typed read in Chinese in the
console (ui/shell/messages.py patterns, translated in resources/translations)."""
from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from app.domain.clock import DateError, parse_date
from app.domain.money import AmountError, parse_money


def _refusal(call):
    try:
        call()
    except (AmountError, DateError) as exc:
        return str(exc)
    raise AssertionError("not refused")


@pytest.mark.parametrize("message,chinese", [
    (_refusal(lambda: parse_money("1e400")), "“1e400”不是金额"),
    (_refusal(lambda: parse_money("1234567890123")), "小数点前最多 12 位"),
    (_refusal(lambda: parse_money("1.234", places=2)), "金额最多两位小数"),
    (_refusal(lambda: parse_date("20261101")), "“20261101”不是有效日期"),
    (_refusal(lambda: parse_date("9999-12-31")), "超出范围"),
    ("amount: '1e400' is not an amount: write digits, e.g. 1234.50 or ¥1,234.50", "amount: “1e400”不是金额"),
    ("the disk is full (the folder of /data/idc.db): nothing was written, the whole change was rolled back. "
     "Free some space and try again", "磁盘已满（the folder of /data/idc.db）"),
    ("'0' is not a port: ports are numbered from 1 (or named, e.g. 12A)", "“0”不是端口"),
    ("the fapiao number: 8 to 32 digits or letters (a 数电 fapiao has 20 digits)", "发票号码：8 至 32 位"),
])
def test_input_refusals_read_in_chinese(qtbot, message, chinese):
    from ui.shell.i18n import install_translators
    from ui.shell.messages import translate_message

    app = QApplication.instance()
    install_translators(app, "zh")
    try:
        text = translate_message(message)
    finally:
        install_translators(app, "en")
    assert chinese in text
