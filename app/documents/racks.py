"""Rack elevations, rack sheets and the per-site capacity report."""
from __future__ import annotations

import datetime as dt
from collections import defaultdict
from decimal import Decimal

from sqlalchemy import func, select

from app.documents.common import FLEET_OWNER, _check_lang, _l, _subsidiary_party, _units
from app.domain.clock import now_local
from app.domain.errors import NotFound
from app.domain.wording import free_text, room_label
from app.services.racknames import find_rack
from app.store.db import Database
from models import Device, GpuAsset, Rack, Room, Site, Subsidiary
from models.choices import GpuState, RackStatus
from reports import CapacityDoc, CapacityRow, ElevDevice, Party, RackElevation, RackSheetDoc, Reservation


# --------------------------------------------------------------------------- racks
def rack_path(s, rack_id: int) -> str:
    row = s.execute(select(Site.code, Room.name, Rack.name).join(Room, Room.id == Rack.room_id)
                    .join(Site, Site.id == Room.site_id).where(Rack.id == rack_id)).first()
    return f"{row[0]}/{row[1]}/{row[2]}" if row else str(rack_id)


def short_rack(s, rack_id: int, with_site: bool = True) -> str:
    """'FZ-MW1 A1/A01': the room's first word (its code in practice) keeps equal rack names apart."""
    site, room, rack = rack_path(s, rack_id).split("/", 2)
    label = f"{room.split()[0]}/{rack}" if room.strip() else rack
    return f"{site} {label}" if with_site else label


def paper_colour(hex_colour: str, amount: float = 0.55) -> str:
    """The screen's owner colour mixed with white, so black labels read on paper."""
    h = hex_colour.lstrip("#")
    try:
        rgb = [int(h[i:i + 2], 16) for i in (0, 2, 4)]
    except ValueError:
        return "#9FC5E8"
    return "#" + "".join(f"{round(c + (255 - c) * amount):02X}" for c in rgb)


def rack_elevation_doc(db: Database, rack_id: int, lang: str = "zh", today: dt.date | None = None) -> RackElevation:
    """The renderer's RackElevation from app.read.viewdata.rack_elevation (one query path for screen and paper)."""
    from app.read.viewdata import rack_elevation

    e = rack_elevation(db, rack_id, today)
    devices = tuple(
        ElevDevice(name=d.name, model=d.model, owner=d.owner_name or _l(FLEET_OWNER, lang), position=d.position,
                   height=d.height, face=d.face or "front", full_depth=d.full_depth,
                   colour=paper_colour(d.colour))
        for d in e.mounted)
    reservations = tuple(Reservation(customer=r.customer_name, face=r.face, u_from=r.u_from, u_to=r.u_to)
                         for r in e.reservations)
    # English: codes rather than Chinese names (the site's code; the room's first word, as short_rack)
    site = f"{e.site_code} {free_text(e.site_name, lang)}".strip()
    room = room_label(e.room_name, lang)
    return RackElevation(name=e.name, site=site, room=room, u_height=e.u_height,
                         power_capacity_kw=e.power_capacity_kw, power_typical_kw=e.typical_draw_kw,
                         devices=devices, reservations=reservations, customer=e.lessee_name or "")


def _rack_subsidiary(s, rack_id: int, lang: str) -> Party | None:
    sub = s.execute(select(Subsidiary).join(Site, Site.subsidiary_id == Subsidiary.id)
                    .join(Room, Room.site_id == Site.id).join(Rack, Rack.room_id == Room.id)
                    .where(Rack.id == rack_id)).scalars().first()
    return _subsidiary_party(sub, lang) if sub else None


def rack_sheet_doc(db: Database, rack: int | str, *, language: str = "zh") -> RackSheetDoc:
    """One rack's elevation sheet; `rack` as find_rack accepts it."""
    lang = _check_lang(language) or "zh"
    rack_id = find_rack(db, rack)
    elevation = rack_elevation_doc(db, rack_id, lang)
    with db.session() as s:
        tag = s.execute(select(Rack.asset_tag).where(Rack.id == rack_id)).scalar_one()
        number = tag or rack_path(s, rack_id)
        sub = _rack_subsidiary(s, rack_id, lang)
    return RackSheetDoc(rack=elevation, subsidiary=sub, number=number, generated_at=now_local(), language=lang)


# --------------------------------------------------------------------------- capacity
def capacity_doc(db: Database, site_code: str, *, language: str = "zh") -> CapacityDoc:
    """Per site: every rack (decommissioned ones left out) with units and power used, and GPUs by state.

    Units and power follow app.read.viewdata.room_layout (mounted devices' height; typical else maximum
    watts of devices not being decommissioned). GPUs count where their server is mounted.
    """
    from app.read.viewdata import room_layout

    lang = _check_lang(language) or "zh"
    with db.session() as s:
        site = s.execute(select(Site).where(Site.code == str(site_code).strip())).scalar_one_or_none()
        if site is None:
            codes = ", ".join(s.execute(select(Site.code).order_by(Site.code)).scalars())
            raise NotFound(f"there is no site {site_code}; the sites are {codes or '(none)'}")
        room_ids = list(s.execute(select(Room.id).where(Room.site_id == site.id).order_by(Room.name)).scalars())
        gpu_rows = s.execute(
            select(Device.rack_id, GpuAsset.state, func.count(GpuAsset.id))
            .join(Device, Device.id == GpuAsset.device_id).join(Rack, Rack.id == Device.rack_id)
            .join(Room, Room.id == Rack.room_id).where(Room.site_id == site.id)
            .group_by(Device.rack_id, GpuAsset.state)).all()
        sub = _subsidiary_party(site.subsidiary, lang)
        site_label = f"{site.code} {free_text(site.name, lang)}".strip()  # English: the code, not a Chinese name
        site_code_ = site.code
    gpus: dict[int, dict[str, int]] = defaultdict(dict)
    present: set[str] = set()
    for rack_id, state, n in gpu_rows:
        gpus[rack_id][state] = int(n)
        present.add(state)
    states = [st for st in GpuState.values() if st in present]
    rows = []
    for room_id in room_ids:
        layout = room_layout(db, room_id)
        for r in sorted(layout.racks, key=lambda r: r.name):
            if r.status == RackStatus.DECOMMISSIONED:
                continue
            by_state = {GpuState.label(st, lang): gpus[r.id].get(st, 0) for st in states}
            rows.append(CapacityRow(room=room_label(layout.name, lang), rack=r.name, units_used=_units(r.used_units),
                                    units_total=r.u_height, power_used_kw=r.typical_draw_kw,
                                    power_capacity_kw=r.power_capacity_kw, gpus_by_state=by_state,
                                    leased_u=r.leased_u, reserved_u=r.reserved_u, free_u=r.free_u))
    return CapacityDoc(site=site_label, rows=tuple(rows), generated_at=now_local(),
                       gpu_states=tuple(GpuState.label(st, lang) for st in states), subsidiary=sub,
                       number=f"CAP-{site_code_}-{now_local():%Y%m%d}", language=lang,
                       power=_capacity_power(db, room_ids, lang))


def _capacity_power(db: Database, room_ids: list[int], lang: str) -> tuple:
    """The power-chain rows of the capacity report: racks fed by feeds (app/services/power.py)."""
    from app.read.power import room_power_in
    from models.choices import RedundancyState
    from reports.power import PowerRackRow

    def kw(w: Decimal) -> Decimal:
        return (Decimal(w) / 1000).quantize(Decimal("0.01"))

    with db.session() as s:
        rooms = room_power_in(s, room_ids)
    return tuple(
        PowerRackRow(room=room_label(room.room, lang), rack=r.rack.split("/", 1)[-1], a_kw=kw(r.side_load("A")),
                     a_limit_kw=kw(r.side_limit("A")), b_kw=kw(r.side_load("B")), b_limit_kw=kw(r.side_limit("B")),
                     over_feeds=len(r.over_limit), verdict=RedundancyState.label(r.redundancy, lang),
                     colour=RedundancyState.colour(r.redundancy), failing=not r.ok, problems="; ".join(r.problems))
        for room in rooms for r in room.racks if r.feeds)
