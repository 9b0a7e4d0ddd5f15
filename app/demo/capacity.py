"""Demo: the price list (every GPU model by its usual terms, and the colocation add-ons), and for
the Haikou customer 海口美兰数智科技有限公司 a hold on free H100 nodes (in one fabric when the demo's
clusters have one) with a quote (报价单) that adds a rack."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from models import Customer, GpuModel, Rack, Room
from models.choices import PriceProduct, PriceTerm, RackStatus

from app.domain.actor import Actor
from app.store.db import Database
from app.store.uow import UnitOfWork

HAIKOU_CUSTOMER = "海口美兰数智科技有限公司"
# model: {term: price per GPU (hourly per GPU-hour, monthly per GPU-month, yearly per GPU-year)}
GPU_PRICES = {
    "H100 SXM 80GB": {"hourly": "18.50", "monthly": "9000", "yearly": "96000"},
    "H200 141GB": {"hourly": "24.00", "monthly": "12000", "yearly": "128000"},
    "B300 288GB": {"hourly": "42.00", "monthly": "22000"},
    "A800 80GB": {"hourly": "12.00", "monthly": "6500"},
    "H800 80GB": {"hourly": "15.00", "monthly": "7800"},
    "A100 80GB": {"hourly": "11.00", "monthly": "5800"},
    "L40S 48GB": {"hourly": "6.50", "monthly": "3200"},
    "RTX 4090 24GB": {"hourly": "2.80", "monthly": "1300"},
    "RTX 5090 32GB": {"hourly": "3.50", "monthly": "1700"},
    "Ascend 910B 64GB": {"hourly": "11.00", "monthly": "5200", "yearly": "55000"},
    "Ascend 920 96GB": {"hourly": "15.00", "monthly": "7500"},
}
HYBRID = {"H100 SXM 80GB": ("6000", "400", "16.00"), "Ascend 910B 64GB": ("3500", "400", "9.50")}
ADD_ONS = {PriceProduct.RACK: ("6000", None), PriceProduct.U_RANGE: ("300", None), PriceProduct.CIRCUIT: ("800", None),
           PriceProduct.XCONNECT: ("500", "2000")}


def load_demo_capacity(db: Database, admin: Actor, today: dt.date) -> str | None:
    """Returns the quote's number (None when no H100 node is free for the hold)."""
    from app.services.capacity.holds import hold_capacity
    from app.services.capacity.prices import set_price_in
    from app.services.capacity.quotes import AddOn, create_quote
    from app.services.capacity.search import CapacityRequest, search_capacity

    first = today.replace(month=1, day=1)
    with UnitOfWork(db, admin) as uow:
        models = dict(uow.session.execute(select(GpuModel.name, GpuModel.id)).all())
        for name, terms in GPU_PRICES.items():
            if name not in models:
                continue
            for term, price in terms.items():
                set_price_in(uow, gpu_model_id=models[name], term=term, unit_price=price, valid_from=first)
            if name in HYBRID:
                commit, hours, rate = HYBRID[name]
                set_price_in(uow, gpu_model_id=models[name], term=PriceTerm.HYBRID, unit_price=commit,
                             included_hours=hours, hourly_rate=rate, valid_from=first)
        for product, (price, setup) in ADD_ONS.items():
            set_price_in(uow, product=product, term=PriceTerm.MONTHLY, unit_price=price, setup_price=setup,
                         valid_from=first)
        uow.commit()
    with db.session() as s:
        customer = s.execute(select(Customer.id).where(Customer.name == HAIKOU_CUSTOMER)).scalar()
    if customer is None:
        return None
    start = today + dt.timedelta(days=14)
    offer = None
    for count, scope in ((64, "fabric"), (16, "fabric"), (8, "anywhere")):
        r = search_capacity(db, CapacityRequest(count=count, models=("H100 SXM 80GB",), scope=scope, start=start,
                                                months=3))
        if r.offers:
            offer, window = r.offers[0], r
            break
    if offer is None:
        return None
    hold = hold_capacity(db, admin, customer_id=customer, subsidiary_id=offer.subsidiary_id, node_ids=list(offer.node_ids),
                         start=window.start, end=window.end, gpu_model_id=offer.model_id,
                         note="海口客户预训练：64 卡 H100，同一 InfiniBand 网络，三个月")
    with db.session() as s:
        rack = s.execute(select(Rack.id).join(Room, Room.id == Rack.room_id)
                         .where(Room.site_id == offer.site_id, Rack.status == RackStatus.AVAILABLE)
                         .order_by(Rack.id.desc()).limit(1)).scalar()
    add_ons = (AddOn(PriceProduct.RACK, rack_id=rack),) if rack else ()
    quote = create_quote(db, admin, hold=hold.number, term=PriceTerm.MONTHLY, add_ons=add_ons,
                         title="海口美兰数智 预训练算力报价")
    return quote.number
