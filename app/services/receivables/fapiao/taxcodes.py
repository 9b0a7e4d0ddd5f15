"""The tax code (商品和服务税收分类编码) of each kind of line and VAT rate."""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import ValidationError
from app.domain.rating import ELECTRICITY, ENERGY_CHARGE  # metered energy: the `power` charge, taxed as electricity
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import TaxCode
from models.choices import ItemKind
from models.finance import TAX_CODE_KINDS

# The code a line is invoiced under follows its kind *and* its VAT rate: the tax platform refuses a
# line whose rate its code does not carry. Defaults with their sources: resources/tax_codes/.
TAX_CODES_FILE = Path(__file__).resolve().parents[4] / "resources" / "tax_codes" / "tax_codes.csv"


@dataclass(frozen=True)
class TaxCodeInfo:
    line_kind: str
    tax_rate: Decimal
    code: str
    short_name: str
    item_name: str
    source: str = ""
    updated_by: str | None = None

    @property
    def project_name(self) -> str:
        """项目名称 as the tax platform prints it: *简称*名称."""
        return f"*{self.short_name}*{self.item_name}"

    @property
    def rate_text(self) -> str:
        return f"{(self.tax_rate * 100).normalize():f} %"


def _rate(value) -> Decimal:
    return Decimal(str(value)).quantize(Decimal("0.0001"))


def default_tax_codes() -> dict[tuple[str, Decimal], TaxCodeInfo]:
    """The defaults of resources/tax_codes/tax_codes.csv (what migration 0026 seeds)."""
    import csv

    with TAX_CODES_FILE.open(encoding="utf-8", newline="") as f:
        return {(r["line_kind"], _rate(r["tax_rate"])): TaxCodeInfo(
                    r["line_kind"], _rate(r["tax_rate"]), r["code"], r["short_name"], r["item_name"],
                    f"{r['verified']}: {r['source']}") for r in csv.DictReader(f)}


def tax_codes(s: Session) -> dict[tuple[str, Decimal], TaxCodeInfo]:
    """(line kind, rate) → code: the table, over the file's defaults (a database built from the models)."""
    out = default_tax_codes()
    for r in s.execute(select(TaxCode)).scalars():
        rate = _rate(r.tax_rate)
        out[(r.line_kind, rate)] = TaxCodeInfo(r.line_kind, rate, r.code, r.short_name, r.item_name, r.source or "",
                                               r.updated_by)
    return out


def list_tax_codes(db: Database) -> list[TaxCodeInfo]:
    with db.session() as s:
        return sorted(tax_codes(s).values(), key=lambda t: (TAX_CODE_KINDS.index(t.line_kind), t.tax_rate))


def line_kind(item_kind: str | None, charge: str) -> str:
    """The kind of line a tax code is chosen by: metered energy is electricity, else the item's kind."""
    return ELECTRICITY if charge == ENERGY_CHARGE else (item_kind or ItemKind.ONE_OFF)


# The rate that families of codes carry (财政部 税务总局 海关总署公告2019年第39号; sources in
# resources/tax_codes/README.md): a code of a known family at another rate is refused, as the tax
# platform would refuse it. Codes outside these families are taken as given.
CODE_RATES = (
    ("304020", "信息技术服务", ("0.06",)),
    ("304050201", "有形动产经营租赁", ("0.13",)),
    ("304050202", "不动产经营租赁", ("0.09",)),
    ("30302", "增值电信服务", ("0.06",)),
    ("30301", "基础电信服务", ("0.09",)),
    ("1100101", "电力", ("0.13",)),
)


def check_tax_code(line_kind_: str, tax_rate, code: str, short_name: str, item_name: str) -> dict:
    errors = {}
    if line_kind_ not in TAX_CODE_KINDS or line_kind_ == ItemKind.DISCOUNT:
        errors["kind"] = (f"the kind of line is one of {', '.join(k for k in TAX_CODE_KINDS if k != 'discount')} "
                          "(a discount goes out under the line it reduces, with that line's code)")
    try:
        rate = _rate(tax_rate)
        if not 0 <= rate < 1:
            raise ValueError
    except (ValueError, ArithmeticError):
        errors["rate"] = f"the VAT rate as a fraction, e.g. 0.06 or 0.13, not {tax_rate!r}"
        rate = None
    code, short_name, item_name = (code or "").strip(), (short_name or "").strip().strip("*"), (item_name or "").strip()
    if not re.fullmatch(r"\d{19}", code):
        errors["code"] = "商品和服务税收分类编码 has 19 digits"
    elif rate is not None:
        for prefix, family, rates in CODE_RATES:
            if code.startswith(prefix) and rate not in {Decimal(r) for r in rates}:
                allowed = " or ".join(f"{(Decimal(r) * 100).normalize():f} %" for r in rates)
                errors["code"] = (f"{code} is {family}, taxed at {allowed}, not {(rate * 100).normalize():f} %: "
                                  f"a line at this rate needs a code of its rate / 该编码属于{family}，税率为{allowed}，"
                                  "与所选税率不符")
                break
    if not short_name or len(short_name) > 32:
        errors["short_name"] = "the code's short name (简称, e.g. 信息系统服务), 1 to 32 characters"
    if not item_name or len(item_name) > 64:
        errors["item_name"] = "the item name printed after it (e.g. 机柜租赁服务), 1 to 64 characters"
    if errors:
        raise ValidationError(errors)
    return {"line_kind": line_kind_, "tax_rate": rate, "code": code, "short_name": short_name, "item_name": item_name}


def set_tax_code(db: Database, actor: Actor, line_kind_: str, tax_rate, *, code: str, short_name: str,
                 item_name: str, source: str | None = None) -> TaxCodeInfo:
    """Set the tax code a kind of line at a VAT rate is invoiced under (administrators; audited)."""
    require(actor, "manage_users")
    v = check_tax_code(line_kind_, tax_rate, code, short_name, item_name)
    v["source"] = (source or "").strip() or None
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        r = s.execute(select(TaxCode).where(TaxCode.line_kind == v["line_kind"], TaxCode.tax_rate == v["tax_rate"])
                      ).scalar_one_or_none()
        fields = ("line_kind", "tax_rate", "code", "short_name", "item_name", "source")
        before = None if r is None else {k: getattr(r, k) for k in fields}
        if before is not None and {k: before[k] for k in fields[2:]} == {k: v[k] for k in fields[2:]}:
            return TaxCodeInfo(**{k: v[k] for k in fields[:5]}, source=v["source"] or "", updated_by=r.updated_by)
        if r is None:
            r = TaxCode(line_kind=v["line_kind"], tax_rate=v["tax_rate"])
            s.add(r)
        for k in fields[2:]:
            setattr(r, k, v[k])
        r.updated_at, r.updated_by = dt.datetime.now(dt.timezone.utc), uow.actor.login
        s.flush()
        label = f"{v['line_kind']} {(v['tax_rate'] * 100).normalize():f}%"
        uow.audit("tax_code.create" if before is None else "tax_code.update", "tax_code", r.id, label,
                  before=before, after={k: v[k] for k in fields})
        uow.commit()
    return TaxCodeInfo(**{k: v[k] for k in fields[:5]}, source=v["source"] or "", updated_by=actor.login)
