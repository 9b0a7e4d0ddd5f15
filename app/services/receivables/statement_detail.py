"""The statement panel's read (issue 26): a statement or credit note with its subsidiary, customer,
original, rebilled statement, credit notes, lines (their contracts' numbers and languages) and its
fapiao cover (未开票 / 部分开票 / 已开票), in two statements where get_statement and
statement_fapiao_status sent 12 to 13. Its cover sums only its own rows (its fapiao, the red ones
against them, its credit notes), as fapiao.covers does for one id. Same values as those reads:
tests/read/test_panel_reads.py."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from decimal import Decimal

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import aliased

from app.domain.errors import NotFound
from app.domain.money import round_fen
from app.domain.wording import amount_words
from app.services.billing.statements import LineInfo, StatementInfo, line_text
from app.services.receivables.fapiao.cover import FapiaoCover
from app.store.db import Database
from models import Contract, ContractItem, Customer, Fapiao, Statement, StatementLine, Subsidiary
from models.choices import LineUnit, StatementKind, StatementStatus

ZERO = Decimal("0.00")


@dataclass(frozen=True)
class StatementDetail:
    info: StatementInfo
    fapiao: tuple[str, Decimal, Decimal] | None   # (status, invoiced, target) of an issued one, else None


@cache
def _header_query():
    """The statement, its names, its numbers' neighbours, its cover's sums (scalar subqueries over its
    own rows) and, one row each, the numbers of its credit notes; built once (its aliases cost more to
    build than the query takes to run), the id bound at each call."""
    original, rebilled, credit = aliased(Statement), aliased(Statement), aliased(Statement)
    issued_credit = aliased(Statement)
    red, blue = aliased(Fapiao), aliased(Fapiao)
    # a credit note has its original's customer (billing.issue.credit_statement), and no statement changes
    # customer: naming it lets the customer's index find the credit notes where statement.original_id has
    # none (else every issued statement is scanned to open one, growing with the data)
    credited = (select(func.sum(issued_credit.total))
                .where(issued_credit.original_id == Statement.id, issued_credit.customer_id == Statement.customer_id,
                       issued_credit.status == StatementStatus.ISSUED,
                       issued_credit.kind == StatementKind.CREDIT_NOTE).scalar_subquery())
    own = select(func.sum(Fapiao.amount + Fapiao.tax)).where(Fapiao.statement_id == Statement.id).scalar_subquery()
    count = select(func.count()).select_from(Fapiao).where(Fapiao.statement_id == Statement.id).scalar_subquery()
    red_on_own = (select(func.sum(red.amount + red.tax)).join(blue, blue.id == red.original_id)
                  .where(red.kind == "red", blue.statement_id == Statement.id).scalar_subquery())
    return (select(Statement, Subsidiary.code, Customer.name, original.number, rebilled.number,
                   credited, own, count, red_on_own, credit.number)
            .join(Subsidiary, Subsidiary.id == Statement.subsidiary_id)
            .join(Customer, Customer.id == Statement.customer_id)
            .outerjoin(original, original.id == Statement.original_id)
            .outerjoin(rebilled, rebilled.id == Statement.rebills_id)
            .outerjoin(credit, (credit.original_id == Statement.id) & (credit.customer_id == Statement.customer_id)
                       & credit.number.is_not(None))
            .where(Statement.id == bindparam("statement_id"))
            .order_by(credit.number))


def _cover(st: Statement, credited, own, count, red_on_own) -> tuple[str, Decimal, Decimal] | None:
    if st.status != StatementStatus.ISSUED:
        return None
    own = Decimal(own or 0)
    if st.kind == StatementKind.CREDIT_NOTE:
        cover = FapiaoCover(st.id, round_fen(Decimal(st.total)), round_fen(own), count)
    else:
        cover = FapiaoCover(st.id, round_fen(Decimal(st.total) + Decimal(credited or 0)),
                            round_fen(own + Decimal(red_on_own or 0)), count)
    return cover.status, cover.invoiced, cover.target


def _line(ln: StatementLine, number: str | None, line_lang: str | None, language: str | None) -> LineInfo:
    description, note, unit = ln.description, ln.note or "", ln.unit
    if language is not None:
        description = line_text(ln, "description", language, line_lang)
        note = line_text(ln, "note", language, line_lang)
        unit = LineUnit.show(ln.unit, language)
    return LineInfo(ln.id, ln.contract_item_id, number or "", ln.charge, ln.period, description, ln.quantity, unit,
                    ln.unit_price, ln.amount, ln.tax_rate, ln.tax, note, ln.revision)


def statement_detail(db: Database, statement_id: int, *, language: str | None = None) -> StatementDetail:
    """What the statement panel shows of one statement or credit note, by id; `language` as get_statement
    takes it (the lines' words in the reader's language). NotFound when it is gone."""
    with db.read_session() as s:
        rows = s.execute(_header_query(), {"statement_id": statement_id}).all()
        if not rows:
            raise NotFound(f"there is no statement {statement_id}")
        st, sub_code, customer, original, rebilled, credited, own, count, red_on_own = rows[0][:9]
        credits = tuple(r[9] for r in rows if r[9] is not None)
        lines = tuple(_line(ln, number, lang, language) for ln, number, lang in s.execute(
            select(StatementLine, Contract.number, Contract.language)
            .outerjoin(ContractItem, ContractItem.id == StatementLine.contract_item_id)
            .outerjoin(Contract, Contract.id == ContractItem.contract_id)
            .where(StatementLine.statement_id == statement_id).order_by(StatementLine.id)))
        info = StatementInfo(st.id, st.number, st.kind, st.subsidiary_id, sub_code, st.customer_id, customer,
                             st.period, st.status, st.subtotal, st.tax, st.total,
                             amount_words(st.total, language or "zh"),
                             st.issued_at, st.original_id, original, st.reason, st.fapiao_no, st.version, lines,
                             credits, st.rebills_id, rebilled)
        return StatementDetail(info, _cover(st, credited, own, count, red_on_own))
