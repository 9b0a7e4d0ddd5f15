"""The console's global search: a few hits per kind (rack, device, GPU, customer, contract, statement)."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import (
    false,
    func,
    literal,
    or_,
    select,
)

from app.read.list_filters import like_pattern, searchable
from app.store.db import Database
from models import (
    Contract,
    Customer,
    Device,
    GpuAsset,
    GpuModel,
    Rack,
    Room,
    Site,
    Statement,
)

from app.read.lists.specs import skips_ascii


@dataclass(frozen=True)
class SearchHit:
    kind: str      # rack, device, gpu, customer, contract, statement
    id: int
    label: str
    detail: str


def search(db: Database, text: str, per_kind: int = 8) -> list[SearchHit]:
    text = (text or "").strip()
    if not text or not searchable(text):
        return []
    pattern = like_pattern(text)

    def like(e):
        # a non-ASCII term cannot occur in an ASCII-only column (serials, asset tags, credit
        # codes): no scan (for '科技' that was 400,000 GPU serials)
        if skips_ascii(text, e):
            return false()
        return e.like(pattern, escape="\\") if db.is_sqlite else e.ilike(pattern, escape="\\")

    queries = [
        ("rack", select(Rack.id, Rack.name, Site.code + literal(" / ") + Room.name)
         .join(Room, Room.id == Rack.room_id).join(Site, Site.id == Room.site_id)
         .where(or_(like(Rack.name), like(Rack.asset_tag))).order_by(Rack.name)),
        ("device", select(Device.id, Device.name, func.coalesce(Device.serial, ""))
         .where(or_(like(Device.name), like(Device.serial), like(Device.asset_tag))).order_by(Device.name)),
        ("gpu", select(GpuAsset.id, GpuAsset.serial, GpuModel.name)
         .join(GpuModel, GpuModel.id == GpuAsset.gpu_model_id)
         .where(like(GpuAsset.serial)).order_by(GpuAsset.serial)),
        ("customer", select(Customer.id, Customer.name, Customer.credit_code)
         .where(or_(like(Customer.name), like(Customer.credit_code))).order_by(Customer.name)),
        ("contract", select(Contract.id, Contract.number, func.coalesce(Contract.title, ""))
         .where(or_(like(Contract.number), like(Contract.title))).order_by(Contract.number)),
        ("statement", select(Statement.id, func.coalesce(Statement.number, ""), Statement.period)
         .where(or_(like(Statement.number), like(Statement.fapiao_no))).order_by(Statement.number)),
    ]
    hits = []
    with db.read_connection() as conn:
        for kind, q in queries:
            if kind == "gpu" and skips_ascii(text, GpuAsset.serial):
                continue  # its only column is ASCII-only
            for row in conn.execute(q.limit(per_kind)):
                hits.append(SearchHit(kind, row[0], str(row[1]), str(row[2] or "")))
    return hits


