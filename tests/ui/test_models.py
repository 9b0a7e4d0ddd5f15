"""Every list model passes Qt's model tester, with small windows so fetchMore runs."""
import pytest
from PySide6.QtCore import Qt

from app.read import queries
from ui.kit.tables import PagedTableModel


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


def _with_some_costs(db, admin, estate):
    """Purchase cost on GPUs 3, 7 and 11 (two equal), none on the others: a nullable sort column."""
    from decimal import Decimal
    from app.services.common import update_record
    for i, cost in ((3, Decimal("250000")), (7, Decimal("180000")), (11, Decimal("250000"))):
        update_record(db, admin, "gpu", estate.gpu_ids[i - 1], {"purchase_cost": cost})


def test_nullable_sort_pages_by_keyset_nulls_last(db, admin, estate):
    """A nullable sort column pages by keyset too (issue 26), window by window: NULLs last going
    up, the exact reverse going down, on both backends."""
    _with_some_costs(db, admin, estate)
    model = PagedTableModel(db, queries.SPECS["gpu"], page_size=5)
    col = model.spec.keys().index("purchase_cost")
    model.sort(col, Qt.AscendingOrder)
    assert model.rowCount() == 5 and model.canFetchMore()
    while model.canFetchMore():
        model.fetchMore()
    assert model.rowCount() == 12
    up = [model.id_at(r) for r in range(12)]
    g = estate.gpu_ids
    assert up[:3] == [g[6], g[2], g[10]]                    # 180,000 then the two 250,000 by id
    assert up[3:] == [x for x in g if x not in (g[2], g[6], g[10])]
    assert [model.value(r, "serial") for r in range(3)] == ["SN-H100-0007", "SN-H100-0003", "SN-H100-0011"]
    model.sort(col, Qt.DescendingOrder)
    while model.canFetchMore():
        model.fetchMore()
    assert [model.id_at(r) for r in range(12)] == up[::-1]
    # an export has the same order, in batches, and so have the ordered ids
    rows = [r[0] for b in queries.fetch_all(db, model.spec, sort="purchase_cost", desc=True, batch=5) for r in b]
    assert rows == up[::-1] == list(queries.fetch_order(db, model.spec, sort="purchase_cost", desc=True))


def test_big_filtered_list_sorts_in_the_background(qtbot, db, admin, estate):
    """Over `order_sync_rows`, a filtered list's sort is read on the thread pool: the model keeps its
    rows and says it is busy until they are in; a newer sort supersedes an older one. (Unfiltered,
    every sort pages by keyset on the GUI thread.)"""
    _with_some_costs(db, admin, estate)
    model = PagedTableModel(db, queries.SPECS["gpu"], page_size=5, order_sync_rows=0)
    assert model.rowCount() == 5 and not model.busy        # keyset sort by serial: synchronous
    col = model.spec.keys().index("purchase_cost")
    model.sort(col, Qt.AscendingOrder)
    assert not model.busy and model.value(0, "serial") == "SN-H100-0007"   # unfiltered: at once
    model.sort(model.spec.keys().index("serial"), Qt.AscendingOrder)
    with qtbot.waitSignal(model.reloaded, timeout=10000):
        model.set_filter("SN-H100")                        # every GPU of the estate
    busy = []
    model.busyChanged.connect(busy.append)
    with qtbot.waitSignal(model.reloaded, timeout=10000):
        model.sort(col, Qt.AscendingOrder)
        assert model.busy and model.rowCount() == 5         # the old rows stay while it reads
        assert model.value(0, "serial") == "SN-H100-0001"
        model.sort(col, Qt.DescendingOrder)                 # supersedes the ascending read
    assert busy == [True, False] and not model.busy
    while model.canFetchMore():
        model.fetchMore()
    assert model.rowCount() == 12 and model.value(11, "serial") == "SN-H100-0007"
    assert model.value(0, "serial") == "SN-H100-0012"      # NULLs first going down, by id descending
    from PySide6.QtCore import QCoreApplication, QThreadPool
    QThreadPool.globalInstance().waitForDone()   # the superseded read too, and its queued result:
    QCoreApplication.processEvents()             # it must change nothing
    assert model.value(11, "serial") == "SN-H100-0007" and model.sort_desc


def test_big_list_filters_in_the_background(qtbot, db, admin, estate):
    """A filter on a big list is read on the thread pool too: its first window, then (the window
    being full) its count, shown as pending (-1) meanwhile; it scrolls by keyset as before."""
    model = PagedTableModel(db, queries.SPECS["gpu"], page_size=3, order_sync_rows=0)
    counts = []
    model.countsChanged.connect(lambda n, total: counts.append((n, total)))
    with qtbot.waitSignal(model.reloaded, timeout=10000):
        model.set_filter("h100-000")
        assert model.busy and model.rowCount() == 3 and counts == []
    assert not model.busy and counts[0] == (-1, 12) and model.rowCount() == 3
    qtbot.waitUntil(lambda: len(counts) == 2, timeout=10000)
    assert counts == [(-1, 12), (9, 12)] and model.filtered_count == 9
    while model.canFetchMore():
        model.fetchMore()
    assert [model.value(r, "serial") for r in range(model.rowCount())] == [f"SN-H100-{i:04d}" for i in range(1, 10)]


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
    window's saved cursor (keyset, a nullable sort column too); ids, row_of and the model tester
    still hold."""
    spec = queries.SPECS["gpu"]
    for sort_key in ("serial", "customer"):        # customer is nullable: its NULLs placed
        full = PagedTableModel(db, spec, page_size=3)
        small = PagedTableModel(db, spec, page_size=3, window_rows=6)
        for m in (full, small):
            m.sort(spec.keys().index(sort_key), Qt.AscendingOrder)
            while m.canFetchMore():
                m.fetchMore()
        assert small.rowCount() == full.rowCount() == 12
        assert len(small._chunks) <= 2
        cells = lambda m: [[m.data(m.index(r, c)) for c in range(m.columnCount())] for r in range(m.rowCount())]
        assert cells(small) == cells(full)
        assert len(small._chunks) == 2
        assert small.refetches > 0                  # by keyset cursor
        for r in (11, 0, 7):
            assert small.row_of(full.id_at(r)) == r and small.id_at(r) == full.id_at(r)
        qtmodeltester.check(small)


def test_lazy_model_loads_when_asked(db, admin, estate):
    model = PagedTableModel(db, queries.SPECS["gpu"], lazy=True)
    assert not model.loaded and model.rowCount() == 0 and not model.canFetchMore()
    first = model.id_at(0)          # asking for a record loads the first window
    assert model.loaded and first is not None and model.rowCount() == 12 and model.total == 12
