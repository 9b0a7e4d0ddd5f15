"""`import|export cables` and `import|export cross-connects`, for app.importexport.

Cables use NetBox's bulk-import columns (netbox/dcim/forms/bulk_import.py, CableImportForm):
side_a_site, side_a_device, side_a_type, side_a_name, side_b_… , type, status, label, color,
length, length_unit; the values are NetBox's (dcim.interface, connected, smf-os2, m …).

A cross-connect is closest to NetBox's circuit (circuits/forms/bulk_import.py, CircuitImportForm):
its columns `cid`, `provider`, `tenant`, `status`, `install_date` and `termination_date` keep
NetBox's names; the rest are ours (the A-end port, the meet-me room port, the far end, the medium,
the selling contract item). A new row in a later state is ordered and moved along the lifecycle
with its dates (app/services/xconnects.py), so an import obeys the same rules as the console.
"""
from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import aliased

from app.domain.errors import RuleViolation
from app.importexport.kinds.core import _customer, _device_ref, _site
from app.services.xconnects import connect_cable_in, move_in, order_in
from models import Cable, Contract, ContractItem, CrossConnect, Customer, Device, Rack, Room, Site
from models.choices import CableEnd, CableStatus, CableType, LengthUnit, XconnectMedium, XconnectPeer, XconnectState

CABLE_COLUMNS = ("side_a_site", "side_a_device", "side_a_type", "side_a_name", "side_b_site", "side_b_device",
                 "side_b_type", "side_b_name", "type", "status", "label", "color", "length", "length_unit")
CABLE_REQUIRED = ("side_a_device", "side_a_type", "side_a_name", "side_b_device", "side_b_type", "side_b_name")
CABLE_FIELD_COLUMN = {"side_a_device_id": "side_a_device", "side_b_device_id": "side_b_device"}

XC_COLUMNS = ("reference", "tenant", "site", "location", "rack", "panel", "port", "mmr_panel", "mmr_port",
              "peer_kind", "provider", "peer_tenant", "peer_port", "medium", "status", "cid", "ordered_date",
              "install_date", "active_date", "termination_date", "contract", "item", "work_note")
XC_REQUIRED = ("tenant", "rack", "panel", "port", "peer_kind", "medium", "ordered_date")
XC_FIELD_COLUMN = {"customer_id": "tenant", "rack_id": "rack", "peer_customer_id": "peer_tenant",
                   "peer_name": "provider", "circuit_id": "cid", "state": "status", "installed_date": "install_date",
                   "disconnected_date": "termination_date", "contract_item_id": "item", "on": "status"}


def _choice(r, col: str, choices, default: str | None = None) -> str | None:
    raw = (r.get(col) or "").strip()
    if not raw:
        return default
    for v, en, zh in choices.labels():
        if raw.lower() in (v.lower(), en.lower()) or raw == zh:
            return v
    r.err(col, f"{raw!r} is not one of {', '.join(choices.values())}")
    return None


# --- cables ---------------------------------------------------------------------------------------

def _device(s, r, side: str) -> int | None:
    """The device at one end: by name within the end's site (its code, name or NetBox slug, as NetBox's
    CableImportForm names it), else by asset tag or a name no other device has."""
    col = f"side_{side}_device"
    if r.get(f"side_{side}_site"):
        site = _site(s, r, f"side_{side}_site")
        if site is None:
            return None
        name = r.get(col)
        hits = s.execute(select(Device.id).join(Rack, Rack.id == Device.rack_id).join(Room, Room.id == Rack.room_id)
                         .where(Room.site_id == site.id, Device.name == name).limit(3)).scalars().all()
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            r.err(col, f"several devices at {site.code} are named {name!r}; give its asset tag instead")
            return None
    dev = _device_ref(s, r, col)
    return dev.id if dev is not None else None


def resolve_cables(s, r) -> dict[str, Any]:
    v: dict[str, Any] = {"side_a_device_id": _device(s, r, "a"), "side_b_device_id": _device(s, r, "b"),
                         "side_a_type": _choice(r, "side_a_type", CableEnd), "side_a_name": r.get("side_a_name"),
                         "side_b_type": _choice(r, "side_b_type", CableEnd), "side_b_name": r.get("side_b_name"),
                         "type": _choice(r, "type", CableType), "status": _choice(r, "status", CableStatus,
                                                                                  CableStatus.CONNECTED),
                         "label": r.get("label") or None, "color": (r.get("color") or "").lstrip("#").lower() or None,
                         "length": r.decimal("length"), "length_unit": _choice(r, "length_unit", LengthUnit)}
    return v


def write_cables(uow, r, v: dict) -> str:
    s = uow.session
    same = s.execute(select(Cable).where(Cable.side_a_device_id == v["side_a_device_id"],
                                         Cable.side_a_type == v["side_a_type"],
                                         Cable.side_a_name == v["side_a_name"])).scalar_one_or_none()
    if same is not None:
        differs = [k for k in v if getattr(same, k) != v[k]]
        if not differs:
            return "unchanged"
        raise RuleViolation(f"cable {same.label or same.id} from this port exists with other "
                            f"{', '.join(differs)}; change it in the console rather than by importing it again")
    connect_cable_in(uow, v, reason=f"imported from line {r.line}")
    return "created"


def export_cables_query():
    da, db_ = aliased(Device), aliased(Device)
    ra, rb = aliased(Rack), aliased(Rack)
    ma, mb = aliased(Room), aliased(Room)
    sa, sb = aliased(Site), aliased(Site)
    return (select(sa.code, da.name, Cable.side_a_type, Cable.side_a_name, sb.code, db_.name, Cable.side_b_type,
                   Cable.side_b_name, Cable.type, Cable.status, Cable.label, Cable.color, Cable.length,
                   Cable.length_unit)
            .join(da, da.id == Cable.side_a_device_id).outerjoin(ra, ra.id == da.rack_id)
            .outerjoin(ma, ma.id == ra.room_id).outerjoin(sa, sa.id == ma.site_id)
            .join(db_, db_.id == Cable.side_b_device_id).outerjoin(rb, rb.id == db_.rack_id)
            .outerjoin(mb, mb.id == rb.room_id).outerjoin(sb, sb.id == mb.site_id)
            .order_by(Cable.id))


# --- cross-connects -------------------------------------------------------------------------------

def _item(s, r) -> int | None:
    number, pos = r.get("contract"), r.integer("item")
    if not number:  # not sold through a contract item (yet)
        return None
    c = s.execute(select(Contract).where(Contract.number == number)).scalar_one_or_none()
    if c is None:
        r.err("contract", f"there is no contract {number}")
        return None
    ids = s.execute(select(ContractItem.id).where(ContractItem.contract_id == c.id).order_by(ContractItem.id)
                    ).scalars().all()
    if pos is None or not 1 <= pos <= len(ids):
        r.err("item", f"contract {number} has items 1 to {len(ids)}; give the position of its cross-connect item")
        return None
    return ids[pos - 1]


def resolve_cross_connects(s, r) -> dict[str, Any]:
    from app.importexport.kinds.leases import _rack

    v: dict[str, Any] = {
        "reference": r.get("reference") or None, "customer_id": _customer(s, r, "tenant"),
        "rack_id": _rack(s, r) if r.get("rack") else None, "panel": r.get("panel"), "port": r.get("port"),
        "mmr_panel": r.get("mmr_panel") or None, "mmr_port": r.get("mmr_port") or None,
        "peer_kind": _choice(r, "peer_kind", XconnectPeer), "peer_name": r.get("provider") or None,
        "peer_customer_id": _customer(s, r, "peer_tenant"), "peer_port": r.get("peer_port") or None,
        "medium": _choice(r, "medium", XconnectMedium), "state": _choice(r, "status", XconnectState,
                                                                         XconnectState.ORDERED),
        "circuit_id": r.get("cid") or None, "ordered_date": r.date("ordered_date"),
        "installed_date": r.date("install_date"), "active_date": r.date("active_date"),
        "disconnected_date": r.date("termination_date"), "contract_item_id": _item(s, r),
        "work_note": r.get("work_note") or None}
    path = _path(v["state"])
    for state, col in ((XconnectState.INSTALLED, "install_date"), (XconnectState.ACTIVE, "active_date"),
                       (XconnectState.DISCONNECTED, "termination_date")):
        if state in path and v[XconnectState.DATE_FIELD[state]] is None:
            r.err(col, f"a cross-connect that is {XconnectState.label(v['state']).lower()} has its {col}")
    return v


def _path(state: str | None) -> list[str]:
    """The moves from ordered to `state` (disconnected without installation: a cancelled order)."""
    order = [XconnectState.INSTALLED, XconnectState.ACTIVE]
    if state in order:
        return order[:order.index(state) + 1]
    return [XconnectState.DISCONNECTED] if state == XconnectState.DISCONNECTED else []


COMPARED = ("customer_id", "rack_id", "panel", "port", "mmr_panel", "mmr_port", "peer_kind", "peer_name", "peer_port",
            "medium", "state", "circuit_id", "ordered_date", "installed_date", "active_date", "disconnected_date",
            "contract_item_id")


def write_cross_connects(uow, r, v: dict) -> str:
    s = uow.session
    same = None
    if v["reference"]:
        same = s.execute(select(CrossConnect).where(CrossConnect.reference == v["reference"])).scalar_one_or_none()
    if same is not None:
        if v["peer_kind"] == XconnectPeer.CUSTOMER and v["peer_name"] is None:
            v["peer_name"] = same.peer_name
        differs = [k for k in COMPARED if getattr(same, k) != v[k]]
        if not differs:
            return "unchanged"
        raise RuleViolation(f"cross-connect {same.reference} exists with other {', '.join(differs)}; move or change "
                            "it in the console rather than by importing it again")
    reason = f"imported from line {r.line}"
    xc = order_in(uow, v, reason=reason)
    if v["state"] == XconnectState.DISCONNECTED and v["installed_date"] is not None:
        steps = [XconnectState.INSTALLED] + ([XconnectState.ACTIVE] if v["active_date"] else []) + \
            [XconnectState.DISCONNECTED]
    else:
        steps = _path(v["state"])
    for state in steps:
        move_in(uow, xc, state, v[XconnectState.DATE_FIELD[state]], note=None)
    return "created"


def export_cross_connects_query():
    peer = aliased(Customer)
    position = (select(func.count(ContractItem.id)).where(ContractItem.contract_id == Contract.id,
                                                          ContractItem.id <= CrossConnect.contract_item_id)
                .correlate(CrossConnect, Contract).scalar_subquery())
    return (select(CrossConnect.reference, Customer.name, Site.code, Room.name, Rack.name, CrossConnect.panel,
                   CrossConnect.port, CrossConnect.mmr_panel, CrossConnect.mmr_port, CrossConnect.peer_kind,
                   CrossConnect.peer_name, peer.name, CrossConnect.peer_port, CrossConnect.medium, CrossConnect.state,
                   CrossConnect.circuit_id, CrossConnect.ordered_date, CrossConnect.installed_date,
                   CrossConnect.active_date, CrossConnect.disconnected_date, Contract.number, position,
                   CrossConnect.work_note)
            .join(Customer, Customer.id == CrossConnect.customer_id)
            .outerjoin(peer, peer.id == CrossConnect.peer_customer_id)
            .join(Rack, Rack.id == CrossConnect.rack_id).join(Room, Room.id == Rack.room_id)
            .join(Site, Site.id == Room.site_id)
            .outerjoin(ContractItem, ContractItem.id == CrossConnect.contract_item_id)
            .outerjoin(Contract, Contract.id == ContractItem.contract_id)
            .order_by(CrossConnect.id))
