"""What every kind's import shares: the typed cells of a row, the lookups of references, the column
limits and row keys of the built-in kinds (whose resolve and write are in places, devices, gpus, parties
and contracts)."""
from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Any, Callable

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from app.domain.clock import TZ, DateError, parse_date
from app.domain.messages import message_of
from app.domain.money import AmountError, parse_decimal
from app.domain.validators import column_problems, uscc_problem
from app.importexport.schema import (
    FIELD_COLUMN,
    LOCAL_TIME_ZONE,
    LOOKUPS,
    MODEL,
    NETBOX_STATUS,
    ROW_KEY,
    ImportRow,
    _RowRefused,
)
from app.services.common import upsert_in
from models import (
    Contact,
    Contract,
    Customer,
    Device,
    DeviceType,
    GpuAsset,
    Rack,
    Region,
    Room,
    Site,
    Subsidiary,
    User,
)

# --- typed cells ------------------------------------------------------------------------

class _Row:
    """One row being resolved: typed getters that collect problems instead of raising."""

    def __init__(self, row: ImportRow):
        self.line = row.line
        self.file = row.file
        self.v = row.values
        self.problems: list[tuple[str | None, str]] = []

    def has(self, col: str) -> bool:
        return col in self.v

    def get(self, col: str) -> str | None:
        value = self.v.get(col)
        return value.strip() if isinstance(value, str) else value

    def err(self, col: str | None, reason: str) -> None:
        self.problems.append((col, reason))

    def decimal(self, col: str) -> Decimal | None:
        raw = self.get(col)
        if raw in (None, ""):
            return None
        try:  # the one grammar of a number typed by a person (¥/￥, 1,234.5; no 1e400, NaN, Infinity)
            return parse_decimal(raw, currency=True, whole_digits=30)  # each column's own size: column_problems
        except AmountError as exc:
            self.err(col, message_of(exc))
            return None

    def integer(self, col: str) -> int | None:
        d = self.decimal(col)
        if d is None:
            return None
        if d != d.to_integral_value():
            self.err(col, f"{self.get(col)!r} is not a whole number")
            return None
        return int(d)

    def date(self, col: str) -> dt.date | None:
        raw = self.get(col)
        if raw in (None, ""):
            return None
        text_ = str(raw)
        if len(text_) > 10 and re.fullmatch(r"\d{4}-\d{2}-\d{2}[ T]00:00(:00(\.0+)?)?", text_):
            text_ = text_[:10]  # pandas writes a date column as date-times at midnight
        try:
            return parse_date(text_)
        except DateError as exc:
            self.err(col, message_of(exc))
            return None

    def boolean(self, col: str) -> bool | None:
        raw = self.get(col)
        if raw in (None, ""):
            return None
        word = str(raw).lower()
        if word in ("true", "yes", "1", "y", "是"):
            return True
        if word in ("false", "no", "0", "n", "否"):
            return False
        self.err(col, f"{raw!r} is not true or false")
        return None

    def check(self) -> None:
        if self.problems:
            raise _RowRefused(self.problems)


# --- lookups -------------------------------------------------------------------------------

def _memo(s: Session, key: tuple, fetch: Callable[[], Any]) -> Any:
    """fetch(), remembered for the rest of this import (session.info[LOOKUPS]): a file names the same
    model, type, room or customer on thousands of rows, and references of another kind do not change
    while it is imported (the cache is dropped when a batch is rolled back)."""
    cache = s.info.get(LOOKUPS)
    if cache is None:
        return fetch()
    if key not in cache:
        cache[key] = fetch()
    return cache[key]


def _customer(s: Session, r: _Row, col: str = "tenant") -> int | None:
    ref = r.get(col)
    if not ref:
        return None
    hits = _memo(s, ("customer", ref), lambda: s.execute(
        select(Customer.id).where(or_(Customer.credit_code == ref.upper(), Customer.name == ref))
        .limit(3)).scalars().all())
    if not hits:
        r.err(col, f"no customer is named {ref!r} or has that credit code; add the customer first (kind "
                   "customers: a new customer needs its unified social credit code)")
    elif len(hits) > 1:
        r.err(col, f"several customers are named {ref!r}; give the credit code instead")
    else:
        return hits[0]
    return None


def _site(s: Session, r: _Row, col: str = "site") -> Site | None:
    """A site by its code, its name, or NetBox's slug (which an import from NetBox made the code)."""
    ref = r.get(col)
    if not ref:
        return None
    site, problem = _memo(s, ("site", ref), lambda: _find_site(s, ref))
    if problem:
        r.err(col, problem)
    return site


def _find_site(s: Session, ref: str) -> tuple[Site | None, str | None]:
    site = s.execute(select(Site).where(Site.code == ref)).scalar_one_or_none()
    if site is None:
        site = s.execute(select(Site).where(func.lower(Site.slug) == ref.lower())).scalar_one_or_none()
    if site is None:
        hits = s.execute(select(Site).where(or_(Site.name == ref, func.lower(Site.code) == ref.lower()))
                         .limit(3)).scalars().all()
        if len(hits) > 1:
            return None, f"several sites are named {ref!r}; give the site code instead"
        site = hits[0] if hits else None
    if site is None:
        return None, f"no site has the code, name or slug {ref!r}"
    return site, None


def _room(s: Session, r: _Row, site_col: str = "site", room_col: str = "location") -> Room | None:
    room_name = r.get(room_col)
    site = _site(s, r, site_col)
    if site is None:
        return None
    if not room_name:
        r.err(room_col, f"name the room (location) in site {site.code}: every rack here is in a room (NetBox "
                        "allows a rack without a location; import a room, e.g. named after the site, and name it)")
        return None
    room = _memo(s, ("room", site.id, room_name), lambda: s.execute(
        select(Room).where(Room.site_id == site.id, Room.name == room_name)).scalar_one_or_none())
    if room is None:
        r.err(room_col, f"site {site.code} has no room (location) named {room_name!r}")
    return room


def _status(kind: str, r: _Row, values: list[str], labels: Callable[[str], str], *, tenant: bool = False
            ) -> str | None:
    """Our status for the cell: our value or label, or NetBox's value or label (NETBOX_STATUS)."""
    raw = r.get("status")
    if not raw:
        return None
    word = raw.strip().lower().replace(" ", "_").replace("-", "_")
    by_label = {labels(v).lower().replace(" ", "_").replace("-", "_"): v for v in values}
    if word in values:
        return word
    if word in by_label:
        return by_label[word]
    mapped = NETBOX_STATUS.get(kind, {}).get(word)
    if kind == "racks" and word == "active" and not tenant:
        mapped = "available"
    if mapped:
        return mapped
    netbox = ", ".join(NETBOX_STATUS.get(kind, {}))
    r.err("status", f"{raw!r} is not a status; use one of {', '.join(values)}"
          + (f" (or NetBox's {netbox})" if netbox else ""))
    return None


def _region_code(s: Session, r: _Row, col: str) -> str | None:
    """A GB/T 2260 code, also as pandas or Excel wrote it (110000.0), or a region's exact name."""
    ref = r.get(col)
    if not ref:
        return None
    m = re.fullmatch(r"(\d{6})\.0*", ref)
    if m:
        ref = m.group(1)
    if re.fullmatch(r"\d{6}", ref):
        if s.get(Region, ref) is None:
            r.err(col, f"no region has the code {ref!r}")
        return ref
    hits = s.execute(select(Region.code).where(Region.name == ref).limit(3)).scalars().all()
    if len(hits) == 1:
        return hits[0]
    r.err(col, f"{ref!r} is not a region: give its six-digit GB/T 2260 code" if not hits else
          f"several regions are named {ref!r}; give the six-digit code")
    return None


def _find_devices(s: Session, ref: str) -> list[Device]:
    hit = s.execute(select(Device).where(Device.asset_tag == ref)).scalar_one_or_none()
    if hit is not None:
        return [hit]
    return s.execute(select(Device).where(Device.name == ref).limit(3)).scalars().all()


def _device_ref(s: Session, r: _Row, col: str = "device") -> Device | None:
    ref = r.get(col)
    if not ref:
        return None
    hits = _memo(s, ("device", ref), lambda: _find_devices(s, ref))
    if not hits:
        r.err(col, f"no device is named {ref!r} or has that asset tag")
    elif len(hits) > 1:
        r.err(col, f"several devices are named {ref!r}; give its asset tag instead")
    else:
        return hits[0]
    return None


# --- one upsert for the EntitySpec kinds -----------------------------------------------------

def _upsert(uow, kind: str, existing, values: dict, label: str, *,
            validate_as: dict | None = None) -> str:
    """Create, or update only what differs, through the service (services.common.upsert_in);
    returns 'created', 'updated' or 'unchanged'."""
    return upsert_in(uow, kind, existing, values, validate_as=validate_as)[1]


def _keep(values: dict, *keys: str) -> None:
    """Empty cells in columns with a default mean 'the default' (new) or 'unchanged' (existing)."""
    for k in keys:
        if values.get(k) in (None, ""):
            values.pop(k, None)


def _credit_code(r: _Row, col: str = "credit_code") -> str:
    """The code as text; one that Excel turned into a number (all digits, 1.2E+17, 110000.0) gets a hint."""
    raw = (r.get(col) or "").strip()
    code = raw.upper()
    m = re.fullmatch(r"(\d+)\.0+", code)
    if m:  # pandas wrote an all-digit code as a float
        code = m.group(1)
    if code and (re.fullmatch(r"[\d.]+E\+?\d+", code) or (code.isdigit() and uscc_problem(code))):
        r.err(col, f"{raw!r} is not a valid credit code ({uscc_problem(code) if code.isdigit() else 'a number'}); "
                   "Excel stores an all-digit code as a number and drops its last digits: format the column as "
                   "Text and type the code again")
    return code


def _local_datetime(r: _Row, col: str) -> dt.datetime | None:
    """A date-time as exported (Shanghai local time) or with its own offset, as UTC."""
    raw = r.get(col) or ""
    try:
        value = dt.datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        r.err(col, f"{raw!r} is not a date and time (write YYYY-MM-DD HH:MM:SS, {LOCAL_TIME_ZONE} time)")
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=TZ)
    return value.astimezone(dt.timezone.utc)


MODEL.update({"contracts": Contract, "users": User, "regions": Region, "subsidiaries": Subsidiary, "rooms": Room,
              "sites": Site, "racks": Rack, "devices": Device, "gpus": GpuAsset, "customers": Customer,
              "device-types": DeviceType})


def _refuse_unstorable(kind: str, r: _Row, values: dict) -> None:
    """Values their column cannot hold (1e400, Infinity, NaN, a NUL, too long), as row errors."""
    cols = FIELD_COLUMN.get(kind, {})
    problems = [(cols.get(k, k), why) for k, why in column_problems(MODEL[kind], values).items()]
    contact = values.get("_contact")
    if contact:
        problems += [(f"contact_{k}", why) for k, why in column_problems(Contact, contact).items()]
    if problems:
        raise _RowRefused(problems)


_ROW_KEYS: dict[str, Callable[[dict], Any]] = {
    "regions": lambda v: v.get("code"), "sites": lambda v: v.get("code"),
    "subsidiaries": lambda v: v.get("code"), "users": lambda v: v.get("login"),
    "rooms": lambda v: (v.get("site_id"), v.get("name")) if v.get("site_id") else None,
    "racks": lambda v: (v.get("room_id"), v.get("name")) if v.get("room_id") else None,
    "gpus": lambda v: v.get("serial"),
    "customers": lambda v: (v.get("credit_code"), (v.get("_contact") or {}).get("name")),
    "device-types": lambda v: v.get("slug"),
    "devices": lambda v: v.get("asset_tag") and ("tag", v["asset_tag"]),
}


def _row_key(kind: str, v: dict) -> Any:
    """What makes two rows of one file the same record (duplicates are refused); None: no check."""
    key = ROW_KEY.get(kind) or _ROW_KEYS.get(kind)
    return key(v) if key is not None else None
