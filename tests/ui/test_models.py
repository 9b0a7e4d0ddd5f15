"""Every list model passes Qt's model tester, with small windows so fetchMore runs."""
import pytest
from PySide6.QtCore import Qt

from app import queries
from ui.tables import PagedTableModel


@pytest.mark.parametrize("kind", sorted(queries.SPECS))
def test_model_passes_qtmodeltester(qtmodeltester, db, admin, estate, kind):
    model = PagedTableModel(db, queries.SPECS[kind], page_size=3)
    qtmodeltester.check(model)
    while model.canFetchMore():
        model.fetchMore()
    qtmodeltester.check(model)
    assert model.rowCount() == queries.total(db, queries.SPECS[kind])


def test_keyset_windows_cover_every_row_once_in_both_directions(db, admin, estate):
    spec = queries.SPECS["gpu"]
    for desc in (False, True):
        model = PagedTableModel(db, spec, page_size=5)
        model.sort(0, Qt.DescendingOrder if desc else Qt.AscendingOrder)
        while model.canFetchMore():
            model.fetchMore()
        serials = [model.value(r, "serial") for r in range(model.rowCount())]
        assert len(serials) == 12 and len(set(serials)) == 12
        assert serials == sorted(serials, reverse=desc)


def test_nullable_sort_column_pages_by_offset(db, admin, estate):
    model = PagedTableModel(db, queries.SPECS["gpu"], page_size=5)
    model.sort(model.spec.keys().index("customer"), Qt.AscendingOrder)
    while model.canFetchMore():
        model.fetchMore()
    assert len({model.id_at(r) for r in range(model.rowCount())}) == 12


def test_filter_counts_against_total(db, admin, estate):
    model = PagedTableModel(db, queries.SPECS["gpu"])
    assert (model.filtered_count, model.total) == (12, 12)
    model.set_filter("h100-000")
    assert model.rowCount() == 9 and model.filtered_count == 9 and model.total == 12
    model.set_filter("100%")   # wildcards are literal
    assert model.rowCount() == 0


def test_warranty_within_90_days_is_highlighted(db, admin, estate):
    from PySide6.QtCore import Qt
    model = PagedTableModel(db, queries.SPECS["gpu"])
    col = model.spec.keys().index("warranty_end")
    assert model.data(model.index(0, col), Qt.BackgroundRole) is not None      # 30 days
    assert model.data(model.index(11, col), Qt.BackgroundRole) is None         # 360 days


def test_windowed_model_evicts_and_refetches_rows(qtmodeltester, db, admin, estate):
    """Only `window_rows` rows stay in memory; the others are read again, the same, from their
    window's saved cursor; ids, row_of and the model tester still hold. A sort that pages by
    OFFSET (nullable column) keeps its rows: reading them again would cost a whole fetch."""
    spec = queries.SPECS["gpu"]
    for sort_key in ("serial", "customer"):        # customer is nullable: pages by OFFSET
        full = PagedTableModel(db, spec, page_size=3)
        small = PagedTableModel(db, spec, page_size=3, window_rows=6)
        for m in (full, small):
            m.sort(spec.keys().index(sort_key), Qt.AscendingOrder)
            while m.canFetchMore():
                m.fetchMore()
        assert small.rowCount() == full.rowCount() == 12
        evicts = sort_key == "serial"
        assert len(small._chunks) == (2 if evicts else 4)
        cells = lambda m: [[m.data(m.index(r, c)) for c in range(m.columnCount())] for r in range(m.rowCount())]
        assert cells(small) == cells(full)
        assert (small.refetches > 0) == evicts and len(small._chunks) == (2 if evicts else 4)
        for r in (11, 0, 7):
            assert small.row_of(full.id_at(r)) == r and small.id_at(r) == full.id_at(r)
        qtmodeltester.check(small)


def test_lazy_model_loads_when_asked(db, admin, estate):
    model = PagedTableModel(db, queries.SPECS["gpu"], lazy=True)
    assert not model.loaded and model.rowCount() == 0 and not model.canFetchMore()
    first = model.id_at(0)          # asking for a record loads the first window
    assert model.loaded and first is not None and model.rowCount() == 12 and model.total == 12
