"""`import|export power-panels`, `power-feeds` and `pdus`, for app.importexport, with NetBox's
bulk-import column names (netbox/dcim/forms/bulk_import.py PowerPanelImportForm: site, location,
name; PowerFeedImportForm: site, power_panel, location, rack, name, status, type, supply, phase,
voltage, amperage, max_utilization, comments). Our own columns follow NetBox's: a panel's
voltage, phase, amperage and ups; a feed's side (A or B; NetBox has none, so a redundant feed
without one is side B); a PDU (a device whose type has the role pdu, as NetBox's device import)
with its power_feed and outlets. The rules are app/services/power.py's; every write is audited.
"""
from __future__ import annotations

from typing import Any

from sqlalchemy import select

from app.domain.errors import NotFound, RuleViolation, ValidationError
from app.importexport.kinds.core import _site as find_site
from app.read.power import power_verdict_in
from app.services.power import (
    attach_pdu_in,
    create_feed_in,
    create_panel_in,
    find_panel_in,
    update_feed_in,
    update_panel_in,
    validate_feed,
    validate_panel,
)
from models import Device, DeviceType, Rack, Room, Site
from models.choices import DeviceRole
from models.power import PduFeed, PowerFeed, PowerPanel

KINDS = ("power-panels", "power-feeds", "pdus")
COLUMNS: dict[str, tuple[str, ...]] = {
    "power-panels": ("site", "location", "name", "voltage", "phase", "amperage", "ups", "comments"),
    "power-feeds": ("site", "power_panel", "location", "rack", "name", "side", "status", "type", "supply", "phase",
                    "voltage", "amperage", "max_utilization", "comments"),
    "pdus": ("site", "location", "rack", "name", "manufacturer", "device_type", "power_panel", "power_feed",
             "outlets", "asset_tag"),
}
REQUIRED: dict[str, tuple[str, ...]] = {
    "power-panels": ("site", "name"),
    "power-feeds": ("site", "power_panel", "name"),
    "pdus": ("site", "rack", "name", "power_panel", "power_feed"),
}
FIELD_COLUMN: dict[str, dict[str, str]] = {
    "power-panels": {"site_id": "site", "room_id": "location"},
    "power-feeds": {"power_panel_id": "power_panel", "rack_id": "rack"},
    "pdus": {"device_id": "name", "power_feed_id": "power_feed"},
}
OBJECT_TYPE = {"power-panels": "power_panel", "power-feeds": "power_feed", "pdus": "pdu_feed"}
MODEL = {"power-panels": PowerPanel, "power-feeds": PowerFeed, "pdus": PduFeed}


def _site(s, r) -> Site | None:
    """The row's site by its code, name or NetBox slug, as sites, racks and devices find it."""
    return find_site(s, r)


def _room(s, r, site: Site | None) -> int | None:
    name = r.get("location")
    if not name or site is None:
        return None
    rid = s.execute(select(Room.id).where(Room.site_id == site.id, Room.name == name)).scalar_one_or_none()
    if rid is None:
        r.err("location", f"site {site.code} has no room {name!r}")
    return rid


def _rack(s, r, site: Site | None) -> int | None:
    name = r.get("rack")
    if not name or site is None:
        return None
    q = select(Rack.id).join(Room, Room.id == Rack.room_id).where(Room.site_id == site.id, Rack.name == name)
    if r.get("location"):
        q = q.where(Room.name == r.get("location"))
    hits = s.execute(q.limit(2)).scalars().all()
    if len(hits) != 1:
        r.err("rack", f"no rack is named {name!r} at {site.code}" if not hits else
              f"several racks are named {name!r}; give the location too")
        return None
    return hits[0]


def _panel(s, r, site: Site) -> PowerPanel | None:
    try:
        return find_panel_in(s, site.code, r.get("power_panel") or "")
    except (NotFound, ValidationError) as exc:
        r.err("power_panel", getattr(exc, "message", None) or next(iter(exc.errors.values())))
        return None


def _lower(r, col: str) -> str | None:
    v = r.get(col)
    return v.strip().lower() if v else None


def _refused(r, exc: ValidationError, columns: dict[str, str]) -> None:
    for field_, why in exc.errors.items():
        r.err(columns.get(field_, field_), why)


# --- power panels -----------------------------------------------------------------------------

def resolve_panels(s, r) -> dict[str, Any]:
    site = _site(s, r)
    site_id = site.id if site else None
    v = {"site_id": site_id, "room_id": _room(s, r, site), "name": r.get("name"),
         "voltage": r.get("voltage"), "phase": _lower(r, "phase"), "amperage": r.get("amperage"),
         "ups": r.get("ups"), "comments": r.get("comments")}
    if site_id is not None:
        current = s.execute(select(PowerPanel).where(PowerPanel.site_id == site_id, PowerPanel.name == v["name"])) \
            .scalar_one_or_none() if v["name"] else None
        try:
            v = validate_panel(s, v, current)
        except ValidationError as exc:
            _refused(r, exc, FIELD_COLUMN["power-panels"])
    return v


def write_panels(uow, r, v: dict) -> str:
    s = uow.session
    panel = s.execute(select(PowerPanel).where(PowerPanel.site_id == v["site_id"], PowerPanel.name == v["name"])) \
        .scalar_one_or_none()
    if panel is None:
        create_panel_in(uow, v, reason=f"imported from line {r.line}")
        return "created"
    return "updated" if update_panel_in(uow, panel, v, reason=f"imported from line {r.line}") else "unchanged"


def export_panels_query():
    return (select(Site.code, Room.name, PowerPanel.name, PowerPanel.voltage, PowerPanel.phase, PowerPanel.amperage,
                   PowerPanel.ups, PowerPanel.comments)
            .join(Site, Site.id == PowerPanel.site_id).outerjoin(Room, Room.id == PowerPanel.room_id)
            .order_by(Site.code, PowerPanel.name))


# --- power feeds ------------------------------------------------------------------------------

def resolve_feeds(s, r) -> dict[str, Any]:
    site = _site(s, r)
    panel = _panel(s, r, site) if site is not None else None
    v = {"power_panel_id": panel.id if panel else None, "rack_id": _rack(s, r, site), "name": r.get("name"),
         "side": (r.get("side") or "").strip().upper() or None, "status": _lower(r, "status"),
         "type": _lower(r, "type"), "supply": _lower(r, "supply"), "phase": _lower(r, "phase"),
         "voltage": r.get("voltage"), "amperage": r.get("amperage"), "max_utilization": r.get("max_utilization"),
         "comments": r.get("comments")}
    if panel is not None:
        try:
            v = validate_feed(s, v)
        except ValidationError as exc:
            _refused(r, exc, FIELD_COLUMN["power-feeds"])
    return v


def write_feeds(uow, r, v: dict) -> str:
    s = uow.session
    feed = s.execute(select(PowerFeed).where(PowerFeed.power_panel_id == v["power_panel_id"],
                                             PowerFeed.name == v["name"])).scalar_one_or_none()
    racks = _touched(uow)
    racks.add(v.get("rack_id"))
    if feed is None:
        create_feed_in(uow, v, reason=f"imported from line {r.line}")
        return "created"
    racks.add(feed.rack_id)
    return "updated" if update_feed_in(uow, feed, v, reason=f"imported from line {r.line}") else "unchanged"


def export_feeds_query():
    return (select(Site.code, PowerPanel.name, Room.name, Rack.name, PowerFeed.name, PowerFeed.side, PowerFeed.status,
                   PowerFeed.type, PowerFeed.supply, PowerFeed.phase, PowerFeed.voltage, PowerFeed.amperage,
                   PowerFeed.max_utilization, PowerFeed.comments)
            .join(PowerPanel, PowerPanel.id == PowerFeed.power_panel_id).join(Site, Site.id == PowerPanel.site_id)
            .outerjoin(Rack, Rack.id == PowerFeed.rack_id).outerjoin(Room, Room.id == Rack.room_id)
            .order_by(Site.code, PowerPanel.name, PowerFeed.name))


# --- PDUs (devices of role pdu, placed by `import devices`, fed here) ----------------------------

def resolve_pdus(s, r) -> dict[str, Any]:
    site = _site(s, r)
    rack_id = _rack(s, r, site)
    v: dict[str, Any] = {"device_id": None, "power_feed_id": None, "outlets": r.integer("outlets") or 24}
    if rack_id is not None:
        q = select(Device).join(DeviceType, DeviceType.id == Device.device_type_id) \
            .where(Device.rack_id == rack_id, Device.name == r.get("name"))
        dev = s.execute(q).scalars().first()
        if dev is None:
            r.err("name", f"rack {r.get('rack')} has no device {r.get('name')!r}; import it with `import devices` "
                          "(its device type with the role PDU) first")
        elif dev.device_type.role != DeviceRole.PDU:
            r.err("device_type", f"{dev.name} is a {DeviceRole.label(dev.device_type.role).lower()}, not a PDU")
        else:
            v["device_id"] = dev.id
    panel = _panel(s, r, site) if site is not None else None
    if panel is not None:
        fid = s.execute(select(PowerFeed.id).where(PowerFeed.power_panel_id == panel.id,
                                                   PowerFeed.name == r.get("power_feed"))).scalar_one_or_none()
        if fid is None:
            r.err("power_feed", f"panel {panel.name} has no feed {r.get('power_feed')!r}")
        v["power_feed_id"] = fid
    return v


def write_pdus(uow, r, v: dict) -> str:
    s = uow.session
    pdu = s.execute(select(PduFeed).where(PduFeed.device_id == v["device_id"])).scalar_one_or_none()
    if pdu is not None and (pdu.power_feed_id, pdu.outlets) == (v["power_feed_id"], v["outlets"]):
        return "unchanged"
    _touched(uow).add(s.execute(select(Device.rack_id).where(Device.id == v["device_id"])).scalar_one_or_none())
    try:
        attach_pdu_in(uow, v["device_id"], v["power_feed_id"], v["outlets"], reason=f"imported from line {r.line}")
    except ValidationError as exc:
        raise RuleViolation("; ".join(exc.errors.values())) from exc
    return "created" if pdu is None else "updated"


def export_pdus_query():
    return (select(Site.code, Room.name, Rack.name, Device.name, DeviceType.manufacturer, DeviceType.model,
                   PowerPanel.name, PowerFeed.name, PduFeed.outlets, Device.asset_tag)
            .join(Device, Device.id == PduFeed.device_id).join(DeviceType, DeviceType.id == Device.device_type_id)
            .join(Rack, Rack.id == Device.rack_id).join(Room, Room.id == Rack.room_id)
            .join(Site, Site.id == Room.site_id)
            .join(PowerFeed, PowerFeed.id == PduFeed.power_feed_id)
            .join(PowerPanel, PowerPanel.id == PowerFeed.power_panel_id)
            .order_by(Site.code, Room.name, Rack.name, Device.name))


def _touched(uow) -> set:
    """The racks whose feeds or PDUs this import wrote (checked once all rows are written)."""
    return uow.__dict__.setdefault("_power_racks", set())


def power_verdict(uow) -> list[str]:
    """`power check` of the racks the file's feeds and PDUs went to: a feed below its load, a PDU moved
    to the other side are imported (the chain as it is) but reported, and the command exits 1."""
    return power_verdict_in(uow.session, _touched(uow))


VERDICT = {"power-feeds": power_verdict, "pdus": power_verdict}

HANDLERS = {"power-panels": (resolve_panels, write_panels), "power-feeds": (resolve_feeds, write_feeds),
            "pdus": (resolve_pdus, write_pdus)}
ROW_KEY = {"power-panels": lambda v: (v.get("site_id"), v.get("name")),   # the same record twice in a file
           "power-feeds": lambda v: (v.get("power_panel_id"), v.get("name")),
           "pdus": lambda v: v.get("device_id")}
EXPORTS = {"power-panels": export_panels_query, "power-feeds": export_feeds_query, "pdus": export_pdus_query}
