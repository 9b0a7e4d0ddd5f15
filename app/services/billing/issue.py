"""Issuing (gapless numbers, in batches), draft deletion, fapiao numbers, credit notes and rebills."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Callable, Iterable

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from app.audit.trail import append_events
from app.domain import rating as B
from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import Conflict, RuleViolation, ValidationError
from app.domain.messages import message_of
from app.domain.money import format_amount
from app.domain.runs import logged_run
from app.domain.validators import fapiao_number_problem, money_field
from app.domain.wording import Text
from app.services.billing.charges import line_texts
from app.services.billing.statements import (
    CREDIT_PREFIX,
    PARTIAL_PREFIX,
    WAIVER_PREFIX,
    IssueSummary,
    Progress,
    StatementInfo,
    _find_statement,
    _statement_info,
    line_text,
    statement_due_date,
    statement_due_dates,
)
from app.services.entities import flush_versioned
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import Contract, ContractItem, Statement, StatementLine, Subsidiary
from models.choices import StatementKind, StatementStatus

# --- issuing ------------------------------------------------------------------------------

ISSUE_BATCH = 500  # statements numbered and issued per transaction (one IN list)


def _take_statement_number(s: Session, st: Statement) -> str:
    from app.services.entities import next_document_number

    sub = s.get(Subsidiary, st.subsidiary_id)
    p = B.Period.parse(st.period)
    n = next_document_number(s, st.subsidiary_id, "statement", p.compact)
    return f"{sub.code}-{p.compact}-{n:06d}"


def _issue_asked(db, actor, **kw) -> dict:
    ids = kw.get("statement_ids")
    return dict(period=kw.get("period"), statements=len(ids) if hasattr(ids, "__len__") else None)


@logged_run("billing issue", start=_issue_asked,
            end=lambda r: dict(issued=len(r.issued), skipped=len(r.skipped), elsewhere=r.elsewhere))
def issue_statements(db: Database, actor: Actor, *, period: str | None = None,
                     statement_ids: Iterable[int] | None = None, progress: Progress | None = None,
                     cancelled: Callable[[], bool] | None = None) -> IssueSummary:
    """Issue draft statements in batches of ISSUE_BATCH, each batch one transaction.

    A batch locks its drafts (skipping those another process is issuing), takes one block of
    numbers per subsidiary and month from the gapless counter (the numbers follow the order
    subsidiary, customer, statement id, as one-by-one issuing gave), writes the statements and
    appends their audit events with one move of the audit head. A batch commits whole or not at
    all, so a crash leaves drafts that the next `issue` (or `run --issue`) numbers from where the
    counter stopped: no gap, no number twice.
    """
    require(actor, "run_billing")
    if period is None and statement_ids is None:
        raise ValidationError({"period": "name the period (YYYY-MM) or the statements to issue"})
    with db.session() as s:
        q = select(Statement.id).where(Statement.status == StatementStatus.DRAFT,
                                       Statement.kind == StatementKind.STATEMENT)
        if period is not None:
            try:
                q = q.where(Statement.period == B.Period.parse(period).label)
            except ValueError as exc:
                raise ValidationError({"period": message_of(exc)}) from None
        if statement_ids is not None:
            q = q.where(Statement.id.in_(list(statement_ids)))
        ids = list(s.execute(q.order_by(Statement.subsidiary_id, Statement.customer_id, Statement.id)).scalars())
    issued: list[tuple[int, str, Decimal]] = []
    skipped: list[str] = []
    elsewhere: list[int] = []
    for at in range(0, len(ids), ISSUE_BATCH):
        if cancelled and cancelled():
            return IssueSummary(tuple(issued), tuple(skipped), cancelled=True, elsewhere=len(elsewhere))
        batch = ids[at:at + ISSUE_BATCH]
        mark = (len(skipped), len(elsewhere))
        try:
            issued += _issue_batch(db, actor, batch, skipped, elsewhere)
        except (StaleDataError, Conflict):
            # SQLite has no SKIP LOCKED: another process issued drafts of this batch between our read and
            # our write, so our UPDATE found them changed. The batch rolled back whole; read it again,
            # and what the other issued is skipped as issued elsewhere (as PostgreSQL's SKIP LOCKED does).
            del skipped[mark[0]:], elsewhere[mark[1]:]
            issued += _issue_batch(db, actor, batch, skipped, elsewhere)
        if progress:
            progress(at + len(batch), len(ids))
    return IssueSummary(tuple(issued), tuple(skipped), elsewhere=len(elsewhere))


def _issue_batch(db: Database, actor: Actor, batch: list[int], skipped: list[str],
                 elsewhere: list[int]) -> list[tuple[int, str, Decimal]]:
    """Issue one batch of drafts in one transaction (see issue_statements)."""
    from app.services.entities import next_document_number

    with UnitOfWork(db, actor) as uow:
        s = uow.session
        locked = {st.id: st for st in s.execute(
            select(Statement).where(Statement.id.in_(batch), Statement.status == StatementStatus.DRAFT)
            .with_for_update(skip_locked=True)).scalars()}
        sums: dict[int, list] = {}
        lines: dict[int, list[dict]] = {}   # what each line holds as issued: its event records it (audit reconcile)
        L = StatementLine
        for line in s.execute(select(L.statement_id, L.id, L.charge, L.contract_item_id, L.description, L.quantity,
                                     L.unit_price, L.amount, L.tax_rate, L.tax)
                              .where(L.statement_id.in_(list(locked))).order_by(L.id)).mappings():
            sums.setdefault(line["statement_id"], []).append((line["amount"], line["tax"]))
            lines.setdefault(line["statement_id"], []).append({k: v for k, v in line.items() if k != "statement_id"})
        todo: list[Statement] = []
        for sid in batch:  # in the order subsidiary, customer, id
            st = locked.get(sid)
            if st is None:
                skipped.append(f"statement #{sid} was issued or is being issued by another run")
                elsewhere.append(sid)
            elif sid not in sums:
                skipped.append(f"statement #{sid} has no lines; nothing to issue")
            else:
                todo.append(st)
        if not todo:
            return []
        when = dt.datetime.now(dt.timezone.utc)
        codes = dict(s.execute(select(Subsidiary.id, Subsidiary.code)).all())
        due = statement_due_dates(s, [st.id for st in todo], when)
        by_counter: dict[tuple[int, str], list[Statement]] = {}
        for st in todo:
            by_counter.setdefault((st.subsidiary_id, st.period), []).append(st)
        for (sub_id, label), sts in sorted(by_counter.items()):  # counters locked in one order by every issuer
            compact = B.Period.parse(label).compact
            last = next_document_number(s, sub_id, "statement", compact, count=len(sts))
            for n, st in enumerate(sts, start=last - len(sts) + 1):
                st.number = f"{codes[sub_id]}-{compact}-{n:06d}"
        events = []
        for st in todo:
            tot = B.totals(sums[st.id])
            st.subtotal, st.tax, st.total = tot.subtotal, tot.tax, tot.total
            st.status, st.issued_at, st.due_date = StatementStatus.ISSUED, when, due[st.id]
            st.updated_by, st.updated_at = uow.actor.login, when
            events.append(dict(action="statement.issue", object_type="statement", object_id=st.id,
                               object_label=st.number, before={"status": StatementStatus.DRAFT},
                               after={"status": StatementStatus.ISSUED, "number": st.number, "total": st.total,
                                      "period": st.period, "customer_id": st.customer_id,
                                      "lines": lines[st.id]}))
        flush_versioned(uow, todo[0], f"statement {todo[0].number}")  # every statement, one batched UPDATE
        uow.changes.add("statement")
        append_events(s, uow.actor, request_id=uow.request_id, events=events)  # one move of the audit head
        uow.commit()
        return [(st.id, st.number, st.total) for st in todo]


def _refuse_if_issued(st: Statement) -> None:
    if st.status != StatementStatus.DRAFT:
        raise RuleViolation(f"statement {st.number} is {StatementStatus.label(st.status).lower()} and can no longer "
                            "change; correct it with a credit note (billing credit NUMBER --reason …)")


def delete_draft(db: Database, actor: Actor, key: int | str, reason: str) -> None:
    """Throw away a draft statement so the next run bills its lines afresh (e.g. after a fix)."""
    require(actor, "run_billing")
    if not (reason and reason.strip()):
        raise ValidationError({"reason": "say why the draft is discarded"})
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        st = _find_statement(s, key, lock=True)
        _refuse_if_issued(st)
        before = {"period": st.period, "customer_id": st.customer_id, "lines": len(st.lines), "total": st.total}
        s.delete(st)
        s.flush()
        uow.audit("statement.delete_draft", "statement", st.id, f"{st.period} draft #{st.id}", before=before,
                  reason=reason.strip())
        uow.commit()


def record_fapiao(db: Database, actor: Actor, key: int | str, fapiao_no: str) -> StatementInfo:
    """The external fapiao number; the one field an issued statement may still receive."""
    require(actor, "run_billing")
    fapiao_no = (fapiao_no or "").strip()
    problem = fapiao_number_problem(fapiao_no)
    if problem:
        raise ValidationError({"fapiao_no": problem})
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        st = _find_statement(s, key, lock=True)
        if st.status != StatementStatus.ISSUED:
            raise RuleViolation("a fapiao is recorded against an issued statement; issue this one first")
        before = {"fapiao_no": st.fapiao_no}
        st.fapiao_no = fapiao_no
        flush_versioned(uow, st, f"statement {st.number}")
        uow.audit("statement.fapiao", "statement", st.id, st.number, before=before, after={"fapiao_no": fapiao_no})
        info = _statement_info(s, st)
        uow.commit()
        return info


def credit_statement(db: Database, actor: Actor, key: int | str, reason: str, *,
                     line_ids: Iterable[int] | None = None, amount: Decimal | str | None = None,
                     at: dt.datetime | None = None, waive: bool = False) -> StatementInfo:
    """Issue a credit note against an issued statement: all its lines, the lines named, or, with
    `amount`, part of one line.

    A line credited in full is reversed (what is left of it, after any partial credit) and its key
    (item, charge, period, revision) is freed: the next run, or rebill_statement, bills the
    corrected revision on a new statement that refers to this one ("wrong, bill again"). With
    `waive` the lines are credited in full and **waived**: the key stays taken, so no run bills the
    charge again (an SLA waiver, a bad debt written off). A partial credit (one line, an amount
    below what is left of it) reduces the charge, which stands: nothing is rebilled.
    A credit note itself is never credited (a debit note is not issued): to undo a credit note,
    rebill the credited lines.
    """
    require(actor, "run_billing")
    if not (reason and reason.strip()):
        raise ValidationError({"reason": "a credit note says why"})
    partial = None
    if amount is not None and amount != "":
        if waive:
            raise ValidationError({"amount": "a waiver credits whole lines; leave out the amount, or do not waive"})
        try:
            partial = money_field(amount, "amount")
        except ValidationError as exc:
            raise ValidationError({"amount": f"a partial credit is a positive amount in yuan and fen, not {amount!r} "
                                             f"({exc.errors['amount']})"}) from None
        if partial <= 0:
            raise ValidationError({"amount": f"a partial credit is a positive amount in yuan and fen, not {amount!r}"})
        if line_ids is None or len(set(line_ids)) != 1:
            raise ValidationError({"line_ids": "a partial credit by amount names exactly one line (--line LINE_ID)"})
    at = at or dt.datetime.now(dt.timezone.utc)
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        orig = _find_statement(s, key, lock=True)
        cn, event = credit_lines(uow, orig, line_ids, reason.strip(), at, partial=partial, waive=waive)
        uow.audit(**event)
        info = _statement_info(s, cn)
        uow.commit()
        return info


def credit_lines(uow: UnitOfWork, orig: Statement, line_ids: Iterable[int] | None, reason: str, at: dt.datetime, *,
                 partial: Decimal | None = None, waive: bool = False) -> tuple[Statement, dict]:
    """Write and issue the credit note of `orig` (locked by the caller) for the lines named (all
    when None); returns it and its audit event (the caller appends it: the run does so last)."""
    s = uow.session
    lines = _lines_to_credit(orig, line_ids)
    taken = _taken_before(s, orig, lines, partial)
    if partial is not None:
        ln = lines[0]
        left = ln.amount + taken[ln.id][0]
        if partial >= abs(left):
            raise ValidationError({"amount": f"a partial credit is less than what is left of the line "
                                             f"({format_amount(abs(left))}); to credit all of it, leave out the amount"})
    cn = Statement(kind=StatementKind.CREDIT_NOTE, subsidiary_id=orig.subsidiary_id, customer_id=orig.customer_id,
                   period=orig.period, status=StatementStatus.DRAFT, original_id=orig.id, reason=reason,
                   updated_by=uow.actor.login)
    langs = dict(s.execute(select(ContractItem.id, Contract.language).join(Contract).where(
        ContractItem.id.in_([ln.contract_item_id for ln in lines if ln.contract_item_id]))).all())
    for ln in lines:
        cn.lines.append(_credit_line(orig, ln, taken[ln.id], langs.get(ln.contract_item_id) or "zh",
                                     partial=partial, waive=waive))
    s.add(cn)
    try:
        s.flush()
    except IntegrityError as exc:
        raise RuleViolation(f"a line of {orig.number} was credited by someone else meanwhile; reload") from exc
    tot = B.totals([(ln.amount, ln.tax) for ln in cn.lines])
    cn.subtotal, cn.tax, cn.total = tot.subtotal, tot.tax, tot.total
    sub = s.get(Subsidiary, orig.subsidiary_id)
    month = B.Period.containing(B.local_date(at))
    from app.services.entities import next_document_number

    n = next_document_number(s, orig.subsidiary_id, "credit_note", month.compact)
    cn.number = f"{sub.code}-CN-{month.compact}-{n:06d}"
    cn.status, cn.issued_at = StatementStatus.ISSUED, at
    cn.due_date = statement_due_date(s, cn, at)
    flush_versioned(uow, cn, f"credit note {cn.number}")
    event = dict(action="statement.credit", object_type="statement", object_id=cn.id, label=cn.number, reason=reason,
                 after={"original": orig.number, "lines": len(lines), "partial": partial is not None,
                        "waived": waive, "subtotal": tot.subtotal, "tax": tot.tax, "total": tot.total})
    return cn, event


def _lines_to_credit(orig: Statement, line_ids: Iterable[int] | None) -> list[StatementLine]:
    """The lines of an issued statement a credit note is for (all when None), or why not."""
    if orig.kind != StatementKind.STATEMENT:
        raise RuleViolation(f"{orig.number} is a credit note; a credit note is not credited again. To charge "
                            f"its lines again, rebill the statement it credited (billing rebill NUMBER)")
    if orig.status != StatementStatus.ISSUED:
        raise RuleViolation(f"only an issued statement is credited; {orig.number or f'#{orig.id}'} is "
                            "a draft (change the draft instead)")
    wanted = set(line_ids) if line_ids is not None else None
    lines = [ln for ln in orig.lines if wanted is None or ln.id in wanted]
    if wanted is not None and len(lines) != len(wanted):
        missing = sorted(wanted - {ln.id for ln in orig.lines})
        raise ValidationError({"line_ids": f"line(s) {missing} are not on {orig.number}"})
    if not lines:
        raise ValidationError({"line_ids": f"{orig.number} has no lines to credit"})
    return lines


def _taken_before(s: Session, orig: Statement, lines: list[StatementLine],
                  partial: Decimal | None) -> dict[int, list]:
    """What earlier credit notes took off each line: line id -> [amount, tax]; refused when a line was
    credited in full already, or a partial credit is asked of a line that has one."""
    taken: dict[int, list] = {}
    for ln in lines:
        done_amount = done_tax = Decimal("0.00")
        full = part = None
        for number, charge, c_amount, c_tax in s.execute(
                select(Statement.number, StatementLine.charge, StatementLine.amount, StatementLine.tax)
                .join(StatementLine).where(
                    Statement.original_id == orig.id, StatementLine.contract_item_id == ln.contract_item_id,
                    StatementLine.charge.in_([f"{p}{ln.charge}" for p in (CREDIT_PREFIX, PARTIAL_PREFIX,
                                                                          WAIVER_PREFIX)]),
                    StatementLine.period == ln.period, StatementLine.revision == ln.revision)):
            done_amount += c_amount
            done_tax += c_tax
            if charge.startswith((CREDIT_PREFIX, WAIVER_PREFIX)):
                full = number
            else:
                part = number
        if full:
            raise RuleViolation(f"line “{ln.description}” of {orig.number} was already credited by {full}")
        if partial is not None and part:
            raise RuleViolation(f"line “{ln.description}” of {orig.number} already has a partial credit ({part}); "
                                "credit the rest of it in full, and the corrected charge is rebilled")
        taken[ln.id] = [done_amount, done_tax]
    return taken


def _credit_line(orig: Statement, ln: StatementLine, taken: list, lang: str, *, partial: Decimal | None,
                 waive: bool) -> StatementLine:
    """The credit note's line against `ln`: a part of it, the rest after a partial credit, or all of it."""
    done_amount, done_tax = taken
    full_prefix = WAIVER_PREFIX if waive else CREDIT_PREFIX
    if partial is not None:
        sign = -1 if ln.amount > 0 else 1  # against the line: a credit of a charge, a debit of a discount
        quantity, price, amount_ = Decimal(sign), partial, sign * partial
        tax = B.tax_for(amount_, ln.tax_rate)
        charge = f"{PARTIAL_PREFIX}{ln.charge}"
        prefix = Text(f"部分冲减 {orig.number}：", f"Partial credit of {orig.number}: ")
    elif done_amount:
        left = ln.amount + done_amount  # after a partial credit: the rest, as 1 × what is left
        sign = -1 if left > 0 else 1
        quantity, price, amount_ = Decimal(sign), abs(left), -left
        tax = -(ln.tax + done_tax)
        charge = f"{full_prefix}{ln.charge}"
        prefix = (Text(f"免收 {orig.number} 余额（不再计费）：", f"Waiver of the rest of {orig.number} (not billed again): ")
                  if waive else Text(f"冲销 {orig.number} 余额：", f"Reversal of the rest of {orig.number}: "))
    else:
        quantity, price, amount_, tax = -ln.quantity, ln.unit_price, -ln.amount, -ln.tax
        charge = f"{full_prefix}{ln.charge}"
        prefix = (Text(f"免收 {orig.number}（不再计费）：", f"Waiver of {orig.number} (not billed again): ")
                  if waive else Text(f"冲销 {orig.number}：", f"Reversal of {orig.number}: "))
    # the credited line's words in each language (as billed where it has only one)
    credited = prefix + Text(line_text(ln, "description", "zh", lang), line_text(ln, "description", "en", lang))
    ref = Text.same(f"{orig.number} #{ln.id}")
    if ln.revision > 1:
        ref += Text(f" 第 {ln.revision} 版", f" rev. {ln.revision}")
    return StatementLine(
        contract_item_id=ln.contract_item_id, charge=charge[:16], period=ln.period,
        quantity=quantity, unit=ln.unit, unit_price=price, amount=amount_, tax_rate=ln.tax_rate, tax=tax,
        revision=ln.revision, **line_texts(credited, ref, lang))
