"""`import|export price-list`: the price list (app/services/capacity/prices.py), one price a row.

Columns: product (gpu, rack, u_range, circuit, xconnect), gpu_model (the model's name, GPU rows),
subsidiary (its code; empty: every subsidiary), term (hourly, monthly, yearly, hybrid), unit_price,
included_hours and hourly_rate (hybrid), setup_price (cross-connects), valid_from, valid_to, note.
A row equal to a stored price (same kind, start and figures) is unchanged; a new start adds a
price, ending the open one the day before (the service's rule)."""
from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from sqlalchemy import func, select

from models import GpuModel, Subsidiary
from models.capacity import PriceListEntry
from models.choices import PriceProduct, PriceTerm

from app.importexport.kinds.xconnect import _choice  # a choice by value, English or Chinese label
from app.services.capacity.prices import set_price_in

COLUMNS = ("product", "gpu_model", "subsidiary", "term", "unit_price", "included_hours", "hourly_rate", "setup_price",
           "valid_from", "valid_to", "note")
REQUIRED = ("term", "unit_price", "valid_from")
FIELD_COLUMN = {"gpu_model_id": "gpu_model", "subsidiary_id": "subsidiary"}
MODEL = PriceListEntry


def resolve_prices(s, r) -> dict[str, Any]:
    v: dict[str, Any] = {"product": _choice(r, "product", PriceProduct, PriceProduct.GPU),
                         "term": _choice(r, "term", PriceTerm), "gpu_model_id": None, "subsidiary_id": None}
    name = (r.get("gpu_model") or "").strip()
    if name:
        v["gpu_model_id"] = s.execute(select(GpuModel.id).where(func.lower(GpuModel.name) == name.lower())).scalar()
        if v["gpu_model_id"] is None:
            r.err("gpu_model", f"no GPU model named {name!r}")
    code = (r.get("subsidiary") or "").strip()
    if code:
        v["subsidiary_id"] = s.execute(select(Subsidiary.id).where(func.lower(Subsidiary.code) == code.lower())).scalar()
        if v["subsidiary_id"] is None:
            r.err("subsidiary", f"no subsidiary with the code {code!r}")
    for col in ("unit_price", "included_hours", "hourly_rate", "setup_price"):
        v[col] = (r.get(col) or "").strip() or None
    v["valid_from"], v["valid_to"] = r.date("valid_from"), r.date("valid_to")
    v["note"] = (r.get("note") or "").strip() or None
    return v


def _same(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    try:
        return Decimal(str(a).replace(",", "").lstrip("¥￥")) == Decimal(b)
    except InvalidOperation:
        return False


def write_prices(uow, r, v: dict) -> str:
    s = uow.session
    stored = s.execute(select(PriceListEntry).where(
        PriceListEntry.product == v["product"], PriceListEntry.term == v["term"],
        PriceListEntry.valid_from == v["valid_from"],
        PriceListEntry.gpu_model_id.is_(None) if v["gpu_model_id"] is None else PriceListEntry.gpu_model_id == v["gpu_model_id"],
        PriceListEntry.subsidiary_id.is_(None) if v["subsidiary_id"] is None
        else PriceListEntry.subsidiary_id == v["subsidiary_id"])).scalar_one_or_none()
    if stored is not None and all(_same(v[k], getattr(stored, k)) for k in ("unit_price", "included_hours",
                                                                            "hourly_rate", "setup_price")) \
            and stored.valid_to == v["valid_to"]:
        return "unchanged"
    set_price_in(uow, **v)
    return "created"


def export_prices_query():
    return (select(PriceListEntry.product, GpuModel.name, Subsidiary.code, PriceListEntry.term, PriceListEntry.unit_price,
                   PriceListEntry.included_hours, PriceListEntry.hourly_rate, PriceListEntry.setup_price,
                   PriceListEntry.valid_from, PriceListEntry.valid_to, PriceListEntry.note)
            .outerjoin(GpuModel, GpuModel.id == PriceListEntry.gpu_model_id)
            .outerjoin(Subsidiary, Subsidiary.id == PriceListEntry.subsidiary_id)
            .order_by(PriceListEntry.id))


def row_key(v: dict):
    return (v.get("product"), v.get("gpu_model_id"), v.get("subsidiary_id"), v.get("term"), v.get("valid_from"))
