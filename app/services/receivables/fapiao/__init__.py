"""Fapiao (发票) as records: customers' invoicing profiles, the fapiao issued for statements, red-letter
fapiao against credit notes, the tax code of each kind of line and VAT rate, and the bulk-issue export.

The console does not issue fapiao: the finance desk issues them on the tax platform (电子税务局) and
records them here, so that each statement shows how far it is invoiced:

- a **blue** fapiao is recorded against an issued statement: number, date, type, amount (金额, without
  tax) and tax (税额); several per statement, and never more (价税合计) than the statement's total
  net of its credit notes;
- a **red** fapiao (红字) is recorded against the credit note it reverses and linked to the original
  blue fapiao (which must be on the credited statement); its amounts are negative and never more than
  what is left of the original fapiao, nor than the credit note;
- a statement is 未开票 / 部分开票 / 已开票 (models.choices.FapiaoStatus): what its blue fapiao less the
  red ones against them cover of its total net of credit notes.

Every write is audited in its own transaction (app.store.uow.UnitOfWork); amounts are Decimal to the fen.

One module per concern; the public names are re-exported here, so `fapiao.X` keeps working:
`fields` (what a field accepts), `profiles` (invoicing profiles), `cover` (how far a statement is
invoiced), `records` (blue and red fapiao, the list, the export), `taxcodes` (the code of each kind of
line and rate), `issue_export` (the bulk-issue export for the tax platform).
"""
from __future__ import annotations

from app.services.receivables.fapiao.cover import FapiaoCover, covers, statement_fapiao_status  # noqa: F401
from app.services.receivables.fapiao.issue_export import (  # noqa: F401
    HEAD_COLUMNS,
    LINE_COLUMNS,
    TAX_EXCLUSIVE,
    export_fapiao_lines,
    fapiao_lines,
)
from app.services.receivables.fapiao.profiles import (  # noqa: F401
    PROFILE_FIELDS,
    ProfileInfo,
    check_profile,
    get_profile,
    set_profile,
    set_profile_in,
    set_profiles,
)
from app.services.receivables.fapiao.records import (  # noqa: F401
    FAPIAO_COLUMNS,
    FapiaoInfo,
    add_fapiao,
    add_red_fapiao,
    export_fapiao_rows,
    list_fapiao,
)
from app.services.receivables.fapiao.taxcodes import (  # noqa: F401
    CODE_RATES,
    TAX_CODES_FILE,
    TaxCodeInfo,
    check_tax_code,
    default_tax_codes,
    line_kind,
    list_tax_codes,
    set_tax_code,
    tax_codes,
)
