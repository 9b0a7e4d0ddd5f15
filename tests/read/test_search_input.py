"""A search term no stored text can hold (a NUL character: every write refuses one) finds nothing, on
PostgreSQL too, where the driver refuses it even as a query parameter (DataError)."""
from __future__ import annotations

import pytest

from app.read import queries

from app.read import viewdata
from app.domain.errors import NotFound
from app.services import receivables as R
from app.services.xconnects import list_cross_connects
from models import Customer
from tests.billing.test_billing_world import make_world

NUL_TERMS = ["\x00", "广州\x00", "a\x00b"]


@pytest.mark.parametrize("term", NUL_TERMS)
def test_a_term_with_a_nul_finds_nothing_and_raises_nothing(db, admin, term):
    w = make_world(db)
    with db.session() as s:
        name = s.get(Customer, w.customer_id).name
    assert queries.search(db, term) == []
    for kind in ("customer", "rack", "contract"):
        spec = queries.SPECS[kind]
        assert queries.count(db, spec, term) == 0
        assert list(queries.fetch_all(db, spec, text=term)) == []
        assert queries.count(db, spec, f"name:{term}") == 0
    assert list_cross_connects(db, text=term) == []
    assert viewdata.find_regions(db, term) == ()
    with db.session() as s, pytest.raises(NotFound):
        R.find_customer(s, term)
    assert queries.search(db, name[:4])  # the same search without the NUL still finds
