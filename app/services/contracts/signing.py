"""Which subsidiary signs a contract, and who serves it (the owner's rule, issue 9).

The subsidiary that signs is the one operating the site where the contracted space or GPUs are:
it holds the licence there and issues the fapiao. The customer's region decides something else:
the serving team (the subsidiary covering that region, nearest coverage first) and the response
time printed on the contract. The contract form proposes the signer from here and warns when the
items sit at several subsidiaries' sites; the demo follows the same function.
"""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from app.store.db import Database
from models import Cage, Customer, Device, GpuAsset, Rack, Room, Site, Subsidiary
from models.choices import GpuState


@dataclass(frozen=True)
class SignerProposal:
    """The subsidiaries operating the sites of a contract's items, in the items' order."""

    subsidiaries: tuple[tuple[int, str], ...]   # (id, name)
    sites: tuple[str, ...]                      # the site codes found

    @property
    def proposed(self) -> int | None:
        """The subsidiary to sign: the one operating the items' sites (the first if several)."""
        return self.subsidiaries[0][0] if self.subsidiaries else None

    @property
    def spans_several(self) -> bool:
        return len(self.subsidiaries) > 1


def _site_of_rack(s, rack_id: int | None):
    if rack_id is None:
        return None
    return s.execute(select(Site).join(Room, Room.site_id == Site.id).join(Rack, Rack.room_id == Room.id)
                     .where(Rack.id == rack_id)).scalars().first()


def _item_sites(s, it) -> list[Site]:
    """The sites an item's space or GPUs are at: its rack, its device's rack, its named GPUs'
    servers; a GPU item by model only: the sites holding that model's available GPUs when one
    subsidiary holds them all (otherwise which GPUs, and so which site, is open until named)."""
    sites = []
    rack_site = _site_of_rack(s, getattr(it, "rack_id", None))
    if rack_site is not None:
        sites.append(rack_site)
    cage_id = getattr(it, "cage_id", None)
    if cage_id is not None:   # a cage: the site of its room
        sites.append(s.execute(select(Site).join(Room, Room.site_id == Site.id).join(Cage, Cage.room_id == Room.id)
                               .where(Cage.id == cage_id)).scalar())
    device_id = getattr(it, "device_id", None)
    if device_id is not None:
        sites.append(_site_of_rack(s, s.execute(select(Device.rack_id).where(Device.id == device_id)).scalar()))
    gpu_ids = tuple(getattr(it, "gpu_ids", ()) or ())
    if gpu_ids:
        for rack_id in s.execute(select(Device.rack_id).join(GpuAsset, GpuAsset.device_id == Device.id)
                                 .where(GpuAsset.id.in_(gpu_ids)).distinct()).scalars():
            sites.append(_site_of_rack(s, rack_id))
    elif getattr(it, "gpu_model_id", None) is not None and getattr(it, "kind", None) == "gpu":
        stock = s.execute(select(Site).join(Room, Room.site_id == Site.id).join(Rack, Rack.room_id == Room.id)
                           .join(Device, Device.rack_id == Rack.id).join(GpuAsset, GpuAsset.device_id == Device.id)
                           .where(GpuAsset.gpu_model_id == it.gpu_model_id, GpuAsset.state == GpuState.AVAILABLE)
                           .distinct().order_by(Site.code)).scalars().all()
        if len({site.subsidiary_id for site in stock}) == 1:   # else the GPUs are not known until named
            sites += stock
    return [site for site in sites if site is not None]


def signer_for_items(db: Database, items) -> SignerProposal:
    """`items`: ItemSpec or ContractItem-like objects (rack_id, cage_id, device_id, gpu_ids, gpu_model_id)."""
    with db.session() as s:
        subs: dict[int, str] = {}
        codes: list[str] = []
        for it in items:
            for site in _item_sites(s, it):
                if site.code not in codes:
                    codes.append(site.code)
                if site.subsidiary_id not in subs:
                    subs[site.subsidiary_id] = s.get(Subsidiary, site.subsidiary_id).name
        return SignerProposal(tuple(subs.items()), tuple(codes))


@dataclass(frozen=True)
class ServingTeam:
    subsidiary_id: int
    subsidiary_name: str
    service_level: str
    response_hours: int
    region_name: str        # the customer's region, in full


def serving_team(db: Database, customer_id: int | None) -> ServingTeam | None:
    """Who serves the customer: the nearest coverage of its region (its district's, else its
    city's, else its province's). None when the customer has no region or nobody covers it."""
    from app.read.viewdata import coverage_for

    if customer_id is None:
        return None
    with db.session() as s:
        customer = s.get(Customer, customer_id)
        code = customer.region_code if customer is not None else None
    cov = coverage_for(db, code) if code else None
    if cov is None or not cov.coverage:
        return None
    entry = cov.coverage[0]
    return ServingTeam(entry.subsidiary_id, entry.subsidiary_name, entry.service_level, entry.response_hours,
                       cov.full_name)
