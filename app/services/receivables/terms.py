"""A contract's payment terms: the days after issue that set a statement's due date."""
from __future__ import annotations

from sqlalchemy import select

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import NotFound, ValidationError
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import Contract


def set_payment_terms(db: Database, actor: Actor, contract: str, days: int, wording: str | None = None) -> None:
    """Change a contract's payment terms (days after issue; wording as printed, e.g. 月结 30 天)."""
    require(actor, "draft_contracts")
    if not isinstance(days, int) or not 0 <= days <= 365:
        raise ValidationError({"payment_term_days": "payment terms are 0 to 365 days after the statement is issued"})
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        c = s.execute(select(Contract).where(Contract.number == contract)).scalar_one_or_none()
        if c is None:
            raise NotFound(f"there is no contract {contract}")
        before = {"payment_term_days": c.payment_term_days, "payment_terms": c.payment_terms}
        c.payment_term_days, c.payment_terms = days, (wording or "").strip() or None
        c.updated_by = uow.actor.login
        s.flush()
        uow.audit("contract.payment_terms", "contract", c.id, c.number, before=before,
                  after={"payment_term_days": days, "payment_terms": c.payment_terms})
        uow.commit()
