"""Import of the places: regions, sites, subsidiaries, rooms and racks (resolve, then write through the services)."""
from __future__ import annotations

import re
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from app.domain.errors import ValidationError
from app.domain.validators import region_level
from app.importexport.kinds.core import (
    _credit_code,
    _customer,
    _keep,
    _region_code,
    _room,
    _Row,
    _site,
    _status,
    _upsert,
)
from app.importexport.schema import HANDLERS
from app.services.entities import flush_or_refuse, flush_versioned, snapshot
from models import Cage, Coverage, Rack, Region, Room, Site, Subsidiary
from models.choices import RackStatus, SiteStatus


def _resolve_regions(s: Session, r: _Row) -> dict:
    code = r.get("code") or ""
    if not re.fullmatch(r"\d{6}", code):
        r.err("code", f"{code!r} is not a six-digit GB/T 2260 code")
    name = r.get("name") or ""
    if not name:
        r.err("name", "required")
    elif len(name) > 64:
        r.err("name", "longer than 64 characters")
    parent = r.get("parent") or None
    level = 1
    if parent:
        p = s.get(Region, parent)
        if p is None:
            r.err("parent", f"no region has the code {parent!r} (list parents before their children)")
        elif parent == code:
            r.err("parent", "a region cannot be its own parent")
        elif p.level >= 3:
            r.err("parent", f"{p.name} ({parent}) is a district; it has no sub-regions")
        else:   # GB/T 2260 says the level: 东城区 110101 is county level right under 北京市
            level = max(p.level + 1, region_level(code) if len(code) == 6 else 0)
    return {"code": code, "name": name, "parent_code": parent, "level": level}


def _write_regions(uow, r: _Row, v: dict) -> str:
    s = uow.session
    existing = s.get(Region, v["code"])
    if existing is None:
        region = Region(**v, updated_by=uow.actor.login)
        s.add(region)
        flush_or_refuse(s)
        uow.audit("region.create", "region", region.code, region.name, after=snapshot(region))
        return "created"
    before = snapshot(existing)
    changed = [k for k in ("name", "parent_code", "level") if getattr(existing, k) != v[k]]
    if not changed:
        return "unchanged"
    if "level" in changed:
        children = s.execute(select(func.count()).select_from(Region)
                             .where(Region.parent_code == existing.code)).scalar_one()
        if children:
            raise ValidationError({"parent_code": f"{existing.name} has {children} sub-region(s); "
                                                  "it cannot move to another level"})
    for k in changed:
        setattr(existing, k, v[k])
    flush_versioned(uow, existing, f"region {existing.code}")
    uow.audit("region.update", "region", existing.code, existing.name,
              before={k: before[k] for k in changed}, after={k: v[k] for k in changed})
    return "updated"


def _resolve_sites(s: Session, r: _Row) -> dict:
    v = {"code": r.get("code"), "name": r.get("name")}
    if r.has("slug"):
        v["slug"] = r.get("slug")
        if not v["code"] and v["slug"]:  # NetBox without a facility: the site that has the slug, else the slug
            v["code"] = s.execute(select(Site.code).where(func.lower(Site.slug) == v["slug"].lower())
                                  ).scalar_one_or_none() or v["slug"]
    if not v["code"]:
        r.err("code", "a site needs a code (or NetBox's facility or slug)")
    for col in ("address", "latitude", "longitude", "cooling", "power_capacity_kw"):
        if r.has(col):
            v[col] = r.get(col)
    if r.has("status"):
        v["status"] = _status("sites", r, SiteStatus.values(), SiteStatus.label)
    if r.has("region"):
        v["region_code"] = _region_code(s, r, "region")
    sub = r.get("subsidiary")
    if sub:
        sid = s.execute(select(Subsidiary.id).where(or_(Subsidiary.code == sub, Subsidiary.name == sub))
                        ).scalar_one_or_none()
        if sid is None:
            r.err("subsidiary", f"no subsidiary has the code {sub!r}")
        v["subsidiary_id"] = sid
    elif v.get("region_code") and not s.execute(select(Site.id).where(Site.code == v["code"])).first():
        v["subsidiary_id"] = _serving_subsidiary(s, r, v["region_code"])
    _keep(v, "status", "cooling", "power_capacity_kw", "slug")
    return v


def _serving_subsidiary(s: Session, r: _Row, region_code: str) -> int | None:
    """A new site without a subsidiary column (NetBox has none): the only subsidiary, or the one whose
    coverage holds the site's region or the nearest region above it."""
    subs = s.execute(select(Subsidiary.id, Subsidiary.code)).all()
    if len(subs) == 1:
        return subs[0][0]
    code: str | None = region_code
    while code:
        ids = sorted(set(s.execute(select(Coverage.subsidiary_id).where(Coverage.region_code == code)).scalars()))
        if len(ids) == 1:
            return ids[0]
        if len(ids) > 1:
            break
        code = s.execute(select(Region.parent_code).where(Region.code == code)).scalar_one_or_none()
    r.err("subsidiary", f"say which subsidiary operates this site (column subsidiary, one of "
          f"{', '.join(c for _i, c in subs) or 'none yet'}): region {region_code} is covered by "
          + ("several" if code else "none"))
    return None


def _write_sites(uow, r: _Row, v: dict) -> str:
    existing = uow.session.execute(select(Site).where(Site.code == v["code"])).scalar_one_or_none()
    return _upsert(uow, "site", existing, v, v["code"])


def _resolve_subsidiaries(s: Session, r: _Row) -> dict:
    v: dict[str, Any] = {"code": r.get("code"), "name": r.get("name"),
                         "credit_code": _credit_code(r)}
    for col in ("name_en", "address", "address_en", "phone", "bank_name", "bank_name_en", "bank_account"):
        if r.has(col):
            v[col] = r.get(col)
    if r.has("region"):
        v["region_code"] = _region_code(s, r, "region")
    return v


def _write_subsidiaries(uow, r: _Row, v: dict) -> str:
    existing = uow.session.execute(select(Subsidiary).where(Subsidiary.code == v["code"])).scalar_one_or_none()
    return _upsert(uow, "subsidiary", existing, v, v["code"] or "")


def _resolve_rooms(s: Session, r: _Row) -> dict:
    site = _site(s, r)
    v: dict[str, Any] = {"site_id": site.id if site else None, "name": r.get("name")}
    if r.has("cooling"):
        v["cooling"] = (r.get("cooling") or "").lower() or None
    for col in ("power_capacity_kw", "cooling_capacity_kw"):
        if r.has(col):
            v[col] = r.decimal(col)
    for col in ("grid_rows", "grid_cols"):
        if r.has(col):
            v[col] = r.integer(col)
    if r.has("notes"):
        v["notes"] = r.get("notes")
    _keep(v, "cooling", "power_capacity_kw", "cooling_capacity_kw", "grid_rows", "grid_cols")
    return v


def _write_rooms(uow, r: _Row, v: dict) -> str:
    existing = uow.session.execute(select(Room).where(Room.site_id == v["site_id"], Room.name == v["name"])
                                   ).scalar_one_or_none()
    return _upsert(uow, "room", existing, v, v["name"] or "")


def _resolve_racks(s: Session, r: _Row) -> dict:
    room = _room(s, r)
    v = {"room_id": room.id if room else None, "name": r.get("name")}
    for col in ("u_height", "power_capacity_kw", "asset_tag"):
        if r.has(col):
            v[col] = r.get(col)
    if r.has("status"):
        v["status"] = _status("racks", r, RackStatus.values(), RackStatus.label, tenant=bool(r.get("tenant")))
    if r.has("tenant"):
        v["customer_id"] = _customer(s, r)
    if r.has("cage"):
        v["_cage"] = r.get("cage") or None  # the cage (of this room) the rack belongs to; made when new
    _keep(v, "u_height", "power_capacity_kw", "status")
    return v


def _write_racks(uow, r: _Row, v: dict) -> str:
    s = uow.session
    if "_cage" in v:
        name = v.pop("_cage")
        cage_id = None
        if name:
            cage_id = s.execute(select(Cage.id).where(Cage.room_id == v["room_id"], Cage.name == name)).scalar()
            if cage_id is None:
                cage = Cage(room_id=v["room_id"], name=name, updated_by=uow.actor.login)
                s.add(cage)
                flush_or_refuse(s)
                cage_id = cage.id
                uow.audit("cage.create", "cage", cage.id, name, after=snapshot(cage))
        v["cage_id"] = cage_id
    existing = s.execute(select(Rack).where(Rack.room_id == v["room_id"], Rack.name == v["name"])
                         ).scalar_one_or_none()
    return _upsert(uow, "rack", existing, v, v["name"] or "")


HANDLERS.update({
    "regions": (_resolve_regions, _write_regions),
    "subsidiaries": (_resolve_subsidiaries, _write_subsidiaries),
    "rooms": (_resolve_rooms, _write_rooms),
    "sites": (_resolve_sites, _write_sites),
    "racks": (_resolve_racks, _write_racks),
})
