"""The LOA/CFA of a cross-connect: gathers its data for reports/loa.py (`report loa XCONNECT`)."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from app.domain.clock import local_today
from app.domain.wording import has_cjk, room_label
from app.store.db import Database
from models import Customer, Rack, Room, Site, Subsidiary
from models.choices import XconnectMedium, XconnectPeer, XconnectState
from reports.loa import LoaDoc

LOA_VALID_DAYS = 90  # carriers ask for a recent letter; 90 days is the usual validity


def loa_doc(db: Database, key: int | str, *, language: str | None = None, today: dt.date | None = None) -> LoaDoc:
    from app.documents.common import _customer_party, _subsidiary_party
    from app.services.xconnects import find_cross_connect_in

    lang = language or "zh"
    issued = today or local_today()
    with db.session() as s:
        xc = find_cross_connect_in(s, key)
        rack = s.get(Rack, xc.rack_id)
        room = s.get(Room, rack.room_id)
        site = s.get(Site, room.site_id)
        sub = s.execute(select(Subsidiary).where(Subsidiary.id == site.subsidiary_id)).scalar_one()
        customer = _customer_party(s, s.get(Customer, xc.customer_id), lang)
        mmr = "/".join(x for x in (xc.mmr_panel, xc.mmr_port) if x)
        return LoaDoc(
            number=xc.reference, language=lang, issued=issued,
            valid_until=issued + dt.timedelta(days=LOA_VALID_DAYS), provider=_subsidiary_party(sub, lang),
            customer=customer, peer_kind=XconnectPeer.label(xc.peer_kind, lang), peer_name=xc.peer_name or "",
            # English: the site's code and the room's first word, not their Chinese names
            site=f"{site.name} ({site.code})" if lang != "en" or not has_cjk(site.name) else site.code,
            site_address=site.address or "", room=room_label(room.name, lang), rack=rack.name,
            panel=xc.panel, port=xc.port, mmr=mmr, peer_port=xc.peer_port or "",
            medium=XconnectMedium.label(xc.medium, lang), circuit_id=xc.circuit_id or "",
            state=XconnectState.label(xc.state, lang))
