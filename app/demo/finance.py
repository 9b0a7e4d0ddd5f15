"""Demo receivables data: invoicing profiles (开票信息) for a few customers and deposits on a few of
their active contracts. The demo issues no statements (a billing run does that), so fapiao records
follow once the finance desk runs billing and records them."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from app.domain.actor import Actor
from app.store.db import Database
from models import Contract, Customer
from models.choices import ContractStatus

PROFILES = 4   # customers with an invoicing profile
DEPOSITS = 3   # active contracts with a deposit (one month's rack fee, round figures)


def load_demo_finance(db: Database, admin: Actor, today: dt.date) -> int:
    from app.services.receivables.deposits import receive_deposit
    from app.services.receivables.fapiao import set_profile

    with db.session() as s:
        customers = list(s.execute(select(Customer).order_by(Customer.id).limit(PROFILES)).scalars())
        contracts = list(s.execute(select(Contract.number, Contract.customer_id, Contract.start_date)
                                   .where(Contract.status == ContractStatus.ACTIVE).order_by(Contract.id)
                                   .limit(DEPOSITS)).all())
    types = ("digital_special", "digital_special", "digital_normal", "paper")
    for i, c in enumerate(customers):
        set_profile(db, admin, c.id, title=c.name, tax_id=c.credit_code, address_phone=f"{c.address or ''} 020-8888{i:04d}",
                    bank_account=f"中国工商银行 3602 0000 0000 000{i}", fapiao_type=types[i % len(types)],
                    email=f"ap{i + 1}@example.com")
    for i, (number, customer_id, start) in enumerate(contracts):
        receive_deposit(db, admin, customer_id, ("20000", "50000", "12000")[i % 3], contract=number,
                        on_date=min(start, today), ref=f"DEMO-DEP-{i + 1:03d}", note="押金（合同约定）")
    return len(customers) + len(contracts)
