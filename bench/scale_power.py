"""The large provider's power chain (issue 15): per room an A and a B panel, per rack an A and a
B feed (thousands of circuits), sized from the rack's power figures, written in bulk by the
large-data writer of app/scale.py (one call from load_large)."""
from __future__ import annotations

import math
from decimal import Decimal

VOLTAGE = 220
PANEL_COLS = ("id", "site_id", "room_id", "name", "voltage", "phase", "amperage", "ups", "comments", "version",
              "updated_by")
FEED_COLS = ("id", "power_panel_id", "rack_id", "name", "side", "status", "type", "supply", "phase", "voltage",
             "amperage", "max_utilization", "comments", "version", "updated_by")


def feed_amperage(capacity_kw) -> int:
    """A side's breaker: the rack's capacity within 80 % of it, in the standard sizes (16, 32, 63 A)."""
    need = Decimal(str(capacity_kw or 0)) * 1000 / VOLTAGE / Decimal("0.8")
    return next((a for a in (16, 32, 63, 125) if a >= need), max(125, math.ceil(need)))


def write_power(w, progress=lambda m: None) -> int:
    """Panels and feeds for every rack of the database; returns the number of feeds written."""
    cur = w.conn.cursor()
    cur.execute("SELECT rack.id, rack.name, rack.power_capacity_kw, room.id, room.site_id FROM rack "
                "JOIN room ON room.id = rack.room_id ORDER BY room.id, rack.name")
    racks = cur.fetchall()
    cur.close()
    panel_id = (w.scalar('SELECT COALESCE(MAX(id), 0) FROM "power_panel"') or 0)
    feed_id = (w.scalar('SELECT COALESCE(MAX(id), 0) FROM "power_feed"') or 0)
    panels, feeds, by_room = [], [], {}
    for rack_id, name, capacity, room_id, site_id in racks:
        if room_id not in by_room:
            by_room[room_id] = {}
            for side in ("A", "B"):
                panel_id += 1
                by_room[room_id][side] = panel_id
                panels.append((panel_id, site_id, room_id, f"R{room_id}-PP-{side}", VOLTAGE, "three-phase", 630,
                               f"UPS-{side}", None, 1, "scale"))
        amps = feed_amperage(capacity)
        for side in ("A", "B"):
            feed_id += 1
            feeds.append((feed_id, by_room[room_id][side], rack_id, f"{name}-{side}", side, "active",
                          "primary" if side == "A" else "redundant", "ac", "single-phase", VOLTAGE, amps, 80, None,
                          1, "scale"))
    progress(f"writing {len(panels):,} power panels and {len(feeds):,} feeds (A and B per rack)")
    w.write("power_panel", PANEL_COLS, panels)
    w.write("power_feed", FEED_COLS, feeds)
    return len(feeds)
