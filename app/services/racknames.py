"""A rack by what a person types: the one rule for naming a rack (asset tag, SITE/ROOM/RACK,
SITE/RACK, a name unique across sites, or its id), for the CLI, documents, the meter-reading file
and the cross-connect form."""
from __future__ import annotations

from sqlalchemy import or_, select

from app.domain.errors import ValidationError
from app.services.entities import get_or_404
from app.store.db import Database
from models import Rack, Room


class RackIndex:
    """The one rule for naming a rack: its asset tag, SITE/ROOM/RACK, SITE/RACK, a name unique across
    sites, or (last) its id. Built over candidate rows (id, name, asset tag, room name, site code):
    all racks for a file of meter readings, or the few a single key can mean (find_rack)."""

    def __init__(self, rows):
        self.by_id: dict[int, tuple] = {}
        self.by_tag: dict[str, int] = {}
        self.by_path: dict[str, list[int]] = {}
        for rid, name, tag, room, site in rows:
            self.by_id[rid] = (name, room, site)
            if tag:
                self.by_tag[tag] = rid
            for key in (f"{site}/{room}/{name}", f"{site}/{name}", name):
                self.by_path.setdefault(key, []).append(rid)

    def path(self, rid: int) -> str:
        name, room, site = self.by_id[rid]
        return f"{site}/{room}/{name}"

    def resolve(self, text) -> tuple[int | None, str | None]:
        """(rack id, None) or (None, what is wrong with the key)."""
        key = str(text).strip()
        if not key:
            return None, "name the rack: SITE/ROOM/RACK, an asset tag or a unique rack name"
        if key in self.by_tag:
            return self.by_tag[key], None
        parts = key.split("/")
        hits = sorted(set(self.by_path.get("/".join(p.strip() for p in parts), []))) if len(parts) <= 3 else []
        if len(hits) == 1:
            return hits[0], None
        if len(hits) > 1:
            paths = ", ".join(self.path(i) for i in hits[:8])
            return None, (f"{len(hits)} racks are called {key}: {paths}{' …' if len(hits) > 8 else ''}; "
                          "name one as SITE/ROOM/RACK or by its asset tag")
        if key.isdigit() and int(key) in self.by_id:
            return int(key), None
        return None, (f"there is no rack {key}; give SITE/ROOM/RACK (e.g. FZ-MW1/B1 风冷机房/A01), "
                      "an asset tag or a rack id")


def _rack_rows(session, where=None):
    from models import Site
    q = (select(Rack.id, Rack.name, Rack.asset_tag, Room.name, Site.code)
         .join(Room, Room.id == Rack.room_id).join(Site, Site.id == Room.site_id))
    return session.execute(q.where(where) if where is not None else q).all()


def rack_index(session) -> RackIndex:
    """Every rack, for resolving many keys (e.g. a meter-reading file)."""
    return RackIndex(_rack_rows(session))


def find_rack_in(session, key: int | str) -> int:
    """One rack by what a person types (RackIndex's rule); refuses with what to type instead."""
    if isinstance(key, int):
        get_or_404(session, Rack, key, "rack")
        return key
    text = str(key).strip()
    last = text.split("/")[-1].strip()
    cond = or_(Rack.asset_tag == text, Rack.name == last)
    if text.isdigit():
        cond = or_(cond, Rack.id == int(text))
    rid, problem = RackIndex(_rack_rows(session, cond)).resolve(text)
    if rid is None:
        from app.domain.errors import NotFound
        if problem.startswith("there is no rack"):
            raise NotFound(problem)
        raise ValidationError({"rack": problem})
    return rid


def find_rack(db: Database, key: int | str) -> int:
    with db.session() as s:
        return find_rack_in(s, key)
