"""What the operations desk's form tests share: the console's language for one test, and a row count
that says whether a refused form wrote nothing."""
from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication
from sqlalchemy import func, select


@pytest.fixture
def language(qapp):
    """`language("zh")` switches the console's translators for this test; English again after it."""
    from ui.shell.i18n import install_translators
    from ui.shell.operations import forget_bus

    def use(lang):
        install_translators(QApplication.instance(), lang)
    yield use
    install_translators(QApplication.instance(), "en")
    forget_bus()     # this test's tabs hear no later test's writes (their database is dropped)


def rows_of(db, model) -> int:
    with db.session() as s:
        return s.execute(select(func.count()).select_from(model)).scalar_one()
