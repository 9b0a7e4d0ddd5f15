"""Regions, subsidiaries, sites, coverage and rooms."""
from __future__ import annotations

import csv
import datetime as dt
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

from sqlalchemy import select

from models import Coverage, Customer, Region, Room, Site, Subsidiary, TaxRate
from models.choices import Cooling, ServiceLevel, SiteStatus

from ..audit import Actor
from ..auth import require
from ..db import Database
from ..errors import NotFound, ValidationError
from ..uow import UnitOfWork
from ..validators import uscc_problem
from .common import EntitySpec, flush_or_refuse, get_or_404, refuse_if_referenced, register, snapshot

REGIONS_DIR = Path(__file__).resolve().parents[2] / "resources" / "regions"


# --- regions ------------------------------------------------------------------

@dataclass(frozen=True)
class RegionLoad:
    added: int
    renamed: int
    unchanged: int


def read_region_files(folder: Path = REGIONS_DIR) -> list[tuple[str, str, int, str | None]]:
    """(code6, name, level, parent_code6) from the GB/T 2260 CSVs, parents first."""
    rows = []
    with open(folder / "provinces.csv", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            rows.append((r["code"].ljust(6, "0"), r["name"], 1, None))
    with open(folder / "cities.csv", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            rows.append((r["code"].ljust(6, "0"), r["name"], 2, r["provinceCode"].ljust(6, "0")))
    with open(folder / "areas.csv", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            # Cities without districts (东莞, 中山, 儋州) list themselves as their own area.
            if r["code"] != r["cityCode"].ljust(6, "0"):
                rows.append((r["code"], r["name"], 3, r["cityCode"].ljust(6, "0")))
    return rows


def load_regions(db: Database, actor: Actor, folder: Path = REGIONS_DIR) -> RegionLoad:
    """Repeatable: adds new codes, renames by code, never deletes."""
    require(actor, "manage_reference")
    rows = read_region_files(folder)
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        existing = {code: name for code, name in s.execute(select(Region.code, Region.name))}
        added = renamed = 0
        new_rows = []
        for code, name, level, parent in rows:
            if code not in existing:
                new_rows.append(dict(code=code, name=name, level=level, parent_code=parent, version=1,
                                     updated_by=actor.login))
                added += 1
            elif existing[code] != name:
                region = s.get(Region, code)
                region.name = name
                region.updated_by = actor.login
                renamed += 1
        if new_rows:
            s.execute(Region.__table__.insert(), new_rows)
        uow.audit("region.load", "region", None, f"GB/T 2260 ({len(rows)} codes)",
                  after={"added": added, "renamed": renamed})
        uow.commit()
        return RegionLoad(added, renamed, len(rows) - added - renamed)


def region_path(session, code: str) -> list[Region]:
    """The region and its ancestors, nearest first."""
    out = []
    region = session.get(Region, code)
    while region is not None:
        out.append(region)
        region = session.get(Region, region.parent_code) if region.parent_code else None
    return out


def region_name(session, code: str | None) -> str:
    if not code:
        return ""
    return "".join(r.name for r in reversed(region_path(session, code)) if r.name != "市辖区")


# --- tax ------------------------------------------------------------------------

def tax_rates_on(session, day: dt.date) -> dict[str, Decimal]:
    """The VAT rate of every tax category in force on `day`: the latest valid_from on or before it.

    The one reading of the rate table: billing asks it for a period's first day, the contract PDF
    for the contract's start.
    """
    rates: dict[str, Decimal] = {}
    for cat, rate in session.execute(select(TaxRate.category, TaxRate.rate).where(TaxRate.valid_from <= day)
                                     .order_by(TaxRate.valid_from, TaxRate.id)):
        rates[cat] = Decimal(rate)
    return rates


# --- coverage -------------------------------------------------------------------

@dataclass(frozen=True)
class CoverageAnswer:
    subsidiary_code: str
    subsidiary_name: str
    site_code: str | None
    covered_via: str          # the region code whose coverage applies
    covered_via_name: str
    service_level: str
    response_hours: int
    subsidiary_id: int = 0
    site_id: int | None = None


def nearest_per_subsidiary(entries) -> list:
    """Who serves a region, from its coverage entries listed nearest region first (its own, its
    city's, its province's): one per (subsidiary, site), the nearest, in that order.

    The one rule for "who serves"; the region tree and the contract PDF (app.viewdata) use it too.
    Entries need subsidiary_id and site_id.
    """
    seen, out = set(), []
    for e in entries:
        if (e.subsidiary_id, e.site_id) not in seen:
            seen.add((e.subsidiary_id, e.site_id))
            out.append(e)
    return out


def who_serves(db: Database, region_code: str) -> list[CoverageAnswer]:
    """Subsidiaries serving a region: a district is covered when its city or province is.

    The nearest coverage wins per subsidiary; answers sorted by response time.
    """
    with db.session() as s:
        path = region_path(s, region_code)
        if not path:
            raise NotFound(f"region {region_code} is not a GB/T 2260 code known here")
        entries = []
        for region in path:
            q = (select(Coverage, Subsidiary, Site.code)
                 .join(Subsidiary, Subsidiary.id == Coverage.subsidiary_id)
                 .outerjoin(Site, Site.id == Coverage.site_id)
                 .where(Coverage.region_code == region.code).order_by(Subsidiary.code, Site.code))
            for cov, sub, site_code in s.execute(q):
                entries.append(CoverageAnswer(sub.code, sub.name, site_code, region.code, region.name,
                                              cov.service_level, cov.response_hours, sub.id, cov.site_id))
        return sorted(nearest_per_subsidiary(entries), key=lambda a: (a.response_hours, a.subsidiary_code))


def customer_coverage(db: Database, customer_id: int) -> tuple[str | None, list[CoverageAnswer]]:
    """The customer's region (its name, or None when the customer has none) and the subsidiaries
    that serve it, best response first: the customer's region decides which subsidiary signs."""
    with db.session() as s:
        customer = s.get(Customer, customer_id)
        if customer is None:
            raise NotFound(f"customer {customer_id} does not exist")
        code = customer.region_code
        region = s.get(Region, code) if code else None
    if region is None:
        return None, []
    return region.name, who_serves(db, region.code)


def add_coverage(db: Database, actor: Actor, subsidiary_id: int, region_code: str, *,
                 site_id: int | None = None, service_level: str = ServiceLevel.ONSITE,
                 response_hours: int = 4) -> int:
    require(actor, "manage_reference")
    errors = {}
    if service_level not in ServiceLevel.values():
        errors["service_level"] = f"service level must be one of {', '.join(ServiceLevel.values())}"
    if response_hours is None or response_hours <= 0:
        errors["response_hours"] = "the response-time promise is a positive number of hours"
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        sub = get_or_404(s, Subsidiary, subsidiary_id, "subsidiary")
        if s.get(Region, region_code) is None:
            errors["region_code"] = f"{region_code} is not a known region code"
        if errors:
            raise ValidationError(errors)
        cov = Coverage(subsidiary_id=sub.id, site_id=site_id, region_code=region_code,
                       service_level=service_level, response_hours=response_hours, updated_by=actor.login)
        s.add(cov)
        flush_or_refuse(s)
        uow.audit("coverage.create", "coverage", cov.id, f"{sub.code} → {region_name(s, region_code)}",
                  after=snapshot(cov))
        uow.commit()
        return cov.id


# --- subsidiaries, sites, rooms -------------------------------------------------------

def _decimal(errors: dict, values: dict, key: str, lo=None, hi=None) -> None:
    if values.get(key) in (None, ""):
        values[key] = None
        return
    try:
        d = Decimal(str(values[key]))
    except InvalidOperation:
        errors[key] = f"{values[key]!r} is not a number"
        return
    if (lo is not None and d < lo) or (hi is not None and d > hi):
        errors[key] = f"must be between {lo} and {hi}"
    values[key] = d


def validate_subsidiary(values: dict) -> dict[str, str]:
    errors = {}
    if not values.get("code") or not str(values["code"]).isalnum() or len(values["code"]) > 8:
        errors["code"] = "a short code of up to 8 letters or digits, e.g. GZ"
    if not values.get("name"):
        errors["name"] = "the legal name is required"
    problem = uscc_problem(values.get("credit_code"))
    if problem:
        errors["credit_code"] = problem
    return errors


def validate_site(s, values: dict) -> dict[str, str]:
    errors = {}
    for key, what in (("code", "a site code"), ("name", "a name")):
        if not values.get(key):
            errors[key] = f"{what} is required"
    if values.get("status", SiteStatus.ACTIVE) not in SiteStatus.values():
        errors["status"] = f"status must be one of {', '.join(SiteStatus.values())}"
    if values.get("cooling", Cooling.AIR) not in Cooling.values():
        errors["cooling"] = f"cooling must be one of {', '.join(Cooling.values())}"
    if not values.get("region_code") or s.get(Region, values["region_code"]) is None:
        errors["region_code"] = "choose a region (a six-digit GB/T 2260 code)"
    if not values.get("subsidiary_id") or s.get(Subsidiary, values["subsidiary_id"]) is None:
        errors["subsidiary_id"] = "choose the operating subsidiary"
    _decimal(errors, values, "latitude", -90, 90)
    _decimal(errors, values, "longitude", -180, 180)
    _decimal(errors, values, "power_capacity_kw", 0, 10 ** 7)
    if values.get("power_capacity_kw") is None:
        values["power_capacity_kw"] = Decimal(0)
    return errors


def validate_room(s, values: dict) -> dict[str, str]:
    errors = {}
    if not values.get("name"):
        errors["name"] = "a room name is required"
    if not values.get("site_id") or s.get(Site, values["site_id"]) is None:
        errors["site_id"] = "choose the site"
    if values.get("cooling", Cooling.AIR) not in Cooling.values():
        errors["cooling"] = f"cooling must be one of {', '.join(Cooling.values())}"
    for key in ("power_capacity_kw", "cooling_capacity_kw"):
        _decimal(errors, values, key, 0, 10 ** 6)
        if values.get(key) is None:
            values[key] = Decimal(0)
    return errors


register(EntitySpec("subsidiary", Subsidiary, lambda s, v: validate_subsidiary(v), "code"))
register(EntitySpec("site", Site, validate_site, "code"))
register(EntitySpec("room", Room, validate_room, "name"))


def delete_region(db: Database, actor: Actor, code: str) -> None:
    require(actor, "manage_reference")
    with UnitOfWork(db, actor) as uow:
        region = get_or_404(uow.session, Region, code, "region")
        refuse_if_referenced(uow.session, region, f"region {region.name} ({code})")
        uow.session.delete(region)
        uow.audit("region.delete", "region", code, region.name, before=snapshot(region))
        uow.commit()
