"""Regions and coverage: the region tree, which subsidiary covers a region, region choices, racks free for a contract."""
from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, replace

from sqlalchemy import func, select
from sqlalchemy.orm import aliased

from app.domain.regions import PLACEHOLDER_NAMES, join_region_names, nearest_per_subsidiary
from app.store.db import Database
from models import (
    Contract,
    Coverage,
    Rack,
    Region,
    Room,
    Site,
    Subsidiary,
)
from models.choices import (
    RackStatus,
)

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

    with db.read_session() as s:
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

    with db.read_session() as s:
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
    with db.read_session() as s:
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

    with db.read_connection() as conn:
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

    with db.read_session() as s:
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

    with db.read_session() as s:
        return tuple(c for c, n, _l in reversed(_ancestors(s, region_code))
                     if c == region_code or n not in PLACEHOLDER_NAMES)
