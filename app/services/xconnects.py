"""Cross-connects and cables: ordering, the lifecycle, what a contract item bills for them.

Rules (one home; the CLI, imports, the console page and the LOA ask here):
- a cross-connect starts at a port (rack, panel, port) of the ordering customer's space: a rack
  it leases (whole, a U range or a cage) on the order day; the Z end is a carrier, a cloud
  on-ramp (both named) or another customer;
- a port (the customer's, or the meet-me room's) carries one live cross-connect at a time;
- states move only along `XconnectState.TRANSITIONS`; each move stamps its date, which is never
  before the previous one;
- billing (`xconnect_charges`, called by the billing run for items of kind xconnect): each
  cross-connect of the item is charged the monthly fee from its installed date to its
  disconnected date (both inclusive, inside the contract and the item's service window),
  prorated by day like every monthly item, and the installation price (`setup_price`) once, in
  the month of its installed date. The installed date is the cross-connect's handover.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from sqlalchemy import func, or_, select
from sqlalchemy.orm import aliased

from app.domain import messages as M
from app.domain import rating as B
from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.clock import local_today
from app.domain.errors import NotFound, RuleViolation, ValidationError
from app.domain.money import format_amount, format_price, format_quantity
from app.domain.wording import Text
from app.services.entities import check_version, flush_or_refuse, flush_versioned, get_or_404, snapshot
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import Cable, Contract, ContractItem, CrossConnect, Customer, Device, Rack, Room, Site, SpaceLease
from models.choices import (
    CableEnd,
    CableStatus,
    CableType,
    ItemKind,
    LengthUnit,
    LineUnit,
    RackStatus,
    XconnectMedium,
    XconnectPeer,
    XconnectState,
)

LIVE = (XconnectState.ORDERED, XconnectState.INSTALLED, XconnectState.ACTIVE)


def allowed_moves(state: str) -> list[str]:
    """The states a cross-connect in `state` may move to, in lifecycle order."""
    nxt = XconnectState.TRANSITIONS.get(state, frozenset())
    return [v for v in XconnectState.values() if v in nxt]


def move_refusal(state: str, to_state: str) -> str | None:
    if to_state not in XconnectState.values():
        return f"unknown state {to_state!r}"
    if to_state in XconnectState.TRANSITIONS.get(state, frozenset()):
        return None
    allowed = ", ".join(XconnectState.label(s) for s in allowed_moves(state)) or "none (disconnected is final)"
    return (f"the cross-connect is {XconnectState.label(state).lower()}; it cannot move to "
            f"{XconnectState.label(to_state).lower()}. Allowed from here: {allowed}")


def _customer_holds_rack(s, customer_id: int, rack: Rack, day: dt.date) -> bool:
    if rack.customer_id == customer_id and rack.status == RackStatus.LEASED:
        return True
    return s.execute(select(SpaceLease.id).where(
        SpaceLease.rack_id == rack.id, SpaceLease.customer_id == customer_id, SpaceLease.start_date <= day,
        or_(SpaceLease.end_date.is_(None), SpaceLease.end_date >= day)).limit(1)).first() is not None


def _next_reference(s) -> str:
    last = s.execute(select(func.max(CrossConnect.id))).scalar_one() or 0
    n = last + 1
    while s.execute(select(CrossConnect.id).where(CrossConnect.reference == f"XC-{n:06d}")).first():
        n += 1
    return f"XC-{n:06d}"


def xconnect_label(xc: CrossConnect) -> str:
    return xc.reference + (f" ({xc.circuit_id})" if xc.circuit_id else "")


FIELDS = ("reference", "customer_id", "rack_id", "panel", "port", "mmr_panel", "mmr_port", "peer_kind", "peer_name",
          "peer_customer_id", "peer_port", "medium", "circuit_id", "ordered_date", "work_note", "contract_item_id")


def port_problem(name: str | None) -> str | None:
    """A patch-panel port is named by its number, from 1 (or a label such as 12A, FP-01): 0 and
    negative numbers name no port."""
    if name is None:
        return None
    text = name.strip()
    if text[:1] in "-+" or (text.isdigit() and int(text) == 0):
        return M.PORT_NAME.quoting(name)
    return None


def order_in(uow: UnitOfWork, values: dict, *, reason: str | None = None) -> CrossConnect:
    """Create a cross-connect in state ordered inside an open unit of work (the CLI, imports)."""
    require(uow.actor, "manage_dcim")
    s = uow.session
    v = {k: values.get(k) for k in FIELDS}
    for k in ("panel", "port", "mmr_panel", "mmr_port", "peer_name", "peer_port", "circuit_id", "reference",
              "work_note"):
        if isinstance(v[k], str):
            v[k] = v[k].strip() or None
    v["ordered_date"] = v["ordered_date"] or local_today()
    errors: dict[str, str] = {}
    for k, what in (("panel", "the customer's patch panel"), ("port", "the port on that panel")):
        if not v[k]:
            errors[k] = f"name {what}"
    for k in ("port", "mmr_port", "peer_port"):
        problem = port_problem(v[k])
        if problem:
            errors[k] = problem
    if v["medium"] not in XconnectMedium.values():
        errors["medium"] = f"medium is one of {', '.join(XconnectMedium.values())}"
    if v["peer_kind"] not in XconnectPeer.values():
        errors["peer_kind"] = f"the far end is one of {', '.join(XconnectPeer.values())}"
    elif v["peer_kind"] == XconnectPeer.CUSTOMER:
        if v["peer_customer_id"] is None:
            errors["peer_customer_id"] = "name the other customer"
        elif v["peer_customer_id"] == v["customer_id"]:
            errors["peer_customer_id"] = "a cross-connect to another customer names another customer"
    elif not v["peer_name"]:
        errors["peer_name"] = f"name the {XconnectPeer.label(v['peer_kind']).lower()}"
    if errors:
        raise ValidationError(errors)
    customer = get_or_404(s, Customer, v["customer_id"], "customer")
    rack = get_or_404(s, Rack, v["rack_id"], "rack")
    if v["peer_customer_id"] is not None:
        peer = get_or_404(s, Customer, v["peer_customer_id"], "customer")
        v["peer_name"] = v["peer_name"] or peer.name
    if v["peer_kind"] != XconnectPeer.CUSTOMER:
        v["peer_customer_id"] = None
    if not _customer_holds_rack(s, customer.id, rack, v["ordered_date"]):
        raise RuleViolation(f"{customer.name} leases no space in rack {rack.room.name}/{rack.name} on "
                            f"{v['ordered_date']}; a cross-connect starts at a port in the customer's own space")
    _refuse_busy_ports(s, None, v)
    if v["contract_item_id"] is not None:
        _check_item(s, None, v["contract_item_id"], customer)
    if v["reference"] and s.execute(select(CrossConnect.id).where(CrossConnect.reference == v["reference"])).first():
        raise ValidationError({"reference": f"cross-connect {v['reference']} exists already"})
    v["reference"] = v["reference"] or _next_reference(s)
    xc = CrossConnect(**v, state=XconnectState.ORDERED, updated_by=uow.actor.login)
    s.add(xc)
    flush_or_refuse(s)
    uow.audit("xconnect.order", "cross_connect", xc.id, xconnect_label(xc), after=snapshot(xc), reason=reason)
    return xc


def _refuse_busy_ports(s, xc_id: int | None, v: dict) -> None:
    other = [] if xc_id is None else [CrossConnect.id != xc_id]
    busy = s.execute(select(CrossConnect.reference).where(
        CrossConnect.rack_id == v["rack_id"], CrossConnect.panel == v["panel"], CrossConnect.port == v["port"],
        CrossConnect.state.in_(LIVE), *other)).first()
    if busy:
        raise RuleViolation(f"port {v['panel']}/{v['port']} already carries cross-connect {busy[0]}")
    if v.get("mmr_panel") and v.get("mmr_port"):
        busy = s.execute(select(CrossConnect.reference).where(
            CrossConnect.mmr_panel == v["mmr_panel"], CrossConnect.mmr_port == v["mmr_port"],
            CrossConnect.state.in_(LIVE), *other)).first()
        if busy:
            raise RuleViolation(f"meet-me room port {v['mmr_panel']}/{v['mmr_port']} already carries "
                                f"cross-connect {busy[0]}")


def _check_item(s, xc_id: int | None, item_id: int, customer: Customer) -> None:
    item = get_or_404(s, ContractItem, item_id, "contract item")
    contract = s.get(Contract, item.contract_id)
    if item.kind != ItemKind.XCONNECT:
        raise ValidationError({"contract_item_id": f"item {item_id} of {contract.number} is a "
                                                   f"{ItemKind.label(item.kind).lower()} item, not cross-connects"})
    if contract.customer_id != customer.id:
        raise ValidationError({"contract_item_id": f"contract {contract.number} is not {customer.name}'s"})
    other = [] if xc_id is None else [CrossConnect.id != xc_id]
    sold = s.execute(select(func.count()).select_from(CrossConnect).where(
        CrossConnect.contract_item_id == item_id, CrossConnect.state.in_(LIVE), *other)).scalar_one()
    if sold + 1 > item.quantity:
        raise RuleViolation(f"item {item_id} of {contract.number} sells {format_quantity(item.quantity)} "
                            f"cross-connect(s), all taken; amend the contract to sell more")


def order_cross_connect(db: Database, actor: Actor, **values) -> int:
    with UnitOfWork(db, actor) as uow:
        xc = order_in(uow, values)
        uow.commit()
        return xc.id


def move_in(uow: UnitOfWork, xc: CrossConnect, to_state: str, on: dt.date, *, note: str | None = None,
            circuit_id: str | None = None) -> None:
    """One lifecycle move: the state, its date (never before the previous move's) and the work note."""
    refusal = move_refusal(xc.state, to_state)
    if refusal:
        raise RuleViolation(f"{xconnect_label(xc)}: {refusal}")
    last = max(d for d in (xc.ordered_date, xc.installed_date, xc.active_date) if d is not None)
    if on < last:
        raise ValidationError({"on": f"{xconnect_label(xc)} moved last on {last}; a later move cannot be dated "
                                     f"{on}"})
    field = XconnectState.DATE_FIELD[to_state]
    before = {"state": xc.state, field: getattr(xc, field), "circuit_id": xc.circuit_id, "work_note": xc.work_note}
    xc.state = to_state
    setattr(xc, field, on)
    if circuit_id:
        xc.circuit_id = circuit_id.strip()
    if note and note.strip():
        stamp = f"{on} {XconnectState.label(to_state).lower()}: {note.strip()}"
        xc.work_note = f"{xc.work_note}\n{stamp}" if xc.work_note else stamp
    flush_versioned(uow, xc, f"cross-connect {xc.reference}")
    after = {"state": to_state, field: on, "circuit_id": xc.circuit_id, "work_note": xc.work_note}
    uow.audit("xconnect.move", "cross_connect", xc.id, xconnect_label(xc),
              before={k: (str(v) if isinstance(v, dt.date) else v) for k, v in before.items() if after[k] != v},
              after={k: (str(v) if isinstance(v, dt.date) else v) for k, v in after.items() if before[k] != v},
              reason=(note or "").strip() or None)


def move_cross_connect(db: Database, actor: Actor, key: int | str, to_state: str, *, on: dt.date | None = None,
                       note: str | None = None, circuit_id: str | None = None,
                       expected_version: int | None = None) -> int:
    """Move a cross-connect along its lifecycle; returns its new version."""
    require(actor, "manage_dcim")
    with UnitOfWork(db, actor) as uow:
        xc = find_cross_connect_in(uow.session, key, lock=True)
        check_version(xc, expected_version, f"cross-connect {xc.reference}")
        move_in(uow, xc, to_state, on or local_today(), note=note, circuit_id=circuit_id)
        uow.commit()
        return xc.version


def find_cross_connect_in(s, key: int | str, lock: bool = False) -> CrossConnect:
    """A cross-connect by id, reference (XC-000123) or carrier circuit id."""
    text = str(key).strip()
    q = select(CrossConnect)
    if lock:
        q = q.with_for_update(of=CrossConnect)
    conds = [CrossConnect.reference == text, CrossConnect.circuit_id == text]
    if text.isdigit():
        conds.append(CrossConnect.id == int(text))
    rows = s.execute(q.where(or_(*conds)).order_by(CrossConnect.id).limit(2)).scalars().all()
    if not rows:
        raise NotFound(f"no cross-connect {text} (give its id, reference XC-… or circuit id)")
    if len(rows) > 1:
        raise ValidationError({"cross_connect": f"several cross-connects match {text}; give the reference XC-…"})
    return rows[0]


# --- reading: the list page, the CLI, the LOA ------------------------------------------------------

@dataclass(frozen=True)
class XconnectRow:
    id: int
    reference: str
    customer_id: int
    customer: str
    site_code: str
    room: str
    rack: str
    panel: str
    port: str
    mmr_panel: str | None
    mmr_port: str | None
    peer_kind: str
    peer_name: str | None
    peer_port: str | None
    medium: str
    state: str
    circuit_id: str | None
    ordered_date: dt.date
    installed_date: dt.date | None
    active_date: dt.date | None
    disconnected_date: dt.date | None
    work_note: str | None
    contract: str | None
    contract_item_id: int | None
    version: int

    @property
    def a_end(self) -> str:
        return f"{self.site_code}/{self.room}/{self.rack} {self.panel}/{self.port}"

    @property
    def moves(self) -> list[str]:
        return allowed_moves(self.state)


def _rows_query():
    room, site = aliased(Room), aliased(Site)
    return (select(CrossConnect, Customer.name, site.code, room.name, Rack.name, Contract.number)
            .join(Customer, Customer.id == CrossConnect.customer_id)
            .join(Rack, Rack.id == CrossConnect.rack_id).join(room, room.id == Rack.room_id)
            .join(site, site.id == room.site_id)
            .outerjoin(ContractItem, ContractItem.id == CrossConnect.contract_item_id)
            .outerjoin(Contract, Contract.id == ContractItem.contract_id))


def _row(xc: CrossConnect, cname, site, room, rack, number) -> XconnectRow:
    return XconnectRow(xc.id, xc.reference, xc.customer_id, cname, site, room, rack, xc.panel, xc.port, xc.mmr_panel,
                       xc.mmr_port, xc.peer_kind, xc.peer_name, xc.peer_port, xc.medium, xc.state, xc.circuit_id,
                       xc.ordered_date, xc.installed_date, xc.active_date, xc.disconnected_date, xc.work_note,
                       number, xc.contract_item_id, xc.version)


def list_cross_connects(db: Database, *, state: str | None = None, customer_id: int | None = None,
                        text: str | None = None, limit: int | None = None) -> list[XconnectRow]:
    q = _rows_query()
    if state:
        q = q.where(CrossConnect.state == state)
    if customer_id is not None:
        q = q.where(or_(CrossConnect.customer_id == customer_id, CrossConnect.peer_customer_id == customer_id))
    if text and "\x00" in text:
        return []  # a NUL is in no stored text (and PostgreSQL refuses it as a parameter)
    if text:
        like = f"%{text.strip()}%"
        q = q.where(or_(CrossConnect.reference.ilike(like), CrossConnect.circuit_id.ilike(like),
                        Customer.name.ilike(like), CrossConnect.peer_name.ilike(like)))
    q = q.order_by(CrossConnect.id)
    if limit:
        q = q.limit(limit)
    with db.read_session() as s:
        return [_row(*r) for r in s.execute(q).all()]


def get_cross_connect(db: Database, key: int | str) -> XconnectRow:
    with db.read_session() as s:
        xc = find_cross_connect_in(s, key)
        return _row(*s.execute(_rows_query().where(CrossConnect.id == xc.id)).one())


# --- billing: called by app/services/billing.item_charges for items of kind xconnect ---------------

def xconnect_charges(s, c: Contract, it: ContractItem, p: B.Period, name: Text, unit) -> list[B.Charge]:
    """The item's monthly fee for each cross-connect's days in service this period (installed date
    to disconnected date, inclusive, inside the contract and the item's window), as one line, and
    the installation price of those installed this month, as another. `name` is the item's name in
    both languages; `unit(key)` the stored word of a models.choices.LineUnit."""
    lo = max(it.service_start or c.start_date, c.start_date)
    hi = min(it.service_end or c.end_date, c.end_date)
    rows = s.execute(select(CrossConnect.reference, CrossConnect.installed_date, CrossConnect.disconnected_date)
                     .where(CrossConnect.contract_item_id == it.id, CrossConnect.installed_date.is_not(None))
                     .order_by(CrossConnect.reference)).all()
    share, parts, installed = Fraction(0), [], []
    for ref, on, off in rows:
        first, last, days = B.active_days(p, max(lo, on), min(hi, off) if off else hi)
        if days:
            share += Fraction(days, p.days)
            parts.append(f"{ref} {first}–{last} ({days}/{p.days})")
        if lo <= on <= hi and B.Period.containing(on) == p:
            installed.append(f"{ref} {on}")
    out = []
    if share:
        qty, amount = B.line_figures(share, it.unit_price)
        desc = name + Text(f" · 交叉连接 {len(parts)} · 按日折算", f" · cross-connects {len(parts)} · prorated by day")
        note = (f"{format_price(it.unit_price)} × ({' + '.join(p_.split(' (')[1].rstrip(')') for p_ in parts)}) = "
                f"{format_amount(amount)}; " + "; ".join(parts))
        out.append(B.Charge(it.id, "fee", desc, qty, unit(LineUnit.XC_MONTH), it.unit_price, amount,
                            it.tax_category, note=Text.same(note)))
    if installed and it.setup_price:
        qty, amount = B.line_figures(Decimal(len(installed)), it.setup_price)
        desc = name + Text(f" · 安装费 {len(installed)} 条", f" · installation {len(installed)} cross-connect(s)")
        out.append(B.Charge(it.id, "setup", desc, qty, unit(LineUnit.EACH), it.setup_price, amount,
                            it.tax_category,
                            note=Text.same(f"{format_price(it.setup_price)} × {len(installed)} = {format_amount(amount)}; "
                                           + "; ".join(installed))))
    return out


# --- cables ----------------------------------------------------------------------------------------

CABLE_FIELDS = ("side_a_device_id", "side_a_type", "side_a_name", "side_b_device_id", "side_b_type", "side_b_name",
                "type", "status", "label", "color", "length", "length_unit")


def validate_cable(v: dict) -> dict[str, str]:
    e: dict[str, str] = {}
    for side in ("a", "b"):
        if v.get(f"side_{side}_type") not in CableEnd.values():
            e[f"side_{side}_type"] = f"a cable end is one of {', '.join(CableEnd.values())}"
        if not v.get(f"side_{side}_name"):
            e[f"side_{side}_name"] = "name the port"
        if v.get(f"side_{side}_device_id") is None:
            e[f"side_{side}_device_id"] = "name the device"
    ends = [(v.get(f"side_{side}_device_id"), v.get(f"side_{side}_type"), v.get(f"side_{side}_name"))
            for side in ("a", "b")]
    if ends[0] == ends[1] and ends[0][0] is not None and ends[0][2]:
        e["side_b_name"] = M.CABLE_SAME_PORT(ends[0][2])
    if v.get("type") not in (None, *CableType.values()):
        e["type"] = f"cable type is one of {', '.join(CableType.values())}"
    if v.get("status") not in CableStatus.values():
        e["status"] = f"status is one of {', '.join(CableStatus.values())}"
    if v.get("length_unit") not in (None, *LengthUnit.values()):
        e["length_unit"] = f"length unit is one of {', '.join(LengthUnit.values())}"
    if v.get("length") is not None and (v["length"] <= 0 or not v.get("length_unit")):
        e["length"] = "a length is positive and has a unit"
    color = v.get("color")
    if color and (len(color) != 6 or any(ch not in "0123456789abcdefABCDEF" for ch in color)):
        e["color"] = "a colour is six hex digits, e.g. ffff00"
    return e


def connect_cable_in(uow: UnitOfWork, values: dict, *, reason: str | None = None) -> Cable:
    """Record a cable between two ports; a port takes one cable (either side)."""
    require(uow.actor, "manage_dcim")
    s = uow.session
    v = {k: values.get(k) for k in CABLE_FIELDS}
    v["status"] = v["status"] or CableStatus.CONNECTED
    errors = validate_cable(v)
    if errors:
        raise ValidationError(errors)
    for side in ("a", "b"):
        end = (v[f"side_{side}_device_id"], v[f"side_{side}_type"], v[f"side_{side}_name"])
        taken = s.execute(select(Cable.id).where(or_(
            (Cable.side_a_device_id == end[0]) & (Cable.side_a_type == end[1]) & (Cable.side_a_name == end[2]),
            (Cable.side_b_device_id == end[0]) & (Cable.side_b_type == end[1]) & (Cable.side_b_name == end[2])))
        ).first()
        if taken:
            dev = get_or_404(s, Device, end[0], "device")
            raise RuleViolation(f"port {end[2]} of {dev.name} already has cable {taken[0]}")
    if v["label"] and s.execute(select(Cable.id).where(Cable.label == v["label"])).first():
        raise ValidationError({"label": f"cable {v['label']} exists already"})
    cable = Cable(**v, updated_by=uow.actor.login)
    s.add(cable)
    flush_or_refuse(s)
    uow.audit("cable.connect", "cable", cable.id, v["label"] or f"cable {cable.id}", after=snapshot(cable),
              reason=reason)
    return cable
