"""Which nodes a capacity hold holds now, and which node states are offered: what the capacity search
and the cluster lists share. Apart from search.py so that a list of clusters does not import the
search, its prices and the maintenance reads (issue 26: 31 ms of the Clusters page's first show)."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import and_, or_, select

from models import Contract
from models.capacity import CapacityHold
from models.choices import ContractStatus, HoldStatus

NODE_STATES_OFFERED = ("available", "allocated")
# A hold moved to a contract keeps its nodes until that contract is approved (its GPUs then take them)
CONVERTED_HOLDS_WHILE = (ContractStatus.DRAFT, ContractStatus.PENDING, ContractStatus.APPROVED)


def holding_condition(now: dt.datetime):
    """A hold that holds its nodes now: active and not past its expiry, or moved to a contract
    still before approval."""
    contract_status = select(Contract.status).where(Contract.id == CapacityHold.contract_id).scalar_subquery()
    return or_(and_(CapacityHold.status == HoldStatus.ACTIVE, CapacityHold.expires_at > now),
               and_(CapacityHold.status == HoldStatus.CONVERTED, contract_status.in_(CONVERTED_HOLDS_WHILE)))
