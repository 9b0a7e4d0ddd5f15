"""`export KIND FILE --netbox`: files NetBox's bulk import (Import → CSV) accepts as they are.

Each kind is written with exactly the columns of NetBox's import form and NetBox's values
(netbox/dcim/forms/bulk_import.py, netbox/tenancy/forms/bulk_import.py, netbox/dcim/choices.py at
github.com/netbox-community/netbox commit 43fe81f9e833, 2026-08-22; docs/import-netbox.md):
related objects by the name NetBox looks them up by (`to_field_name='name'`; a device type by its
model within its manufacturer), and, where a name is not unique in China, by slug with NetBox's
dotted header (`region.slug`: the GB/T 2260 code is the region's slug). What NetBox has no field
for (a site's subsidiary, a room's cooling, a panel's voltage) is left out; statuses NetBox lacks
are mapped (a leased rack is `active` with its tenant, a rack in maintenance `active`, a
decommissioned one `deprecated`). Files are imported into NetBox in NETBOX_ORDER, each referring
only to kinds before it; `tests/importexport/test_netbox_export.py` feeds the demo's files to NetBox's field
definitions and choices.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from sqlalchemy import select
from sqlalchemy.orm import Session, aliased

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.clock import TZ
from app.domain.errors import DomainError, ValidationError
from app.importexport.schema import ExportResult, _Cancelled
from app.services.exports import record_export
from app.store.db import Database
from models import Customer, Device, DeviceType, Rack, Region, Room, Site
from models.choices import DeviceRole, RackStatus, SiteStatus
from models.power import PowerFeed, PowerPanel
from models.xconnect import Cable

NETBOX_SOURCE = "netbox-community/netbox@43fe81f9e833"

# NetBox's names of our kinds, in the order NetBox imports them (each refers only to those before it).
NETBOX_ORDER = ("regions", "tenants", "sites", "locations", "racks", "manufacturers", "device-roles",
                "device-types", "devices", "power-panels", "power-feeds", "cables")
OUR_WORDS = {"customers": "tenants", "rooms": "locations", "roles": "device-roles"}

AUDIT_OBJECT = {"regions": "region", "tenants": "customer", "sites": "site", "locations": "room", "racks": "rack",
                "manufacturers": "device_type", "device-roles": "device_type", "device-types": "device_type",
                "devices": "device", "power-panels": "power_panel", "power-feeds": "power_feed", "cables": "cable"}
RACK_STATUS = {RackStatus.LEASED: "active", RackStatus.MAINTENANCE: "active",
               RackStatus.DECOMMISSIONED: "deprecated"}  # planned, available, reserved: the same
RACK_WIDTH = 19  # inches; NetBox needs a width for a rack without a rack type (RackImportForm.clean)
_NOT_SLUG = re.compile(r"[^a-z0-9_]+")


def netbox_slug(text: str | None, fallback: str) -> str:
    """NetBox's SlugField takes ASCII letters, digits, '-' and '_' (at most 100): `A1 液冷机房` → `a1`."""
    slug = _NOT_SLUG.sub("-", (text or "").lower()).strip("-")[:100].strip("-")
    return slug or fallback


def _unique(seen: set, slug: str, suffix: object) -> str:
    if slug in seen:
        slug = f"{slug[:90]}-{suffix}"
    seen.add(slug)
    return slug


def _text(v) -> str:
    return "" if v is None else str(v)


def _number(v) -> str:
    """Decimals as NetBox's integer and decimal fields read them: 42, not 42.0; 0.5 as it is."""
    if v is None:
        return ""
    text = format(v, "f") if not isinstance(v, (int, str)) else str(v)
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


# --- the files ----------------------------------------------------------------------------------

def _regions(s: Session) -> Iterator[list]:
    parent = aliased(Region)
    for code, name, parent_code in s.execute(select(Region.code, Region.name, parent.code)
                                             .outerjoin(parent, parent.code == Region.parent_code)
                                             .order_by(Region.level, Region.code)):
        yield [name, code, _text(parent_code)]


def _tenants(s: Session) -> Iterator[list]:
    for name, credit_code in s.execute(select(Customer.name, Customer.credit_code).order_by(Customer.id)):
        yield [name, credit_code.lower(), credit_code]


def _sites(s: Session) -> Iterator[list]:
    seen: set[str] = set()
    for site in s.execute(select(Site).order_by(Site.code)).scalars():
        slug = _unique(seen, site.slug or netbox_slug(site.code, f"site-{site.id}"), site.id)
        yield [site.name, slug, site.status if site.status in SiteStatus.values() else "active", site.region_code,
               site.code, TZ.key, _text(site.address), _number(site.latitude), _number(site.longitude)]


def _locations(s: Session) -> Iterator[list]:
    seen: dict[int, set[str]] = {}
    for room, site_name, site_status in s.execute(select(Room, Site.name, Site.status)
                                                  .join(Site, Site.id == Room.site_id)
                                                  .order_by(Site.code, Room.name)):
        slug = _unique(seen.setdefault(room.site_id, set()), netbox_slug(room.name, f"room-{room.id}"), room.id)
        yield [site_name, room.name, slug, site_status, _text(room.notes)]


def _racks(s: Session) -> Iterator[list]:
    for rack, room_name, site_name, tenant in s.execute(
            select(Rack, Room.name, Site.name, Customer.name).join(Room, Room.id == Rack.room_id)
            .join(Site, Site.id == Room.site_id).outerjoin(Customer, Customer.id == Rack.customer_id)
            .order_by(Site.code, Room.name, Rack.name)):
        yield [site_name, room_name, rack.name, RACK_STATUS.get(rack.status, rack.status), _text(tenant),
               _number(rack.u_height), RACK_WIDTH, _text(rack.asset_tag)]


def _manufacturers(s: Session) -> Iterator[list]:
    seen: set[str] = set()
    for i, name in enumerate(s.execute(select(DeviceType.manufacturer).distinct()
                                       .order_by(DeviceType.manufacturer)).scalars()):
        yield [name, _unique(seen, netbox_slug(name, f"manufacturer-{i + 1}"), i + 1)]


def _device_roles(s: Session) -> Iterator[list]:
    for value, en, _zh in DeviceRole.labels():
        yield [en, value.replace("_", "-"), DeviceRole.colour(value).lstrip("#").lower()]


def _device_types(s: Session) -> Iterator[list]:
    for t in s.execute(select(DeviceType).order_by(DeviceType.manufacturer, DeviceType.model)).scalars():
        yield [t.manufacturer, t.model, t.slug, _text(t.part_number), _number(t.u_height),
               "true" if t.is_full_depth else "false", _text(t.airflow), _number(t.weight_kg),
               "kg" if t.weight_kg is not None else "", _text(t.comments)]


def _devices(s: Session) -> Iterator[list]:
    for d, room_name, rack_name, site_name, tenant in s.execute(
            select(Device, Room.name, Rack.name, Site.name, Customer.name)
            .join(Rack, Rack.id == Device.rack_id).join(Room, Room.id == Rack.room_id)
            .join(Site, Site.id == Room.site_id).outerjoin(Customer, Customer.id == Device.owner_customer_id)
            .order_by(Device.id)):
        t = d.device_type
        face = d.face or ("front" if d.position is not None else "")
        yield [d.name, DeviceRole.label(t.role), _text(tenant), t.manufacturer, t.model, _text(d.serial),
               _text(d.asset_tag), d.status, site_name, room_name, rack_name, _number(d.position), face,
               _text(d.notes)]


def _power_panels(s: Session) -> Iterator[list]:
    for p, site_name, room_name in s.execute(select(PowerPanel, Site.name, Room.name)
                                             .join(Site, Site.id == PowerPanel.site_id)
                                             .outerjoin(Room, Room.id == PowerPanel.room_id)
                                             .order_by(Site.code, PowerPanel.name)):
        about = f"{p.voltage} V {p.phase} {p.amperage} A" + (f", UPS {p.ups}" if p.ups else "")
        yield [site_name, _text(room_name), p.name, about, _text(p.comments)]


def _power_feeds(s: Session) -> Iterator[list]:
    for f, panel, site_name, rack_name, room_name in s.execute(
            select(PowerFeed, PowerPanel.name, Site.name, Rack.name, Room.name)
            .join(PowerPanel, PowerPanel.id == PowerFeed.power_panel_id).join(Site, Site.id == PowerPanel.site_id)
            .outerjoin(Rack, Rack.id == PowerFeed.rack_id).outerjoin(Room, Room.id == Rack.room_id)
            .order_by(Site.code, PowerPanel.name, PowerFeed.name)):
        yield [site_name, panel, _text(room_name), _text(rack_name), f.name, f.status, f.type, f.supply, f.phase,
               f.voltage, f.amperage, f.max_utilization, _text(f.comments)]


def _cables(s: Session) -> Iterator[list]:
    da, db_ = aliased(Device), aliased(Device)
    ra, rb, ma, mb, sa, sb = aliased(Rack), aliased(Rack), aliased(Room), aliased(Room), aliased(Site), aliased(Site)
    for c, a_site, a_dev, b_site, b_dev in s.execute(
            select(Cable, sa.name, da.name, sb.name, db_.name)
            .join(da, da.id == Cable.side_a_device_id).join(ra, ra.id == da.rack_id).join(ma, ma.id == ra.room_id)
            .join(sa, sa.id == ma.site_id)
            .join(db_, db_.id == Cable.side_b_device_id).join(rb, rb.id == db_.rack_id)
            .join(mb, mb.id == rb.room_id).join(sb, sb.id == mb.site_id).order_by(Cable.id)):
        yield [a_site, a_dev, c.side_a_type, c.side_a_name, b_site, b_dev, c.side_b_type, c.side_b_name,
               _text(c.type), c.status, _text(c.label), _text(c.color), _number(c.length),
               _text(c.length_unit) if c.length is not None else ""]


@dataclass(frozen=True)
class NetboxFile:
    kind: str                      # NetBox's word (NETBOX_ORDER)
    form: str                      # the NetBox import form the file is for
    headers: tuple[str, ...]
    rows: Callable[[Session], Iterator[list]]
    left_out: str = ""             # what of ours NetBox has no field for (written in the export's notes)


NETBOX_FILES: dict[str, NetboxFile] = {f.kind: f for f in (
    NetboxFile("regions", "dcim.RegionImportForm", ("name", "slug", "parent.slug"), _regions),
    NetboxFile("tenants", "tenancy.TenantImportForm", ("name", "slug", "description"), _tenants,
               "contacts, region, account manager"),
    NetboxFile("sites", "dcim.SiteImportForm", ("name", "slug", "status", "region.slug", "facility", "time_zone",
                                                "physical_address", "latitude", "longitude"), _sites,
               "subsidiary, cooling, power capacity"),
    NetboxFile("locations", "dcim.LocationImportForm", ("site", "name", "slug", "status", "comments"), _locations,
               "cooling, capacities, floor grid"),
    NetboxFile("racks", "dcim.RackImportForm", ("site", "location", "name", "status", "tenant", "u_height", "width",
                                                "asset_tag"), _racks, "power capacity, cage"),
    NetboxFile("manufacturers", "dcim.ManufacturerImportForm", ("name", "slug"), _manufacturers),
    NetboxFile("device-roles", "dcim.DeviceRoleImportForm", ("name", "slug", "color"), _device_roles),
    NetboxFile("device-types", "dcim.DeviceTypeImportForm", ("manufacturer", "model", "slug", "part_number",
                                                             "u_height", "is_full_depth", "airflow", "weight",
                                                             "weight_unit", "comments"), _device_types,
               "power draw, GPU slots and model"),
    NetboxFile("devices", "dcim.DeviceImportForm", ("name", "role", "tenant", "manufacturer", "device_type", "serial",
                                                    "asset_tag", "status", "site", "location", "rack", "position",
                                                    "face", "comments"), _devices,
               "devices not in a rack (NetBox needs a site)"),
    NetboxFile("power-panels", "dcim.PowerPanelImportForm", ("site", "location", "name", "description", "comments"),
               _power_panels, "voltage, phase, amperage and UPS, written in the description"),
    NetboxFile("power-feeds", "dcim.PowerFeedImportForm", ("site", "power_panel", "location", "rack", "name", "status",
                                                           "type", "supply", "phase", "voltage", "amperage",
                                                           "max_utilization", "comments"), _power_feeds, "side (A/B)"),
    NetboxFile("cables", "dcim.CableImportForm", ("side_a_site", "side_a_device", "side_a_type", "side_a_name",
                                                  "side_b_site", "side_b_device", "side_b_type", "side_b_name", "type",
                                                  "status", "label", "color", "length", "length_unit"), _cables,
               "the ports must exist in NetBox (from the device types' components)"),
)}


def netbox_kind(kind: str) -> str:
    k = kind.strip().lower().replace("_", "-")
    k = OUR_WORDS.get(k, k)
    if k not in NETBOX_FILES:
        raise ValidationError({"kind": f"{kind!r} has no NetBox import; --netbox exports "
                                       f"{', '.join(NETBOX_ORDER)} (in the order NetBox imports them)"})
    return k


def run_netbox_export(db: Database, actor: Actor, kind: str, path: str | Path, *,
                      progress: Callable[[int], None] | None = None,
                      cancelled: Callable[[], bool] | None = None) -> ExportResult:
    """Write `kind` as NetBox's bulk import reads it (CSV, UTF-8) and record the export."""
    from app.importexport.export import write_export

    require(actor, "export")
    kind = netbox_kind(kind)
    path = Path(path)
    if path.suffix.lower() != ".csv":
        raise ValidationError({"file": f"{path.name}: NetBox imports CSV; name a .csv file"})
    f = NETBOX_FILES[kind]
    try:
        with db.session() as s:   # streamed: rows go to the file as the query yields them
            count = write_export(list(f.headers), f.rows(s), path, "csv", progress=progress, cancelled=cancelled)
    except _Cancelled:
        raise DomainError(f"export of {kind} cancelled; no file was written") from None
    record_export(db, actor, AUDIT_OBJECT[kind], path.name,
                  {"kind": kind, "format": "netbox-csv", "rows": count, "file": path.name})
    return ExportResult(f"NetBox {kind}", str(path), "csv", count)
