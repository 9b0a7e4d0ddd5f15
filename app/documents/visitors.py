"""The daily visitor list's data (reports/visitors.py draws it) for one site and day: ID numbers
masked unless the printing user may see them (the guard desk)."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from models import Site, Subsidiary
from models.choices import IdType
from reports import Party
from reports.visitors import VisitorListDoc, VisitorListRow

from app.domain.actor import Actor
from app.domain.clock import TZ, local_text, parse_date
from app.documents.common import _check_lang, _subsidiary_party
from app.store.found import get_or_404
from app.services.operations import visits as V
from app.store.db import Database


def _hm(t: dt.datetime | None, day: dt.date) -> str:
    if t is None:
        return ""
    local = t.astimezone(TZ)
    return local.strftime("%H:%M") if local.date() == day else local.strftime("%m-%d %H:%M")


def visitor_list_doc(db: Database, actor: Actor, site_id: int, day, lang: str = "zh",
                     now: dt.datetime | None = None) -> VisitorListDoc:
    lang = _check_lang(lang) or "zh"
    day = parse_date(day, what="day")
    with db.session() as s:
        site = get_or_404(s, Site, site_id, "site")
        sub = s.get(Subsidiary, site.subsidiary_id)
        provider = _subsidiary_party(sub, lang) if sub else Party(name="IDC console")
        site_text = f"{site.name}（{site.code}）" if lang == "zh" else f"{site.name} ({site.code})"
    rows = tuple(VisitorListRow(
        r.reference, r.customer, r.name, IdType.label(r.id_type, lang), r.id_number, r.company, r.space,
        r.escort_needed, f"{_hm(r.window_start, day)}–{_hm(r.window_end, day)}", r.badge, _hm(r.checked_in_at, day),
        _hm(r.checked_out_at, day), r.overstay_min)
        for r in V.visitors_of_day(db, actor, day, site_id=site_id, now=now))
    printed = local_text(now or dt.datetime.now(dt.timezone.utc))[:16]
    return VisitorListDoc(number=f"VL-{site.code}-{day:%Y%m%d}", language=lang, day=day, site=site_text,
                          provider=provider, printed_at=printed, rows=rows)


@dataclass(frozen=True)
class VisitorListKey:
    """What the registry builds the list from: the site, the day, and who prints it (ID numbers in
    full only for a role that may see them)."""
    site_id: int
    day: dt.date
    actor: Actor

    def describe(self) -> str:  # the preview's file name
        return f"site{self.site_id}-{self.day.isoformat()}"


def visitor_list_for(db: Database, key: VisitorListKey, lang: str | None = None) -> VisitorListDoc:
    return visitor_list_doc(db, key.actor, key.site_id, key.day, lang or "zh")
