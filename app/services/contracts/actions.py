"""Which action a contract allows, and why one is refused: the ACTIONS table, the one place these
rules live (available_actions answers the console from it; every use case refuses by it)."""
from __future__ import annotations

import datetime as dt


from app.domain.actor import Actor
from app.domain.auth import require, why_not
from app.domain.errors import RuleViolation
from app.domain.rating import local_today
from app.services.contracts.records import HELD, ContractAction, ContractFacts, ContractInfo
from models.choices import (
    ContractStatus,
)


# --- the lifecycle ------------------------------------------------------------------------

# Every action on a contract: key, the status a move leads to (None: not a move), the statuses it
# starts from (None: any), and the permission it needs. The one place these rules live:
# available_actions answers the console from it, and every use case below refuses by it.
_S = ContractStatus
ACTIONS: tuple[tuple[str, str | None, tuple[str, ...] | None, str], ...] = (
    ("edit", None, (_S.DRAFT,), "draft_contracts"),
    ("submit", _S.PENDING, (_S.DRAFT,), "draft_contracts"),
    ("reject", _S.DRAFT, (_S.PENDING,), "approve_contracts"),
    ("approve", _S.APPROVED, (_S.PENDING,), "approve_contracts"),
    ("activate", _S.ACTIVE, (_S.APPROVED,), "approve_contracts"),
    ("suspend", _S.SUSPENDED, (_S.ACTIVE,), "approve_contracts"),
    ("resume", _S.ACTIVE, (_S.SUSPENDED,), "approve_contracts"),
    ("expire", _S.EXPIRED, (_S.ACTIVE, _S.SUSPENDED), "approve_contracts"),
    ("terminate", _S.TERMINATED, (_S.APPROVED, _S.ACTIVE, _S.SUSPENDED), "approve_contracts"),
    ("renew", None, (_S.APPROVED, _S.ACTIVE, _S.SUSPENDED, _S.EXPIRED), "draft_contracts"),
    ("amend", None, HELD, "draft_contracts"),
    ("print", None, None, "print"),
)
_ACTION = {a[0]: a for a in ACTIONS}


def _status(value: str) -> str:
    return ContractStatus.label(value).lower()


def _state_refusal(key: str, f: ContractFacts, actor: Actor, today: dt.date) -> str | None:
    """Why the contract's state (not the actor's role) refuses `key`; None when it allows it."""
    _key, target, sources, _perm = _ACTION[key]
    if sources is not None and f.status not in sources:
        if key == "edit":
            return (f"contract {f.number} is {_status(f.status)}; only drafts can be edited. Prices and terms of "
                    "a signed contract change by amendment.")
        if key == "renew":
            return f"contract {f.number} is {_status(f.status)}; only a signed contract is renewed"
        if key == "amend":
            return (f"contract {f.number} is {_status(f.status)}; only a contract in force is amended "
                    "(edit a draft directly)")
        allowed = ", ".join(_status(x) for x in sorted(ContractStatus.TRANSITIONS[f.status]))
        return (f"contract {f.number} is {_status(f.status)}; it cannot become {_status(target)} "
                f"(from here: {allowed or 'nothing, it has ended'})")
    if key == "approve" and f.four_eyes and actor.login in (f.drafted_by, f.submitted_by):
        did = " and ".join(w for w, who in (("drafted", f.drafted_by), ("submitted", f.submitted_by))
                           if who == actor.login)
        return (f"you {did} contract {f.number}; four eyes: another administrator approves it "
                "(a one-person shop can turn four-eyes off in the settings)")
    if key == "activate" and f.amends and f.amends_status not in HELD:
        return (f"contract {f.number} amends {f.amends}, which is {_status(f.amends_status)}; only a contract "
                "in force can be amended")
    if key == "expire" and today < f.end_date:
        return f"contract {f.number} runs until {f.end_date}; to end it earlier, terminate it with a reason"
    if key == "renew" and f.open_renewal:
        return f"contract {f.number} already has the renewal {f.open_renewal}; finish or change that one"
    if key == "amend" and f.open_amendment:
        return f"amendment {f.open_amendment} of {f.number} is still open; finish or change that one"
    return None


def available_actions(contract: ContractInfo | ContractFacts, actor: Actor,
                      today: dt.date | None = None) -> tuple[ContractAction, ...]:
    """Every action on the contract, allowed or with the reason it is refused (role first, then state).

    The console only asks this; the use cases refuse by the same rules.
    """
    f = contract.facts if isinstance(contract, ContractInfo) else contract
    today = today or local_today()
    out = []
    for key, target, sources, perm in ACTIONS:
        reason = why_not(actor, perm) or _state_refusal(key, f, actor, today)
        out.append(ContractAction(key, reason is None, reason, target, sources is None or f.status in sources, perm))
    return tuple(out)


def _refuse_unless_allowed(key: str, f: ContractFacts, actor: Actor, today: dt.date) -> None:
    require(actor, _ACTION[key][3])
    reason = _state_refusal(key, f, actor, today)
    if reason:
        raise RuleViolation(reason)
