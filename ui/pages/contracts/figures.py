"""The figures both the contract form and the contract panel show: money as printed, a plain
number, the contract's totals as a small table (app.services.contracts.totals computes them) and a
GPU item's terms side by side."""
from __future__ import annotations

from decimal import Decimal

from PySide6.QtCore import QCoreApplication

from models.choices import PriceTerm

from ui.shell.i18n import choice_label


def money(value) -> str:
    if value is None:
        return ""
    from app.domain.money import format_cny

    return format_cny(value)  # app/domain/money.py: half-up, never through a float (2.675 → 2.68)


def plain(value) -> str:
    if value is None:
        return ""
    if isinstance(value, Decimal):
        text = format(value.normalize(), "f")
        return text
    return str(value)


TR_CONTEXT = "ContractTotals"   # the module's tr(): the totals' words, shared by the form and the panel


def tr(text: str, n: int = -1) -> str:
    return QCoreApplication.translate(TR_CONTEXT, text, "", n)


def totals_html(t, skipped: int = 0) -> str:
    """The totals as a small table (the form and the detail panel show the same)."""
    rows = [(tr("Monthly recurring"), money(t.monthly)), (tr("One-off"), money(t.one_off)),
            (tr("Whole term (excl. VAT)"), money(t.term_value)), (tr("VAT"), money(t.vat)),
            (f"<b>{tr('Total (incl. VAT)')}</b>", f"<b>{money(t.total)}</b>"),
            (tr("In words"), t.in_words)]
    if t.expected_usage:  # an hourly (or hybrid) GPU draft: what full use over the window bills
        rows += [(tr("GPU-hours at full use (excl. VAT)"), money(t.expected_usage)),
                 (f"<b>{tr('Expected total (incl. VAT)')}</b>", f"<b>{money(t.expected_total)}</b>"),
                 (tr("In words"), t.expected_in_words)]
    html = "<table cellspacing='0' cellpadding='1'>" + "".join(
        f"<tr><td>{label}</td><td align='right'>&nbsp;&nbsp;{value}</td></tr>" for label, value in rows) + "</table>"
    notes = []
    if t.usage_based:
        notes.append(tr("Usage (GPU-hours, power over the allowance) is billed as used, on top."))
    if skipped:
        notes.append(tr("%n item(s) with errors are not counted.", skipped))
    if notes:
        html += "<p style='color:#666'>" + "<br>".join(notes) + "</p>"
    return html


def terms_html(terms, description: str) -> str:
    """A GPU item's terms side by side (app.services.capacity.prices.compare_terms), incl. VAT."""
    rows = "".join(f"<tr><td>{choice_label(PriceTerm, f.term)}</td><td align='right'>&nbsp;{money(f.total)}</td>"
                   f"<td>&nbsp;{f.in_words}</td></tr>" for f in terms)
    return (f"<p><b>{tr('Terms side by side (incl. VAT)')}</b> · {description}</p>"
            f"<table cellspacing='0' cellpadding='1'>{rows}</table>")
