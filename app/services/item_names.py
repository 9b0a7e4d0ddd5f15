"""A contract item's name in both languages, for statement lines and contract prints.

An item's description is typed in its contract's language. An English document of a Chinese
contract prints the item's `description_en`; without one, the description itself when it holds no
Chinese, else a name made from the item's kind and object ('Rack lease GZ-HP1 A01',
'GPU rental H100 SXM 80GB × 8'; app.domain.wording.english_item_name). The objects' names are loaded
set-wise (a few queries per 500 ids), once per billing run or document.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.domain.wording import Text, english_item_name, has_cjk
from models import Cage, ContractItem, Device, GpuModel, Rack, Room, Site
from models.choices import ItemKind, PriceUnit

_KIND_EN = {value: en for value, en, _zh in ItemKind.labels()}


def needs_english_name(it: ContractItem, contract_language: str) -> bool:
    """Whether an English document must make the item's name (nothing English was typed)."""
    return (contract_language != "en" and not (it.description_en or "").strip()
            and has_cjk(it.description))


@dataclass
class ItemObjects:
    """The names of the objects items refer to: rack id → 'FZ-MW1 A01', cage, device, GPU model."""

    racks: dict[int, str] = field(default_factory=dict)
    cages: dict[int, str] = field(default_factory=dict)
    devices: dict[int, str] = field(default_factory=dict)
    gpu_models: dict[int, str] = field(default_factory=dict)

    def english_name(self, it: ContractItem) -> str:
        return english_item_name(
            _KIND_EN.get(it.kind, it.kind), rack=self.racks.get(it.rack_id), cage=self.cages.get(it.cage_id),
            device=self.devices.get(it.device_id),
            gpu_model=self.gpu_models.get(it.gpu_model_id) if it.kind == ItemKind.GPU else None,
            quantity=it.quantity, mbps=it.mbps if it.price_unit == PriceUnit.MBPS_MONTH else None,
            u_from=it.u_from if it.kind == ItemKind.HOSTING else None,
            u_to=it.u_to if it.kind == ItemKind.HOSTING else None)

    def name(self, it: ContractItem, contract_language: str) -> Text:
        """The item's name for a Chinese and for an English document."""
        own = it.description
        if contract_language == "en":
            return Text(own, own)
        en = (it.description_en or "").strip()
        if not en:
            en = self.english_name(it) if has_cjk(own) else own
        return Text(own, en)


def load_item_objects(s: Session, items: Iterable[ContractItem], chunk: int = 500) -> ItemObjects:
    """The object names `ItemObjects.english_name` needs for these items (pass only the items
    that need one: `needs_english_name`)."""
    items = list(items)
    objs = ItemObjects()

    def chunks(ids):
        ids = sorted({i for i in ids if i is not None})
        for k in range(0, len(ids), chunk):
            yield ids[k:k + chunk]
    for ids in chunks(it.rack_id for it in items):
        objs.racks.update((rid, f"{code} {name}") for rid, code, name in s.execute(
            select(Rack.id, Site.code, Rack.name).join(Room, Room.id == Rack.room_id)
            .join(Site, Site.id == Room.site_id).where(Rack.id.in_(ids))))
    for ids in chunks(it.cage_id for it in items):
        objs.cages.update((cid, f"{code} {name}") for cid, code, name in s.execute(
            select(Cage.id, Site.code, Cage.name).join(Room, Room.id == Cage.room_id)
            .join(Site, Site.id == Room.site_id).where(Cage.id.in_(ids))))
    for ids in chunks(it.device_id for it in items):
        objs.devices.update(s.execute(select(Device.id, Device.name).where(Device.id.in_(ids))).all())
    if any(it.kind == ItemKind.GPU and it.gpu_model_id for it in items):
        objs.gpu_models.update(s.execute(select(GpuModel.id, GpuModel.name)).all())
    return objs
