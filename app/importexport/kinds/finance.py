"""Import and export of the finance kinds: `export fapiao|deposits|invoicing-profiles` (CSV or XLSX),
`export fapiao-lines --period YYYY-MM` (the tax platform's bulk-issue workbook) and
`import invoicing-profiles FILE` (CSV or XLSX, all rows or none, every bad row reported).

Invoicing-profile columns: credit_code (or customer), title, tax_id, address_phone, bank_account,
fapiao_type, email; the Chinese headers 客户/统一社会信用代码/名称/纳税人识别号/地址电话/开户行及账号/
发票类型/收票邮箱 are understood. A row is matched to its customer by credit code, else by name.
"""
from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import NotFound, ValidationError
from app.importexport.export import table_format, write_export
from app.services.exports import record_export
from app.services.receivables.fapiao import set_profiles
from app.store.db import Database
from models import Customer, InvoicingProfile

PROFILE_COLUMNS = ("credit_code", "customer", "title", "tax_id", "address_phone", "bank_account", "fapiao_type",
                   "email")
PROFILE_ALIASES = {"credit_code": ("credit_code", "统一社会信用代码"), "customer": ("customer", "客户", "name"),
                   "title": ("title", "名称", "发票抬头"), "tax_id": ("tax_id", "纳税人识别号", "税号"),
                   "address_phone": ("address_phone", "地址电话", "地址、电话"),
                   "bank_account": ("bank_account", "开户行及账号"), "fapiao_type": ("fapiao_type", "发票类型"),
                   "email": ("email", "收票邮箱", "邮箱")}
KINDS = ("fapiao", "fapiao-lines", "deposits", "invoicing-profiles")


def export_profiles_rows(db: Database) -> tuple[list[str], list[list]]:
    with db.session() as s:
        rows = [[c.credit_code, c.name, p.title, p.tax_id, p.address_phone or "", p.bank_account or "",
                 p.fapiao_type, p.email or ""]
                for p, c in s.execute(select(InvoicingProfile, Customer)
                                      .join(Customer, Customer.id == InvoicingProfile.customer_id)
                                      .order_by(Customer.name))]
        return list(PROFILE_COLUMNS), rows


def export_kind(db: Database, actor: Actor, kind: str, path: str | Path, fmt: str | None = None, *,
                period: str | None = None) -> int:
    """Write one finance kind to a file; audited as an export. Returns the number of rows."""

    require(actor, "export")
    path = Path(path)
    if kind == "fapiao-lines":
        from app.services.receivables.fapiao import export_fapiao_lines
        if not period:
            raise ValidationError({"period": "name the billing period: --period YYYY-MM"})
        _heads, lines = export_fapiao_lines(db, actor, period, path)
        return lines
    if kind == "fapiao":
        from app.services.receivables.fapiao import export_fapiao_rows as rows_of
    elif kind == "deposits":
        from app.services.receivables.deposits import export_deposits_rows as rows_of
    elif kind == "invoicing-profiles":
        rows_of = export_profiles_rows
    else:
        raise ValidationError({"kind": f"no finance export {kind!r}"})
    fmt = (fmt or table_format(path)).lower()
    headers, rows = rows_of(db)
    count = write_export(headers, iter(rows), path, fmt, sheet=kind)
    record_export(db, actor, {"fapiao": "fapiao", "deposits": "deposit"}.get(kind, "customer"), path.name,
                  {"kind": kind, "format": fmt, "rows": count, "file": path.name})
    return count


def _read(path: Path) -> list[dict]:
    from app.services.receivables.bankfile import _read_rows

    raw = _read_rows(path)
    alias = {a.lower(): key for key, names in PROFILE_ALIASES.items() for a in names}
    return [{alias.get(str(k).strip().lower(), str(k)): ("" if v is None else str(v).strip()) for k, v in r.items()}
            for r in raw]


def import_profiles(db: Database, actor: Actor, path: str | Path, *, dry_run: bool = False) -> dict:
    """Customers' invoicing profiles from CSV or XLSX: all rows or none (ValidationError listing every
    bad row by line number); each change audited like a form's."""
    require(actor, "import")
    require(actor, "manage_customers")
    path = Path(path)
    if not path.is_file():
        raise NotFound(f"there is no file {path}")
    rows = _read(path)
    if not rows:
        raise ValidationError({"file": "the file has no rows"})
    missing = {"title", "tax_id"} - set(rows[0])
    if missing or not ({"credit_code", "customer"} & set(rows[0])):
        raise ValidationError({"file": "the file needs the columns credit_code (or customer), title and tax_id"})
    return set_profiles(db, actor, rows, path.name, dry_run=dry_run)
