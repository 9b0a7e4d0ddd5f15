"""Screen and paper say the same word for every choice, in both languages.

The screen translates a choice through the compiled Qt catalogue (context "choices/<Class>");
the PDFs read ChoiceSet.label(value, lang). Both must come from models/choices.py: a stale .qm
or a private label table in a document builder fails here.
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from PySide6.QtWidgets import QApplication

from app import documents
from models import GpuAsset, GpuModel
from models.choices import ContractStatus, GpuState, choice_sets
from ui.shell.i18n import choice_label, install_translators

EVERY_CHOICE = [(cls, v) for cls in choice_sets() for v in cls.values()]


@pytest.fixture
def language(qapp):
    def use(lang):
        install_translators(QApplication.instance(), lang)
    yield use
    install_translators(QApplication.instance(), "en")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_choice_reads_the_same_on_screen_and_on_paper(language, lang):
    language(lang)
    differ = [(cls.__name__, v, choice_label(cls, v), cls.label(v, lang)) for cls, v in EVERY_CHOICE
              if choice_label(cls, v) != cls.label(v, lang)]
    assert differ == []


def test_every_choice_has_both_labels():
    missing = [(cls.__name__, v) for cls in choice_sets() for v, en, zh in cls.labels() if not en or not zh]
    assert missing == []


def test_the_words_that_disagreed(language):
    """Contract active, burn-in and retired: one word each, the PDF's (see models/choices.py)."""
    language("zh")
    assert choice_label(ContractStatus, "active") == ContractStatus.label("active", "zh") == "履行中"
    assert choice_label(GpuState, "burn_in") == "老化测试"
    assert choice_label(GpuState, "retired") == "已报废"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_fleet_report_prints_the_screen_words(db, admin, language, lang):
    with db.session() as s:
        gm = s.query(GpuModel).order_by(GpuModel.id).first().id
        for n, state in enumerate(GpuState.values()):
            s.add(GpuAsset(serial=f"SN{n:03d}", gpu_model_id=gm, state=state, purchase_cost=Decimal(1000),
                           purchase_date=dt.date(2026, 1, 1)))
        s.commit()
    doc = documents.fleet_doc(db, language=lang, today=dt.date(2026, 11, 30))
    language(lang)
    assert list(doc.states) == [choice_label(GpuState, v) for v in GpuState.values()]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_contract_and_statement_print_the_screen_words(db, admin, manager, language, lang):
    from app.services import billing as SB
    from models.choices import StatementKind, StatementStatus
    from tests.billing.test_billing_world import make_world, rack_item, signed
    w = make_world(db)
    c = signed(db, manager, admin, w, [rack_item(w, 1, "6000")], dt.date(2026, 9, 1), dt.date(2027, 8, 31))
    st = SB.run_billing(db, admin, "2026-09").statements[0]
    contract = documents.contract_doc(db, c.id, language=lang)
    statement = documents.statement_doc(db, st.id, language=lang)
    language(lang)
    assert contract.status == choice_label(ContractStatus, "active")
    assert statement.status == choice_label(StatementStatus, "draft")
    assert statement.kind_label == choice_label(StatementKind, "statement")
