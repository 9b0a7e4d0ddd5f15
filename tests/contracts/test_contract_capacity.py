"""Capacity is checked when a contract is saved, submitted and approved, with activation's check
and message, naming what is short (SQLite and PostgreSQL).

Five H100 in the fleet. A draft for 8 × H100 is refused at save ("needs 8 × H100 SXM 80GB, but
only 5 are available"); a draft for 5 saves; once another customer's contract takes 3 of them,
submitting it is refused (only 2 left); a contract submitted while they were free is refused at
approval. A refused write changes nothing.
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest

from app.domain.errors import RuleViolation
from app.services import contracts as C
from models.choices import ItemKind, PriceUnit
from tests.conftest import table_counts
from tests.billing.test_billing_world import gpu_item, make_world, signed

START, END = dt.date(2026, 11, 1), dt.date(2027, 10, 31)


def _h100(w, n):
    return C.ItemSpec(ItemKind.GPU, f"H100 × {n}", D("20000"), PriceUnit.MONTH, quantity=D(n), gpu_model_id=w.h100_id)


def _draft(db, manager, w, n, customer_id=None):
    return C.create_contract(db, manager, subsidiary_id=w.subsidiary_id, customer_id=customer_id or w.customer_id,
                             start_date=START, end_date=END, items=[_h100(w, n)])


def test_a_draft_short_of_gpus_is_refused_when_saved(db, manager):
    w = make_world(db, n_gpus=5)
    before = table_counts(db)
    with pytest.raises(RuleViolation, match="the contract cannot be saved: item “H100 × 8” needs 8 × H100 SXM 80GB, "
                                            "but only 5 are available"):
        _draft(db, manager, w, 8)
    assert table_counts(db) == before
    c = _draft(db, manager, w, 5)
    before = table_counts(db)
    with pytest.raises(RuleViolation, match=f"contract {c.number} cannot be saved: .*needs 8 × H100 SXM 80GB, but "
                                            "only 5 are available"):
        C.update_draft(db, manager, c.id, items=[_h100(w, 8)])
    assert table_counts(db) == before


def test_submit_and_approve_check_capacity_again(db, admin, manager):
    w = make_world(db, n_gpus=5)
    first = _draft(db, manager, w, 5)
    second = _draft(db, manager, w, 4)
    C.submit_contract(db, manager, second.id)
    # another customer's contract takes three of the five
    signed(db, manager, admin, w, [gpu_item(w, [1, 2, 3], "10")], START, END, customer_id=w.other_customer_id)
    before = table_counts(db)
    with pytest.raises(RuleViolation, match=f"contract {first.number} cannot be submitted: item “H100 × 5” needs "
                                            "5 × H100 SXM 80GB, but only 2 are available"):
        C.submit_contract(db, manager, first.id)
    with pytest.raises(RuleViolation, match=f"contract {second.number} cannot be approved: item “H100 × 4” needs "
                                            "4 × H100 SXM 80GB, but only 2 are available"):
        C.approve_contract(db, admin, second.id)
    assert table_counts(db) == before
    assert C.get_contract(db, first.id).status == "draft" and C.get_contract(db, second.id).status == "pending_approval"
