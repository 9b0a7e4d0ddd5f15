"""The English console speaks English (and the Chinese one Chinese): a payment's kind and method by
name, an audit event's before/after choice codes by name with the code kept beside it."""
from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication
from sqlalchemy import select

from models import AuditEvent


@pytest.fixture(params=["en", "zh"])
def language(request):
    from ui.shell.i18n import install_translators
    install_translators(QApplication.instance(), request.param)
    yield request.param
    install_translators(QApplication.instance(), "en")


def test_payments_show_kind_and_method_by_name(qtbot, db, admin, estate, language):
    from app.services.receivables import record_payment, reverse_payment
    from ui.pages.receivables.tabs import PaymentsSection
    info = record_payment(db, admin, estate.customer_ids[0], "1000.00", "2026-11-20", "BANK-REF-1", method="transfer",
                          allocate=False)
    reverse_payment(db, admin, f"P{info.id}", "entered twice")
    section = PaymentsSection(db, admin)
    qtbot.addWidget(section)
    section.reload()
    t = section.table
    cells = [(t.item(r, 1).text(), t.item(r, 8).text()) for r in range(t.rowCount())]
    assert cells == ([("Receipt", "Bank transfer"), ("Reversal", "Bank transfer")] if language == "en"
                     else [("收款", "银行转账"), ("冲销", "银行转账")])
    methods = [section.method.itemText(i) for i in range(section.method.count())]
    assert methods[0] == ("Bank transfer" if language == "en" else "银行转账") and section.method.itemData(0) == "transfer"


def test_audit_event_detail_names_choice_codes(qtbot, db, admin, estate, language):
    from app.audit.query import event_detail
    from app.services.gpus import transition_gpu
    from ui.pages.audit import AuditEventDialog
    gpu = estate.gpu_ids[0]
    with db.session() as s:
        from models import GpuAsset
        state = s.get(GpuAsset, gpu).state
    path = {"ordered": ["received", "burn_in"], "received": ["burn_in"]}[state]   # the estate's GPUs start here
    for st in path:
        transition_gpu(db, admin, gpu, st, "to " + st)
    with db.session() as s:
        seq = s.execute(select(AuditEvent.seq).where(AuditEvent.action == "gpu.transition")
                        .order_by(AuditEvent.seq.desc())).scalars().first()
    dlg = AuditEventDialog(event_detail(db, seq))
    qtbot.addWidget(dlg)
    row = {dlg.changes.item(r, 0).text(): (dlg.changes.item(r, 1).text(), dlg.changes.item(r, 2).text())
           for r in range(dlg.changes.rowCount())}
    assert row["state"] == (("Received  (received)", "Burn-in  (burn_in)") if language == "en"
                            else ("已到货  (received)", "老化测试  (burn_in)"))
