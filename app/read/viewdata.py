"""Read models for the console's pictures: rack elevation, room floor, dashboard, coverage, site plot.

Plain frozen dataclasses built from SQL, no Qt and nothing ORM-bound, so a background
operation can build them and hand them to a widget. Everything that scales with the size of
the estate (racks, devices, GPUs, statements) is aggregated in SQL with GROUP BY; only the
handful of rows a picture shows (one rack's devices, one room's racks, one region's children)
come back as rows.
"""
from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal

from sqlalchemy import and_, case, func, or_, select
from sqlalchemy.orm import aliased

from app.domain.money import percent
from app.domain.rating import local_today
from app.domain.regions import PLACEHOLDER_NAMES, join_region_names, nearest_per_subsidiary
from app.read.power import RackPower, rack_power
from app.read.space import RackSpace, leases_on, rack_space
from app.store.db import Database
from models import (
    Contract,
    Coverage,
    Customer,
    Device,
    DeviceType,
    GpuAsset,
    GpuModel,
    Rack,
    RackReservation,
    Region,
    Room,
    Site,
    Statement,
    Subsidiary,
)
from models.choices import (
    LIVE_CONTRACT,
    DeviceStatus,
    GpuState,
    RackStatus,
    ReservationStatus,
    StatementKind,
    StatementStatus,
)

ZERO = Decimal(0)
KW = Decimal(1000)

# Owner colours: distinguishable on white and under white text; the fleet (our own servers) has
# its own colour so "ours" versus "theirs" reads at a glance.
OWNER_PALETTE = (
    "#1e88e5", "#43a047", "#fb8c00", "#8e24aa", "#00897b", "#e53935",
    "#6d4c41", "#3949ab", "#c0ca33", "#d81b60", "#00acc1", "#7cb342",
)
FLEET_COLOUR = "#455a64"


# The power budget's figure for a device (app.services.dcim.check_placement): typical, else maximum.
_DEVICE_WATTS = func.coalesce(DeviceType.typical_power_w, DeviceType.max_power_w, 0)


def owner_colour(customer_id: int | None) -> str:
    if customer_id is None:
        return FLEET_COLOUR
    return OWNER_PALETTE[customer_id % len(OWNER_PALETTE)]


def _dec(value, places: str = "0.01") -> Decimal:
    if value is None:
        return ZERO
    return Decimal(str(value)).quantize(Decimal(places), rounding=ROUND_HALF_UP)  # as app/domain/money.py rounds


def _pct(part: Decimal, whole: Decimal) -> Decimal:
    return percent(part, whole) if whole else ZERO


# --------------------------------------------------------------------------- rack elevation
@dataclass(frozen=True)
class ElevationDevice:
    id: int
    name: str
    model: str
    role: str
    owner_id: int | None
    owner_name: str | None          # None: the company's own fleet
    position: Decimal | None        # lowest U occupied; None when in the rack but not mounted
    height: Decimal                 # in U, 0.5 steps; 0 for zero-U (PDUs, cable managers)
    face: str | None
    full_depth: bool
    status: str
    colour: str
    typical_power_w: int
    version: int | None = None      # the record's version as drawn (a stale drag is refused)

    @property
    def top(self) -> Decimal:
        return (self.position or ZERO) + self.height

    def occupies(self, face: str) -> bool:
        """Does the block take space on `face`? Full-depth devices take both faces; status does not matter."""
        return self.position is not None and self.height > 0 and (self.face == face or self.full_depth)


@dataclass(frozen=True)
class ElevationReservation:
    id: int
    customer_id: int
    customer_name: str
    face: str
    u_from: int
    u_to: int
    start_date: dt.date
    end_date: dt.date | None
    colour: str


@dataclass(frozen=True)
class ElevationLease:
    """Units leased to one customer on the day shown (face None: both faces)."""
    id: int
    customer_id: int
    customer_name: str
    face: str | None
    u_from: int
    u_to: int
    start_date: dt.date
    end_date: dt.date | None
    cage: str | None
    colour: str


@dataclass(frozen=True)
class RackElevationData:
    rack_id: int
    name: str
    status: str
    site_code: str
    site_name: str
    room_id: int
    room_name: str
    u_height: int
    power_capacity_kw: Decimal
    typical_draw_kw: Decimal
    lessee_name: str | None
    devices: tuple[ElevationDevice, ...]
    reservations: tuple[ElevationReservation, ...]
    free_front: tuple[int, ...]
    free_rear: tuple[int, ...]
    leases: tuple[ElevationLease, ...] = ()
    space: RackSpace | None = None  # leased, reserved, used and free U (app/read/space.py)
    power: RackPower | None = None  # feeds, A/B loads, the 80 % rule and N redundancy (app/services/power.py)

    def free_units(self, face: str) -> tuple[int, ...]:
        return self.free_front if face == "front" else self.free_rear

    @property
    def mounted(self) -> tuple[ElevationDevice, ...]:
        return tuple(d for d in self.devices if d.position is not None and d.height > 0)

    @property
    def unmounted(self) -> tuple[ElevationDevice, ...]:
        return tuple(d for d in self.devices if d.position is None or d.height == 0)

    @property
    def power_pct(self) -> Decimal:
        return _pct(self.typical_draw_kw, self.power_capacity_kw)

    def device(self, device_id: int) -> ElevationDevice | None:
        return next((d for d in self.devices if d.id == device_id), None)


def free_units(u_height: int, devices, face: str, ignore_id: int | None = None) -> tuple[int, ...]:
    """Whole units on `face` that no mounted device touches (half-U devices block their unit)."""
    taken: set[int] = set()
    for d in devices:
        if d.id == ignore_id or not d.occupies(face):
            continue
        u = int(d.position)  # floor: a device at 3.5 touches unit 3
        while u < d.top:
            taken.add(u)
            u += 1
    return tuple(u for u in range(1, u_height + 1) if u not in taken)


def rack_elevation(db: Database, rack_id: int, today: dt.date | None = None) -> RackElevationData:
    today = today or local_today()
    lessee = aliased(Customer)
    with db.session() as s:
        head = s.execute(
            select(Rack.id, Rack.name, Rack.status, Rack.u_height, Rack.power_capacity_kw,
                   Room.id, Room.name, Site.code, Site.name, lessee.name)
            .join(Room, Room.id == Rack.room_id).join(Site, Site.id == Room.site_id)
            .outerjoin(lessee, lessee.id == Rack.customer_id)
            .where(Rack.id == rack_id)).first()
        if head is None:
            from app.domain.errors import NotFound
            raise NotFound(f"rack {rack_id} does not exist (it may have been deleted by someone else)")
        rows = s.execute(
            select(Device.id, Device.name, DeviceType.manufacturer, DeviceType.model, DeviceType.role,
                   Device.owner_customer_id, Customer.name, Device.position, DeviceType.u_height,
                   Device.face, DeviceType.is_full_depth, Device.status, _DEVICE_WATTS, Device.version)
            .join(DeviceType, DeviceType.id == Device.device_type_id)
            .outerjoin(Customer, Customer.id == Device.owner_customer_id)
            .where(Device.rack_id == rack_id)
            .order_by(Device.position.desc(), Device.id)).all()
        res_rows = s.execute(
            select(RackReservation.id, RackReservation.customer_id, Customer.name, RackReservation.face,
                   RackReservation.u_from, RackReservation.u_to, RackReservation.start_date,
                   RackReservation.end_date)
            .join(Customer, Customer.id == RackReservation.customer_id)
            .where(RackReservation.rack_id == rack_id,
                   RackReservation.status == ReservationStatus.ACTIVE,
                   or_(RackReservation.end_date.is_(None), RackReservation.end_date >= today))
            .order_by(RackReservation.u_from)).all()
        leases = tuple(ElevationLease(l.id, l.customer_id, l.customer, l.face, l.u_from, l.u_to, l.start_date,
                                      l.end_date, l.cage, owner_colour(l.customer_id))
                       for l in leases_on(s, today, [rack_id]))
        space = rack_space(s, [rack_id], today)[rack_id]
        power = rack_power(s, [rack_id])[rack_id]
    devices = tuple(
        ElevationDevice(
            id=r[0], name=r[1], model=f"{r[2]} {r[3]}".strip(), role=r[4], owner_id=r[5], owner_name=r[6],
            position=_dec(r[7], "0.1") if r[7] is not None else None, height=_dec(r[8], "0.1"),
            face=r[9], full_depth=bool(r[10]), status=r[11], colour=owner_colour(r[5]),
            typical_power_w=int(r[12] or 0), version=r[13])
        for r in rows)
    reservations = tuple(
        ElevationReservation(id=r[0], customer_id=r[1], customer_name=r[2], face=r[3], u_from=r[4],
                             u_to=r[5], start_date=r[6], end_date=r[7], colour=owner_colour(r[1]))
        for r in res_rows)
    draw_w = sum(d.typical_power_w for d in devices if d.status != DeviceStatus.DECOMMISSIONING)
    u_height = int(head[3])
    return RackElevationData(
        rack_id=head[0], name=head[1], status=head[2], site_code=head[7], site_name=head[8],
        room_id=head[5], room_name=head[6], u_height=u_height, power_capacity_kw=_dec(head[4]),
        typical_draw_kw=_dec(Decimal(draw_w) / KW), lessee_name=head[9], devices=devices,
        reservations=reservations, free_front=free_units(u_height, devices, "front"),
        free_rear=free_units(u_height, devices, "rear"), leases=leases, space=space, power=power)


# --------------------------------------------------------------------------- room floor
@dataclass(frozen=True)
class RoomRack:
    id: int
    name: str
    grid_row: int | None
    grid_col: int | None
    u_height: int
    used_units: Decimal
    utilisation_pct: Decimal
    power_capacity_kw: Decimal
    typical_draw_kw: Decimal
    power_pct: Decimal
    status: str
    status_colour: str
    lessee_name: str | None
    device_count: int
    cage_id: int | None = None
    leased_u: int = 0     # on the day shown, by any customer (app/read/space.py)
    reserved_u: int = 0   # held by an active reservation and not leased
    free_u: int = 0       # neither leased, reserved nor used by a device
    lessees: tuple[str, ...] = ()  # customers holding U ranges today


@dataclass(frozen=True)
class RoomCage:
    id: int
    name: str
    lessee_name: str | None
    rack_ids: tuple[int, ...]


@dataclass(frozen=True)
class RoomLayoutData:
    room_id: int
    name: str
    site_code: str
    site_name: str
    cooling: str
    grid_rows: int
    grid_cols: int
    racks: tuple[RoomRack, ...]
    cages: tuple[RoomCage, ...] = ()

    @property
    def placed(self) -> tuple[RoomRack, ...]:
        return tuple(r for r in self.racks if r.grid_row is not None and r.grid_col is not None)

    @property
    def unplaced(self) -> tuple[RoomRack, ...]:
        return tuple(r for r in self.racks if r.grid_row is None or r.grid_col is None)


def room_layout(db: Database, room_id: int) -> RoomLayoutData:
    from app.domain.errors import NotFound
    with db.session() as s:
        head = s.execute(select(Room.id, Room.name, Site.code, Site.name, Room.cooling, Room.grid_rows,
                                Room.grid_cols).join(Site, Site.id == Room.site_id)
                         .where(Room.id == room_id)).first()
        if head is None:
            raise NotFound(f"room {room_id} does not exist (it may have been deleted by someone else)")
        usage_r = (select(Device.rack_id.label("rack_id"),
                          func.sum(case((Device.position.is_not(None), DeviceType.u_height),
                                        else_=0)).label("used_u"),
                          func.sum(case((Device.status != DeviceStatus.DECOMMISSIONING,
                                         _DEVICE_WATTS), else_=0)).label("watts"),
                          func.count(Device.id).label("n"))
                   .join(DeviceType, DeviceType.id == Device.device_type_id)
                   .join(Rack, Rack.id == Device.rack_id)
                   .where(Rack.room_id == room_id)
                   .group_by(Device.rack_id).subquery())
        rows = s.execute(
            select(Rack.id, Rack.name, Rack.grid_row, Rack.grid_col, Rack.u_height, Rack.power_capacity_kw,
                   Rack.status, Customer.name, usage_r.c.used_u, usage_r.c.watts, usage_r.c.n, Rack.cage_id)
            .outerjoin(Customer, Customer.id == Rack.customer_id)
            .outerjoin(usage_r, usage_r.c.rack_id == Rack.id)
            .where(Rack.room_id == room_id)
            .order_by(Rack.grid_row, Rack.grid_col, Rack.name)).all()
        from models import Cage
        today = local_today()
        ids = [r[0] for r in rows]
        space = rack_space(s, ids, today)
        holders: dict[int, list[str]] = {}
        cage_holder: dict[str, str] = {}
        for l in leases_on(s, today, ids):
            if l.customer not in holders.setdefault(l.rack_id, []):
                holders[l.rack_id].append(l.customer)
            if l.cage:
                cage_holder[l.cage] = l.customer
        cage_rows = s.execute(select(Cage.id, Cage.name).where(Cage.room_id == room_id).order_by(Cage.name)).all()
    cages = tuple(RoomCage(cid, cname, cage_holder.get(cname), tuple(r[0] for r in rows if r[11] == cid))
                  for cid, cname in cage_rows)
    racks = []
    for r in rows:
        used = min(_dec(r[8], "0.1"), Decimal(r[4]))
        draw = _dec(Decimal(r[9] or 0) / KW)
        cap = _dec(r[5])
        racks.append(RoomRack(
            id=r[0], name=r[1], grid_row=r[2], grid_col=r[3], u_height=int(r[4]), used_units=used,
            utilisation_pct=_pct(used, Decimal(r[4])), power_capacity_kw=cap, typical_draw_kw=draw,
            power_pct=_pct(draw, cap), status=r[6], status_colour=RackStatus.colour(r[6]),
            lessee_name=r[7], device_count=int(r[10] or 0), cage_id=r[11],
            leased_u=space[r[0]].leased_u, reserved_u=space[r[0]].reserved_u, free_u=space[r[0]].free_u,
            lessees=tuple(holders.get(r[0], ()))))
    return RoomLayoutData(room_id=head[0], name=head[1], site_code=head[2], site_name=head[3], cooling=head[4],
                          grid_rows=int(head[5]), grid_cols=int(head[6]), racks=tuple(racks), cages=cages)


def utilisation_colour(pct: Decimal | float) -> str:
    """Green when there is room, amber when filling, red when (nearly) full; grey when empty."""
    p = float(pct)
    if p <= 0:
        return "#e0e0e0"
    if p < 50:
        return "#81c784"
    if p < 80:
        return "#ffd54f"
    if p < 95:
        return "#ffb74d"
    return "#e57373"


# --------------------------------------------------------------------------- dashboard
@dataclass(frozen=True)
class SiteUtilisation:
    site_id: int
    code: str
    name: str
    racks: int
    units_total: int
    units_used: Decimal
    utilisation_pct: Decimal
    power_capacity_kw: Decimal      # the site's own figure, or the sum of its racks' when unset
    typical_draw_kw: Decimal
    power_pct: Decimal


@dataclass(frozen=True)
class GpuFleetCount:
    model: str
    state: str
    count: int


@dataclass(frozen=True)
class EndingContract:
    id: int
    number: str
    customer_name: str
    end_date: dt.date
    days_left: int


@dataclass(frozen=True)
class RevenueMonth:
    period: str       # YYYY-MM
    net: Decimal      # subtotal, credit notes subtracted
    gross: Decimal    # total with tax


@dataclass(frozen=True)
class DashboardData:
    as_of: dt.date
    sites: tuple[SiteUtilisation, ...] = ()
    gpu_fleet: tuple[GpuFleetCount, ...] = ()
    ending_30: int = 0
    ending_60: int = 0
    ending_90: int = 0
    ending_soon: tuple[EndingContract, ...] = ()
    revenue: tuple[RevenueMonth, ...] = ()

    @property
    def gpu_models(self) -> tuple[str, ...]:
        return tuple(sorted({c.model for c in self.gpu_fleet}))

    @property
    def gpu_states(self) -> tuple[str, ...]:
        present = {c.state for c in self.gpu_fleet}
        return tuple(s for s in GpuState.values() if s in present)

    @property
    def gpu_total(self) -> int:
        return sum(c.count for c in self.gpu_fleet)

    def gpu_count(self, model: str, state: str) -> int:
        return sum(c.count for c in self.gpu_fleet if c.model == model and c.state == state)




def dashboard_data(db: Database, today: dt.date | None = None, revenue_months: int = 24,
                   soonest: int = 10) -> DashboardData:
    today = today or local_today()
    with db.session() as s:
        # racks per site: counts, units and capacity (decommissioned racks left out)
        rack_rows = s.execute(
            select(Site.id, Site.code, Site.name, Site.power_capacity_kw,
                   func.count(Rack.id), func.coalesce(func.sum(Rack.u_height), 0),
                   func.coalesce(func.sum(Rack.power_capacity_kw), 0))
            .select_from(Site)
            .outerjoin(Room, Room.site_id == Site.id)
            .outerjoin(Rack, and_(Rack.room_id == Room.id, Rack.status != RackStatus.DECOMMISSIONED))
            .group_by(Site.id, Site.code, Site.name, Site.power_capacity_kw)
            .order_by(Site.code)).all()
        # a mounted device takes its units whatever its status; a decommissioning one draws no power
        live = Device.status != DeviceStatus.DECOMMISSIONING
        use_rows = s.execute(
            select(Room.site_id,
                   func.sum(case((Device.position.is_not(None), DeviceType.u_height), else_=0)),
                   func.sum(case((live, _DEVICE_WATTS), else_=0)))
            .select_from(Device)
            .join(DeviceType, DeviceType.id == Device.device_type_id)
            .join(Rack, Rack.id == Device.rack_id)
            .join(Room, Room.id == Rack.room_id)
            .where(Rack.status != RackStatus.DECOMMISSIONED)
            .group_by(Room.site_id)).all()
        # grouped by the ids over the (gpu_model_id, state) index (an index-only scan of 400,000
        # GPUs), the dozen model names looked up afterwards; counts of models sharing a name add up
        by_id = s.execute(
            select(GpuAsset.gpu_model_id, GpuAsset.state, func.count())
            .group_by(GpuAsset.gpu_model_id, GpuAsset.state)).all()
        model_names = dict(s.execute(select(GpuModel.id, GpuModel.name)).all())
        fleet: dict[tuple[str, str], int] = defaultdict(int)
        for model_id, state, n in by_id:
            if model_id in model_names:
                fleet[(model_names[model_id], state)] += n
        fleet_rows = [(m, st, n) for (m, st), n in fleet.items()]
        d30, d60, d90 = (today + dt.timedelta(days=n) for n in (30, 60, 90))
        window = and_(Contract.status.in_(LIVE_CONTRACT), Contract.end_date >= today, Contract.end_date <= d90)
        ending = s.execute(
            select(func.coalesce(func.sum(case((Contract.end_date <= d30, 1), else_=0)), 0),
                   func.coalesce(func.sum(case((Contract.end_date <= d60, 1), else_=0)), 0),
                   func.count(Contract.id))
            .where(window)).one()
        soon_rows = s.execute(
            select(Contract.id, Contract.number, Customer.name, Contract.end_date)
            .join(Customer, Customer.id == Contract.customer_id)
            .where(window).order_by(Contract.end_date, Contract.number).limit(soonest)).all()
        sign = case((Statement.kind == StatementKind.CREDIT_NOTE, -1), else_=1)
        rev_rows = s.execute(
            select(Statement.period, func.sum(sign * func.abs(Statement.subtotal)),
                   func.sum(sign * func.abs(Statement.total)))
            .where(Statement.status == StatementStatus.ISSUED)
            .group_by(Statement.period)
            .order_by(Statement.period.desc()).limit(revenue_months)).all()
    usage = {r[0]: (r[1], r[2]) for r in use_rows}
    sites = []
    for sid, code, name, site_cap, n, units, rack_cap in rack_rows:
        used_u, watts = usage.get(sid, (0, 0))
        used = min(_dec(used_u, "0.1"), Decimal(units))
        cap = _dec(site_cap) if site_cap and Decimal(str(site_cap)) > 0 else _dec(rack_cap)
        draw = _dec(Decimal(watts or 0) / KW)
        sites.append(SiteUtilisation(
            site_id=sid, code=code, name=name, racks=int(n), units_total=int(units), units_used=used,
            utilisation_pct=_pct(used, Decimal(units)), power_capacity_kw=cap, typical_draw_kw=draw,
            power_pct=_pct(draw, cap)))
    return DashboardData(
        as_of=today, sites=tuple(sites),
        gpu_fleet=tuple(GpuFleetCount(m, st, int(c)) for m, st, c in sorted(fleet_rows)),
        ending_30=int(ending[0]), ending_60=int(ending[1]), ending_90=int(ending[2]),
        ending_soon=tuple(EndingContract(r[0], r[1], r[2], r[3], (r[3] - today).days) for r in soon_rows),
        revenue=tuple(RevenueMonth(p, _dec(net), _dec(gross)) for p, net, gross in reversed(rev_rows)))


# --------------------------------------------------------------------------- regions and coverage
@dataclass(frozen=True)
class CoverageInfo:
    coverage_id: int
    subsidiary_id: int
    subsidiary_code: str
    subsidiary_name: str
    site_id: int | None
    site_code: str | None
    site_name: str | None
    service_level: str
    response_hours: int
    region_code: str          # the region the entry is written on
    region_name: str
    inherited: bool = False   # True when it is written on an ancestor of the node asked about

    @property
    def label(self) -> str:
        where = f" / {self.site_name}" if self.site_name else ""
        return f"{self.subsidiary_name}{where}"


@dataclass(frozen=True)
class RegionNode:
    code: str
    name: str
    level: int
    parent_code: str | None
    child_count: int
    coverage: tuple[CoverageInfo, ...] = ()   # nearest first: own entries, then the parent's, …

    @property
    def covered(self) -> bool:
        return bool(self.coverage)

    @property
    def own_coverage(self) -> tuple[CoverageInfo, ...]:
        return tuple(c for c in self.coverage if not c.inherited)


@dataclass(frozen=True)
class RegionCoverage:
    """The answer to "who serves …": the region, its path from the province down, the coverage."""
    code: str
    name: str
    level: int
    path: tuple[tuple[str, str], ...]          # (code, name) from the province to this region
    coverage: tuple[CoverageInfo, ...]         # nearest first; empty when nobody covers it

    @property
    def full_name(self) -> str:
        """Province first, placeholder levels (市辖区, 县) left out: 重庆市城口县."""
        return join_region_names(n for _c, n in self.path)


def _coverage_rows(s, codes) -> dict[str, list[CoverageInfo]]:
    codes = [c for c in codes if c]
    if not codes:
        return {}
    site_alias = aliased(Site)
    rows = s.execute(
        select(Coverage.id, Subsidiary.id, Subsidiary.code, Subsidiary.name, site_alias.id, site_alias.code,
               site_alias.name, Coverage.service_level, Coverage.response_hours, Region.code, Region.name)
        .join(Subsidiary, Subsidiary.id == Coverage.subsidiary_id)
        .join(Region, Region.code == Coverage.region_code)
        .outerjoin(site_alias, site_alias.id == Coverage.site_id)
        .where(Coverage.region_code.in_(codes))
        .order_by(Coverage.region_code, Subsidiary.code, site_alias.code)).all()
    out: dict[str, list[CoverageInfo]] = defaultdict(list)
    for r in rows:
        out[r[9]].append(CoverageInfo(*r))
    return out


def _ancestors(s, code: str | None) -> list[tuple[str, str, int]]:
    """(code, name, level) from the region itself up to its province; at most three rows."""
    chain = []
    while code:
        row = s.execute(select(Region.code, Region.name, Region.level, Region.parent_code)
                        .where(Region.code == code)).first()
        if row is None:
            break
        chain.append((row[0], row[1], row[2]))
        code = row[3]
    return chain


def _inherit(entries: list[CoverageInfo]) -> tuple[CoverageInfo, ...]:
    return tuple(replace(c, inherited=True) for c in entries)


def _nearest(entries: list[CoverageInfo]) -> tuple[CoverageInfo, ...]:
    """Who serves: the rule of app.services.reference.who_serves (the nearest entry per subsidiary
    and site), kept nearest first as the tree shows it."""
    return tuple(nearest_per_subsidiary(entries))


def region_tree(db: Database, parent_code: str | None = None) -> tuple[RegionNode, ...]:
    """The children of `parent_code` (provinces when None), each with who covers it.

    Lazy by design: the tree asks for one level when a node is expanded. A node is covered by
    its own entries and by those of every ancestor (a district is covered when its city or
    province is); own entries come first. A placeholder level left by an old load (市辖区, 县)
    is not a node: its children stand in its place, under the province.
    """

    child = aliased(Region)
    counts = (select(child.parent_code.label("code"), func.count(child.code).label("n"))
              .where(child.parent_code.is_not(None)).group_by(child.parent_code).subquery())

    def children(s, cond):
        return s.execute(select(Region.code, Region.name, Region.level, Region.parent_code,
                                func.coalesce(counts.c.n, 0))
                         .outerjoin(counts, counts.c.code == Region.code)
                         .where(cond).order_by(Region.code)).all()

    with db.session() as s:
        rows = children(s, Region.parent_code.is_(None) if parent_code is None else Region.parent_code == parent_code)
        stand_ins = {r[0] for r in rows if r[1] in PLACEHOLDER_NAMES}
        if stand_ins:
            rows = sorted([r for r in rows if r[0] not in stand_ins] +
                          list(children(s, Region.parent_code.in_(stand_ins))), key=lambda r: r[0])
        chain = _ancestors(s, parent_code)
        cov = _coverage_rows(s, [r[0] for r in rows] + [c for c, _n, _l in chain] + sorted(stand_ins))
    inherited: list[CoverageInfo] = []
    for code, _n, _l in chain:     # nearest ancestor first
        inherited.extend(cov.get(code, []))
    return tuple(RegionNode(code=r[0], name=r[1], level=r[2], parent_code=r[3], child_count=int(r[4]),
                            coverage=_nearest(list(cov.get(r[0], [])) +
                                              list(_inherit(cov.get(r[3], []) if r[3] in stand_ins else [])) +
                                              list(_inherit(inherited))))
                 for r in rows)


def coverage_for(db: Database, region_code: str) -> RegionCoverage | None:
    """Who serves `region_code`: its own coverage, else its city's, else its province's."""

    with db.session() as s:
        chain = _ancestors(s, region_code)
        if not chain:
            return None
        cov = _coverage_rows(s, [c for c, _n, _l in chain])
    entries = _nearest(list(cov.get(chain[0][0], [])) +
                       [e for code, _n, _l in chain[1:] for e in _inherit(cov.get(code, []))])
    code, name, level = chain[0]
    return RegionCoverage(code=code, name=name, level=level,
                          path=tuple((c, n) for c, n, _l in reversed(chain) if c == code or n not in PLACEHOLDER_NAMES),
                          coverage=tuple(entries))


def find_regions(db: Database, text: str, limit: int = 20) -> tuple[tuple[str, str, int], ...]:
    """(code, name, level) of regions whose code starts with, or whose name contains, `text`."""

    text = (text or "").strip()
    if not text or "\x00" in text:  # a NUL is in no stored name (PostgreSQL refuses it as a parameter)
        return ()
    with db.session() as s:
        if text.isdigit():
            cond = Region.code.like(text + "%")
        else:
            cond = Region.name.like("%" + text.replace("%", "").replace("_", "") + "%")
        rows = s.execute(select(Region.code, Region.name, Region.level)
                         .where(cond, Region.name.not_in(PLACEHOLDER_NAMES))
                         .order_by(Region.level, Region.code).limit(limit)).all()
    return tuple((r[0], r[1], r[2]) for r in rows)


REGION_SEPARATOR = " / "


def region_choices(db: Database) -> list[tuple[str, str]]:
    """(code, "广东省 / 深圳市 / 龙华区 440309") for every region, for a searchable picker: the whole
    path tells two districts of the same name apart (深圳 and 海口 both have a 龙华区); placeholder
    levels (市辖区) above the region are left out, as in reference.region_name."""

    with db.engine.connect() as conn:
        rows = conn.execute(select(Region.code, Region.name, Region.parent_code).order_by(Region.code)).all()
    by_code = {code: (name, parent) for code, name, parent in rows}

    def path(code: str) -> list[str]:
        names, seen = [], set()
        while code in by_code and code not in seen:
            seen.add(code)
            name, parent = by_code[code]
            names.append(name)
            code = parent
        names.reverse()
        return [n for n in names[:-1] if n not in PLACEHOLDER_NAMES] + names[-1:]
    return [(code, REGION_SEPARATOR.join(path(code)) + " " + code) for code, _n, _p in rows]


# Contracts that hold their racks for their term: signed or on the way to it.
HOLDING_CONTRACT = ("pending_approval", "approved", "active", "suspended")


def racks_free_for(db: Database, start: dt.date, end: dt.date, customer_id: int | None = None,
                   contract_id: int | None = None) -> list[tuple[int, str]]:
    """(id, "FZ1 / A101 / A01") of the racks a contract running start..end may lease: in service
    (available, or reserved or leased to this customer or to no one), and named by no other
    pending, approved, active or suspended contract whose term overlaps; a rack leased to another
    customer is free only when every such contract of theirs ends before `start`. `contract_id`
    is the contract being edited, whose own items do not count."""
    from models import ContractItem

    with db.session() as s:
        overlapping = (select(ContractItem.rack_id).join(Contract, Contract.id == ContractItem.contract_id)
                       .where(ContractItem.rack_id.is_not(None), Contract.status.in_(HOLDING_CONTRACT),
                              Contract.start_date <= end, Contract.end_date >= start,
                              Contract.id != (contract_id or -1)))
        busy = {r for (r,) in s.execute(overlapping)}
        ended_before = (select(ContractItem.rack_id).join(Contract, Contract.id == ContractItem.contract_id)
                        .where(ContractItem.rack_id.is_not(None), Contract.status.in_(HOLDING_CONTRACT),
                               Contract.end_date < start))
        handed_back = {r for (r,) in s.execute(ended_before)}
        rows = s.execute(select(Rack.id, Rack.status, Rack.customer_id, Site.code, Room.name, Rack.name)
                         .join(Room, Room.id == Rack.room_id).join(Site, Site.id == Room.site_id)
                         .order_by(Site.code, Room.name, Rack.name)).all()
    out = []
    for rid, status, owner, site, room, name in rows:
        if rid in busy or status not in (RackStatus.AVAILABLE, RackStatus.RESERVED, RackStatus.LEASED):
            continue
        if owner not in (None, customer_id) and not (status == RackStatus.LEASED and rid in handed_back):
            continue
        out.append((rid, f"{site} / {room} / {name}"))
    return out


def region_path(db: Database, region_code: str) -> tuple[str, ...]:
    """Codes from the province down to `region_code` (what a tree expands to show it); a
    placeholder level (市辖区) is no tree node, so it is left out."""

    with db.session() as s:
        return tuple(c for c, n, _l in reversed(_ancestors(s, region_code))
                     if c == region_code or n not in PLACEHOLDER_NAMES)


# --------------------------------------------------------------------------- site plot
# Approximate centres (lat, lon) of provincial capitals and the cities the business names.
# Enough to draw "who serves where" without map data; a region not listed falls back to its
# city, then its province's capital.
REGION_CENTRES: dict[str, tuple[float, float]] = {
    "110000": (39.904, 116.407), "120000": (39.125, 117.190), "130000": (38.042, 114.515),
    "140000": (37.870, 112.549), "150000": (40.842, 111.749), "210000": (41.805, 123.431),
    "220000": (43.817, 125.323), "230000": (45.803, 126.535), "310000": (31.230, 121.474),
    "320000": (32.060, 118.797), "330000": (30.274, 120.155), "340000": (31.821, 117.227),
    "350000": (26.074, 119.296), "360000": (28.682, 115.858), "370000": (36.651, 117.120),
    "410000": (34.747, 113.625), "420000": (30.593, 114.305), "430000": (28.228, 112.939),
    "440000": (23.129, 113.264), "450000": (22.817, 108.366), "460000": (20.044, 110.199),
    "500000": (29.563, 106.551), "510000": (30.572, 104.066), "520000": (26.647, 106.630),
    "530000": (25.038, 102.718), "540000": (29.652, 91.172), "610000": (34.341, 108.940),
    "620000": (36.061, 103.834), "630000": (36.617, 101.778), "640000": (38.487, 106.231),
    "650000": (43.825, 87.617),
    # capitals as cities, and the cities named in the business documents
    "110100": (39.904, 116.407), "120100": (39.125, 117.190), "310100": (31.230, 121.474),
    "500100": (29.563, 106.551), "130100": (38.042, 114.515), "320100": (32.060, 118.797),
    "320500": (31.299, 120.585), "330100": (30.274, 120.155), "330200": (29.868, 121.544),
    "350100": (26.074, 119.296), "350200": (24.480, 118.089), "350500": (24.874, 118.676),
    "370100": (36.651, 117.120), "370200": (36.067, 120.383), "210200": (38.914, 121.615),
    "420100": (30.593, 114.305), "430100": (28.228, 112.939), "440100": (23.129, 113.264),
    "440300": (22.543, 114.058), "440600": (23.022, 113.122), "441900": (23.021, 113.752),
    "460100": (20.044, 110.199), "460200": (18.253, 109.512), "460105": (20.008, 110.293),
    "460106": (20.031, 110.328), "460107": (20.003, 110.354), "460108": (20.030, 110.366),
    "510100": (30.572, 104.066), "520100": (26.647, 106.630), "520200": (26.593, 104.830),
    "520300": (27.725, 106.927), "610100": (34.341, 108.940),
}


@dataclass(frozen=True)
class SitePoint:
    id: int
    code: str
    name: str
    subsidiary_name: str
    status: str
    latitude: float
    longitude: float


@dataclass(frozen=True)
class ServedRegion:
    site_id: int
    region_code: str
    region_name: str
    latitude: float
    longitude: float
    approximate: bool      # True when the point is a city's or province capital's centre


@dataclass(frozen=True)
class SitePlotData:
    sites: tuple[SitePoint, ...]
    served: tuple[ServedRegion, ...]
    unplotted_sites: tuple[str, ...] = ()   # codes of sites without coordinates


def region_centre(code: str, site_coords: dict[str, tuple[float, float]] | None = None
                  ) -> tuple[tuple[float, float], bool] | None:
    """(lat, lon), approximate? for a region code: its own centre, a site inside it, its city, its province."""
    if code in REGION_CENTRES:
        return REGION_CENTRES[code], False
    if site_coords and code in site_coords:
        return site_coords[code], False
    for fallback in (code[:4] + "00", code[:2] + "0000"):
        if fallback in REGION_CENTRES:
            return REGION_CENTRES[fallback], True
    return None


def site_points(db: Database) -> SitePlotData:
    """Sites by latitude/longitude and the regions each serves (one line per site and region).

    Coverage written for a subsidiary without a site is drawn from every site of that subsidiary.
    """
    with db.session() as s:
        site_rows = s.execute(
            select(Site.id, Site.code, Site.name, Subsidiary.name, Site.status, Site.latitude, Site.longitude,
                   Site.subsidiary_id, Site.region_code)
            .join(Subsidiary, Subsidiary.id == Site.subsidiary_id).order_by(Site.code)).all()
        cov_rows = s.execute(
            select(Coverage.subsidiary_id, Coverage.site_id, Region.code, Region.name)
            .join(Region, Region.code == Coverage.region_code)
            .order_by(Region.code)).all()
    sites, unplotted = [], []
    by_sub: dict[int, list[int]] = defaultdict(list)
    site_coords: dict[str, tuple[float, float]] = {}
    for sid, code, name, sub, status, lat, lon, sub_id, region in site_rows:
        if lat is None or lon is None:
            unplotted.append(code)
            continue
        sites.append(SitePoint(sid, code, name, sub, status, float(lat), float(lon)))
        by_sub[sub_id].append(sid)
        site_coords.setdefault(region, (float(lat), float(lon)))
    plotted = {p.id for p in sites}
    served, seen = [], set()
    for sub_id, site_id, rcode, rname in cov_rows:
        centre = region_centre(rcode, site_coords)
        if centre is None:
            continue
        (lat, lon), approx = centre
        for sid in ([site_id] if site_id is not None else by_sub.get(sub_id, [])):
            if sid not in plotted or (sid, rcode) in seen:
                continue
            seen.add((sid, rcode))
            served.append(ServedRegion(sid, rcode, rname, lat, lon, approx))
    return SitePlotData(sites=tuple(sites), served=tuple(served), unplotted_sites=tuple(unplotted))


__all__ = [
    "ElevationDevice", "ElevationReservation", "ElevationLease", "RoomCage", "RackElevationData", "rack_elevation", "free_units",
    "RoomRack", "RoomLayoutData", "room_layout", "utilisation_colour", "owner_colour",
    "SiteUtilisation", "GpuFleetCount", "EndingContract", "RevenueMonth", "DashboardData", "dashboard_data",
    "CoverageInfo", "RegionNode", "RegionCoverage", "region_tree", "coverage_for", "find_regions",
    "region_path", "SitePoint", "ServedRegion", "SitePlotData", "site_points", "region_centre",
    "REGION_CENTRES", "FLEET_COLOUR", "OWNER_PALETTE",
]
