"""What planned maintenance leaves out of the SLA clocks: the windows noticed in time (the setting
`maintenance_notice_hours` ahead, not emergency work) that affect a contract (their impact rows,
app/services/operations/maintenance.py), per contract, for many contracts in one query."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import Select, func, or_, select

from models import AppSetting, MaintenanceImpact, MaintenanceWindow
from models.choices import ImpactLevel, MaintenanceState

from app.read.settings import MAINTENANCE_NOTICE_HOURS, setting_in, setting_of
from app.store.db import Database


def notice_hours_in(s) -> int:
    return int(setting_in(s, MAINTENANCE_NOTICE_HOURS))


def notice_hours_column():
    """The notice setting's stored text as a column of a larger query (setting_of reads it): the setting
    comes with the rows that need it, not in a statement of its own (issue 26)."""
    return (select(AppSetting.value).where(AppSetting.key == MAINTENANCE_NOTICE_HOURS)
            .scalar_subquery().label("notice_hours"))


def notice_hours_of(stored: str | None) -> int:
    return int(setting_of(MAINTENANCE_NOTICE_HOURS, stored))


def noticed_in_time(w: MaintenanceWindow, hours: int) -> bool:
    return _noticed_in_time(w.emergency, w.noticed_at, w.planned_start, hours)


def _noticed_in_time(emergency: bool, noticed_at, planned_start, hours: int) -> bool:
    return not emergency and noticed_at is not None and planned_start - noticed_at >= dt.timedelta(hours=hours)


def maintenance_excluded(db: Database, contract_id: int, start: dt.datetime,
                         end: dt.datetime) -> list[tuple[dt.datetime, dt.datetime]]:
    """The windows of planned maintenance noticed in time that affect this contract, clipped to
    [start, end): they do not count against the SLA. Late or emergency maintenance, and windows not
    confirmed (tentative, cancelled, rescheduled), are not excluded. A completed or running window
    counts from its actual start to its actual end (its plan while one is missing)."""
    with db.session() as s:
        return maintenance_excluded_in(s, [contract_id], start, end).get(contract_id, [])


def _noticed_windows(s, contract_ids, ends_after: dt.datetime, starts_before: dt.datetime | None = None):
    """(contract, planned start, planned end, actual start, actual end, state) of each window that leaves
    its time out of a contract's clocks (planned, noticed in time, confirmed, running or done, with an
    impact on the contract) still running or ending after `ends_after`, and starting before
    `starts_before` when given: one query per 500 contracts (`contract_ids` a Select: one for them all),
    the notice setting in it."""
    W = MaintenanceWindow
    if isinstance(contract_ids, Select):
        chunks = [contract_ids]
    else:
        ids = sorted({c for c in contract_ids if c})
        chunks = (ids[k:k + 500] for k in range(0, len(ids), 500))
    for chunk in chunks:
        when = [or_(W.state == MaintenanceState.IN_PROGRESS, func.coalesce(W.actual_end, W.planned_end) > ends_after)]
        if starts_before is not None:
            when.append(func.coalesce(W.actual_start, W.planned_start) < starts_before)
        rows = s.execute(select(MaintenanceImpact.contract_id, W.id, W.planned_start, W.planned_end, W.actual_start,
                                W.actual_end, W.state, W.noticed_at, notice_hours_column())
                         .join(W, MaintenanceImpact.maintenance_id == W.id)
                         .where(MaintenanceImpact.contract_id.in_(chunk), MaintenanceImpact.impact != ImpactLevel.NONE,
                                W.state.in_((MaintenanceState.CONFIRMED, MaintenanceState.IN_PROGRESS,
                                             MaintenanceState.COMPLETED)),
                                W.emergency.is_(False), *when)
                         .distinct())
        for cid, _wid, p_start, p_end, a_start, a_end, state, noticed_at, stored in rows:
            if _noticed_in_time(False, noticed_at, p_start, notice_hours_of(stored)):
                yield cid, p_start, p_end, a_start, a_end, state


def maintenance_excluded_in(s, contract_ids, start: dt.datetime,
                            end: dt.datetime) -> dict[int, list[tuple[dt.datetime, dt.datetime]]]:
    """maintenance_excluded of many contracts inside the caller's session, merged and sorted per
    contract: one query per 500 contracts, the notice setting in it (the SLA clocks of the queue read it once)."""
    by_contract: dict[int, list[tuple[dt.datetime, dt.datetime]]] = {}
    for cid, p_start, p_end, a_start, a_end, state in _noticed_windows(s, contract_ids, start, end):
        a = a_start or p_start
        b = a_end or (p_end if state != MaintenanceState.IN_PROGRESS else max(p_end, end))
        a, b = max(a, start), min(b, end)
        if a < b:
            by_contract.setdefault(cid, []).append((a, b))
    return {cid: _merged(spans) for cid, spans in by_contract.items()}


def maintenance_horizons_in(s, contract_ids, now: dt.datetime) -> dict[int, dt.datetime]:
    """Per contract, the first instant from `now` on at which what maintenance_excluded_in leaves out
    of a clock can change with the time alone: `now` while one of its excluded windows runs (its span
    grows), else the start of its next one; contracts with neither are left out. What the sweep keeps
    of a ticket (ticket_sla_state) holds until then."""
    out: dict[int, dt.datetime] = {}
    for cid, p_start, _p_end, a_start, _a_end, _state in _noticed_windows(s, contract_ids, now):
        at = max(a_start or p_start, now)
        if cid not in out or at < out[cid]:
            out[cid] = at
    return out


def _merged(spans: list[tuple[dt.datetime, dt.datetime]]) -> list[tuple[dt.datetime, dt.datetime]]:
    spans.sort()
    merged: list[tuple[dt.datetime, dt.datetime]] = []
    for a, b in spans:
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged
