"""Billing by circuit: the charges of a contract item of kind power (issue 15).

- a fee per circuit: price × quantity (the circuits sold), by month or year, prorated by day
  from the handover like every fee (the engine's own fee rule);
- metered energy: the kWh of each circuit the item sells (power_feed.contract_item_id), read
  from the circuits' meters as the rack meters are (app/billing.meter_consumption, the same
  gaps and resets), priced at the unit price of a kWh-priced item, or at its kwh_price beside
  a fee. One "power" line per item and period, taxed as electricity (app.domain.rating.energy_charge);
  its note gives each circuit's reading.

The billing engine calls `circuit_charges` from its item dispatch (app/services/billing.item_charges).
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import select

from app.domain import rating as B
from app.domain.wording import Text
from models import Contract, ContractItem
from models.choices import LineUnit, PriceUnit
from models.power import CircuitReading, PowerFeed, PowerPanel


def circuit_charges(s, c: Contract, it: ContractItem, x, fee, item_window) -> list[B.Charge]:
    """The fee (through the engine's `fee`) and the metered energy of the item's circuits."""
    out = [] if it.price_unit == PriceUnit.KWH else fee(c, it, x)
    price = it.unit_price if it.price_unit == PriceUnit.KWH else it.kwh_price
    if price is None:
        return out
    p = x.period
    first, last, days = item_window(c, it, p)
    if not days:
        return out
    start, end = B.local_midnight(first), B.local_midnight(last + dt.timedelta(days=1))
    label = f"{c.number} {it.description}"
    if end > x.as_of:
        x.warnings.append(x.t(f"{label}：{p.label} 尚未结束，电量暂不计费", f"{label}: {p.label} has not ended; power is not billed yet"))
        x.held += 1
        return out
    feeds = s.execute(select(PowerFeed.id, PowerPanel.name, PowerFeed.name)
                      .join(PowerPanel, PowerPanel.id == PowerFeed.power_panel_id)
                      .where(PowerFeed.contract_item_id == it.id).order_by(PowerPanel.name, PowerFeed.name)).all()
    if not feeds:
        x.warnings.append(x.t(f"{label}：未指定计量回路，电量暂缓", f"{label}: no circuits named for metering, power held"))
        x.held += 1
        return out
    lo = start - B.MAX_METER_GAP
    readings: dict[int, list] = {}
    for fid, at, kwh in s.execute(
            select(CircuitReading.power_feed_id, CircuitReading.read_at, CircuitReading.kwh_total)
            .where(CircuitReading.power_feed_id.in_([f[0] for f in feeds]), CircuitReading.read_at >= lo,
                   CircuitReading.read_at <= end).order_by(CircuitReading.read_at)):
        readings.setdefault(fid, []).append((at, kwh))
    total = Decimal(0)
    notes, gaps = [], []

    for fid, panel, name in feeds:
        m = B.meter_consumption(readings.get(fid, []), start, end)
        if not m.complete:
            gaps.append(f"{panel}/{name}: " + "; ".join(m.gaps))
            continue
        total += m.kwh
        reading = f"{panel}/{name} {m.opening[1]} → {m.closing[1]} = {m.kwh} kWh"
        notes.append(Text(reading + "（含复位）", reading + " (meter reset, segments summed)") if m.resets
                     else Text.same(reading))
    if gaps:
        x.warnings.append(x.t(f"{label}：回路电表读数不完整，电费暂缓：", f"{label}: circuit meter readings incomplete, power held: ")
                          + "; ".join(gaps))
        x.held += 1
        return out
    amount = B.fen(total * price)
    desc = x.name(it) + Text(f" · {len(feeds)} 路回路用电 {total} kWh", f" · {len(feeds)} circuit(s), power {total} kWh")
    note = Text("; ".join(n.zh for n in notes), "; ".join(n.en for n in notes))
    out.append(B.energy_charge(it.id, desc, total, x.unit(LineUnit.KWH), price, amount, note=note))
    return out
