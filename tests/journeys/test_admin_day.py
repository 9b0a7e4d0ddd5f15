"""The administrator's day under the real main window, in both languages (issue 9): approve the
contract awaiting approval, activate it, bill last month, issue a statement, credit half of one
of its lines (confirmed, with a reason); then the database says so."""
from __future__ import annotations

from decimal import Decimal

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox
from sqlalchemy import func, select

from app.domain.rating import fen
from app.services.users import login
from models import AuditEvent, Contract, Statement, StatementLine
from models.choices import ContractStatus, StatementKind, StatementStatus
from ui.shell.i18n import install_translators
from tests.conftest import across_backends

DEMO_PASSWORD = "demo1234"


def _answer_next_box(button=QMessageBox.Yes, seen: list | None = None) -> None:
    """When the next message box opens (its own event loop runs our timer), press `button`."""
    def press():
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox), box
        if seen is not None:
            seen.append(box.text())
        box.button(button).click()
    QTimer.singleShot(0, press)


def _press_when_shown(button, which) -> list:
    """Press `button` on the first message box `which(box)` accepts, whenever it opens (a timer
    that looks on each turn of whichever event loop runs); returns the texts seen."""
    seen: list[str] = []
    timer = QTimer()
    timer.setInterval(20)

    def look():
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox) and which(box):
            timer.stop()
            seen.append(box.text())
            box.button(button).click()
    timer.timeout.connect(look)
    timer.start()
    _TIMERS.append(timer)
    return seen


_TIMERS: list = []


def _wait(qtbot, op):
    assert op is not None
    with qtbot.waitSignal(op.done, timeout=60000):
        pass


@across_backends("demo_db", "lang", ["en", "zh"])   # the day in each language; each backend once
def test_admin_day(qtbot, demo_db, lang):
    from ui.pages.billing.dialogs import CreditNoteDialog
    from ui.shell.mainwindow import MainWindow
    app = QApplication.instance()
    install_translators(app, lang)
    db = demo_db
    try:
        admin = login(db, "admin", DEMO_PASSWORD)
        with db.session() as s:
            pending = s.execute(select(Contract).where(Contract.status == ContractStatus.PENDING)
                                .order_by(Contract.id)).scalars().first()
            assert pending is not None, "the demo has a contract awaiting approval"
            cid, number = pending.id, pending.number
        window = MainWindow(db, admin)
        qtbot.addWidget(window)
        window.resize(1280, 800)
        window.show()

        # 1. approve, then activate, from the contract panel (each asks first)
        window.show_page("contracts")
        contracts = window.pages["contracts"]
        assert contracts.list.select_record(cid)
        panel = contracts.panel
        qtbot.waitUntil(lambda: panel.info is not None and panel.info.id == cid)
        assert panel.buttons["approve"].isVisible() and panel.buttons["approve"].isEnabled(), \
            panel.buttons["approve"].toolTip()
        asked: list[str] = []
        _answer_next_box(seen=asked)
        _wait(qtbot, panel.ask_move("approve"))
        assert number in asked[-1]
        qtbot.waitUntil(lambda: panel.info.status == ContractStatus.APPROVED)
        assert panel.buttons["activate"].isEnabled(), panel.buttons["activate"].toolTip()
        _answer_next_box(seen=asked)
        _wait(qtbot, panel.ask_move("activate"))
        qtbot.waitUntil(lambda: panel.info.status == ContractStatus.ACTIVE)
        assert not panel.message.isVisible() or not panel.message.text(), panel.message.text()

        # 2. bill last month (the page opens on it), then issue one draft from the statement panel
        window.show_page("billing")
        billing = window.pages["billing"]
        assert billing.buttons["run"].isEnabled(), billing.buttons["run"].toolTip()
        _wait(qtbot, billing.run())
        summary = billing.summary
        assert summary is not None and not summary.dry_run and summary.statements, billing.result.text()
        period = summary.period
        with db.session() as s:
            draft = s.execute(select(Statement).where(Statement.period == period,
                                                      Statement.status == StatementStatus.DRAFT,
                                                      Statement.kind == StatementKind.STATEMENT)
                              .order_by(Statement.total.desc())).scalars().first()
            assert draft is not None
            sid = draft.id
        stmts = billing.list
        stmts.filter.setText("")
        assert stmts.select_record(sid)
        spanel = billing.panel
        qtbot.waitUntil(lambda: spanel.info is not None and spanel.info.id == sid)
        assert spanel.buttons["issue"].isVisible() and spanel.buttons["issue"].isEnabled()
        _wait(qtbot, spanel.issue())
        qtbot.waitUntil(lambda: spanel.info.status == StatementStatus.ISSUED)
        issued_number = spanel.info.number
        assert issued_number

        # 3. credit half of its largest line, by amount, with a reason: confirmed first
        line = max(spanel.info.lines, key=lambda ln: ln.amount)
        half = fen(line.amount / 2)
        assert spanel.buttons["credit"].isVisible() and spanel.buttons["credit"].isEnabled()
        confirm: list[str] = []

        def fill_credit():
            dlg = app.activeModalWidget()
            assert isinstance(dlg, CreditNoteDialog), dlg
            dlg.reason.setText("客户投诉：半月服务降级" if lang == "zh" else "service degraded for half the month")
            for i in range(dlg.lines.count()):
                item = dlg.lines.item(i)
                item.setCheckState(Qt.Checked if item.data(Qt.UserRole) == line.id else Qt.Unchecked)
            dlg.amount.setText(str(half))
            _answer_next_box(seen=confirm)          # the confirmation, then the dialog closes
            dlg._accept()
        QTimer.singleShot(0, fill_credit)
        issued_box = _press_when_shown(QMessageBox.Ok, lambda box: box.icon() == QMessageBox.Information)
        spanel.ask_credit()
        assert confirm and issued_number in confirm[0] and line.description in confirm[0], confirm
        assert ("Part of" if lang == "en" else "部分冲减") in confirm[0]

        # the database: approved by admin, active, issued, one credit note for half the line
        with db.session() as s:
            c = s.get(Contract, cid)
            assert c.status == ContractStatus.ACTIVE and c.approved_by == "admin"
            st = s.get(Statement, sid)
            assert st.status == StatementStatus.ISSUED and st.number == issued_number
            notes = s.execute(select(Statement).where(Statement.original_id == sid)).scalars().all()
            assert len(notes) == 1 and notes[0].kind == StatementKind.CREDIT_NOTE
            assert len(issued_box) == 1 and notes[0].number in issued_box[0], issued_box
            credited = s.execute(select(func.sum(StatementLine.amount))
                                 .where(StatementLine.statement_id == notes[0].id)).scalar_one()
            assert Decimal(credited) == -half
            actions = set(s.execute(select(AuditEvent.action).where(AuditEvent.actor_login == "admin",
                                                                    AuditEvent.object_id.in_([str(cid), str(sid)])))
                          .scalars())
            assert {"contract.approve", "contract.activate", "statement.issue"} <= actions, actions
        window.close()
    finally:
        install_translators(app, "en")
