"""How far a statement is invoiced (未开票 / 部分开票 / 已开票): its blue fapiao less the red ones."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import func, select
from sqlalchemy.orm import Session, aliased

from app.domain.money import round_fen
from app.services.receivables.fapiao.fields import ZERO, _statement
from app.store.db import Database
from models import Fapiao, Statement
from models.choices import FapiaoStatus, StatementKind, StatementStatus


@dataclass(frozen=True)
class FapiaoCover:
    statement_id: int
    target: Decimal      # the statement's total net of credit notes (a credit note: its own total)
    invoiced: Decimal    # blue less red against them (a credit note: its red fapiao)
    count: int

    @property
    def status(self) -> str:
        if self.invoiced == 0 and (self.target != 0 or self.count == 0):
            return FapiaoStatus.NONE
        return FapiaoStatus.FULL if self.invoiced == self.target else FapiaoStatus.PARTIAL

    @property
    def left(self) -> Decimal:
        return round_fen(self.target - self.invoiced)


def covers(s: Session, ids: list[int] | None = None) -> dict[int, FapiaoCover]:
    """The fapiao cover of issued statements and credit notes (all, or those ids): set-based, and with
    ids each of the four queries reads only those statements' rows (opening one statement reads its
    own few rows, however many fapiao the others have)."""
    q = select(Statement.id, Statement.kind, Statement.total).where(Statement.status == StatementStatus.ISSUED)
    cq = (select(Statement.original_id, func.sum(Statement.total))
          .where(Statement.status == StatementStatus.ISSUED, Statement.kind == StatementKind.CREDIT_NOTE,
                 Statement.original_id.is_not(None)))
    fq = select(Fapiao.statement_id, func.sum(Fapiao.amount + Fapiao.tax), func.count())
    orig = aliased(Fapiao)
    rq = (select(orig.statement_id, func.sum(Fapiao.amount + Fapiao.tax))
          .join(orig, orig.id == Fapiao.original_id).where(Fapiao.kind == "red"))
    if ids is not None:
        if not ids:
            return {}
        ids = list(ids)
        q, cq = q.where(Statement.id.in_(ids)), cq.where(Statement.original_id.in_(ids))
        fq, rq = fq.where(Fapiao.statement_id.in_(ids)), rq.where(orig.statement_id.in_(ids))
    rows = s.execute(q).all()
    credited = dict(s.execute(cq.group_by(Statement.original_id)).all())
    own = {sid: (Decimal(a), n) for sid, a, n in s.execute(fq.group_by(Fapiao.statement_id)).all()}
    red_on_original = dict(s.execute(rq.group_by(orig.statement_id)).all())
    out = {}
    for sid, kind, total in rows:
        amount, n = own.get(sid, (ZERO, 0))
        if kind == StatementKind.CREDIT_NOTE:
            out[sid] = FapiaoCover(sid, round_fen(Decimal(total)), round_fen(amount), n)
        else:
            out[sid] = FapiaoCover(sid, round_fen(Decimal(total) + Decimal(credited.get(sid, 0))),
                                   round_fen(amount + Decimal(red_on_original.get(sid, 0))), n)
    return out


def statement_fapiao_status(db: Database, statement: str | int) -> tuple[str, Decimal, Decimal]:
    """(status, invoiced, target) of one statement or credit note."""
    with db.session() as s:
        st = _statement(s, statement)
        cover = covers(s, [st.id]).get(st.id)
        if cover is None:
            return FapiaoStatus.NONE, ZERO, round_fen(Decimal(st.total))
        return cover.status, cover.invoiced, cover.target
