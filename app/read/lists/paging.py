"""Paged reads of the lists of app.read.lists.specs: filter, keyset pages, ordered ids, counts.

Sorting and filtering happen in SQL. Pages are fetched by keyset (WHERE (sort, id) > (last sort,
last id)) when the sort column can never be NULL, so a window deep in 400,000 GPUs costs the
same as the first. A nullable sort column cannot be paged that way (an OFFSET deep in
400,000 GPUs sorted by customer cost 1.2 s): its list is read as the ordered ids once
(`fetch_order`, 0.7-1.1 s for 400,000 GPUs by customer, off the GUI thread) and then in
windows of those ids (`fetch_rows`, 3-9 ms by primary key).
"""
from __future__ import annotations

import time
from array import array
from dataclasses import dataclass
from typing import Callable

from sqlalchemy import (
    Integer,
    Select,
    and_,
    bindparam,
    false,
    func,
    literal,
    or_,
    select,
    tuple_,
    union,
)
from sqlalchemy.sql import visitors
from sqlalchemy.sql.selectable import Join

from app.read import list_filters
from app.read.list_filters import like_pattern, searchable, sort_column
from app.store.db import Database

from app.read.lists.specs import PAGE_SIZE, FILTER_PATHS, Cursor, ListSpec, Page, skips_ascii


def filter_clause(db: Database, spec: ListSpec, text: str | None, allow_union: bool = True):
    """(WHERE clause or None, whether it is the `id IN (… UNION …)` shape) for a list's filter
    text. The audit list's text may carry its filter bar (period, user, action, object type) as
    tokens, read by app.audit.query.parse_filter_text; the rest is matched as below. Any list's text
    may carry column filters ('@status=active', app.read.list_filters); with them the plain shape is used."""
    columns, text = list_filters.split(spec, text)
    if columns:
        rest, _u = filter_clause(db, spec, text, allow_union=False)
        own = list_filters.clause(db, spec, columns)
        return (own if rest is None else and_(own, rest)), False
    if spec.kind == "audit":
        from app.audit.query import parse_filter_text
        flt, free = parse_filter_text(text)
        clause, union_shape = _text_clause(db, spec, free, allow_union)
        where = flt.where()
        if where is not None:
            clause = where if clause is None else and_(where, clause)
        return clause, union_shape
    return _text_clause(db, spec, text, allow_union)


def _text_clause(db: Database, spec: ListSpec, text: str | None, allow_union: bool = True):
    """(WHERE clause or None, whether it is the `id IN (… UNION …)` shape): rows where any
    filter column contains `text` (case-insensitive for ASCII).

    The columns of the base table are tested together in one scan; each column of a joined
    table gets its own branch (base ids reached from that table, inner joins only), and the
    branches are combined as `id IN (… UNION …)`: an OR spanning several tables of an outer
    join can use no index and builds every joined row, while each branch scans one narrow
    index (on PostgreSQL a pg_trgm index). Same rows as the plain OR: the joins are to-one.
    """
    text = (text or "").strip()
    if not text or not spec.filter_exprs:
        return None, False
    if not searchable(text):
        return false(), False
    pattern = like_pattern(text)

    def like(e):  # SQLite's LIKE is already case-insensitive for ASCII
        return e.like(pattern, escape="\\") if db.is_sqlite else e.ilike(pattern, escape="\\")

    exprs = [e for e in spec.filter_exprs if not skips_ascii(text, e)]
    if not exprs:
        return false(), False
    base = spec.id_expr.table
    paths = FILTER_PATHS.get(spec.kind, ())
    own, joined = [], []
    for e in exprs:
        path = next((p for x, p in paths if x is e), None)
        if path is None and getattr(e, "table", None) is not base:
            own = None  # a column this function has no path for: keep the plain OR over the joins
            break
        (joined if path is not None else own).append((e, path))
    if own is None or not joined or not allow_union:
        return or_(*[like(e) for e in exprs]), False
    branches = []
    if own:
        branches.append(select(spec.id_expr).where(or_(*[like(e) for e, _p in own])))
    for e, path in joined:
        q = select(spec.id_expr)
        for target, on in path:
            q = q.join(target, on)
        branches.append(q.where(like(e)))
    ids = branches[0] if len(branches) == 1 else union(*branches)
    return spec.id_expr.in_(ids), True

# A filtered page sorted by a column of the base table first looks for its rows among the next
# PROBE_ROWS rows in sort order (an index range, joined and tested with the plain OR): a broad
# term (thousands of matches) fills the page there at once, where the `id IN (… UNION …)`
# shape would collect and sort every match. Only when the window holds fewer than a page of
# matches (a narrow term) is the page read through the union.
PROBE_ROWS = 4000


def fetch_page(db: Database, spec: ListSpec, cursor: Cursor, *, text: str | None = None,
               sort: str | None = None, desc: bool | None = None, limit: int = PAGE_SIZE) -> Page:
    """The next `limit` rows after `cursor` (which it advances), for a sort that pages by keyset
    (`pages_by_keyset`); any other sort is read through `fetch_order` and `fetch_rows`."""
    sort = sort or spec.default_sort
    desc = spec.default_desc if desc is None else desc
    col, sort_expr = sort_column(spec, sort)     # a choice column may sort by its labels' order
    if col.nullable or not (text or "").strip():
        return _fetch_page_by_segments(db, spec, cursor, sort, sort_expr, nullable=col.nullable, text=text,
                                       desc=desc, limit=limit)
    pos = tuple_(sort_expr, spec.id_expr)

    def ordered(stmt: Select) -> Select:
        if cursor.started:
            last = tuple_(literal(cursor.last_sort, type_=sort_expr.type),
                          literal(cursor.last_id, type_=spec.id_expr.type))
            stmt = stmt.where(pos < last if desc else pos > last)
        if desc:
            return stmt.order_by(sort_expr.desc(), spec.id_expr.desc())
        return stmt.order_by(sort_expr.asc(), spec.id_expr.asc())

    cols = spec.source().add_columns(spec.id_expr, *[c.expr for c in spec.columns], sort_expr)
    clause, union_shape = filter_clause(db, spec, text)
    stmt = cols if clause is None else cols.where(clause)
    stmt = ordered(stmt).limit(limit)
    with db.read_connection() as conn:
        raw = None
        base = spec.id_expr.table
        if union_shape and getattr(sort_expr, "table", None) is base:
            end = conn.execute(ordered(select(sort_expr, spec.id_expr).select_from(base))
                               .offset(PROBE_ROWS - 1).limit(1)).first()
            plain, _u = filter_clause(db, spec, text, allow_union=False)
            probe = cols.where(plain)
            if end is not None:
                bound = tuple_(literal(end[0], type_=sort_expr.type), literal(end[1], type_=spec.id_expr.type))
                probe = probe.where(pos >= bound if desc else pos <= bound)
            raw = conn.execute(ordered(probe).limit(limit)).all()
            if len(raw) < limit and end is not None:
                raw = None  # a narrow term: the window held less than a page
        if raw is None and union_shape and not cursor.started:
            # a narrow term's first page: the union's matches are all read and sorted anyway, so
            # count them in the same statement and keep the figure for the count() that follows
            head = audit_head(db)
            with_n = ordered(cols.add_columns(func.count().over()).where(clause)).limit(limit)
            raw = conn.execute(with_n).all()
            COUNTS[count_key(db, spec, text)] = (head, time.monotonic(), raw[0][-1] if raw else 0)
            raw = [r[:-1] for r in raw]
        if raw is None:
            raw = conn.execute(stmt).all()
    rows = [tuple(r[:-1]) for r in raw]
    if raw:
        cursor.last_sort, cursor.last_id = raw[-1][-1], raw[-1][0]
    cursor.started = True
    return Page(rows, len(raw) < limit)


def _segments(spec: ListSpec, cols: Select, sort_expr, desc: bool, among_nulls: bool, started: bool,
              nullable: bool) -> list[Select]:
    """The statements still to read after the cursor, in reading order, for a column that may be NULL:
    its values by (value, id), then its NULLs by id ascending; descending the exact reverse (NULLs
    first). Each segment is a plain range on (value, id) or on id among the NULLs, so an index on
    (column, id) serves it; a cursor at a NULL is already among the NULLs. The cursor's values and
    the rows wanted are bound parameters (last_sort, last_id, rows). A column that is never NULL has
    its values segment alone."""
    ident = spec.id_expr
    last_id = bindparam("last_id", type_=ident.type)
    rows = bindparam("rows", type_=Integer)

    def values(after: bool) -> Select:
        stmt = cols.where(sort_expr.is_not(None)) if nullable else cols
        if after:
            last = tuple_(bindparam("last_sort", type_=sort_expr.type), last_id)
            pos = tuple_(sort_expr, ident)
            stmt = stmt.where(pos < last if desc else pos > last)
        order = (sort_expr.desc(), ident.desc()) if desc else (sort_expr.asc(), ident.asc())
        return stmt.order_by(*order).limit(rows)

    def nulls(after: bool) -> Select:
        stmt = cols.where(sort_expr.is_(None))
        if after:
            stmt = stmt.where(ident < last_id if desc else ident > last_id)
        return stmt.order_by(ident.desc() if desc else ident.asc()).limit(rows)

    if not nullable:
        return [values(started)]
    if desc:
        if among_nulls or not started:
            return [nulls(among_nulls), values(False)]
        return [values(True)]
    if among_nulls:
        return [nulls(True)]
    return [values(started), nulls(False)]


# The unfiltered lists' segment statements by (list, sort key, descending, where the cursor is):
# built once, so a window costs its execution and not the building and cache key of the statement.
_SEGMENTS: dict[tuple, list[Select]] = {}


def _fetch_page_by_segments(db: Database, spec: ListSpec, cursor: Cursor, sort: str, sort_expr, *, nullable: bool,
                            text: str | None, desc: bool, limit: int) -> Page:
    """`fetch_page` for a sort column that may be NULL (NULLs last ascending and first descending,
    the id breaking ties: the order of `fetch_order`), or any sort without a filter: read by keyset
    segment after segment."""
    among_nulls = cursor.started and cursor.last_sort is None
    clause, _union = filter_clause(db, spec, text)
    key = (spec.kind, sort, desc, among_nulls, cursor.started, nullable)
    segments = _SEGMENTS.get(key) if clause is None else None
    if segments is None:
        cols = spec.source().add_columns(spec.id_expr, *[c.expr for c in spec.columns], sort_expr)
        if clause is not None:
            cols = cols.where(clause)
        segments = _segments(spec, cols, sort_expr, desc, among_nulls, cursor.started, nullable)
        if clause is None:
            _SEGMENTS[key] = segments
    raw: list = []
    with db.read_connection() as conn:
        for stmt in segments:
            params = {"rows": limit - len(raw), "last_id": cursor.last_id, "last_sort": cursor.last_sort}
            raw.extend(conn.execute(stmt, params).all())
            if len(raw) >= limit:
                break
    if raw:
        cursor.last_sort, cursor.last_id = raw[-1][-1], raw[-1][0]
    cursor.started = True
    return Page([tuple(r[:-1]) for r in raw], len(raw) < limit)


# Filtered counts taken with a first page through the union: (audit head, when, count) by
# (database, list, text). Every write through the services appends an audit event, so an
# unchanged audit head (and a few seconds at most) means the figure still holds.
COUNTS: dict[tuple, tuple[int, float, int]] = {}
_COUNT_FRESH_S = 2.0


def count_key(db: Database, spec: ListSpec, text: str | None) -> tuple:
    return (str(db.engine.url), spec.kind, (text or "").strip())


def count(db: Database, spec: ListSpec, text: str | None = None) -> int:
    clause, union_shape = filter_clause(db, spec, text)
    kept = COUNTS.pop(count_key(db, spec, text), None) if union_shape else None
    if kept is not None and time.monotonic() - kept[1] < _COUNT_FRESH_S and kept[0] == audit_head(db):
        return kept[2]
    if union_shape:  # the joins are to-one and outer or total (as in `total`): the base table alone
        stmt = select(func.count()).select_from(spec.id_expr.table).where(clause)
    else:
        stmt = spec.source().add_columns(func.count())
        if clause is not None:
            stmt = stmt.where(clause)
    with db.read_connection() as conn:
        return conn.execute(stmt).scalar_one()


def total(db: Database, spec: ListSpec) -> int:
    """Rows in the list without a filter: the base table alone, no joins (the joins are outer or total)."""
    table = spec.id_expr.table
    if spec.kind == "audit":
        # The chain is append-only and gapless from seq 1 (`audit verify` checks exactly that), so
        # its head's seq is the number of events: one row read instead of counting 2,000,000.
        return audit_head(db)
    with db.read_connection() as conn:
        return conn.execute(select(func.count()).select_from(table)).scalar_one()


def pages_by_keyset(spec: ListSpec, sort: str | None) -> bool:
    """Whether the list sorted by `sort` pages by keyset (`fetch_page`); otherwise it is read
    through its ordered ids (`fetch_order`, `fetch_rows`). Every sort key of a list's columns does
    (issue 26): a column that may be NULL pages segment by segment, its NULLs placed."""
    sort_column(spec, sort or spec.default_sort)   # a key the list does not have raises KeyError
    return True


def _order_by(spec: ListSpec, sort: str | None, desc: bool | None) -> tuple:
    """NULLs last ascending and first descending (the exact reverse), the id breaking ties: the
    same on SQLite and PostgreSQL, whose defaults differ."""
    expr = sort_column(spec, sort or spec.default_sort)[1]
    desc = spec.default_desc if desc is None else desc
    if desc:
        return expr.desc().nulls_first(), spec.id_expr.desc()
    return expr.asc().nulls_last(), spec.id_expr.asc()


def _table_names(expr) -> set[str]:
    return {getattr(e.table, "name", None) for e in visitors.iterate(expr) if getattr(e, "table", None) is not None}


def _joins(stmt: Select):
    """(right side, on clause, outer?) of each join of the statement's FROM, in order."""
    def walk(j):
        if isinstance(j, Join):
            yield from walk(j.left)
            yield j.right, j.onclause, j.isouter
    return list(walk(stmt.get_final_froms()[0]))


def _source_for(spec: ListSpec, *exprs) -> Select:
    """The list's source with only the joins `exprs` need: an id list sorted by a base-table column
    reads that table alone (400,000 GPUs by warranty end: 1.2 s through every join, 0.16 s alone).
    Dropping a join keeps every row: the joins are outer, or inner on a NOT NULL key (total)."""
    base = spec.id_expr.table
    need = set().union(*(_table_names(e) for e in exprs)) - {base.name}
    keep = []
    for right, on, outer in reversed(_joins(spec.source().add_columns(spec.id_expr))):
        if right.name in need:
            keep.append((right, on, outer))
            need |= _table_names(on) - {base.name, right.name}
    stmt = select().select_from(base)
    for right, on, outer in reversed(keep):
        stmt = stmt.join(right, on, isouter=outer)
    return stmt


_ORDER_BATCH = 500


def fetch_order(db: Database, spec: ListSpec, *, text: str | None = None, sort: str | None = None,
                desc: bool | None = None, check: Callable[[], None] | None = None) -> array | list:
    """Every id of the filtered list, in sort order: one query, whatever the sort column.
    `check()` runs between batches and may raise to stop a read nobody wants any more."""
    clause, union_shape = filter_clause(db, spec, text)
    order = _order_by(spec, sort, desc)
    if clause is None or union_shape:   # the union's branches join for themselves
        stmt = _source_for(spec, *order).add_columns(spec.id_expr)
    else:
        stmt = spec.source().add_columns(spec.id_expr)
    if clause is not None:
        stmt = stmt.where(clause)
    stmt = stmt.order_by(*order)
    ids: array | list = array("q")     # 8 bytes an id: 3.2 MB for 400,000 GPUs
    with db.engine.connect() as conn:   # a transaction: a server-side cursor (yield_per) needs one
        # In batches: the console reads this on a worker thread, and a single fetch of 400,000
        # rows holds the GIL for 0.5 s in the driver and result processing, which froze the GUI
        # thread as long; between batches of 500 the GUI thread gets its turn (a plain thread beside
        # it waited at most 8-10 ms; batches of 2,000: 48-74 ms).
        result = conn.execution_options(yield_per=_ORDER_BATCH).execute(stmt)
        for part in result.scalars().partitions():
            if check is not None:
                check()
            try:
                part = array("q", part)          # whole or not at all
            except (TypeError, OverflowError):   # ids that are not 64-bit integers
                ids = list(ids)
            ids.extend(part)
    return ids


def fetch_rows(db: Database, spec: ListSpec, ids) -> list[tuple]:
    """The rows of `ids`, in that order; an id whose row is gone is left out."""
    ids = list(ids)
    if not ids:
        return []
    stmt = spec.source().add_columns(spec.id_expr, *[c.expr for c in spec.columns]).where(spec.id_expr.in_(ids))
    with db.read_connection() as conn:
        by_id = {r[0]: tuple(r) for r in conn.execute(stmt)}
    return [by_id[i] for i in ids if i in by_id]


@dataclass
class ListRead:
    """What `read_list` read: the first keyset window (with the cursor after it), or every id in
    order; and the number of rows that match the filter (None: not counted yet)."""
    count: int | None
    page: Page | None = None
    cursor: Cursor | None = None
    order: array | list | None = None


def read_list(db: Database, spec: ListSpec, params: tuple, page_size: int = PAGE_SIZE, *,
              with_count: bool = True, check: Callable[[], None] | None = None) -> ListRead:
    """A list's first read for (filter, sort, descending), as the console's table model does it.
    With with_count=False a filtered list whose first window is full is left uncounted (the console
    counts it in a second step, after showing the rows)."""
    text, sort, desc = params
    if not pages_by_keyset(spec, sort):
        order = fetch_order(db, spec, text=text, sort=sort, desc=desc, check=check)
        return ListRead(len(order), order=order)
    cursor = Cursor()
    page = fetch_page(db, spec, cursor, text=text, sort=sort, desc=desc, limit=page_size)
    if page.done or not text:
        n = len(page.rows)
    else:
        n = count(db, spec, text) if with_count else None
    return ListRead(n, page=page, cursor=cursor)


def fetch_all(db: Database, spec: ListSpec, *, text: str | None = None, sort: str | None = None,
              desc: bool | None = None, batch: int = 2000):
    """Every row of the filtered, sorted list, in batches (for export); yields lists of rows."""
    if not pages_by_keyset(spec, sort):
        order = fetch_order(db, spec, text=text, sort=sort, desc=desc)
        for i in range(0, len(order), batch):
            rows = fetch_rows(db, spec, order[i:i + batch])
            if rows:
                yield rows
        return
    cursor = Cursor()
    while True:
        page = fetch_page(db, spec, cursor, text=text, sort=sort, desc=desc, limit=batch)
        if page.rows:
            yield page.rows
        if page.done:
            return


def audit_head(db: Database) -> int:
    """The sequence number of the newest audit event: a cheap 'did anything change?' probe."""
    from sqlalchemy import text as sql
    with db.read_connection() as conn:
        return conn.execute(sql("SELECT seq FROM audit_head WHERE id = 1")).scalar() or 0

