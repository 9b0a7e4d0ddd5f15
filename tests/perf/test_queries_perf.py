"""The faster query shapes of app/read/lists/ and app/read/viewdata/ return what the plain ones did.

Contains-filters became `id IN (… UNION …)` branches, a window probe for broad terms, skipped
scans of ASCII-only columns for non-ASCII text; the audit total comes from the chain head; the
dashboard fleet is grouped by model id. Each is compared here with the shape it replaced, on
the demo data, on both backends.
"""
from __future__ import annotations

from collections import defaultdict

import pytest
from sqlalchemy import func, or_, select

from app.read import queries
from app.read import list_filters
from app.read.lists import paging

from app.read import viewdata
from models import AuditEvent, Customer, Device, GpuAsset, GpuModel

FIXED_TERMS = ["a", "A0", "FZ", "srv", "gpu", "2026", "GZ-2026", "科技", "有限公司", "福州", "%", "_", "zz-none-zz"]


def _old_rows(db, spec, text, sort, desc):
    """The filter as it was: one OR over every filter column of the joined source."""
    text = text.strip()
    pattern = list_filters.like_pattern(text)
    conds = [e.like(pattern, escape="\\") if db.is_sqlite else e.ilike(pattern, escape="\\")
             for e in spec.filter_exprs]
    col = spec.column(sort or spec.default_sort).expr
    desc = spec.default_desc if desc is None else desc
    stmt = (spec.source().add_columns(spec.id_expr, *[c.expr for c in spec.columns]).where(or_(*conds))
            .order_by(col.desc() if desc else col.asc(), spec.id_expr.desc() if desc else spec.id_expr.asc()))
    with db.engine.connect() as conn:
        return [tuple(r) for r in conn.execute(stmt)]


def _terms(db) -> list[str]:
    """Fixed terms plus pieces of real values: serials, host names, customer names (Chinese)."""
    terms = list(FIXED_TERMS)
    with db.engine.connect() as conn:
        for q in (select(GpuAsset.serial).order_by(GpuAsset.id).limit(2),
                  select(Device.name).order_by(Device.id.desc()).limit(2),
                  select(Customer.name).order_by(Customer.id).limit(3)):
            for v in conn.execute(q).scalars():
                if v:
                    terms.append(v[1:4])
                    terms.append(v[-2:])
    return list(dict.fromkeys(t for t in terms if t.strip()))


def _new_rows(db, spec, text, sort, desc, limit, small_pages=0):
    """Every row through fetch_page: the first `small_pages` pages of 2 rows, then pages of `limit`."""
    cursor = queries.Cursor()
    rows = []
    while True:
        size = 2 if small_pages > 0 else limit
        small_pages -= 1
        page = queries.fetch_page(db, spec, cursor, text=text, sort=sort, desc=desc, limit=size)
        rows.extend(page.rows)
        if page.done:
            return rows


@pytest.mark.slow
@pytest.mark.parametrize("probe_rows", [4000, 3])
def test_filters_return_the_same_rows(demo_db, monkeypatch, probe_rows):
    # probe_rows=3 forces the window probe to run: pages of 2 (the first three, from the start and
    # after a cursor) fit in its window; the larger pages after them miss it and fall back
    monkeypatch.setattr(paging, "PROBE_ROWS", probe_rows)
    limit, small_pages = (200, 0) if probe_rows > 100 else (200, 3)
    terms = _terms(demo_db)
    matched = 0
    for kind, spec in queries.SPECS.items():
        sorts = [(None, None), (spec.default_sort, not spec.default_desc)]
        for text in terms:
            for sort, desc in sorts:
                old = _old_rows(demo_db, spec, text, sort, desc)
                new = _new_rows(demo_db, spec, text, sort, desc, limit, small_pages)
                assert new == old, (kind, text, sort, desc)
            assert queries.count(demo_db, spec, text) == len(old), (kind, text)
            matched += len(old)
    assert matched > 0


def test_union_shape_is_used_where_it_helps(demo_db):
    gpu = queries.SPECS["gpu"]
    clause, union = queries.filter_clause(demo_db, gpu, "AB1")
    assert union and "UNION" in str(clause.compile(demo_db.engine))
    # ASCII-only columns are not scanned for a non-ASCII term: only host and customer names remain
    clause, union = queries.filter_clause(demo_db, gpu, "科技")
    assert union and "serial" not in str(clause.compile(demo_db.engine))
    # one table, several columns: the plain OR (one scan) stays
    clause, union = queries.filter_clause(demo_db, queries.SPECS["customer"], "科技")
    assert not union
    # every filter column ASCII-only: no scan at all, nothing matches
    assert queries.search(demo_db, "科技") and not [h for h in queries.search(demo_db, "科技") if h.kind == "gpu"]


def test_search_skips_ascii_columns_with_the_same_hits(demo_db):
    for text in _terms(demo_db):
        hits = queries.search(demo_db, text)
        if text.isascii():
            continue
        # the skipped columns cannot contain non-ASCII text on the demo data either
        with demo_db.engine.connect() as conn:
            for col in queries.ASCII_ONLY:
                assert conn.execute(select(func.count()).where(col.like(f"%{text}%"))).scalar_one() == 0
        assert all(h.kind != "gpu" for h in hits)


def test_audit_total_is_the_chain_length(demo_db):
    spec = queries.SPECS["audit"]
    with demo_db.engine.connect() as conn:
        n = conn.execute(select(func.count()).select_from(AuditEvent)).scalar_one()
    assert n > 0
    assert queries.total(demo_db, spec) == n


def test_dashboard_fleet_matches_the_joined_grouping(demo_db):
    with demo_db.engine.connect() as conn:
        rows = conn.execute(select(GpuModel.name, GpuAsset.state, func.count(GpuAsset.id))
                            .join(GpuModel, GpuModel.id == GpuAsset.gpu_model_id)
                            .group_by(GpuModel.name, GpuAsset.state)).all()
    expected = defaultdict(int)
    for m, st, n in rows:
        expected[(m, st)] += n
    fleet = viewdata.dashboard_data(demo_db).gpu_fleet
    assert fleet and {(f.model, f.state): f.count for f in fleet} == dict(expected)
    assert [(f.model, f.state) for f in fleet] == sorted(expected)


def test_count_kept_from_the_first_page_only_while_nothing_changed(demo_db, monkeypatch):
    monkeypatch.setattr(paging, "PROBE_ROWS", 1)  # the demo is smaller than a probe window
    spec = queries.SPECS["gpu"]
    with demo_db.engine.connect() as conn:
        term = conn.execute(select(GpuAsset.serial).order_by(GpuAsset.id).limit(1)).scalar_one()[1:4]
    expected = len(_old_rows(demo_db, spec, term, None, None))
    queries.fetch_page(demo_db, spec, queries.Cursor(), text=term)
    key = queries.count_key(demo_db, spec, term)
    head, _when, n = queries.COUNTS[key]
    assert n == expected and head == queries.audit_head(demo_db)
    assert queries.count(demo_db, spec, term) == expected and key not in queries.COUNTS  # used once
    # a figure from another audit head (someone wrote meanwhile) is not used
    queries.COUNTS[key] = (head - 1, _when, 12345)
    assert queries.count(demo_db, spec, term) == expected
    # nor a stale one
    queries.COUNTS[key] = (head, _when - 60, 12345)
    assert queries.count(demo_db, spec, term) == expected
