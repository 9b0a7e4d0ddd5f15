"""Regions, subsidiaries, sites, coverage and rooms."""
from __future__ import annotations

import csv
import datetime as dt
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

from sqlalchemy import select

from app.domain import messages as M
from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import NotFound, ValidationError
from app.domain.rating import TaxRates
from app.domain.regions import join_region_names, nearest_per_subsidiary
from app.domain.validators import region_code_problem, region_level, uscc_problem
from app.domain.wording import has_cjk
from app.services.entities import (
    EntitySpec,
    flush_or_refuse,
    get_or_404,
    references_to,
    refuse_if_referenced,
    register,
    snapshot,
)
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import Coverage, Region, Room, Site, Subsidiary, TaxRate
from models.choices import Cooling, ServiceLevel, SiteStatus

REGIONS_DIR = Path(__file__).resolve().parents[2] / "resources" / "regions"
REGIONS_FILE = REGIONS_DIR / "regions.csv"                      # the MCA list: the default set
DEVELOPMENT_ZONES_FILE = REGIONS_DIR / "development_zones.csv"  # not GB/T 2260; import on request

# Levels the statistics bureau's tables insert where GB/T 2260 has none (北京市 / 市辖区 / 东城区,
# 重庆市 / 县 / 城口县, 河南省 / 省直辖县级行政区划 / 济源市). The shipped list has none of them;
# a database loaded from the old tables may still hold some, so names and trees skip them.
NETBOX_SLUG = re.compile(r"[-a-zA-Z0-9_]{1,100}")  # NetBox's SlugField (utilities/forms/fields)
# --- regions ------------------------------------------------------------------

@dataclass(frozen=True)
class RegionLoad:
    added: int
    renamed: int
    unchanged: int
    moved: int = 0                # given another parent (or level) by the list
    removed: int = 0              # not in the list and referred to by nothing: deleted
    kept: tuple[str, ...] = ()    # not in the list but still referred to: kept as they are


def read_region_file(path: Path = REGIONS_FILE) -> list[tuple[str, str, int, str | None]]:
    """(code, name, level, parent_code) from a `code,name,parent` CSV, parents before children.

    The level is read from the code (GB/T 2260), so a district directly under a municipality
    is county level. Raises ValidationError naming the line of a malformed row."""
    rows: list[tuple[str, str, int, str | None]] = []
    seen: set[str] = set()
    errors: dict[str, str] = {}
    with open(path, encoding="utf-8-sig", newline="") as f:
        for line, r in enumerate(csv.DictReader(f), start=2):
            code, name = (r.get("code") or "").strip(), (r.get("name") or "").strip()
            parent = (r.get("parent") or "").strip() or None
            if not re.fullmatch(r"\d{6}", code) or not name:
                errors[f"{path.name} line {line}"] = f"{code!r} {name!r}: a six-digit code and a name are required"
            elif parent is not None and (parent not in seen or region_level(parent) >= region_level(code)):
                errors[f"{path.name} line {line}"] = (f"{code} {name}: its parent {parent} must be listed "
                                                      "above it, at a higher level")
            else:
                rows.append((code, name, region_level(code), parent))
                seen.add(code)
    if errors:
        raise ValidationError(errors)
    return rows


def load_regions(db: Database, actor: Actor, path: Path = REGIONS_FILE) -> RegionLoad:
    """Make the regions table the list in `path` (the shipped MCA list by default), repeatably.

    By code: a new code is added; a listed code gets the list's name and parent. A code that is
    not in the list is deleted when nothing refers to it (the old placeholder levels, retired
    codes, development zones) and kept unchanged when something does (a customer, site,
    coverage or sub-region): no region that something refers to is ever deleted. The kept codes
    are returned and written in the audit event. Extra lists (development_zones.csv) are
    imported afterwards with `import regions FILE`; a later load removes those nothing uses.
    """
    require(actor, "manage_reference")
    if path.is_dir():
        path = path / REGIONS_FILE.name
    rows = read_region_file(path)
    listed = {code for code, *_ in rows}
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        existing = {code: (name, level, parent) for code, name, level, parent in
                    s.execute(select(Region.code, Region.name, Region.level, Region.parent_code))}
        new_rows = [dict(code=code, name=name, level=level, parent_code=parent, version=1, updated_by=actor.login)
                    for code, name, level, parent in rows if code not in existing]
        if new_rows:   # first, so that a listed code may move under a new one
            s.execute(Region.__table__.insert(), new_rows)
        added, renamed, moved, changed = len(new_rows), 0, 0, 0
        for code, name, level, parent in rows:
            old = existing.get(code)
            if old is not None and old != (name, level, parent):
                region = s.get(Region, code)
                changed += 1
                renamed += old[0] != name
                moved += old[1:] != (level, parent)
                region.name, region.level, region.parent_code = name, level, parent
                region.updated_by = actor.login
        s.flush()
        removed, kept = 0, []
        # deepest first, so a stale city goes after its stale districts
        for code in sorted((c for c in existing if c not in listed), key=lambda c: (-existing[c][1], c)):
            region = s.get(Region, code)
            if references_to(s, region):
                kept.append(code)
            else:
                s.delete(region)
                s.flush()
                removed += 1
        uow.audit("region.load", "region", None, f"GB/T 2260 {path.name} ({len(rows)} codes)",
                  after={"added": added, "renamed": renamed, "moved": moved, "removed": removed,
                         "kept": sorted(kept)})
        uow.commit()
        return RegionLoad(added, renamed, len(rows) - added - changed, moved, removed, tuple(sorted(kept)))


def seed_regions(db: Database) -> RegionLoad | None:
    """A database without any region gets the shipped list (REGIONS_FILE, 民政部 2024-12-31), loaded
    as the system with its audit event: `db upgrade` and the console's start call it, so that the
    first subsidiary, site or customer finds its region. A database with regions is left alone
    (None); a later list is brought in with `import regions FILE` (README, "Regions")."""
    with db.read_session() as s:   # autocommit: no BEGIN, no ROLLBACK (issue 26)
        if s.execute(select(Region.code).limit(1)).first() is not None:
            return None
    return load_regions(db, Actor.system())


def region_path(session, code: str) -> list[Region]:
    """The region and its ancestors, nearest first."""
    out = []
    region = session.get(Region, code)
    while region is not None:
        out.append(region)
        region = session.get(Region, region.parent_code) if region.parent_code else None
    return out


def region_name(session, code: str | None) -> str:
    """The full name, province first, without placeholder levels: 重庆市城口县."""
    if not code:
        return ""
    return join_region_names(r.name for r in reversed(region_path(session, code)))


# --- tax ------------------------------------------------------------------------

def tax_rates_on(session, day: dt.date) -> dict[str, Decimal]:
    """The VAT rate of every tax category in force on `day`: the latest valid_from on or before it.

    The one reading of the rate table: billing asks it for a period's first day, the contract PDF
    for the contract's start.
    """
    rates: dict[str, Decimal] = {}
    starts: dict[str, dt.date] = {}
    for cat, rate, valid_from in session.execute(select(TaxRate.category, TaxRate.rate, TaxRate.valid_from)
                                                 .order_by(TaxRate.valid_from, TaxRate.id)):
        starts.setdefault(cat, valid_from)
        if valid_from <= day:
            rates[cat] = Decimal(rate)
    return TaxRates(day, rates, starts)


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
        problem = region_code_problem(s, region_code) if region_code else "choose a region"
        if problem:
            errors["region_code"] = problem
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
        errors[key] = M.NOT_A_NUMBER.quoting(values[key])
        return
    if (lo is not None and d < lo) or (hi is not None and d > hi):
        errors[key] = f"must be between {lo} and {hi}"
    values[key] = d


def validate_subsidiary(values: dict, s=None) -> dict[str, str]:
    errors = {}
    problem = region_code_problem(s, values.get("region_code")) if s is not None else None
    if problem:
        errors["region_code"] = problem
    if not values.get("code") or not str(values["code"]).isalnum() or len(values["code"]) > 8:
        errors["code"] = "a short code of up to 8 letters or digits, e.g. GZ"
    if not values.get("name"):
        errors["name"] = M.LEGAL_NAME_REQUIRED()
    problem = uscc_problem(values.get("credit_code"))
    if problem:
        errors["credit_code"] = problem
    for key, what in (("address_en", "the English address"), ("bank_name_en", "the English bank name")):
        if has_cjk(values.get(key)):  # printed on English documents: Chinese belongs in address / bank_name
            errors[key] = f"{what} is printed on English documents: write it without Chinese characters"
    return errors


def validate_site(s, values: dict) -> dict[str, str]:
    errors = {}
    for key, what in (("code", "a site code"), ("name", "a name")):
        if not values.get(key):
            errors[key] = f"{what} is required"
    if values.get("status", SiteStatus.ACTIVE) not in SiteStatus.values():
        errors["status"] = f"status must be one of {', '.join(SiteStatus.values())}"
    if "slug" in values:
        values["slug"] = (values.get("slug") or "").strip() or None
        if values["slug"] and not NETBOX_SLUG.fullmatch(values["slug"]):
            errors["slug"] = (f"{values['slug']!r} is not a NetBox slug: letters, digits, '-' and '_', "
                              "at most 100")
    if values.get("cooling", Cooling.AIR) not in Cooling.values():
        errors["cooling"] = f"cooling must be one of {', '.join(Cooling.values())}"
    problem = region_code_problem(s, values.get("region_code"))
    if problem or not values.get("region_code"):
        errors["region_code"] = problem or "choose a region (a six-digit GB/T 2260 code)"
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


register(EntitySpec("subsidiary", Subsidiary, lambda s, v: validate_subsidiary(v, s), "code"))
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
