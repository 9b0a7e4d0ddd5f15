"""The monthly billing run: create the statement lines that are missing, grouped per customer."""
from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Callable, Iterable

from sqlalchemy import and_, select
from sqlalchemy.orm import Session, selectinload

from app.audit.trail import append_events
from app.domain import rating as B
from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import RuleViolation, ValidationError
from app.domain.messages import message_of
from app.domain.runs import logged_run
from app.services.billing.charges import _Ctx, _load_data, item_charges, tax_rates
from app.services.billing.issue import credit_lines, issue_statements
from app.services.billing.writing import Written, write_statements
from app.services.billing.statements import (
    BILLED_STATUSES,
    CREDIT_PREFIX,
    PARTIAL_PREFIX,
    WAIVER_PREFIX,
    Progress,
    RunSummary,
    _find_statement,
    _statement_infos,
)
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import Contract, Statement, StatementLine
from models.choices import StatementKind, StatementStatus

# --- the run ------------------------------------------------------------------------------

def _run_asked(db, actor, period, **kw) -> dict:
    return dict(period=period, dry_run=kw.get("dry_run", False), issue=kw.get("issue", False),
                items=len(kw["item_ids"]) if hasattr(kw.get("item_ids"), "__len__") else None)


def _run_counts(r: RunSummary) -> dict:
    return dict(period=r.period, lines=r.lines_created, statements=r.statements_created,
                extended=r.statements_extended, skipped=r.skipped_existing, held=r.held,
                rebilled=r.rebilled, issued=len(r.issued), total=r.total)


@logged_run("billing run", start=_run_asked, end=_run_counts)
def run_billing(db: Database, actor: Actor, period: str, *, dry_run: bool = False, issue: bool = False,
                as_of: dt.datetime | None = None, progress: Progress | None = None,
                cancelled: Callable[[], bool] | None = None, item_ids: Iterable[int] | None = None,
                language: str | None = None) -> RunSummary:
    """Bill one month: create the statement lines that are missing, grouped per customer.

    A month is billed once it has ended in Asia/Shanghai: usage is metered up to the run, so an
    earlier run would bill part of it for good. A dry run may look at the open month (marked
    provisional, metered up to now) and writes nothing. A second run over the same month creates
    nothing, except the corrected revision of a line a credit note has credited, which goes on a
    new statement referring to the credited one. `issue` then issues every draft statement of
    the month (so a run interrupted mid-issue is completed by running it again). `item_ids`
    restricts the run to those contract items (a rebill). `language` ("zh"/"en") is the one its
    warnings are written in (the console's); without it each contract's own.

    Three steps in one unit of work: collect (the month's contracts and what is billed already),
    rate (each item's charges, and which of them are missing) and write (the statements and lines).
    """
    require(actor, "read" if dry_run else "run_billing")
    if issue and dry_run:
        raise ValidationError({"issue": "a dry run issues nothing; drop --dry-run or --issue"})
    try:
        p = B.Period.parse(period)
    except ValueError as exc:
        raise ValidationError({"period": message_of(exc)}) from None
    now = dt.datetime.now(dt.timezone.utc)
    as_of = as_of or now  # tests and demos bill "as if" at another time
    if p.start > as_of:
        raise ValidationError({"period": f"{p.label} has not begun; bill a month that has"})
    if not dry_run:
        refuse_open_period(p, as_of)
    wanted_items = set(item_ids) if item_ids is not None else None
    x = _Ctx(p, as_of, "zh", reader=language if language in ("zh", "en") else None)
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        got = _collect(s, p, as_of, x, dry_run)
        rated = _rate(uow, got, p, x, wanted_items, dry_run, as_of, progress, cancelled)
        if rated is None:
            uow.rollback()
            return RunSummary(p.label, dry_run, 0, 0, 0, 0, 0, (), Decimal("0.00"), Decimal("0.00"),
                              Decimal("0.00"), (), cancelled=True)
        w = write_statements(uow, actor, p, got.rates, got.numbers, rated.new, dry_run)
        x.lang = "zh"
        _rebill_warnings(s, p, x)
        warnings = tuple(x.warnings)
        if dry_run:
            uow.rollback()
        else:
            _record_run(uow, p, w, rated, x.held, warnings)
            uow.commit()
    summary = RunSummary(p.label, dry_run, w.created, w.extended, w.lines, rated.skipped, x.held, warnings,
                         w.subtotal, w.tax, w.subtotal + w.tax, tuple(w.previews),
                         provisional_until=as_of if dry_run and as_of < p.end else None, rebilled=rated.rebilled)
    if issue:
        result = issue_statements(db, actor, period=p.label)
        shown = list(dict.fromkeys(w.touched + [sid for sid, _n, _t in result.issued]))
        with db.session() as s:  # show them as issued, with their numbers
            fresh = tuple(_statement_infos(s, shown))
        summary = replace(summary, issued=tuple(n for _i, n, _t in result.issued), statements=fresh,
                          issued_elsewhere=result.elsewhere)
    if not summary.cancelled:
        summary = replace(summary, pending_drafts=pending_drafts(db, p.label))
    return summary


@dataclass
class _Collected:
    """What the run bills from: the month's contracts, the tax rates, the lines billed already."""

    contracts: list[Contract]
    rates: B.TaxRates
    numbers: dict[int, str]  # contract item id -> its contract's number
    latest: dict
    credited: set


def _collect(s: Session, p: B.Period, as_of: dt.datetime, x: _Ctx, dry_run: bool) -> _Collected:
    """Collect: the contracts in force in the month (their subsidiaries' run counters taken first), the
    rates of the day, the period's existing lines, and the data the charges are computed from (in x)."""
    in_period = and_(Contract.status.in_(BILLED_STATUSES), Contract.start_date <= p.last,
                     Contract.end_date >= p.first)
    if not dry_run:
        # Concurrent runs queue on their subsidiaries' run counters; the one after sees the lines.
        from app.services.entities import next_document_number

        for sub_id in sorted(set(s.execute(select(Contract.subsidiary_id).where(in_period)).scalars())):
            next_document_number(s, sub_id, "billing_run", p.compact)
    contracts = s.execute(select(Contract).where(in_period).order_by(Contract.number)
                          .options(selectinload(Contract.items))).scalars().all()
    rates = tax_rates(s, p)
    numbers = {it.id: c.number for c in contracts for it in c.items}
    # the period's existing lines (few), instead of an IN list of every item id
    latest, credited = _billed_keys(s, p, numbers)
    x.data = _load_data(s, contracts, p, as_of)
    return _Collected(contracts, rates, numbers, latest, credited)


@dataclass
class _Rated:
    """The charges still to bill: (subsidiary, customer, statement rebilled or 0) -> [(contract, charge,
    revision)], with what was skipped (billed already) and rebilled (credited, billed again)."""

    new: dict[tuple[int, int, int], list[tuple[Contract, B.Charge, int]]]
    skipped: int
    rebilled: int
    correction: _Correction


def _rate(uow: UnitOfWork, got: _Collected, p: B.Period, x: _Ctx, wanted_items: set[int] | None,
          dry_run: bool, as_of: dt.datetime, progress: Progress | None,
          cancelled: Callable[[], bool] | None) -> _Rated | None:
    """Rate: each item's charges of the month, and the ones not billed yet (None: cancelled)."""
    s = uow.session
    new: dict[tuple[int, int, int], list[tuple[Contract, B.Charge, int]]] = defaultdict(list)
    skipped = rebilled = 0
    # Old revisions an amendment took over from within the month: their issued lines that no longer
    # stand are credited and billed again, with the amendment's own lines, on one statement
    # referring to the credited one (an amendment bills from its effective date, however late it
    # was activated: docs/billing.md, "Amendments activated late").
    computed: dict[int, list[B.Charge]] = {}
    correction = _correct_superseded(uow, got.contracts, p, x, got.latest, got.credited, wanted_items, computed,
                                     dry_run, as_of)
    for done, c in enumerate(got.contracts):
        if cancelled and cancelled():
            return None
        x.lang = c.language
        for it in c.items:
            if wanted_items is not None and it.id not in wanted_items:
                continue
            charges_ = computed.pop(it.id) if it.id in computed else item_charges(s, c, it, x)
            for ch in charges_:
                prev = got.latest.get((it.id, ch.charge))
                if prev is None:
                    revision, rebills = 1, correction.statement_of.get(c.id, 0)
                elif (it.id, ch.charge, prev[0]) in got.credited:
                    revision, rebills = prev[0] + 1, prev[1]
                    rebilled += 1
                else:
                    skipped += 1
                    continue
                B.rate_of(got.rates, ch.tax_category, p.first)  # none: refused (as the contract form and PDF)
                new[(c.subsidiary_id, c.customer_id, rebills)].append((c, ch, revision))
        if progress:
            progress(done + 1, len(got.contracts))
    x.data = None
    if cancelled and cancelled():
        return None
    return _Rated(new, skipped, rebilled, correction)


def _rebill_warnings(s: Session, p: B.Period, x: _Ctx) -> None:
    """A warning for each amendment activated after its old revision was billed for earlier months."""
    for old_number, new_number, eff, periods in months_to_rebill(s, p):
        x.warnings.append(x.t(
            f"补充协议 {new_number}（{eff} 起生效）在 {old_number} 已按旧条款出账后才生效："
            f"请重新运行 {', '.join(periods)} 的计费以补开差额",
            f"amendment {new_number} (effective {eff}) was activated after {old_number} was billed for "
            f"{', '.join(periods)}: run billing for {'each of ' if len(periods) > 1 else ''}"
            f"{', '.join(periods)} again to bill the difference"))


def _record_run(uow: UnitOfWork, p: B.Period, w: Written, rated: _Rated, held: int, warnings: tuple) -> None:
    """The statements' audit events and the run's, with one move of the audit head.

    Each audit event flushes the session first; with tens of thousands of contracts, items and
    statements in it that check alone is O(objects) per event. Everything is written by now and the
    previews are plain data, so the session lets go of them (and of each event once the next one has
    flushed it). The head is locked last: no deadlock with a concurrent issue, which locks
    statements, then counters, then the head."""
    correction = rated.correction
    uow.changes.add("statement")
    append_events(uow.session, uow.actor, request_id=uow.request_id, events=correction.events + [
        dict(action=action, object_type="statement", object_id=sid, object_label=label, after=after)
        for action, sid, label, after in w.audits] + [dict(
            action="billing.run", object_type="billing", object_id=p.label, object_label=f"billing run {p.label}",
            after={"statements_created": w.created, "statements_extended": w.extended,
                   "lines_created": w.lines, "skipped_existing": rated.skipped, "held": held,
                   "rebilled": rated.rebilled, "subtotal": w.subtotal, "tax": w.tax,
                   **({"superseded_credited": correction.credit_notes} if correction.credit_notes else {}),
                   "warnings": list(warnings)})])


def refuse_open_period(p: B.Period, as_of: dt.datetime) -> None:
    """A month is billed once it has ended in Asia/Shanghai (usage is metered up to the run)."""
    if as_of < p.end:
        raise ValidationError({"period": f"{p.label} has not ended; it can be billed from {p.next_first} 00:00 "
                                         "Asia/Shanghai (a dry run shows it now, provisionally)"})


def period_has_ended(period: str, as_of: dt.datetime | None = None) -> bool:
    """Whether a real run may bill the month (it has ended in Asia/Shanghai)."""
    return B.Period.parse(period).end <= (as_of or dt.datetime.now(dt.timezone.utc))


def billable_from(period: str) -> dt.date:
    """The Shanghai day from which the month can be billed: the first of the next month."""
    return B.Period.parse(period).next_first


def billable_periods(count: int = 12, as_of: dt.datetime | None = None) -> list[str]:
    """The last `count` months that have ended in Asia/Shanghai, newest first (what a real run may bill)."""
    as_of = as_of or dt.datetime.now(dt.timezone.utc)
    p = B.Period.containing(B.local_date(as_of))
    out = []
    for _ in range(count):
        p = B.Period.containing(p.first - dt.timedelta(days=1))
        out.append(p.label)
    return out


def pending_drafts(db: Database, period: str) -> int:
    """Draft statements of the period not yet issued."""
    from sqlalchemy import func

    with db.session() as s:
        return s.execute(select(func.count()).select_from(Statement).where(
            Statement.period == B.Period.parse(period).label, Statement.kind == StatementKind.STATEMENT,
            Statement.status == StatementStatus.DRAFT)).scalar_one()


def _billed_keys(s: Session, p: B.Period, numbers: dict[int, str]):
    """The period's billed keys: (item, charge) -> (latest revision, its statement id), and the
    (item, charge, revision) keys a credit note has credited in full (those may be billed again)."""
    latest: dict[tuple[int, str], tuple[int, int]] = {}
    credited: set[tuple[int, str, int]] = set()
    for item_id, charge, revision, sid in s.execute(
            select(StatementLine.contract_item_id, StatementLine.charge, StatementLine.revision,
                   StatementLine.statement_id).where(StatementLine.period == p.label)):
        if item_id not in numbers:
            continue
        if charge.startswith(CREDIT_PREFIX):
            credited.add((item_id, charge[len(CREDIT_PREFIX):], revision))
        elif charge.startswith((PARTIAL_PREFIX, WAIVER_PREFIX)):
            continue  # the charge stands (reduced), or was waived: its key stays taken
        else:
            cur = latest.get((item_id, charge))
            if cur is None or revision > cur[0]:
                latest[(item_id, charge)] = (revision, sid)
    return latest, credited


@dataclass
class _Correction:
    statement_of: dict[int, int] = field(default_factory=dict)  # amendment contract id -> statement it corrects
    credit_notes: list[str] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)


def _correct_superseded(uow: UnitOfWork, contracts: list[Contract], p: B.Period, x: _Ctx,
                        latest: dict[tuple[int, str], tuple[int, int]], credited: set[tuple[int, str, int]],
                        wanted_items: set[int] | None, computed: dict[int, list[B.Charge]], dry_run: bool,
                        as_of: dt.datetime) -> _Correction:
    """Credit the issued lines of the month that a later-activated amendment changed.

    An amendment activated after its effective date ends the old revision the day before that date
    (and its items bill from it); lines the old revision was billed for the month before then now
    charge too much. Each such line (its amount differs from what the item now charges, or it now
    charges nothing) is credited in full, which frees its key, so this run bills it again as it now
    stands, on a statement referring to the credited one, beside the amendment's own lines of the
    month. A dry run credits nothing but shows the same lines (and says what it would credit).
    """
    out = _Correction()
    s = uow.session
    in_run = {c.id: c for c in contracts}
    takeovers = s.execute(select(Contract.amends_id, Contract.id, Contract.number, Contract.effective_date).where(
        Contract.amends_id.is_not(None), Contract.status.in_(BILLED_STATUSES),
        Contract.effective_date <= p.last)).all()
    old_items: dict[int, tuple[Contract, int, str, dt.date]] = {}
    for old_id, new_id, new_number, eff in takeovers:
        old = in_run.get(old_id)
        if old is None:
            continue
        for it in old.items:
            if wanted_items is None or it.id in wanted_items:
                old_items[it.id] = (old, new_id, new_number, eff)
    if not old_items:
        return out
    billed = {(item, charge, rev): (lid, amount, sid, status) for item, charge, rev, lid, amount, sid, status in s.execute(
        select(StatementLine.contract_item_id, StatementLine.charge, StatementLine.revision, StatementLine.id,
               StatementLine.amount, Statement.id, Statement.status).join(Statement).where(
            StatementLine.period == p.label, StatementLine.contract_item_id.in_(list(old_items)),
            Statement.kind == StatementKind.STATEMENT))}
    to_credit: dict[int, list[int]] = defaultdict(list)
    why: dict[int, tuple[Contract, str, dt.date, int]] = {}
    keys_of: dict[int, list[tuple[str, int, int]]] = defaultdict(list)
    for (i, charge), (rev, sid) in latest.items():
        if i in old_items:
            keys_of[i].append((charge, rev, sid))
    for item_id, (old, new_id, new_number, eff) in old_items.items():
        it = next(i for i in old.items if i.id == item_id)
        x.lang = old.language
        charges = item_charges(s, old, it, x)
        computed[item_id] = charges
        now = {ch.charge: ch for ch in charges}
        for charge, rev, sid in keys_of.get(item_id, ()):
            i = item_id
            if (i, charge, rev) in credited:
                continue
            lid, amount, _sid, status = billed[(i, charge, rev)]
            ch = now.get(charge)
            if status == StatementStatus.DRAFT or (ch is not None and ch.amount == amount):
                continue  # a draft was billed as the contracts stand (activation took the old ones off)
            to_credit[sid].append(lid)
            credited.add((i, charge, rev))
            why.setdefault(sid, (old, new_number, eff, new_id))
    for sid, line_ids in sorted(to_credit.items()):
        old, new_number, eff, new_id = why[sid]
        out.statement_of.setdefault(new_id, sid)
        orig = s.get(Statement, sid)
        reason = (f"amendment {new_number} effective {eff}: billed again as it now stands" if old.language == "en"
                  else f"补充协议 {new_number} 自 {eff} 起生效：按现行条款重开")
        if dry_run:
            x.warnings.append(x.t(f"{orig.number}：{len(line_ids)} 行将冲销并按补充协议 {new_number}（{eff} 起）重开",
                                  f"{orig.number}: {len(line_ids)} line(s) would be credited and billed again as "
                                  f"amendment {new_number} (from {eff}) stands"))
            continue
        locked = s.execute(select(Statement).where(Statement.id == sid).with_for_update(of=Statement)).scalar_one()
        cn, event = credit_lines(uow, locked, line_ids, reason, as_of)
        event["object_label"] = event.pop("label")
        out.events.append(event)
        out.credit_notes.append(cn.number)
        x.lang = old.language
        x.warnings.append(x.t(f"{orig.number}：{len(line_ids)} 行由 {cn.number} 冲销，按补充协议 {new_number}（{eff} 起）重开",
                              f"{orig.number}: {len(line_ids)} line(s) credited by {cn.number} and billed again as "
                              f"amendment {new_number} (from {eff}) stands"))
    return out


def months_to_rebill(s: Session, p: B.Period | None = None) -> list[tuple[str, str, dt.date, list[str]]]:
    """Months before `p` (all, when None) that an amendment activated late changed and no run has
    corrected yet: (old revision, amendment, effective date, months). A month is listed while an issued
    line of the old revision for it, from its effective month on, issued before the old revision was
    superseded, is not credited."""
    from sqlalchemy.orm import aliased

    prev = aliased(Contract)
    rows = s.execute(select(Contract.number, Contract.effective_date, prev.id, prev.updated_at)
                     .join(prev, prev.id == Contract.amends_id)
                     .where(Contract.amends_id.is_not(None), Contract.status.in_(BILLED_STATUSES))).all()
    out = []
    for new_number, eff, old_id, superseded_at in rows:
        if eff is None or superseded_at is None:
            continue
        if superseded_at.tzinfo is None:
            superseded_at = superseded_at.replace(tzinfo=dt.timezone.utc)
        if superseded_at < B.local_midnight(B.Period.containing(eff).next_first):
            continue  # activated before its effective month ended: no month was billed the old way
        old = s.get(Contract, old_id)
        first = f"{eff:%Y-%m}"
        q = (select(StatementLine.contract_item_id, StatementLine.charge, StatementLine.revision, StatementLine.period)
             .join(Statement).where(StatementLine.contract_item_id.in_([it.id for it in old.items]),
                                    StatementLine.period >= first, Statement.kind == StatementKind.STATEMENT,
                                    Statement.status == StatementStatus.ISSUED, Statement.issued_at < old.updated_at))
        if p is not None:
            q = q.where(StatementLine.period < p.label)
        billed = s.execute(q).all()
        if not billed:
            continue
        credited = {(i, c[len(CREDIT_PREFIX):], r) for i, c, r in s.execute(
            select(StatementLine.contract_item_id, StatementLine.charge, StatementLine.revision).where(
                StatementLine.contract_item_id.in_([it.id for it in old.items]), StatementLine.period >= first,
                StatementLine.charge.startswith(CREDIT_PREFIX)))}
        periods = sorted({per for i, c, r, per in billed if (i, c, r) not in credited})
        if periods:
            out.append((old.number, new_number, eff, periods))
    return out


def rebill_statement(db: Database, actor: Actor, key: int | str, *, issue: bool = False,
                     as_of: dt.datetime | None = None) -> RunSummary:
    """Bill again, as their next revision, the lines of an issued statement that credit notes
    credited in full, on a new statement referring to it (the charge as the contract, handover,
    leases and readings now give it). The regular run of the month does the same for every
    customer; this does it for one statement now."""
    require(actor, "run_billing")
    with db.session() as s:
        st = _find_statement(s, key)
        if st.kind != StatementKind.STATEMENT or st.status != StatementStatus.ISSUED:
            raise RuleViolation(f"{st.number or f'#{st.id}'} is not an issued statement; a rebill corrects the "
                                "credited lines of an issued statement")
        p = B.Period.parse(st.period)
        item_ids = {ln.contract_item_id for ln in st.lines if ln.contract_item_id}
        latest, credited = _billed_keys(s, p, dict.fromkeys(item_ids, ""))
        free = {item for (item, charge), (rev, sid) in latest.items() if (item, charge, rev) in credited}
        number = st.number
        if not free:
            waived = s.execute(select(Statement.number).join(StatementLine).where(
                Statement.original_id == st.id, StatementLine.charge.startswith(WAIVER_PREFIX))
                .order_by(Statement.number).limit(1)).scalar()
            mine = {(ln.contract_item_id, ln.charge, ln.revision) for ln in st.lines}
            if mine & credited:
                raise RuleViolation(f"the credited lines of {number} were already rebilled; see its later statements")
            if waived:
                raise RuleViolation(f"the lines of {number} credited by {waived} were waived; a waived line is not "
                                    "billed again")
            raise RuleViolation(f"no line of {number} has been credited in full; credit it first "
                                f"(billing credit {number} --reason …), then rebill")
    summary = run_billing(db, actor, p.label, as_of=as_of, item_ids=free)
    if issue:
        ids = [st.id for st in summary.statements if st.id]
        result = issue_statements(db, actor, statement_ids=ids)
        with db.session() as s:
            fresh = tuple(_statement_infos(s, ids))
        summary = replace(summary, issued=tuple(n for _i, n, _t in result.issued), statements=fresh,
                          pending_drafts=pending_drafts(db, p.label))
    return summary
