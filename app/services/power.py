"""Writing the power chain: panels, feeds (circuits), PDUs, supplies on outlets, circuits sold by
contract items and their meter readings. Each write is checked here (validate_panel, validate_feed);
the loads, the 80 % rule and the N-redundancy check over what is written are app.read.power's
(docs/power.md)."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Iterable

from sqlalchemy import select

from app.domain import messages as M
from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import NotFound, RuleViolation, ValidationError
from app.services.billing.meters import CounterMeter, import_counter_readings
from app.services.entities import flush_or_refuse, get_or_404, snapshot
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import ContractItem, Device, Rack, Room, Site
from models.choices import (
    LIVE_CONTRACT,
    DeviceRole,
    ItemKind,
    PowerFeedStatus,
    PowerFeedType,
    PowerPhase,
    PowerSide,
    PowerSupply,
)
from models.power import CircuitReading, PduFeed, PowerConnection, PowerFeed, PowerPanel

# --- writes -----------------------------------------------------------------------------------

def _int(errors: dict, v: dict, key: str, lo: int, hi: int, default: int | None = None) -> None:
    raw = v.get(key)
    if raw in (None, ""):
        if default is None:
            errors[key] = "required"
        v[key] = default
        return
    try:
        n = int(Decimal(str(raw)))
        if Decimal(str(raw)) != n:
            raise InvalidOperation
    except (InvalidOperation, ValueError):
        errors[key] = f"{raw!r} is not a whole number"
        return
    if not lo <= n <= hi:
        errors[key] = f"between {lo} and {hi}"
    v[key] = n


def _choice(errors: dict, v: dict, key: str, choices, default: str) -> None:
    value = v.get(key)
    value = default if value in (None, "") else str(value).strip()
    if value not in choices.values():
        errors[key] = f"one of {', '.join(choices.values())}"
    v[key] = value


def validate_panel(s, values: dict, current: PowerPanel | None = None) -> dict:
    """The panel's values, checked; `current` is the panel they change (its feeds' breakers bound its own)."""
    v = dict(values)
    errors: dict[str, str] = {}
    v["name"] = (v.get("name") or "").strip()
    if not v["name"]:
        errors["name"] = "a panel needs a name"
    elif len(v["name"]) > 64:
        errors["name"] = "at most 64 characters"
    if v.get("site_id") is None or s.get(Site, v["site_id"]) is None:
        errors["site_id"] = "choose the panel's site"
    if v.get("room_id") is not None:
        room = s.get(Room, v["room_id"])
        if room is None or room.site_id != v.get("site_id"):
            errors["room_id"] = "the room must be a room of the panel's site"
    _int(errors, v, "voltage", 1, 100_000, 220)
    _int(errors, v, "amperage", 1, 100_000, 250)
    _choice(errors, v, "phase", PowerPhase, PowerPhase.SINGLE)
    v["ups"] = (v.get("ups") or "").strip()[:64] or None
    v["comments"] = (v.get("comments") or "").strip() or None
    if current is not None and current.id is not None and "amperage" not in errors:
        # the feed rule read the other way: no feed's breaker exceeds its panel's
        biggest = s.execute(select(PowerFeed.name, PowerFeed.amperage).where(PowerFeed.power_panel_id == current.id)
                            .order_by(PowerFeed.amperage.desc(), PowerFeed.name).limit(1)).first()
        if biggest is not None and biggest.amperage > v["amperage"]:
            errors["amperage"] = M.PANEL_SMALLER(biggest.name, biggest.amperage, biggest.amperage)
    if errors:
        raise ValidationError(errors)
    return {k: v[k] for k in ("site_id", "room_id", "name", "voltage", "phase", "amperage", "ups", "comments")}


def validate_feed(s, values: dict) -> dict:
    v = dict(values)
    errors: dict[str, str] = {}
    v["name"] = (v.get("name") or "").strip()
    if not v["name"]:
        errors["name"] = "a feed needs a name"
    elif len(v["name"]) > 64:
        errors["name"] = "at most 64 characters"
    panel = s.get(PowerPanel, v["power_panel_id"]) if v.get("power_panel_id") is not None else None
    if panel is None:
        errors["power_panel_id"] = "choose the panel the feed comes from"
    _choice(errors, v, "status", PowerFeedStatus, PowerFeedStatus.ACTIVE)
    _choice(errors, v, "type", PowerFeedType, PowerFeedType.PRIMARY)
    # NetBox has no A/B: its primary feed is taken as side A and its redundant one as side B.
    _choice(errors, v, "side", PowerSide, PowerSide.B if v.get("type") == PowerFeedType.REDUNDANT else PowerSide.A)
    _choice(errors, v, "supply", PowerSupply, PowerSupply.AC)
    _choice(errors, v, "phase", PowerPhase, panel.phase if panel is not None else PowerPhase.SINGLE)
    _int(errors, v, "voltage", 1, 100_000, panel.voltage if panel is not None else 220)
    _int(errors, v, "amperage", 1, 10_000, 32)
    _int(errors, v, "max_utilization", 1, 100, 80)
    if v.get("rack_id") is not None:
        rack = s.get(Rack, v["rack_id"])
        if rack is None:
            errors["rack_id"] = "no such rack"
        elif panel is not None and rack.room.site_id != panel.site_id:
            errors["rack_id"] = "the rack must be at the panel's site"
    else:
        v["rack_id"] = None
    if panel is not None and v.get("amperage") and isinstance(v["amperage"], int) and v["amperage"] > panel.amperage:
        errors["amperage"] = f"a feed's breaker cannot exceed its panel's {panel.amperage} A"
    v["comments"] = (v.get("comments") or "").strip() or None
    if errors:
        raise ValidationError(errors)
    return {k: v[k] for k in ("power_panel_id", "rack_id", "name", "side", "status", "type", "supply", "phase",
                              "voltage", "amperage", "max_utilization", "comments")}


def create_panel_in(uow: UnitOfWork, values: dict, reason: str | None = None) -> PowerPanel:
    s = uow.session
    panel = PowerPanel(**validate_panel(s, values), updated_by=uow.actor.login)
    s.add(panel)
    flush_or_refuse(s)
    uow.audit("power_panel.create", "power_panel", panel.id, panel.name, after=snapshot(panel), reason=reason)
    return panel


def update_panel_in(uow: UnitOfWork, panel: PowerPanel, values: dict, reason: str | None = None) -> bool:
    """Change the fields of a panel that differ from `values` (checked by validate_panel, its feeds'
    breakers bounding its own); False, and nothing written, when none differs."""
    return _write_changes(uow, panel, validate_panel(uow.session, values, panel), "power_panel", panel.name, reason)


def create_feed_in(uow: UnitOfWork, values: dict, reason: str | None = None) -> PowerFeed:
    s = uow.session
    feed = PowerFeed(**validate_feed(s, values), updated_by=uow.actor.login)
    s.add(feed)
    flush_or_refuse(s)
    panel = s.get(PowerPanel, feed.power_panel_id)
    uow.audit("power_feed.create", "power_feed", feed.id, f"{panel.name}/{feed.name}", after=snapshot(feed),
              reason=reason)
    return feed


def update_feed_in(uow: UnitOfWork, feed: PowerFeed, values: dict, reason: str | None = None) -> bool:
    new = validate_feed(uow.session, {**snapshot(feed), **values})
    return _write_changes(uow, feed, new, "power_feed", feed.name, reason)


def _write_changes(uow: UnitOfWork, obj, new: dict, object_type: str, label: str, reason: str | None) -> bool:
    """Write the checked values `new` that differ from the stored ones, with one `<type>.update` event of
    what changed; False, and nothing written, when none differs."""
    before = snapshot(obj)
    changed = {k: v for k, v in new.items() if before.get(k) != v}
    if not changed:
        return False
    for k, v in changed.items():
        setattr(obj, k, v)
    obj.updated_by = uow.actor.login
    flush_or_refuse(uow.session)
    uow.audit(f"{object_type}.update", object_type, obj.id, label, before={k: before[k] for k in changed},
              after=changed, reason=reason)
    return True


def create_panel(db: Database, actor: Actor, values: dict, *, reason: str | None = None) -> int:
    require(actor, "manage_dcim")
    with UnitOfWork(db, actor) as uow:
        panel = create_panel_in(uow, values, reason)
        uow.commit()
        return panel.id


def create_feed(db: Database, actor: Actor, values: dict, *, reason: str | None = None) -> int:
    require(actor, "manage_dcim")
    with UnitOfWork(db, actor) as uow:
        feed = create_feed_in(uow, values, reason)
        uow.commit()
        return feed.id


def attach_pdu_in(uow: UnitOfWork, device_id: int, feed_id: int, outlets: int = 24,
                  reason: str | None = None) -> PduFeed:
    """Plug a PDU's inlet into a feed (the device's type has the role pdu; both in one rack)."""
    s = uow.session
    dev = get_or_404(s, Device, device_id, "device")
    feed = get_or_404(s, PowerFeed, feed_id, "feed")
    if dev.device_type.role != DeviceRole.PDU:
        raise RuleViolation(f"{dev.name} is a {DeviceRole.label(dev.device_type.role).lower()}, not a PDU; "
                            "only a device whose type has the role PDU distributes a feed to outlets")
    if feed.rack_id is not None and dev.rack_id is not None and feed.rack_id != dev.rack_id:
        raise RuleViolation(f"feed {feed.name} goes to another rack than PDU {dev.name}")
    if not 1 <= int(outlets) <= 96:
        raise ValidationError({"outlets": "between 1 and 96"})
    pdu = s.execute(select(PduFeed).where(PduFeed.device_id == device_id)).scalar_one_or_none()
    if pdu is None:
        pdu = PduFeed(device_id=device_id, power_feed_id=feed_id, outlets=int(outlets), updated_by=uow.actor.login)
        s.add(pdu)
        before = None
    else:
        before = snapshot(pdu)
        pdu.power_feed_id, pdu.outlets, pdu.updated_by = feed_id, int(outlets), uow.actor.login
    flush_or_refuse(s)
    uow.audit("pdu.attach", "pdu_feed", pdu.id, f"{dev.name} ← {feed.name}", before=before, after=snapshot(pdu),
              reason=reason)
    return pdu


def attach_pdu(db: Database, actor: Actor, device_id: int, feed_id: int, outlets: int = 24, *,
               reason: str | None = None) -> int:
    require(actor, "manage_dcim")
    with UnitOfWork(db, actor) as uow:
        pdu = attach_pdu_in(uow, device_id, feed_id, outlets, reason)
        uow.commit()
        return pdu.id


def connect_supply_in(uow: UnitOfWork, device_id: int, port: str, pdu_device_id: int, outlet: int,
                      reason: str | None = None) -> PowerConnection:
    """Plug a device's power supply (port) into an outlet of a PDU of its rack."""
    s = uow.session
    dev = get_or_404(s, Device, device_id, "device")
    pdu_dev = get_or_404(s, Device, pdu_device_id, "PDU")
    pdu = s.execute(select(PduFeed).where(PduFeed.device_id == pdu_device_id)).scalar_one_or_none()
    port = (port or "").strip()
    if not port or len(port) > 32:
        raise ValidationError({"port": "name the power supply (e.g. PSU1), at most 32 characters"})
    if pdu is None:
        raise RuleViolation(f"{pdu_dev.name} is not a PDU fed by a feed; attach it to a feed first")
    if dev.rack_id is None or dev.rack_id != pdu_dev.rack_id:
        raise RuleViolation(f"{dev.name} and PDU {pdu_dev.name} are not in the same rack")
    if dev.device_type.role in DeviceRole.NO_LOAD:
        raise RuleViolation(f"{dev.name} draws no power of its own")
    if not 1 <= int(outlet) <= pdu.outlets:
        raise ValidationError({"outlet": f"PDU {pdu_dev.name} has outlets 1 to {pdu.outlets}"})
    taken = s.execute(select(Device.name, PowerConnection.port).join(Device, Device.id == PowerConnection.device_id)
                      .where(PowerConnection.pdu_id == pdu.id, PowerConnection.outlet == int(outlet),
                             ~((PowerConnection.device_id == device_id) & (PowerConnection.port == port)))).first()
    if taken:
        raise RuleViolation(f"outlet {outlet} of {pdu_dev.name} already feeds {taken[0]} {taken[1]}")
    conn = s.execute(select(PowerConnection).where(PowerConnection.device_id == device_id,
                                                   PowerConnection.port == port)).scalar_one_or_none()
    before = snapshot(conn) if conn is not None else None
    if conn is None:
        conn = PowerConnection(device_id=device_id, port=port, pdu_id=pdu.id, outlet=int(outlet),
                               updated_by=uow.actor.login)
        s.add(conn)
    else:
        conn.pdu_id, conn.outlet, conn.updated_by = pdu.id, int(outlet), uow.actor.login
    flush_or_refuse(s)
    uow.audit("power.connect", "power_connection", conn.id, f"{dev.name} {port} → {pdu_dev.name}:{outlet}",
              before=before, after=snapshot(conn), reason=reason)
    return conn


def connect_supply(db: Database, actor: Actor, device_id: int, port: str, pdu_device_id: int, outlet: int, *,
                   reason: str | None = None) -> int:
    require(actor, "manage_dcim")
    with UnitOfWork(db, actor) as uow:
        conn = connect_supply_in(uow, device_id, port, pdu_device_id, outlet, reason)
        uow.commit()
        return conn.id


def sell_circuits(db: Database, actor: Actor, item_id: int, feed_ids: list[int], *, reason: str | None = None) -> int:
    """Name the circuits a contract item of kind power sells (at most its quantity; a circuit is
    sold to one live item at a time). Billing meters these circuits' energy."""
    require(actor, "draft_contracts")
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        item = get_or_404(s, ContractItem, item_id, "contract item")
        if item.kind != ItemKind.POWER:
            raise RuleViolation(f"item {item_id} is a {ItemKind.label(item.kind).lower()} item; circuits are sold "
                                "by an item of the kind power circuits")
        if len(set(feed_ids)) > item.quantity:
            raise RuleViolation(f"the item sells {item.quantity.normalize()} circuit(s); {len(set(feed_ids))} named")
        for fid in sorted(set(feed_ids)):
            feed = get_or_404(s, PowerFeed, fid, "feed")
            if item.rack_id is not None and feed.rack_id != item.rack_id:
                raise RuleViolation(f"feed {feed.name} does not go to the item's rack")
            if feed.contract_item_id not in (None, item.id):
                other = s.get(ContractItem, feed.contract_item_id)
                if other is not None and other.contract.status in LIVE_CONTRACT + ("draft", "pending_approval",
                                                                                   "approved"):
                    raise RuleViolation(f"feed {feed.name} is sold by contract {other.contract.number}")
            before = feed.contract_item_id
            feed.contract_item_id = item.id
            feed.updated_by = actor.login
            uow.audit("power_feed.sell", "power_feed", feed.id, feed.name, before={"contract_item_id": before},
                      after={"contract_item_id": item.id}, reason=reason)
        flush_or_refuse(s)
        uow.commit()
        return len(set(feed_ids))


# --- finding things by what a person types ----------------------------------------------------

def find_panel_in(s, site: str | None, name: str) -> PowerPanel:
    q = select(PowerPanel).join(Site, Site.id == PowerPanel.site_id).where(PowerPanel.name == name.strip())
    if site:
        q = q.where(Site.code == site.strip())
    hits = s.execute(q.limit(2)).scalars().all()
    if not hits:
        raise NotFound(f"there is no power panel {name!r}" + (f" at site {site}" if site else ""))
    if len(hits) > 1:
        raise ValidationError({"power_panel": f"several panels are named {name!r}; give the site too"})
    return hits[0]


def find_feed_in(s, key: str | int) -> PowerFeed:
    """A feed by id, or SITE/PANEL/FEED, or PANEL/FEED."""
    text = str(key).strip()
    if text.isdigit():
        return get_or_404(s, PowerFeed, int(text), "feed")
    parts = [p.strip() for p in text.split("/")]
    if len(parts) not in (2, 3):
        raise ValidationError({"feed": "name the feed as SITE/PANEL/FEED, PANEL/FEED or its id"})
    site, panel_name, name = (parts if len(parts) == 3 else [None, *parts])
    panel = find_panel_in(s, site, panel_name)
    feed = s.execute(select(PowerFeed).where(PowerFeed.power_panel_id == panel.id, PowerFeed.name == name)) \
        .scalar_one_or_none()
    if feed is None:
        raise NotFound(f"panel {panel.name} has no feed {name!r}")
    return feed


def find_device_in(s, key: str | int) -> Device:
    text = str(key).strip()
    if text.isdigit():
        return get_or_404(s, Device, int(text), "device")
    dev = s.execute(select(Device).where(Device.asset_tag == text)).scalar_one_or_none()
    if dev is not None:
        return dev
    hits = s.execute(select(Device).where(Device.name == text).limit(2)).scalars().all()
    if len(hits) != 1:
        raise NotFound(f"no single device is named or tagged {text!r}")
    return hits[0]


# --- circuit meter readings (as the rack meters: app/services/billing.import_meter_readings) -----

@dataclass(frozen=True)
class ReadingImport:
    imported: int
    unchanged: int
    circuits: int


CIRCUIT_METER = CounterMeter("circuit", CircuitReading, "power_feed_id", "circuit_meter.import", "circuit_reading",
                             "circuit meter readings", "circuits")


def _circuit_resolver(s):
    """A circuit named SITE/PANEL/FEED, PANEL/FEED or by id → its feed's id, or why not."""
    def resolve(text: str) -> tuple[int | None, str | None]:
        try:
            return find_feed_in(s, text).id, None
        except NotFound as exc:
            return None, exc.message
        except ValidationError as exc:
            return None, next(iter(exc.errors.values()))
    return resolve


def import_circuit_readings(db: Database, actor: Actor, source: str | Path | Iterable[dict]) -> ReadingImport:
    """CSV with columns circuit (SITE/PANEL/FEED, PANEL/FEED or id), read_at, kwh_total (cumulative)
    and an optional reset column: the rules of the rack meters' import (one function,
    services/billing/meters.import_counter_readings), all rows or none."""
    return ReadingImport(*import_counter_readings(db, actor, source, CIRCUIT_METER, _circuit_resolver))

