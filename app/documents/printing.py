"""One registry of document kinds; build, render, and record a ``print`` audit event.

Each kind is registered once (`DOCUMENTS`): how to build its dataclass from a key, which
renderer of reports/ draws it, and what the audit trail records as its subject. The CLI
(`report …`), the console's preview and the tests all go through `print_document`. A new
document adds one `DocumentKind` here and a module of its own beside the others.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import reports
from app.audit.query import AuditFilter
from reports.sla import SlaReportDoc, render_sla_report
from app.documents.audit import audit_report_doc
from app.documents.common import FONT_ENV, _check_lang
from app.documents.contract import contract_doc
from app.documents.fleet import fleet_doc
from app.documents.loa import loa_doc
from app.documents.racks import capacity_doc, rack_sheet_doc
from app.documents.sla import sla_report_doc
from app.documents.statement import statement_doc
from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import DomainError, ValidationError
from app.services.exports import record_export
from app.store.db import Database
from reports import AuditReportDoc, RenderResult
from reports.loa import LoaDoc, render_loa
from app.documents.maintenance import notice_for
from app.documents.visitors import VisitorListKey, visitor_list_for
from app.domain.clock import parse_date
from reports.maintenance_notice import MaintenanceNoticeDoc, render_maintenance_notice
from reports.visitors import VisitorListDoc, render_visitor_list
from app.documents.quote import quote_doc, quote_subject
from reports.quote import QuoteDoc, render_quote


@dataclass(frozen=True)
class DocumentKind:
    """A printable document: `build(db, key, language)` → its dataclass; `render` is the reports/
    function that draws it; `subject(doc)` → (what the audit trail names, how many rows)."""

    kind: str
    doc_type: type
    build: Callable[[Database, Any, str | None], Any]
    render: Callable[..., RenderResult]
    subject: Callable[[Any], tuple[str, int]]


def _audit_subject(doc: AuditReportDoc) -> tuple[str, int]:
    return (f"{doc.period_from} – {doc.period_to} {doc.filters} @ {doc.checkpoint}",
            len(doc.events) if doc.total_events is None else doc.total_events)


DOCUMENTS: dict[str, DocumentKind] = {d.kind: d for d in (
    DocumentKind("statement", reports.StatementDoc, lambda db, key, lang: statement_doc(db, key, language=lang),
                 reports.render_statement, lambda doc: (doc.number, len(doc.lines))),
    DocumentKind("contract", reports.ContractDoc, lambda db, key, lang: contract_doc(db, key, language=lang),
                 reports.render_contract, lambda doc: (doc.number, len(doc.items))),
    DocumentKind("audit", reports.AuditReportDoc,
                 lambda db, key, lang: audit_report_doc(db, key if isinstance(key, AuditFilter) else AuditFilter(),
                                                        language=lang or "zh"),
                 reports.render_audit_report, _audit_subject),
    DocumentKind("rack", reports.RackSheetDoc, lambda db, key, lang: rack_sheet_doc(db, key, language=lang or "zh"),
                 reports.render_rack_sheet,
                 lambda doc: (f"{doc.rack.site}/{doc.rack.room}/{doc.rack.name}", len(doc.rack.devices))),
    DocumentKind("capacity", reports.CapacityDoc, lambda db, key, lang: capacity_doc(db, key, language=lang or "zh"),
                 reports.render_capacity, lambda doc: (doc.site, len(doc.rows))),
    DocumentKind("fleet", reports.FleetDoc, lambda db, key, lang: fleet_doc(db, language=lang or "zh"),
                 reports.render_fleet, lambda doc: (doc.number or "fleet", len(doc.rows))),
    DocumentKind("loa", LoaDoc, lambda db, key, lang: loa_doc(db, key, language=lang),  # a cross-connect's LOA
                 render_loa, lambda doc: (doc.number, 1)),
    DocumentKind("sla", SlaReportDoc, lambda db, key, lang: sla_report_doc(db, key, language=lang),  # issue 24
                 render_sla_report, lambda doc: (doc.number, len(doc.tickets))),
    # the operations desk (issue 24): one customer's maintenance notice, the guard desk's visitor list
    DocumentKind("maintenance_notice", MaintenanceNoticeDoc, notice_for, render_maintenance_notice,
                 lambda doc: (doc.number, len(doc.rows))),
    DocumentKind("visitors", VisitorListDoc, visitor_list_for, render_visitor_list,
                 lambda doc: (doc.number, len(doc.rows))),
    DocumentKind("quote", QuoteDoc, lambda db, key, lang: quote_doc(db, key, language=lang),  # 报价单 (capacity)
                 render_quote, quote_subject),
)}
DOCUMENT_KINDS = tuple(DOCUMENTS)


def pdf_font_path(font_path: str | os.PathLike | None = None) -> str | None:
    """The font to embed: the argument (the console's setting), else $IDC_PDF_FONT, else found by reports.fonts."""
    if font_path:
        return str(font_path)
    return os.environ.get(FONT_ENV) or None


@dataclass(frozen=True)
class Printed:
    kind: str
    what: str  # the document's number or subject, as recorded in the audit trail
    rows: int
    result: RenderResult
    checkpoint: str = ""  # audit reports only
    omitted_pages: int = 0  # audit reports only: the detail was left out, it would take this many pages

    @property
    def path(self) -> Path:
        return self.result.path

    @property
    def pages(self) -> int:
        return self.result.pages


def _kind(kind: str) -> DocumentKind:
    try:
        return DOCUMENTS[kind]
    except KeyError:
        raise ValidationError({"kind": f"unknown document {kind!r}; one of {', '.join(DOCUMENT_KINDS)}"}) from None


def build_document(db: Database, kind: str, key: Any = None, *, language: str | None = None):
    """The dataclass for `kind` (see DOCUMENT_KINDS); `key` is the number, AuditFilter, rack or site code."""
    _check_lang(language)
    return _kind(kind).build(db, key, language)


def render_document(doc, path: str | os.PathLike, *, font_path: str | os.PathLike | None = None,
                    style: dict | None = None) -> RenderResult:
    from reports import FontNotFoundError

    renderer = next(d.render for d in DOCUMENTS.values() if isinstance(doc, d.doc_type))
    try:
        return renderer(doc, path, style=style, font_path=pdf_font_path(font_path))
    except FontNotFoundError as exc:
        raise DomainError(str(exc)) from None
    except OSError as exc:
        raise DomainError(f"cannot write {path}: {exc.strerror or exc}") from None


def print_document(db: Database, actor: Actor, kind: str, key: Any, path: str | os.PathLike, *,
                   language: str | None = None, font_path: str | os.PathLike | None = None,
                   style: dict | None = None) -> Printed:
    """Build, render to `path` and record a ``print`` audit event; the one call the CLI and the console use."""
    require(actor, "print")
    spec = _kind(kind)
    doc = build_document(db, kind, key, language=language)
    result = render_document(doc, path, font_path=font_path, style=style)
    what, rows = spec.subject(doc)
    record_export(db, actor, kind, what[:255], {"rows": rows, "file": Path(result.path).name, "format": "pdf"},
                  action="print")
    checkpoint = doc.checkpoint if isinstance(doc, AuditReportDoc) and ":" in doc.checkpoint else ""
    omitted = doc.omitted_pages if isinstance(doc, AuditReportDoc) else 0
    return Printed(kind, what, rows, result, checkpoint, omitted)


def print_statement(db, actor, number, path, **kw) -> Printed:
    return print_document(db, actor, "statement", number, path, **kw)


def print_contract(db, actor, number, path, **kw) -> Printed:
    return print_document(db, actor, "contract", number, path, **kw)


def print_audit_report(db, actor, flt: AuditFilter, path, **kw) -> Printed:
    return print_document(db, actor, "audit", flt, path, **kw)


def print_rack_sheet(db, actor, rack, path, **kw) -> Printed:
    return print_document(db, actor, "rack", rack, path, **kw)


def print_capacity(db, actor, site_code, path, **kw) -> Printed:
    return print_document(db, actor, "capacity", site_code, path, **kw)


def print_fleet(db, actor, path, **kw) -> Printed:
    return print_document(db, actor, "fleet", None, path, **kw)


def print_notice(db: Database, actor: Actor, window_id: int, customer_id: int, path: str | Path,
                 lang: str = "zh", font_path=None):
    """Write one customer's notice and record the print (through the document registry)."""
    require(actor, "print")
    return print_document(db, actor, "maintenance_notice", (window_id, customer_id), path, language=lang,
                          font_path=font_path).result


def print_visitor_list(db: Database, actor: Actor, site_id: int, day, path: str | Path, lang: str = "zh",
                       font_path=None):
    """Write the day's list and record the print (through the document registry)."""
    require(actor, "print")
    key = VisitorListKey(site_id, parse_date(day, what="day"), actor)
    return print_document(db, actor, "visitors", key, path, language=lang, font_path=font_path).result
