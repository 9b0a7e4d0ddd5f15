"""Every sortable column of every list pages by keyset (issue 26), NULLs placed: the pages read
through `fetch_page` are the pages an ORDER BY … LIMIT … OFFSET gave, on the demo, on both backends."""
from __future__ import annotations

import pytest
from sqlalchemy import func

from app.read import queries
from app.read.list_filters import sort_column


def _offset_pages(db, spec, sort, desc, size, text=None):
    """The list as it was read before: one ORDER BY (NULLs last ascending, first descending, the id
    breaking ties) cut by LIMIT and OFFSET."""
    expr = sort_column(spec, sort)[1]
    order = ((expr.desc().nulls_first(), spec.id_expr.desc()) if desc
             else (expr.asc().nulls_last(), spec.id_expr.asc()))
    stmt = spec.source().add_columns(spec.id_expr, *[c.expr for c in spec.columns])
    clause, _u = queries.filter_clause(db, spec, text, allow_union=False)
    if clause is not None:
        stmt = stmt.where(clause)
    pages, offset = [], 0
    with db.engine.connect() as conn:
        while True:
            rows = [tuple(r) for r in conn.execute(stmt.order_by(*order).limit(size).offset(offset))]
            pages.append(rows)
            if len(rows) < size:
                return pages
            offset += size


def _keyset_pages(db, spec, sort, desc, size, text=None):
    cursor, pages = queries.Cursor(), []
    while True:
        page = queries.fetch_page(db, spec, cursor, text=text, sort=sort, desc=desc, limit=size)
        pages.append(page.rows)
        if page.done:
            return pages


def _ids(pages):
    return [r[0] for p in pages for r in p]


@pytest.mark.parametrize("kind", sorted(queries.SPECS))
def test_keyset_pages_equal_the_offset_pages_for_every_sortable_column(demo_db, kind):
    spec = queries.SPECS[kind]
    total = queries.total(demo_db, spec)
    size = max(7, total // 5)
    nulls_seen = 0
    for col in spec.columns:
        if not col.sortable:
            continue
        assert queries.pages_by_keyset(spec, col.key)
        for desc in (False, True):
            old = _offset_pages(demo_db, spec, col.key, desc, size)
            new = _keyset_pages(demo_db, spec, col.key, desc, size)
            assert _ids(new) == _ids(old), (kind, col.key, desc)
            assert len(_ids(new)) == total
            assert [len(p) for p in new][:-1] == [len(p) for p in old][:len(new) - 1]
            assert [r for p in new for r in p] == [r for p in old for r in p], (kind, col.key, desc)
        with demo_db.engine.connect() as conn:
            nulls_seen += conn.execute(spec.source().add_columns(func.count())
                                       .where(sort_column(spec, col.key)[1].is_(None))).scalar_one()
    if kind in ("gpu", "device", "rack"):
        assert nulls_seen, "the demo has NULLs in these lists' columns: the NULL segments are read"


def test_a_nullable_sort_pages_across_its_nulls_in_small_pages_and_with_a_filter(demo_db):
    """Pages of three rows cross from the values to the NULLs (and back, descending) wherever they fall;
    a filtered list keeps the same order as the plain OR filter read by offset."""
    spec = queries.SPECS["gpu"]
    for sort in ("customer", "warranty_end", "host"):
        for desc in (False, True):
            assert _ids(_keyset_pages(demo_db, spec, sort, desc, 3)) == \
                _ids(_offset_pages(demo_db, spec, sort, desc, 10_000)), (sort, desc)
            for text in ("a", "1"):
                assert _ids(_keyset_pages(demo_db, spec, sort, desc, 9, text)) == \
                    _ids(_offset_pages(demo_db, spec, sort, desc, 10_000, text)), (sort, desc, text)
