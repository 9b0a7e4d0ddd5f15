"""Build the PDF documents' data from the database, render them, and leave an audit trace.

`reports/` takes frozen dataclasses and never opens a session; this package fills them, one
module per document: `statement` (statements and credit notes), `contract` (contracts with the
rack elevation annex and the GPUs and devices by serial), `audit` (summary, events, chain
verification and the checkpoint SEQ:HASH on every page), `racks` (rack sheets, elevations and
per-site capacity) and `fleet` (the GPU fleet report; its money rules live in
app.services.fleet). `common` holds what they share (languages, parties, labels).

Labels are chosen per document language ('zh' or 'en'), so a PDF never shows a stored code
where a person expects a word. `printing.print_document` renders one of them and appends a
``print`` audit event (app.services.exports.record_export), as every export and print must; each
document kind is registered once in `printing.DOCUMENTS`.
"""
from app.documents.audit import audit_report_doc, changes_text
from app.documents.common import FONT_ENV, LANGS, action_label, period_label
from app.documents.contract import contract_doc
from app.documents.fleet import fleet_doc
from app.documents.printing import (
                       DOCUMENT_KINDS,
                       DOCUMENTS,
                       DocumentKind,
                       Printed,
                       build_document,
                       pdf_font_path,
                       print_audit_report,
                       print_capacity,
                       print_contract,
                       print_document,
                       print_fleet,
                       print_rack_sheet,
                       print_statement,
                       render_document,
)
from app.documents.racks import capacity_doc, rack_elevation_doc, rack_path, rack_sheet_doc, short_rack
from app.documents.statement import statement_doc
from app.services.racknames import find_rack
from app.services.fleet import book_value, months_elapsed, revenue_by_model

__all__ = [
    "statement_doc", "contract_doc", "audit_report_doc", "rack_sheet_doc", "capacity_doc", "fleet_doc",
    "rack_elevation_doc", "find_rack", "rack_path", "short_rack", "book_value", "months_elapsed",
    "revenue_by_model", "changes_text", "action_label", "period_label", "pdf_font_path", "build_document",
    "render_document", "print_document", "print_statement", "print_contract", "print_audit_report",
    "print_rack_sheet", "print_capacity", "print_fleet", "Printed", "DOCUMENT_KINDS", "DOCUMENTS",
    "DocumentKind", "FONT_ENV", "LANGS",
]
