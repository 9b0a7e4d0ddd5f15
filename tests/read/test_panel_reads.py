"""The contract and statement panels (issue 26) each read what they show in one go: contract_detail
and statement_detail give, for every contract and every statement of the demo, what the reads they
replace gave (get_contract + the renewed contract's record + totals_of_contract; get_statement in
either language + statement_fapiao_status), and each sends a counted number of statements, so that
a regression shows. SQLite and PostgreSQL.

The demo has no statement and no renewal: its last two months are billed and issued here, one
statement gets a fapiao, one a partial credit note, one is credited in full with a red-letter fapiao
against its fapiao, and one contract is renewed, so that every part of both panels is read."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import event, select

from app.domain.clock import local_today
from app.domain.errors import RuleViolation
from app.read import queries
from app.services import billing as BS
from app.services import contracts as CS
from app.services.contracts.detail import contract_detail
from app.services.contracts.totals import totals_of_contract
from app.services.receivables import fapiao as FP
from app.services.receivables.statement_detail import statement_detail
from app.services.users import login
from models import Contract, Statement
from models.choices import ContractStatus

# statements a panel's open sends (before issue 26 on the demo: contract 10-13, statement 12-13)
CONTRACT_OPEN, STATEMENT_OPEN = 2, 2


def _counted(db, fn):
    seen = []

    def count(_conn, _cur, statement, *_a):
        seen.append(statement)
    event.listen(db.engine, "before_cursor_execute", count)
    try:
        result = fn()
    finally:
        event.remove(db.engine, "before_cursor_execute", count)
    return result, len(seen)


def _billed(db):
    admin = login(db, "admin", "demo1234")
    issued = []
    for period in BS.billable_periods(2):
        issued += BS.run_billing(db, admin, period, issue=True).issued
    assert len(issued) >= 3
    paid, partly, credited = (BS.get_statement(db, sid) for sid in issued[:3])
    today = local_today()
    FP.add_fapiao(db, admin, paid.id, "26442000000000000001", today, paid.subtotal, paid.tax)
    BS.credit_statement(db, admin, partly.id, "one line billed twice", line_ids=[partly.lines[0].id])
    FP.add_fapiao(db, admin, credited.id, "26442000000000000002", today, credited.subtotal, credited.tax)
    cn = BS.credit_statement(db, admin, credited.id, "wrong customer")
    FP.add_red_fapiao(db, admin, cn.number, "26442000000000000003", "26442000000000000002")
    with db.session() as s:
        held = s.execute(select(Contract).where(Contract.status == ContractStatus.ACTIVE)
                         .order_by(Contract.id).limit(1)).scalar_one()
        start, end = held.end_date + dt.timedelta(days=1), held.end_date + dt.timedelta(days=365)
        held_id = held.id
    CS.renew_contract(db, admin, held_id, start_date=start, end_date=end)


def test_each_panel_shows_what_the_reads_it_replaces_showed_in_a_counted_number_of_statements(demo_db, qtbot):
    _billed(demo_db)
    with demo_db.session() as s:
        contract_ids = list(s.execute(select(Contract.id).order_by(Contract.id)).scalars())
        statement_ids = list(s.execute(select(Statement.id).order_by(Statement.id)).scalars())
    renewals = 0
    for cid in contract_ids:
        detail, n = _counted(demo_db, lambda: contract_detail(demo_db, cid))
        assert n <= CONTRACT_OPEN, (cid, n)
        info = CS.get_contract(demo_db, cid)
        assert detail.info == info
        if info.renewal_of_id:
            renewals += 1
            assert detail.renews_number == queries.record(demo_db, "contract", info.renewal_of_id)["number"]
        else:
            assert detail.renews_number is None
        try:
            totals, refused = totals_of_contract(demo_db, cid), None
        except RuleViolation as exc:
            totals, refused = None, exc
        assert detail.totals == totals
        assert (detail.refused and detail.refused.message) == (refused and refused.message)
    assert renewals == 1
    kinds = set()
    for sid in statement_ids:
        for language in ("zh", "en"):
            detail, n = _counted(demo_db, lambda: statement_detail(demo_db, sid, language=language))
            assert n <= STATEMENT_OPEN, (sid, n)
            info = BS.get_statement(demo_db, sid, language=language)
            assert detail.info == info
            if info.status == "issued":
                assert detail.fapiao == FP.statement_fapiao_status(demo_db, sid)
                kinds.add((info.kind, detail.fapiao[0]))
            else:
                assert detail.fapiao is None
    # every state of the cover was compared: none, partly and fully invoiced, a credit note's
    assert {("statement", "none"), ("statement", "full"), ("credit_note", "full")} <= kinds, kinds
    # and the panels themselves send no more than their one read: a click costs these statements
    from ui.pages.billing.panel import StatementPanel
    from ui.pages.contracts.panel import ContractPanel

    admin = login(demo_db, "admin", "demo1234")
    contract_panel, statement_panel = ContractPanel(demo_db, admin), StatementPanel(demo_db, admin)
    qtbot.addWidget(contract_panel)
    qtbot.addWidget(statement_panel)
    for cid in contract_ids:
        assert _counted(demo_db, lambda: contract_panel.show_contract(cid))[1] <= CONTRACT_OPEN, cid
        assert contract_panel.info == CS.get_contract(demo_db, cid)
    for sid in statement_ids:
        assert _counted(demo_db, lambda: statement_panel.show_statement(sid))[1] <= STATEMENT_OPEN, sid
        assert statement_panel.info.id == sid
