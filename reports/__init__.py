"""PDF renderers: plain dataclasses in (``reports.documents``), PDF files out.

No database access and no Qt here; ``app/`` builds the documents.
"""
from .audit import render_audit_report
from .base import RenderResult, canonical_json, data_sha256, load_style
from .contract import render_contract
from .documents import (AuditReportDoc, AuditRow, AuditSummaryRow, CapacityDoc, CapacityRow,
                        ContractDoc, ContractItemRow, ContractSums, CreditLine, DeviceRow, ElevDevice, FleetDoc,
                        FleetRow, GpuRow, Party, RackElevation, RackSheetDoc, Reservation,
                        StatementDoc, StatementLine)
from .fonts import FontNotFoundError, register_cjk_fonts
from .sheets import render_capacity, render_fleet, render_rack_sheet
from .statement import render_statement

__all__ = [
    "AuditReportDoc", "AuditRow", "AuditSummaryRow", "CapacityDoc", "CapacityRow", "ContractDoc", "ContractSums",
    "ContractItemRow", "CreditLine", "DeviceRow", "ElevDevice", "FleetDoc", "FleetRow",
    "FontNotFoundError", "GpuRow", "Party", "RackElevation", "RackSheetDoc", "RenderResult",
    "Reservation", "StatementDoc", "StatementLine", "canonical_json", "data_sha256", "load_style",
    "register_cjk_fonts", "render_audit_report", "render_capacity", "render_contract",
    "render_fleet", "render_rack_sheet", "render_statement",
]
