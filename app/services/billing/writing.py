"""The billing run's write step: per (subsidiary, customer, rebilled statement) a new draft statement
or the existing one extended, with its lines, in a few batched statements; a dry run's statements as
they would be written (app.services.billing.run collects and rates; this writes)."""
from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from sqlalchemy import insert, select, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from app.domain import rating as B
from app.domain.actor import Actor
from app.services.billing.charges import line_texts, revised
from app.services.billing.statements import (
    CHARGE_ORDER,
    LineInfo,
    StatementInfo,
    _chunks,
    _contract_numbers,
    _words,
)
from app.services.entities import flush_versioned
from app.store.uow import UnitOfWork
from models import Contract, Customer, Statement, StatementLine, Subsidiary
from models.choices import StatementKind, StatementStatus


@dataclass
class Written:
    """What the write step made: counts and sums, the statements as shown, their audit events."""

    created: int = 0
    extended: int = 0
    lines: int = 0
    subtotal: Decimal = Decimal("0.00")
    tax: Decimal = Decimal("0.00")
    previews: list[StatementInfo] = field(default_factory=list)
    touched: list[int] = field(default_factory=list)
    audits: list[tuple] = field(default_factory=list)


def write_statements(uow: UnitOfWork, actor: Actor, p: B.Period, rates: B.TaxRates, numbers: dict[int, str],
                     new: dict[tuple[int, int, int], list[tuple[Contract, B.Charge, int]]], dry_run: bool) -> Written:
    """Write: per (subsidiary, customer, rebilled statement) a new draft or the existing one extended,
    with its lines; a dry run only shows them."""
    s = uow.session
    w = Written()
    groups = sorted(new.items())
    drafts = _open_drafts(s, p, new) if not dry_run and groups else {}
    subs: dict[int, str] = {}
    cust_names: dict[int, str] = {}
    if groups:
        subs = dict(s.execute(select(Subsidiary.id, Subsidiary.code)).all())
        for chunk in _chunks(cust for _sub, cust, _r in new):
            cust_names.update(s.execute(select(Customer.id, Customer.name).where(Customer.id.in_(chunk))).all())
    now_ = dt.datetime.now(dt.timezone.utc)
    written: list[tuple] = []  # (statement, is new, its existing lines, new lines, totals)
    with s.no_autoflush:  # every statement goes out in the one flush below (one UPDATE per extended draft)
        for (sub_id, cust_id, rebills), charges in groups:
            lines = _statement_lines(p, rates, charges)
            for ln in lines:
                w.subtotal += ln["amount"]
                w.tax += ln["tax"]
            w.lines += len(lines)
            if dry_run:
                w.previews.append(_preview(p, numbers, lines, sub_id, subs[sub_id], cust_id,
                                           cust_names[cust_id], rebills))
                w.created += 1
                continue
            st = drafts.get((sub_id, cust_id, rebills))
            is_new = st is None
            if is_new:
                old = []
                st = Statement(kind=StatementKind.STATEMENT, subsidiary_id=sub_id, customer_id=cust_id,
                               period=p.label, status=StatementStatus.DRAFT, rebills_id=rebills or None)
                s.add(st)
                w.created += 1
            else:
                old = list(st.lines)
                w.extended += 1
            tot = B.totals([(ln.amount, ln.tax) for ln in old] + [(ln["amount"], ln["tax"]) for ln in lines])
            st.subtotal, st.tax, st.total = tot.subtotal, tot.tax, tot.total
            st.updated_by, st.updated_at = actor.login, now_
            written.append((st, is_new, old, lines, tot))
    if written:
        _flush_written(uow, p, numbers, written, subs, cust_names, w)
    return w


def _open_drafts(s: Session, p: B.Period, new: dict) -> dict[tuple[int, int, int], Statement]:
    """The existing drafts this run extends, locked (one query per 500 customers)."""
    drafts: dict[tuple[int, int, int], Statement] = {}
    wanted = set(new)
    for chunk in _chunks(cust for _sub, cust, _r in wanted):
        for st in s.execute(select(Statement).where(
                Statement.customer_id.in_(chunk), Statement.period == p.label,
                Statement.kind == StatementKind.STATEMENT, Statement.status == StatementStatus.DRAFT)
                .order_by(Statement.id).with_for_update(of=Statement)).scalars():
            key = (st.subsidiary_id, st.customer_id, st.rebills_id or 0)
            if key in wanted:
                drafts.setdefault(key, st)
    return drafts


def _statement_lines(p: B.Period, rates: B.TaxRates, charges: list[tuple[Contract, B.Charge, int]]) -> list[dict]:
    """The rows of one statement's new lines, in the statement's order, each taxed at its rate."""
    charges.sort(key=lambda cc: (cc[0].number, cc[1].contract_item_id or 0, CHARGE_ORDER.get(cc[1].charge, 9)))
    lines = []
    for c_, ch, revision in charges:
        rate = rates[ch.tax_category]
        lines.append(dict(contract_item_id=ch.contract_item_id, charge=ch.charge, period=p.label,
                          quantity=ch.quantity, unit=ch.unit, unit_price=ch.unit_price, amount=ch.amount,
                          tax_rate=rate, tax=B.tax_for(ch.amount, rate), revision=revision,
                          **line_texts(ch.description, revised(ch.note, revision), c_.language)))
    return lines


def _row_info(ln: dict, number: str) -> LineInfo:
    return LineInfo(ln.get("id"), ln["contract_item_id"], number, ln["charge"], ln["period"], ln["description"],
                    ln["quantity"], ln["unit"], ln["unit_price"], ln["amount"], ln["tax_rate"], ln["tax"],
                    ln["note"] or "", ln["revision"])


def _preview(p: B.Period, numbers: dict[int, str], lines: list[dict], sub_id: int, sub_code: str, cust_id: int,
             cust_name: str, rebills: int) -> StatementInfo:
    """A dry run's statement: its lines as they would be written."""
    infos = tuple(_row_info(ln, numbers.get(ln["contract_item_id"], "")) for ln in lines)
    tot = B.totals([(ln["amount"], ln["tax"]) for ln in lines])
    return StatementInfo(None, None, StatementKind.STATEMENT, sub_id, sub_code, cust_id, cust_name, p.label,
                         StatementStatus.DRAFT, tot.subtotal, tot.tax, tot.total, _words(tot.total), None, None,
                         None, None, None, 0, infos, (), rebills or None)


def _flush_written(uow: UnitOfWork, p: B.Period, numbers: dict[int, str], written: list[tuple],
                   subs: dict[int, str], cust_names: dict[int, str], w: Written) -> None:
    """Every statement in one flush (a batched INSERT … RETURNING in the run's order, so the ids are
    those the one-by-one writes gave), then, as before, an UPDATE of the new ones (version 2, like a
    statement created and then totalled), then every line in one batched INSERT … RETURNING id; the
    statements as shown and their audit events into w."""
    s = uow.session
    flush_versioned(uow, written[0][0], f"statement for {p.label}")
    later = dt.datetime.now(dt.timezone.utc)
    fresh = {st.id: st for st, is_new, *_rest in written if is_new}
    for chunk in _chunks(fresh):
        s.execute(update(Statement).where(Statement.id.in_(chunk), Statement.version == 1)
                  .values(version=2, updated_at=later).execution_options(synchronize_session=False))
        for sid in chunk:
            set_committed_value(fresh[sid], "version", 2)
            set_committed_value(fresh[sid], "updated_at", later)
    rows = [dict(ln, statement_id=st.id) for st, _n, _o, lines, _t in written for ln in lines]
    # render_nulls: a None (a line without a note, or in one language only) is sent as NULL, so
    # every row has the same keys and the ORM sends one batched INSERT, not one per run of keys
    ids = s.execute(insert(StatementLine).returning(StatementLine.id, sort_by_parameter_order=True),
                    rows, execution_options={"render_nulls": True}).scalars().all()
    for ln, lid in zip(rows, ids):
        ln["id"] = lid
    old_numbers = _contract_numbers(s, {ln.contract_item_id for _st, _n, old, _l, _t in written for ln in old}
                                    - set(numbers))
    credits: dict[int, list[str]] = defaultdict(list)
    for chunk in _chunks(st.id for st, *_rest in written):
        for orig, number in s.execute(select(Statement.original_id, Statement.number).where(
                Statement.original_id.in_(chunk), Statement.number.is_not(None)).order_by(Statement.number)):
            credits[orig].append(number)
    k = 0
    for st, is_new, old, lines, tot in written:
        # audited after every statement is written: the audit head is locked last (no deadlock
        # with a concurrent issue, which locks its statement, then its counter, then the head)
        w.audits.append(("statement.create" if is_new else "statement.add_lines", st.id,
                         f"{p.label} draft #{st.id}",
                         {"period": p.label, "customer_id": st.customer_id, "lines": len(lines),
                          "subtotal": tot.subtotal, "tax": tot.tax, "total": tot.total}))
        w.touched.append(st.id)
        mine = rows[k:k + len(lines)]
        k += len(lines)
        infos = [LineInfo(ln.id, ln.contract_item_id, numbers.get(ln.contract_item_id) or
                          old_numbers.get(ln.contract_item_id, ""), ln.charge, ln.period, ln.description,
                          ln.quantity, ln.unit, ln.unit_price, ln.amount, ln.tax_rate, ln.tax, ln.note or "",
                          ln.revision)
                 for ln in old]
        infos += [_row_info(ln, numbers.get(ln["contract_item_id"], "")) for ln in mine]
        infos.sort(key=lambda li: li.id)
        w.previews.append(StatementInfo(st.id, st.number, st.kind, st.subsidiary_id, subs[st.subsidiary_id],
                                        st.customer_id, cust_names[st.customer_id], st.period, st.status,
                                        st.subtotal, st.tax, st.total, _words(st.total), st.issued_at,
                                        st.original_id, None, st.reason, st.fapiao_no, st.version,
                                        tuple(infos), tuple(credits.get(st.id, ())), st.rebills_id))
        if not is_new:
            s.expire(st, ["lines"])
