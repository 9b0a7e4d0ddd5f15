"""The site plot's read model: sites at their coordinates and the regions each serves."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from sqlalchemy import select

from app.store.db import Database
from models import (
    Coverage,
    Region,
    Site,
    Subsidiary,
)

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
    def read(stmt):
        with db.read_session() as s:
            return s.execute(stmt).all()
    # side by side (issue 26: one round trip, not two, across a WAN)
    site_rows, cov_rows = db.read_together(
        lambda: read(select(Site.id, Site.code, Site.name, Subsidiary.name, Site.status, Site.latitude, Site.longitude,
                            Site.subsidiary_id, Site.region_code)
                     .join(Subsidiary, Subsidiary.id == Site.subsidiary_id).order_by(Site.code)),
        lambda: read(select(Coverage.subsidiary_id, Coverage.site_id, Region.code, Region.name)
                     .join(Region, Region.code == Coverage.region_code).order_by(Region.code)))
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
