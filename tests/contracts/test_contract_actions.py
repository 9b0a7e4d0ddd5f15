"""One home for what may be done with a contract: available_actions answers the console, and the
use cases refuse by the same rules. Four eyes on approval (issue 12), with its setting."""
from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select

from app.domain.errors import PermissionDenied, RuleViolation
from app.services import contracts as C
from app.services.settings import CONTRACT_FOUR_EYES, change_setting, four_eyes_required
from models import AuditEvent, Contract
from models.choices import ContractStatus
from tests.conftest import make_user, table_counts
from tests.billing.test_billing_world import cst, make_world, rack_item

START, END = dt.date(2026, 9, 1), dt.date(2027, 8, 31)
S = ContractStatus


@pytest.fixture
def admin2(db, admin):
    return make_user(db, admin, "boss2", "admin", "第二审批人")


def _draft(db, actor, w, rack=1):
    return C.create_contract(db, actor, subsidiary_id=w.subsidiary_id, customer_id=w.customer_id,
                             start_date=START, end_date=END, items=[rack_item(w, rack, "6000")])


def _actions(db, actor, contract_id, today=None):
    return {a.key: a for a in C.available_actions(C.get_contract(db, contract_id), actor, today)}


def test_every_move_is_a_transition_of_the_lifecycle():
    moves = {(src, target) for _k, target, sources, _p in C.ACTIONS if target for src in sources}
    lifecycle = {(src, to) for src, tos in S.TRANSITIONS.items() for to in tos}
    assert moves == lifecycle


MOVE = {
    "submit": lambda db, a, c: C.submit_contract(db, a, c.id, c.version),
    "reject": lambda db, a, c: C.reject_contract(db, a, c.id, "价格有误", c.version),
    "approve": lambda db, a, c: C.approve_contract(db, a, c.id, c.version),
    "activate": lambda db, a, c: C.activate_contract(db, a, c.id, at=cst(2026, 9, 1), expected_version=c.version),
    "suspend": lambda db, a, c: C.suspend_contract(db, a, c.id, "欠费", c.version),
    "resume": lambda db, a, c: C.resume_contract(db, a, c.id, c.version),
    "expire": lambda db, a, c: C.expire_contract(db, a, c.id, at=cst(2026, 10, 1), expected_version=c.version),
    "terminate": lambda db, a, c: C.terminate_contract(db, a, c.id, "客户退租", at=cst(2026, 10, 1),
                                                       expected_version=c.version),
    "renew": lambda db, a, c: C.renew_contract(db, a, c.id, start_date=END + dt.timedelta(days=1),
                                               end_date=END.replace(year=2028)),
    "amend": lambda db, a, c: C.amend_contract(db, a, c.id, effective_date=dt.date(2026, 10, 1), reason="调价"),
}
PATH = {S.DRAFT: [], S.PENDING: ["submit"], S.APPROVED: ["submit", "approve"],
        S.ACTIVE: ["submit", "approve", "activate"], S.SUSPENDED: ["submit", "approve", "activate", "suspend"]}


@pytest.mark.parametrize("status", list(PATH))
def test_the_console_offers_exactly_what_the_service_accepts(db, admin, admin2, manager, status):
    """For each status and each actor: available_actions' answer and reason = what the use case does."""
    w = make_world(db)
    rack = 1
    for key, move in MOVE.items():
        for actor in (manager, admin2):
            c = _draft(db, manager, w, rack)
            rack = rack % 3 + 1
            for step in PATH[status]:
                MOVE[step](db, manager if step == "submit" else admin, C.get_contract(db, c.id))
            c = C.get_contract(db, c.id)
            answer = C.available_actions(c, actor, today=dt.date(2026, 10, 1))
            action = next(a for a in answer if a.key == key)
            try:
                move(db, actor, c)
            except (PermissionDenied, RuleViolation) as exc:
                assert not action.allowed and action.reason == exc.message, (status, key, actor.login)
            else:
                assert action.allowed, (status, key, actor.login, action.reason)
            for cid in _live(db):  # leave the racks free for the next round
                C.terminate_contract(db, admin, cid, "清理", at=cst(2026, 9, 2))


def _live(db):
    with db.session() as s:
        return list(s.execute(select(Contract.id).where(Contract.status.in_((S.ACTIVE, S.SUSPENDED, S.APPROVED)))
                              ).scalars())


def test_a_contract_with_an_open_renewal_cannot_be_renewed_again(db, admin, manager):
    w = make_world(db)
    c = _draft(db, manager, w)
    C.submit_contract(db, manager, c.id)
    C.approve_contract(db, admin, c.id)
    first = MOVE["renew"](db, manager, C.get_contract(db, c.id))
    renew = _actions(db, manager, c.id)["renew"]
    assert not renew.allowed and first.number in renew.reason
    end = C.get_contract(db, c.id).end_date   # the list of contracts due says it is renewed
    assert [(d.number, d.renewed) for d in C.contracts_due(db, 180, today=end - dt.timedelta(days=10))
            if d.id == c.id] == [(c.number, True)]
    before = table_counts(db)
    with pytest.raises(RuleViolation, match=f"already has the renewal {first.number}"):
        MOVE["renew"](db, manager, C.get_contract(db, c.id))
    assert table_counts(db) == before
    C.submit_contract(db, manager, first.id)
    C.reject_contract(db, admin, first.id, "作废")
    # sent back to draft, the renewal is still open
    assert not _actions(db, manager, c.id)["renew"].allowed


# --- four eyes ------------------------------------------------------------------------------

def test_the_drafter_or_submitter_may_not_approve_their_own_contract(db, admin, admin2):
    w = make_world(db)
    c = _draft(db, admin, w)
    C.submit_contract(db, admin, c.id)
    approve = _actions(db, admin, c.id)["approve"]
    assert not approve.allowed and "four eyes" in approve.reason
    before = table_counts(db)
    with pytest.raises(RuleViolation, match="four eyes: another administrator approves it"):
        C.approve_contract(db, admin, c.id)
    assert table_counts(db) == before
    assert _actions(db, admin2, c.id)["approve"].allowed
    info = C.approve_contract(db, admin2, c.id)
    with db.session() as s:
        row = s.get(Contract, info.id)
        assert (row.drafted_by, row.submitted_by, row.approved_by, row.approved_four_eyes) == \
            ("admin", "admin", "boss2", True)


def test_a_manager_submitting_for_an_admin_draft_still_needs_a_second_admin(db, admin, manager, admin2):
    w = make_world(db)
    c = _draft(db, manager, w)
    C.submit_contract(db, admin, c.id)      # the admin submitted it: not theirs to approve
    with pytest.raises(RuleViolation, match="you submitted"):
        C.approve_contract(db, admin, c.id)
    C.approve_contract(db, admin2, c.id)


def test_a_one_person_shop_turns_four_eyes_off_audited_and_printed(db, admin, manager):
    from app.documents import contract_doc
    assert four_eyes_required(db)
    with pytest.raises(PermissionDenied):
        change_setting(db, manager, CONTRACT_FOUR_EYES, False)
    change_setting(db, admin, CONTRACT_FOUR_EYES, False, reason="只有一名管理员")
    with db.session() as s:
        ev = s.execute(select(AuditEvent).where(AuditEvent.action == "setting.update")).scalar_one()
    assert (ev.actor_login, ev.reason) == ("admin", "只有一名管理员") and '"off"' in ev.after
    assert not four_eyes_required(db)
    w = make_world(db)
    c = _draft(db, admin, w)
    C.submit_contract(db, admin, c.id)
    C.approve_contract(db, admin, c.id)
    zh = contract_doc(db, c.id, language="zh").approval
    en = contract_doc(db, c.id, language="en").approval
    assert "管理员" in zh and "未启用双人复核" in zh
    assert "管理员" in en and "four-eyes check was off" in en


def test_the_approval_line_names_the_second_person(db, admin, manager):
    from app.documents import contract_doc
    w = make_world(db)
    c = _draft(db, manager, w)
    C.submit_contract(db, manager, c.id)
    draft_line = contract_doc(db, c.id, language="zh").approval
    C.approve_contract(db, admin, c.id)
    line = contract_doc(db, c.id, language="en").approval
    assert draft_line == "" and "Approved by 管理员" in line and "four-eyes" not in line


def test_the_setting_from_the_command_line(demo_db, capsys, monkeypatch):
    from app.cli.main import main
    from app.demo.load import DEMO_PASSWORD
    url = demo_db.engine.url.render_as_string(hide_password=False)
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", DEMO_PASSWORD)
    assert main(["--db", url, "settings", "show"]) == 0
    assert "contract_four_eyes\ton" in capsys.readouterr().out
    assert main(["--db", url, "--user", "lina", "settings", "set", "contract_four_eyes", "off"]) == 1
    assert "may not manage users" in capsys.readouterr().err
    assert main(["--db", url, "--user", "admin", "settings", "set", "contract_four_eyes", "off",
                 "--reason", "单人门店"]) == 0
    assert not four_eyes_required(demo_db)
