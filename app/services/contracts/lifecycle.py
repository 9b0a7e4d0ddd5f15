"""The moves of a contract's lifecycle (submit, reject, approve, activate, suspend, resume, expire,
terminate), renewal and amendment."""
from __future__ import annotations

import datetime as dt
from dataclasses import replace


from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import ValidationError
from app.domain.rating import TZ, local_today
from app.read.settings import CONTRACT_FOUR_EYES, setting_in
from app.services.entities import check_version, flush_versioned, snapshot
from app.services.contracts.actions import _ACTION, _refuse_unless_allowed
from app.services.contracts.activation import _activate, _effective_start, _release, refuse_short_capacity
from app.services.contracts.drafting import HEADER_FIELDS, _audit_items, _new_contract
from app.services.contracts.records import ContractInfo, ItemSpec, _facts, _find, _info, _item_info
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import (
    Contract,
)
from models.choices import (
    ContractStatus,
)


def _move(db: Database, actor: Actor, contract_id: int | str, action: str, *,
          reason: str | None = None, expected_version: int | None = None, at: dt.datetime | None = None,
          last_day: dt.date | None = None, needs_reason: bool = False) -> ContractInfo:
    _key, to, _sources, permission = _ACTION[action]
    require(actor, permission)
    if needs_reason and not (reason and reason.strip()):
        raise ValidationError({"reason": f"say why the contract is {ContractStatus.label(to).lower()}"})
    if at is not None and at.tzinfo is None:
        raise ValidationError({"at": "give an aware time (UTC or Asia/Shanghai)"})
    now = dt.datetime.now(dt.timezone.utc)
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        c = _find(s, contract_id)
        check_version(c, expected_version, f"contract {c.number}")
        _refuse_unless_allowed(action, _facts(s, c), actor, (at or now).astimezone(TZ).date())
        before = {"status": c.status}
        extra: dict = {}
        if action in ("submit", "approve"):  # the activation's capacity check, before anyone signs
            refuse_short_capacity(s, c, "submitted" if action == "submit" else "approved")
        if action == "submit":
            c.submitted_by = actor.login
        elif action == "approve":
            c.approved_by = actor.login
            c.approved_four_eyes = setting_in(s, CONTRACT_FOUR_EYES)
            extra.update(approved_by=actor.login, four_eyes=c.approved_four_eyes)
        if to == ContractStatus.ACTIVE and c.status == ContractStatus.APPROVED:
            old = s.get(Contract, c.amends_id) if c.amends_id else None
            extra.update(_activate(uow, c, at or now))
            if old is not None:
                c.status = to  # so that releasing the old revision sees who holds the racks now
                s.flush()
                extra["supersedes"] = _supersede(uow, old, c, at or now)
        elif to in (ContractStatus.EXPIRED, ContractStatus.TERMINATED):
            if to == ContractStatus.EXPIRED:
                last_day = c.end_date
            last = last_day or (at.astimezone(TZ).date() if at else local_today())
            if c.status == ContractStatus.APPROVED:  # never in service: nothing to bill or release
                for it in c.items:
                    it.service_end = _effective_start(c, it) - dt.timedelta(days=1)
                extra["never_active"] = True
            else:
                extra.update(_release(uow, c, min(last, c.end_date), at or now))
        c.status = to
        flush_versioned(uow, c, f"contract {c.number}")
        uow.audit(f"contract.{action}", "contract", c.id, c.number, before=before,
                  after=dict({"status": to}, **extra), reason=reason.strip() if reason else None)
        info = _info(s, c)
        uow.commit()
        return info


def _supersede(uow: UnitOfWork, old: Contract, c: Contract, now: dt.datetime) -> str:
    """An amendment takes over from the revision it amends on its effective date."""
    eff = c.effective_date or c.start_date
    last = eff - dt.timedelta(days=1)
    before = {"status": old.status}
    released = _release(uow, old, last, now)
    from app.services.contracts.handover import (
        _clear_draft_lines,  # drafts billed the old revision past its new end: the run bills them again
    )

    cleared = sum(_clear_draft_lines(uow, it.id, f"{eff:%Y-%m}") for it in old.items)
    if cleared:
        released["draft_lines_removed"] = cleared
    if eff < now.astimezone(TZ).date().replace(day=1):
        # months before this one may have been billed with the old revision: the run of each bills the difference
        released["rebill_from"] = f"{eff:%Y-%m}"
    old.status = ContractStatus.EXPIRED
    flush_versioned(uow, old, f"contract {old.number}")
    uow.audit("contract.supersede", "contract", old.id, old.number, before=before,
              after=dict(released, status=ContractStatus.EXPIRED, superseded_by=c.number),
              reason=f"superseded by revision {c.revision} ({c.number}) effective {eff}")
    return old.number


def submit_contract(db: Database, actor: Actor, contract_id: int | str, expected_version: int | None = None) -> ContractInfo:
    return _move(db, actor, contract_id, "submit",
                 expected_version=expected_version)


def reject_contract(db: Database, actor: Actor, contract_id: int | str, reason: str,
                    expected_version: int | None = None) -> ContractInfo:
    return _move(db, actor, contract_id, "reject", reason=reason,
                 expected_version=expected_version, needs_reason=True)


def approve_contract(db: Database, actor: Actor, contract_id: int | str, expected_version: int | None = None) -> ContractInfo:
    return _move(db, actor, contract_id, "approve",
                 expected_version=expected_version)


def activate_contract(db: Database, actor: Actor, contract_id: int | str, *, at: dt.datetime | None = None,
                      expected_version: int | None = None) -> ContractInfo:
    """Leases racks and GPUs; GPU leases open at max(`at` (default now), the item's handover day)."""
    return _move(db, actor, contract_id, "activate", at=at,
                 expected_version=expected_version)


def suspend_contract(db: Database, actor: Actor, contract_id: int | str, reason: str,
                     expected_version: int | None = None) -> ContractInfo:
    """Suspension keeps racks and GPUs held (and billed) until the contract resumes or ends."""
    return _move(db, actor, contract_id, "suspend", reason=reason,
                 expected_version=expected_version, needs_reason=True)


def resume_contract(db: Database, actor: Actor, contract_id: int | str, expected_version: int | None = None) -> ContractInfo:
    return _move(db, actor, contract_id, "resume",
                 expected_version=expected_version)


def expire_contract(db: Database, actor: Actor, contract_id: int | str, *, at: dt.datetime | None = None,
                    expected_version: int | None = None) -> ContractInfo:
    """The natural end on the contract's end date: releases racks and GPUs."""
    return _move(db, actor, contract_id, "expire", at=at,
                 expected_version=expected_version)


def terminate_contract(db: Database, actor: Actor, contract_id: int | str, reason: str, *,
                       last_day: dt.date | None = None, at: dt.datetime | None = None,
                       expected_version: int | None = None) -> ContractInfo:
    """End early. `last_day` is the last day of service (billed), default the day of `at` or today."""
    return _move(db, actor, contract_id, "terminate",
                 reason=reason, at=at, last_day=last_day, expected_version=expected_version, needs_reason=True)


# --- renewal and amendment ----------------------------------------------------------------

def renew_contract(db: Database, actor: Actor, contract_id: int | str, *, start_date: dt.date,
                   end_date: dt.date, items: list[ItemSpec] | None = None, title: str | None = None) -> ContractInfo:
    """A new draft contract (new number) linked to the old; items copied unless given."""
    require(actor, "draft_contracts")
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        old = _find(s, contract_id)
        _refuse_unless_allowed("renew", _facts(s, old), actor, local_today())
        if items is None:
            items = [_item_info(s, it).spec(service_start=None, service_end=None) for it in old.items]
        c = _new_contract(uow, subsidiary_id=old.subsidiary_id, customer_id=old.customer_id, start_date=start_date,
                          end_date=end_date, items=items, title=title or old.title, terms=old.terms,
                          service_level=old.service_level, language=old.language, renewal_of_id=old.id)
        uow.audit("contract.renew", "contract", c.id, c.number,
                  after=dict(snapshot(c, HEADER_FIELDS), items=_audit_items(s, c)), reason=f"renewal of {old.number}")
        info = _info(s, c)
        uow.commit()
        return info


def amend_contract(db: Database, actor: Actor, contract_id: int | str, *, effective_date: dt.date, reason: str,
                   items: list[ItemSpec] | None = None, end_date: dt.date | None = None) -> ContractInfo:
    """A new revision (same number + “-R<n>”) of a contract in force, effective on `effective_date`.

    Items are copied unless given; their service starts on the effective date. Once approved and
    activated, it supersedes the old revision, which ends the day before.
    """
    require(actor, "draft_contracts")
    if not (reason and reason.strip()):
        raise ValidationError({"reason": "say why the contract is amended"})
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        old = _find(s, contract_id)
        _refuse_unless_allowed("amend", _facts(s, old), actor, local_today())
        end = end_date or old.end_date
        if not old.start_date < effective_date <= end:
            raise ValidationError({"effective_date": f"must fall after the start {old.start_date} and by the end {end}"})
        if items is None:
            items = [_item_info(s, it).spec() for it in old.items]
        items = [replace(it, service_start=max(it.service_start or effective_date, effective_date),
                         service_end=None if it.service_end and it.service_end > end else it.service_end)
                 for it in items]
        base = old.number.rsplit("-R", 1)[0] if old.revision > 1 else old.number
        revision = old.revision + 1
        c = _new_contract(uow, subsidiary_id=old.subsidiary_id, customer_id=old.customer_id,
                          start_date=old.start_date, end_date=end, items=items, title=old.title, terms=old.terms,
                          service_level=old.service_level, language=old.language,
                          number=f"{base}-R{revision}", amends_id=old.id, revision=revision,
                          effective_date=effective_date, renewal_of_id=old.renewal_of_id)
        uow.audit("contract.amend", "contract", c.id, c.number,
                  after=dict(snapshot(c, HEADER_FIELDS), items=_audit_items(s, c)), reason=reason.strip())
        info = _info(s, c)
        uow.commit()
        return info
