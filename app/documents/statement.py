"""The statement and credit note (对账单 / 红字对账单)."""
from __future__ import annotations

from decimal import Decimal

from sqlalchemy import select

from app.documents.common import _check_lang, _customer_party, _fen, _subsidiary_party, period_label
from app.domain.clock import TZ as SHANGHAI
from app.domain.clock import now_local
from app.domain.wording import amount_words, free_text
from app.services.billing import find_statement, line_languages, line_text
from app.store.db import Database
from models import Contract, ContractItem, Customer, Statement, StatementLine, Subsidiary
from models.choices import LineUnit, StatementKind, StatementStatus
from reports import StatementDoc
from reports import StatementLine as DocLine


# --------------------------------------------------------------------------- statements
def _contract_language(s, st: Statement) -> str:
    """The language of the contract(s) billed on the statement; Chinese when they differ or none."""
    langs = set(s.execute(select(Contract.language).join(ContractItem, ContractItem.contract_id == Contract.id)
                          .join(StatementLine, StatementLine.contract_item_id == ContractItem.id)
                          .where(StatementLine.statement_id == st.id)).scalars())
    return langs.pop() if len(langs) == 1 else "zh"


def statement_doc(db: Database, number: int | str, *, language: str | None = None) -> StatementDoc:
    """A statement or credit note by number (or id, for a draft) as the renderer's StatementDoc.

    The language is the billed contract's unless `language` overrides it. Lines print the words
    written in that language at billing time (services.billing.line_text) and their unit in it;
    free text typed in Chinese (a credit note's reason, payment terms) is not printed in English.
    """
    _check_lang(language)
    with db.session() as s:
        st = find_statement(s, number)
        lang = language or _contract_language(s, st)
        sub = s.get(Subsidiary, st.subsidiary_id)
        cust = s.get(Customer, st.customer_id)
        written = line_languages(s, (ln.contract_item_id for ln in st.lines))  # each line's contract's
        lines = [DocLine(description=line_text(ln, "description", lang, written.get(ln.contract_item_id)),
                         quantity=Decimal(ln.quantity), unit=LineUnit.show(ln.unit, lang),
                         unit_price=Decimal(ln.unit_price), amount=_fen(ln.amount), tax_rate=Decimal(ln.tax_rate),
                         tax=_fen(ln.tax), note=line_text(ln, "note", lang, written.get(ln.contract_item_id)))
                 for ln in sorted(st.lines, key=lambda ln: ln.id)]
        if st.kind == StatementKind.CREDIT_NOTE:
            original = s.get(Statement, st.original_id) if st.original_id else None
            references = (original.number,) if original is not None and original.number else ()
        else:
            references = tuple(s.execute(
                select(Statement.number).where(Statement.original_id == st.id, Statement.number.is_not(None),
                                               Statement.status == StatementStatus.ISSUED)
                .order_by(Statement.number)).scalars())
        issued = st.issued_at.astimezone(SHANGHAI).date() if st.issued_at else now_local().date()
        notes = []
        contracts = list(s.execute(
            select(Contract.number).join(ContractItem, ContractItem.contract_id == Contract.id)
            .join(StatementLine, StatementLine.contract_item_id == ContractItem.id)
            .where(StatementLine.statement_id == st.id).distinct().order_by(Contract.number)).scalars())
        if contracts:
            notes.append(("依据合同：" + "、".join(contracts)) if lang == "zh"
                         else ("Contract" + ("s" if len(contracts) > 1 else "") + ": " + ", ".join(contracts)))
        if st.kind == StatementKind.CREDIT_NOTE and st.reason:
            reason = free_text(st.reason, lang)
            notes.append(f"冲销原因：{reason}" if lang == "zh" else
                         f"Reason: {reason}" if reason else "Reason: recorded in Chinese (see the Chinese copy).")
        rebills = s.get(Statement, st.rebills_id) if st.rebills_id else None
        if rebills is not None:  # a rebill refers to the statement whose credited lines it bills again
            notes.append(f"本对账单更正重开 {rebills.number} 已冲销的明细。" if lang == "zh"
                         else f"This statement rebills the credited lines of {rebills.number}.")
        if st.status != StatementStatus.ISSUED:
            notes.append("本对账单尚未开具，仅供核对。" if lang == "zh"
                         else "This statement has not been issued; for checking only.")
        if any(ln.amount < 0 and ln.charge == "credit" for ln in st.lines):
            notes.append("停机抵扣已作为负数明细计入合计。" if lang == "zh"
                         else "Downtime credits are included in the lines as negative amounts.")
        return StatementDoc(
            number=st.number or (f"草稿 #{st.id}" if lang == "zh" else f"DRAFT #{st.id}"),
            kind=st.kind, subsidiary=_subsidiary_party(sub, lang), customer=_customer_party(s, cust, lang),
            period_label=period_label(st.period, lang), issue_date=issued, lines=tuple(lines),
            subtotal=_fen(st.subtotal), tax=_fen(st.tax), total=_fen(st.total),
            total_in_words=amount_words(_fen(st.total), lang), references=references,
            status=StatementStatus.label(st.status, lang), language=lang, notes="\n".join(notes),
            kind_label=StatementKind.label(st.kind, lang), due_date=st.due_date,
            payment_terms=_payment_terms(s, st, lang), **_fapiao_fields(s, st, lang))


def _fapiao_fields(s, st: Statement, lang: str) -> dict:
    """The statement's fapiao status (未开票 / 部分开票 / 已开票) and the numbers of its fapiao records."""
    if st.status != StatementStatus.ISSUED:
        return {"fapiao_no": st.fapiao_no or ""}
    from app.services.receivables.fapiao import covers
    from models import Fapiao
    from models.choices import FapiaoStatus

    cover = covers(s, [st.id]).get(st.id)
    numbers = list(s.execute(select(Fapiao.number).where(Fapiao.statement_id == st.id).order_by(Fapiao.id)).scalars())
    return {"fapiao_status": FapiaoStatus.label(cover.status, lang) if cover else "",
            "fapiao_no": st.fapiao_no or ("、" if lang == "zh" else ", ").join(numbers)}


def _payment_terms(s, st: Statement, lang: str) -> str:
    """The wording of the billed contracts' payment terms (receivables), or N days after issue."""
    rows = s.execute(select(Contract.payment_terms, Contract.payment_term_days)
                     .join(ContractItem, ContractItem.contract_id == Contract.id)
                     .join(StatementLine, StatementLine.contract_item_id == ContractItem.id)
                     .where(StatementLine.statement_id == st.id).distinct()).all()
    if not rows:
        return ""
    words, days = min(rows, key=lambda r: r[1])
    return free_text(words, lang) or (f"开具后 {days} 天内付款" if lang == "zh" else f"{days} days after issue")
