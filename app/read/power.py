"""The power chain as it stands: each rack's and room's loads, the 80 % rule and the N-redundancy
check over them, and the lists of panels, feeds and supplies (app.services.power writes the chain).

Rules (one home, asked by the console, the capacity report, imports and billing):
- a feed is one circuit from a panel's breaker to a rack; its amperage is the breaker rating and
  its capacity V × A (× √3 three-phase), as NetBox's PowerFeed.available_power;
- the 80 % rule: a feed's load stays within the lower of the setting `power_breaker_limit_pct`
  (default 80) and its own max_utilization, of its capacity;
- loads: a device's draw (app.domain.power.power_draw_w, NetBox's allocated draw) is shared equally by the
  active feeds its supplies reach (supply → PDU outlet → PDU → feed); a device not plugged into
  any PDU is taken as drawing from the rack's active feeds equally;
- N redundancy: with the A side lost, the B side carries every device (a device plugged into
  A only goes dark) within the limit of each B feed, and the other way round.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Iterable, NamedTuple

from sqlalchemy import func, select

from app.domain.power import power_draw_w
from app.read.settings import POWER_LIMIT_PCT, setting_in
from app.store.db import Database
from app.store.found import get_or_404
from models import Contract, ContractItem, Device, DeviceType, Rack, Room, Site
from models.choices import DeviceStatus, PowerFeedStatus, PowerPhase, PowerSide, RedundancyState
from models.power import PduFeed, PowerConnection, PowerFeed, PowerPanel

SQRT3 = Decimal("1.7320508")
SIDES = (PowerSide.A, PowerSide.B)


# --- reading the chain: loads and checks ------------------------------------------------------

@dataclass(frozen=True)
class FeedLoad:
    id: int
    name: str
    panel: str
    side: str
    status: str
    type: str
    phase: str
    voltage: int
    amperage: int
    max_utilization: int
    capacity_w: Decimal      # V × A (× √3)
    limit_w: Decimal         # the rule's share of it
    limit_pct: int
    load_w: Decimal          # both sides up
    failover_w: Decimal      # with the other side lost
    sold_to: str | None = None

    @property
    def pct(self) -> Decimal:
        return (self.load_w * 100 / self.capacity_w).quantize(Decimal("0.1")) if self.capacity_w else Decimal(0)

    @property
    def failover_pct(self) -> Decimal:
        return (self.failover_w * 100 / self.capacity_w).quantize(Decimal("0.1")) if self.capacity_w else Decimal(0)

    @property
    def over(self) -> bool:
        return self.load_w > self.limit_w

    @property
    def label(self) -> str:
        return f"{self.panel}/{self.name}"


@dataclass(frozen=True)
class RackPower:
    rack_id: int
    rack: str
    room_id: int
    room: str
    feeds: tuple[FeedLoad, ...]
    load_w: Decimal
    redundancy: str                      # RedundancyState
    problems: tuple[str, ...] = ()       # why a check fails, in English (the CLI and the tooltips)
    single_corded: int = 0               # devices plugged into one side only
    unconnected: int = 0                 # devices drawing power but plugged into no PDU
    lost_w: dict = field(default_factory=dict)  # side lost -> watts that go dark

    def side_load(self, side: str) -> Decimal:
        return sum((f.load_w for f in self.feeds if f.side == side), Decimal(0))

    def side_limit(self, side: str) -> Decimal:
        return sum((f.limit_w for f in self.feeds if f.side == side), Decimal(0))

    @property
    def over_limit(self) -> tuple[FeedLoad, ...]:
        return tuple(f for f in self.feeds if f.over)

    @property
    def ok(self) -> bool:
        return not self.over_limit and self.redundancy != RedundancyState.FAIL


@dataclass(frozen=True)
class RoomPower:
    room_id: int
    room: str
    racks: tuple[RackPower, ...]

    @property
    def load_w(self) -> Decimal:
        return sum((r.load_w for r in self.racks), Decimal(0))

    def count(self, state: str) -> int:
        return sum(1 for r in self.racks if r.redundancy == state)

    @property
    def feeds_over(self) -> int:
        return sum(len(r.over_limit) for r in self.racks)

    def side_load(self, side: str) -> Decimal:
        return sum((r.side_load(side) for r in self.racks), Decimal(0))

    def side_limit(self, side: str) -> Decimal:
        return sum((r.side_limit(side) for r in self.racks), Decimal(0))


def feed_capacity_w(voltage: int, amperage: int, phase: str) -> Decimal:
    w = Decimal(voltage) * Decimal(amperage)
    return (w * SQRT3).quantize(Decimal(1)) if phase == PowerPhase.THREE else w


def limit_pct_in(s) -> int:
    return int(setting_in(s, POWER_LIMIT_PCT))


def _kw(w: Decimal) -> str:
    return f"{(Decimal(w) / 1000).quantize(Decimal('0.01'))} kW"


class _TypeFigures(NamedTuple):
    """What dcim.power_draw_w reads of a device type, without building an ORM object per device."""
    role: str
    typical_power_w: int | None
    max_power_w: int | None


def rack_power(s, rack_ids: Iterable[int], *, limit_pct: int | None = None,
               racks_read: list | None = None) -> dict[int, RackPower]:
    """The power chain of these racks, checked: a handful of set-based queries for any number. A caller that
    has read the limit (limit_pct) or the racks' (id, name, room id, room name) rows (racks_read) passes them."""

    ids = sorted(set(rack_ids))
    if not ids:
        return {}
    pct_rule = limit_pct if limit_pct is not None else limit_pct_in(s)
    out: dict[int, RackPower] = {}
    for i in range(0, len(ids), 500):
        chunk = ids[i:i + 500]
        in_chunk = set(chunk)
        racks = [r for r in racks_read if r[0] in in_chunk] if racks_read is not None else s.execute(
            select(Rack.id, Rack.name, Room.id, Room.name).join(Room, Room.id == Rack.room_id)
            .where(Rack.id.in_(chunk))).all()
        # the circuits sold read with the feeds (issue 26: a statement of its own was a round trip more)
        feeds_sold = s.execute(
            select(PowerFeed, PowerPanel.name, ContractItem.id, Contract.number)
            .join(PowerPanel, PowerPanel.id == PowerFeed.power_panel_id)
            .outerjoin(ContractItem, ContractItem.id == PowerFeed.contract_item_id)
            .outerjoin(Contract, Contract.id == ContractItem.contract_id)
            .where(PowerFeed.rack_id.in_(chunk)).order_by(PowerFeed.side, PowerFeed.name)).all()
        feeds = [(f, pname) for f, pname, _i, _n in feeds_sold]
        sold = {item: number for _f, _p, item, number in feeds_sold if item is not None and number is not None}
        devices = s.execute(
            select(Device.id, Device.rack_id, DeviceType.role, DeviceType.typical_power_w, DeviceType.max_power_w)
            .join(DeviceType, DeviceType.id == Device.device_type_id)
            .where(Device.rack_id.in_(chunk), Device.status != DeviceStatus.DECOMMISSIONING)).all()
        plugs = s.execute(
            select(PowerConnection.device_id, PduFeed.power_feed_id)
            .join(PduFeed, PduFeed.id == PowerConnection.pdu_id)
            .join(Device, Device.id == PowerConnection.device_id)
            .where(Device.rack_id.in_(chunk))).all()
        by_rack_feeds: dict[int, list] = defaultdict(list)
        for f, pname in feeds:
            by_rack_feeds[f.rack_id].append((f, pname))
        dev_feeds: dict[int, set[int]] = defaultdict(set)
        for device_id, feed_id in plugs:
            dev_feeds[device_id].add(feed_id)
        by_rack_devices: dict[int, list] = defaultdict(list)
        draws: dict[tuple, Decimal | None] = {}  # the placement rule's draw, once per kind of type
        for device_id, rack_id, role, typical, maximum in devices:
            key = (role, typical, maximum)
            if key not in draws:
                draw = power_draw_w(_TypeFigures(role, typical, maximum))
                draws[key] = Decimal(draw[0]) if draw is not None else None
            if draws[key] is not None:
                by_rack_devices[rack_id].append((device_id, draws[key]))
        for rack_id, rack_name, room_id, room_name in racks:
            out[rack_id] = _check_rack(rack_id, f"{room_name}/{rack_name}", room_id, room_name,
                                       by_rack_feeds.get(rack_id, []), by_rack_devices.get(rack_id, []),
                                       dev_feeds, pct_rule, sold)
    return out


def _check_rack(rack_id, label, room_id, room_name, feeds, devices, dev_feeds, pct_rule, sold) -> RackPower:
    active = {f.id: f for f, _p in feeds if f.status == PowerFeedStatus.ACTIVE}
    side_of = {fid: f.side for fid, f in active.items()}
    normal: dict[int, Decimal] = defaultdict(Decimal)
    failover: dict[str, dict[int, Decimal]] = {side: defaultdict(Decimal) for side in SIDES}
    lost: dict[str, Decimal] = {side: Decimal(0) for side in SIDES}
    total = Decimal(0)
    single = unconnected = 0
    for device_id, watts in devices:
        total += watts
        reach = [fid for fid in dev_feeds.get(device_id, ()) if fid in active]
        if not dev_feeds.get(device_id):
            unconnected += 1
            reach = list(active)
        if not reach:
            for side in SIDES:
                lost[side] += watts
            continue
        sides = {side_of[fid] for fid in reach}
        if len(sides) == 1 and dev_feeds.get(device_id):
            single += 1
        for fid in reach:
            normal[fid] += watts / len(reach)
        for side in SIDES:
            rest = [fid for fid in reach if side_of[fid] != side]
            if not rest:
                lost[side] += watts
            for fid in rest:
                failover[side][fid] += watts / len(rest)
    present = {f.side for f in active.values()}
    problems: list[str] = []
    loads = []
    for f, pname in feeds:
        cap = feed_capacity_w(f.voltage, f.amperage, f.phase)
        pct = min(pct_rule, f.max_utilization)
        limit = cap * pct / 100
        other = PowerSide.B if f.side == PowerSide.A else PowerSide.A
        fl = FeedLoad(f.id, f.name, pname, f.side, f.status, f.type, f.phase, f.voltage, f.amperage,
                      f.max_utilization, cap, limit, pct, normal.get(f.id, Decimal(0)),
                      failover[other].get(f.id, Decimal(0)) if f.id in active else Decimal(0),
                      sold.get(f.contract_item_id))
        loads.append(fl)
        if fl.over:
            problems.append(f"feed {fl.label} ({f.side}) carries {_kw(fl.load_w)}, over {pct} % of its "
                            f"{f.amperage} A breaker ({_kw(limit)})")
    if not active:
        state = RedundancyState.NONE
    elif present != set(SIDES):
        state = RedundancyState.SINGLE
    else:
        state = RedundancyState.OK
        for side in SIDES:
            other = PowerSide.B if side == PowerSide.A else PowerSide.A
            for fl in loads:
                if fl.side == other and fl.id in active and fl.failover_w > fl.limit_w:
                    state = RedundancyState.FAIL
                    problems.append(f"with side {side} lost, feed {fl.label} ({other}) would carry "
                                    f"{_kw(fl.failover_w)}, over {fl.limit_pct} % of its {fl.amperage} A breaker "
                                    f"({_kw(fl.limit_w)})")
            if lost[side]:
                state = RedundancyState.FAIL
                problems.append(f"with side {side} lost, {_kw(lost[side])} of devices plugged into side {side} "
                                f"only would go dark")
    return RackPower(rack_id, label, room_id, room_name, tuple(loads), total, state, tuple(problems),
                     single, unconnected, dict(lost))


def power_verdict_in(s, rack_ids: Iterable[int]) -> list[str]:
    """What `power check` would say of these racks, one line per problem ("room/rack: …"); empty when
    every one passes the 80 % rule and its redundancy check. A write to the power chain that leaves a
    rack failing is kept (the chain is recorded as it is) but says so, and the command exits 1."""
    ids = {r for r in rack_ids if r is not None}
    out = []
    for rp in sorted(rack_power(s, ids).values(), key=lambda r: r.rack):
        if not rp.ok:
            out.extend(f"{rp.rack}: {p}" for p in rp.problems)
    return out


def power_verdict(db: Database, rack_ids: Iterable[int]) -> list[str]:
    with db.read_session() as s:
        return power_verdict_in(s, rack_ids)


def rack_power_of(db: Database, rack_id: int) -> RackPower:
    with db.read_session() as s:
        get_or_404(s, Rack, rack_id, "rack")
        return rack_power(s, [rack_id])[rack_id]


def room_power_in(s, room_ids: Iterable[int]) -> list[RoomPower]:
    rooms = s.execute(select(Room.id, Room.name).where(Room.id.in_(set(room_ids) or {-1})).order_by(Room.name)).all()
    racks = s.execute(select(Rack.id, Rack.room_id).where(Rack.room_id.in_([r[0] for r in rooms] or [-1]))).all()
    checked = rack_power(s, [r[0] for r in racks])
    by_room: dict[int, list[RackPower]] = defaultdict(list)
    for rp in checked.values():
        by_room[rp.room_id].append(rp)
    return [RoomPower(rid, name, tuple(sorted(by_room.get(rid, []), key=lambda r: r.rack))) for rid, name in rooms]


def room_power(db: Database, room_id: int) -> RoomPower:
    with db.read_session() as s:
        get_or_404(s, Room, room_id, "room")
        return room_power_in(s, [room_id])[0]


def site_power(db: Database, site_id: int) -> list[RoomPower]:
    with db.read_session() as s:
        rooms = s.execute(select(Room.id).where(Room.site_id == site_id)).scalars().all()
        return room_power_in(s, rooms)


# --- lists for the console and the CLI --------------------------------------------------------

@dataclass(frozen=True)
class PanelRow:
    id: int
    site: str
    room: str | None
    name: str
    voltage: int
    phase: str
    amperage: int
    ups: str | None
    feeds: int


@dataclass(frozen=True)
class FeedRow:
    id: int
    site: str
    panel: str
    rack: str | None
    rack_id: int | None
    name: str
    side: str
    status: str
    type: str
    supply: str
    phase: str
    voltage: int
    amperage: int
    max_utilization: int
    sold_to: str | None


def list_panels(db: Database, site_id: int | None = None) -> list[PanelRow]:
    with db.read_session() as s:
        counts = dict(s.execute(select(PowerFeed.power_panel_id, func.count(PowerFeed.id))
                                .group_by(PowerFeed.power_panel_id)).all())
        q = (select(PowerPanel, Site.code, Room.name).join(Site, Site.id == PowerPanel.site_id)
             .outerjoin(Room, Room.id == PowerPanel.room_id).order_by(Site.code, PowerPanel.name))
        if site_id is not None:
            q = q.where(PowerPanel.site_id == site_id)
        return [PanelRow(p.id, code, room, p.name, p.voltage, p.phase, p.amperage, p.ups, counts.get(p.id, 0))
                for p, code, room in s.execute(q)]


def list_feeds(db: Database, *, site_id: int | None = None, panel_id: int | None = None,
               rack_id: int | None = None, limit: int | None = None) -> list[FeedRow]:
    with db.read_session() as s:
        q = (select(PowerFeed, PowerPanel.name, Site.code, Rack.name, Room.name, Contract.number)
             .join(PowerPanel, PowerPanel.id == PowerFeed.power_panel_id).join(Site, Site.id == PowerPanel.site_id)
             .outerjoin(Rack, Rack.id == PowerFeed.rack_id).outerjoin(Room, Room.id == Rack.room_id)
             .outerjoin(ContractItem, ContractItem.id == PowerFeed.contract_item_id)
             .outerjoin(Contract, Contract.id == ContractItem.contract_id)
             .order_by(Site.code, PowerPanel.name, PowerFeed.name))
        if site_id is not None:
            q = q.where(PowerPanel.site_id == site_id)
        if panel_id is not None:
            q = q.where(PowerFeed.power_panel_id == panel_id)
        if rack_id is not None:
            q = q.where(PowerFeed.rack_id == rack_id)
        if limit:
            q = q.limit(limit)
        return [FeedRow(f.id, code, pname, f"{room}/{rname}" if rname else None, f.rack_id, f.name, f.side, f.status,
                        f.type, f.supply, f.phase, f.voltage, f.amperage, f.max_utilization, number)
                for f, pname, code, rname, room, number in s.execute(q)]


@dataclass(frozen=True)
class SupplyRow:
    device: str
    port: str
    pdu: str
    outlet: int
    feed: str
    side: str


@dataclass(frozen=True)
class RackPowerPanel:
    """What the rack's power panel shows: the rack checked, its supplies, its room's racks checked."""
    rack: RackPower
    supplies: list[SupplyRow]
    room: RoomPower


def rack_power_panel(db: Database, rack_id: int) -> RackPowerPanel:
    """The power panel of a rack click in one session: the room's racks are checked once (this rack
    among them) instead of the rack, then its room again (issue 26: 17 statements, now 10)."""
    with db.read_session() as s:
        room_id = s.execute(select(Rack.room_id).where(Rack.id == rack_id)).scalar()
        if room_id is None:
            get_or_404(s, Rack, rack_id, "rack")   # raises: the rack is gone
        room = room_power_in(s, [room_id])[0]
        rack = next(r for r in room.racks if r.rack_id == rack_id)
        return RackPowerPanel(rack, rack_supplies_in(s, rack_id), room)


def rack_supplies_in(s, rack_id: int) -> list[SupplyRow]:
    """Every supply of the rack's devices and the outlet, PDU, feed and side it is plugged into."""
    pdu_dev = Device.__table__.alias("pdu_dev")
    rows = s.execute(
        select(Device.name, PowerConnection.port, pdu_dev.c.name, PowerConnection.outlet, PowerPanel.name,
               PowerFeed.name, PowerFeed.side)
        .join(PowerConnection, PowerConnection.device_id == Device.id)
        .join(PduFeed, PduFeed.id == PowerConnection.pdu_id).join(pdu_dev, pdu_dev.c.id == PduFeed.device_id)
        .join(PowerFeed, PowerFeed.id == PduFeed.power_feed_id)
        .join(PowerPanel, PowerPanel.id == PowerFeed.power_panel_id)
        .where(Device.rack_id == rack_id).order_by(Device.name, PowerConnection.port)).all()
    return [SupplyRow(d, port, pdu, outlet, f"{panel}/{feed}", side)
            for d, port, pdu, outlet, panel, feed, side in rows]
