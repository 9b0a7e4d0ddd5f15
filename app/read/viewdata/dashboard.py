"""The dashboard's read model: sites' use, the GPU fleet, contracts ending, revenue by month (aggregated in SQL)."""
from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, replace
from decimal import Decimal

from sqlalchemy import and_, case, func, select

from app.domain.rating import local_today
from app.store.db import Database
from models import (
    Contract,
    Customer,
    Device,
    DeviceType,
    GpuAsset,
    GpuModel,
    Rack,
    Room,
    Site,
    Statement,
)
from models.choices import (
    LIVE_CONTRACT,
    DeviceStatus,
    GpuState,
    RackStatus,
    StatementKind,
    StatementStatus,
)
from app.read.viewdata.common import DEVICE_WATTS, KW, dec, pct

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
    return dashboard_data_and(db, today=today, revenue_months=revenue_months, soonest=soonest)[0]


def dashboard_data_and(db: Database, *first, today: dt.date | None = None, revenue_months: int = 24,
                       soonest: int = 10) -> list:
    """[the DashboardData, then what each of the `first` calls returned]: the calls (other independent reads
    of the same screen, the longest first) and the charts' three groups of reads all side by side on
    PostgreSQL (Database.read_together; issue 26: the main window's start sent them one after the other)."""
    today = today or local_today()
    *others, (ending, soon_rows, rev_rows), (rack_rows, use_rows), fleet_rows = db.read_together(
        *first, lambda: _contract_reads(db, today, revenue_months, soonest), lambda: _site_reads(db),
        lambda: _fleet_reads(db))
    return [_dashboard(today, rack_rows, use_rows, fleet_rows, ending, soon_rows, rev_rows), *others]


def counted_by_fleet(summary, charts: DashboardData):
    """`summary` (app.read.queries.summary, read with count_gpus=False) with its GPUs by state from the
    fleet chart's counts by model and state: every GPU has a model, so they add up to the same, and the
    400,000 GPUs of the large data are grouped once for the main window instead of twice (issue 26:
    160-190 ms of a two-core server each)."""
    by_state: dict[str, int] = defaultdict(int)
    for c in charts.gpu_fleet:
        by_state[c.state] += c.count
    return replace(summary, gpus=sum(by_state.values()), gpus_by_state=dict(by_state))


def _site_reads(db: Database):
    with db.read_session() as s:
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
                   func.sum(case((live, DEVICE_WATTS), else_=0)))
            .select_from(Device)
            .join(DeviceType, DeviceType.id == Device.device_type_id)
            .join(Rack, Rack.id == Device.rack_id)
            .join(Room, Room.id == Rack.room_id)
            .where(Rack.status != RackStatus.DECOMMISSIONED)
            .group_by(Room.site_id)).all()
    return rack_rows, use_rows


def _fleet_reads(db: Database):
    with db.read_session() as s:
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
        return [(m, st, n) for (m, st), n in fleet.items()]


def _contract_reads(db: Database, today: dt.date, revenue_months: int, soonest: int):
    with db.read_session() as s:
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
    return ending, soon_rows, rev_rows


def _dashboard(today, rack_rows, use_rows, fleet_rows, ending, soon_rows, rev_rows) -> DashboardData:
    usage = {r[0]: (r[1], r[2]) for r in use_rows}
    sites = []
    for sid, code, name, site_cap, n, units, rack_cap in rack_rows:
        used_u, watts = usage.get(sid, (0, 0))
        used = min(dec(used_u, "0.1"), Decimal(units))
        cap = dec(site_cap) if site_cap and Decimal(str(site_cap)) > 0 else dec(rack_cap)
        draw = dec(Decimal(watts or 0) / KW)
        sites.append(SiteUtilisation(
            site_id=sid, code=code, name=name, racks=int(n), units_total=int(units), units_used=used,
            utilisation_pct=pct(used, Decimal(units)), power_capacity_kw=cap, typical_draw_kw=draw,
            power_pct=pct(draw, cap)))
    return DashboardData(
        as_of=today, sites=tuple(sites),
        gpu_fleet=tuple(GpuFleetCount(m, st, int(c)) for m, st, c in sorted(fleet_rows)),
        ending_30=int(ending[0]), ending_60=int(ending[1]), ending_90=int(ending[2]),
        ending_soon=tuple(EndingContract(r[0], r[1], r[2], r[3], (r[3] - today).days) for r in soon_rows),
        revenue=tuple(RevenueMonth(p, dec(net), dec(gross)) for p, net, gross in reversed(rev_rows)))
