"""The GPU fleet report (the money rules behind it live in app.services.fleet)."""
from __future__ import annotations

import datetime as dt

from app.documents.common import _check_lang, _letterhead
from app.domain.clock import now_local
from app.services.fleet import fleet_values
from app.store.db import Database
from models.choices import GpuState
from reports import FleetDoc, FleetRow


def fleet_doc(db: Database, *, language: str = "zh", today: dt.date | None = None,
              subsidiary_code: str | None = None) -> FleetDoc:
    """GPUs by model and state, book value today, and GPU revenue billed over the last 12 months.

    Book value is straight-line over each GPU's depreciation months from its purchase cost;
    retired GPUs are written off (0). Revenue is before tax, credit notes subtracted.
    """
    lang = _check_lang(language) or "zh"
    today = today or now_local().date()
    with db.session() as s:
        letterhead = _letterhead(s, subsidiary_code, lang)
    models, states = fleet_values(db, today)
    rows = tuple(
        FleetRow(model=mv.model, counts={GpuState.label(st, lang): mv.counts.get(st, 0) for st in states},
                 book_value=mv.book_value, revenue_12m=mv.revenue)
        for mv in models)
    title = "GPU 资产报告" if lang == "zh" else "GPU fleet report"
    title += f"（截至 {today}）" if lang == "zh" else f" as of {today}"
    return FleetDoc(rows=rows, generated_at=now_local(), states=tuple(GpuState.label(st, lang) for st in states),
                    subsidiary=letterhead, number=f"FLEET-{today:%Y%m%d}", language=lang, title=title)
