"""Regions (GB/T 2260) as people read them, and who serves one: pure rules over rows already read."""
from __future__ import annotations

PLACEHOLDER_NAMES = frozenset({"市辖区", "县", "省直辖县级行政区划", "自治区直辖县级行政区划"})


def join_region_names(names) -> str:
    """The full name of a region from its path's names, province first, placeholders left out:
    广东省深圳市龙华区, 重庆市城口县."""
    return "".join(n for n in names if n not in PLACEHOLDER_NAMES)


def nearest_per_subsidiary(entries) -> list:
    """Who serves a region, from its coverage entries listed nearest region first (its own, its
    city's, its province's): one per (subsidiary, site), the nearest, in that order.

    The one rule for "who serves"; who_serves (app.services.reference), the region tree and the
    contract PDF (app.read.viewdata) use it.
    Entries need subsidiary_id and site_id.
    """
    seen, out = set(), []
    for e in entries:
        if (e.subsidiary_id, e.site_id) not in seen:
            seen.add((e.subsidiary_id, e.site_id))
            out.append(e)
    return out
