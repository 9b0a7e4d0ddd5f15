"""The PDF preview dialog: opens a rendered document, shows its pages, navigates, zooms, prints, saves."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from reports import render_contract, render_statement, samples


@pytest.fixture(scope="module")
def contract_pdf(tmp_path_factory):
    path = tmp_path_factory.mktemp("pdf") / "contract.pdf"
    result = render_contract(samples.sample_contract(), path)
    assert result.pages > 1
    return result


def pdf_pages(path) -> int:
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))


from ui.kit.pdfpreview import HAVE_QTPDF  # noqa: E402

needs_qtpdf = pytest.mark.skipif(not HAVE_QTPDF, reason="QtPdf (PySide6_Pdf) not installed")


@needs_qtpdf
def test_dialog_opens_pdf_and_shows_page_count(qtbot, contract_pdf):
    from ui.kit.pdfpreview import preview_pdf

    dialog = preview_pdf(None, contract_pdf.path, "合同预览")
    qtbot.addWidget(dialog)
    assert dialog.isVisible() and dialog.windowTitle() == "合同预览"
    assert dialog.page_count() == contract_pdf.pages
    assert dialog.page_label.text().endswith(str(contract_pdf.pages))
    assert dialog.page_spin.maximum() == contract_pdf.pages
    assert not dialog.prev_button.isEnabled() and dialog.next_button.isEnabled()


@needs_qtpdf
def test_navigation_and_zoom(qtbot, contract_pdf):
    from PySide6.QtPdfWidgets import QPdfView

    from ui.kit.pdfpreview import PdfPreviewDialog

    dialog = PdfPreviewDialog(contract_pdf.path, "x")
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.next_button.click()
    assert dialog.current_page() == 1 and dialog.page_spin.value() == 2
    dialog.go_to_page(99)
    assert dialog.current_page() == contract_pdf.pages - 1 and not dialog.next_button.isEnabled()
    dialog.prev_button.click()
    assert dialog.current_page() == contract_pdf.pages - 2
    assert dialog.view.zoomMode() == QPdfView.ZoomMode.FitToWidth
    dialog.zoom_combo.setCurrentIndex(dialog.zoom_combo.findData(1.0))
    dialog.zoom_in_button.click()
    assert dialog.view.zoomMode() == QPdfView.ZoomMode.Custom and dialog.zoom_factor() == 1.25
    dialog.zoom_out_button.click()
    dialog.zoom_out_button.click()
    assert dialog.zoom_factor() == 0.75


@needs_qtpdf
@pytest.mark.skipif(shutil.which("pdfinfo") is None, reason="poppler-utils missing")
def test_print_renders_every_page_to_the_printer(qtbot, contract_pdf, tmp_path):
    from PySide6.QtPrintSupport import QPrinter

    from ui.kit.pdfpreview import PdfPreviewDialog

    printed = []
    dialog = PdfPreviewDialog(contract_pdf.path, "x", on_printed=printed.append)
    qtbot.addWidget(dialog)
    printer = QPrinter(QPrinter.PrinterMode.ScreenResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(tmp_path / "printed.pdf"))
    assert dialog.print_to(printer) == contract_pdf.pages
    assert printed == [contract_pdf.pages]
    assert pdf_pages(tmp_path / "printed.pdf") == contract_pdf.pages
    printer.setOutputFileName(str(tmp_path / "two.pdf"))
    assert dialog.print_to(printer, 2, 3) == 2
    assert pdf_pages(tmp_path / "two.pdf") == 2


@needs_qtpdf
def test_print_dialog_cancelled_prints_nothing(qtbot, contract_pdf, monkeypatch):
    from PySide6.QtPrintSupport import QPrintDialog
    from PySide6.QtWidgets import QDialog

    from ui.kit.pdfpreview import PdfPreviewDialog

    monkeypatch.setattr(QPrintDialog, "exec", lambda self: QDialog.Rejected)
    dialog = PdfPreviewDialog(contract_pdf.path, "x")
    qtbot.addWidget(dialog)
    assert dialog.print_pdf() == 0


def test_save_as_copies_the_file(qtbot, contract_pdf, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    from ui.kit.pdfpreview import PdfPreviewDialog

    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "copy"), ""))
    dialog = PdfPreviewDialog(contract_pdf.path, "x")
    qtbot.addWidget(dialog)
    saved = dialog.save_as()
    assert saved == tmp_path / "copy.pdf"
    assert saved.read_bytes() == contract_pdf.path.read_bytes()


@needs_qtpdf
def test_single_page_document_disables_navigation(qtbot, tmp_path):
    from ui.kit.pdfpreview import PdfPreviewDialog

    result = render_statement(samples.sample_statement(), tmp_path / "st.pdf")
    dialog = PdfPreviewDialog(result.path, "st")
    qtbot.addWidget(dialog)
    assert dialog.page_count() == 1
    assert not dialog.prev_button.isEnabled() and not dialog.next_button.isEnabled()


def test_print_document_preview_builds_audits_and_opens(qtbot, db, admin):
    """The views' one call: build on a worker thread, record the print, open the preview.

    Not marked needs_qtpdf: it runs on PostgreSQL too, and CI refuses skipped PostgreSQL tests."""
    from sqlalchemy import select

    from models import AuditEvent
    from ui.kit.pdfpreview import print_document_preview

    opened = []
    op = print_document_preview(None, db, admin, "fleet", None, language="en", on_ready=opened.append)
    qtbot.waitUntil(lambda: bool(opened), timeout=20000)
    dialog = opened[0]
    qtbot.addWidget(dialog)
    assert dialog.path.is_file() and dialog.path.read_bytes().startswith(b"%PDF")
    if HAVE_QTPDF:  # without it the dialog offers Save as and the system viewer (tested above)
        assert dialog.page_count() == 1
    with db.session() as s:
        last = s.execute(select(AuditEvent).order_by(AuditEvent.seq.desc()).limit(1)).scalar_one()
    assert (last.action, last.object_type) == ("print", "fleet")
    assert op is not None


def test_without_qtpdf_the_dialog_offers_save_and_viewer(qtbot, contract_pdf, monkeypatch, tmp_path):
    from PySide6.QtGui import QDesktopServices
    from PySide6.QtWidgets import QFileDialog, QLabel

    import ui.kit.pdfpreview as pp

    monkeypatch.setattr(pp, "HAVE_QTPDF", False)
    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url.toLocalFile()))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "kept.pdf"), ""))
    dialog = pp.PdfPreviewDialog(contract_pdf.path, "x")
    qtbot.addWidget(dialog)
    assert dialog.findChild(QLabel, "noPreview") is not None
    assert dialog.page_count() == 0 and not dialog.next_button.isEnabled()
    dialog.print_button.click()
    assert opened == [str(contract_pdf.path)]
    assert dialog.save_as().read_bytes() == contract_pdf.path.read_bytes()


def test_preview_fits_the_screen_it_opens_on(qtbot, contract_pdf):
    """At 1280×800 less a 40 px taskbar the preview is 900×700, not 900×1000 (its bottom off screen);
    on a large screen it keeps 900×1000; the dialog opened offscreen fits the screen it is on."""
    from types import SimpleNamespace

    from PySide6.QtCore import QRect
    from PySide6.QtGui import QGuiApplication

    from ui.kit.pdfpreview import PdfPreviewDialog, preview_size

    def on(w, h):
        return SimpleNamespace(screen=lambda: SimpleNamespace(availableGeometry=lambda: QRect(0, 0, w, h)))
    assert preview_size(on(1280, 760)) == (900, 700)
    assert preview_size(on(1920, 1040)) == (900, 980)
    assert preview_size(on(2560, 1400)) == (900, 1000)
    dlg = PdfPreviewDialog(contract_pdf.path)
    qtbot.addWidget(dlg)
    area = QGuiApplication.primaryScreen().availableGeometry()
    assert dlg.width() <= area.width() and dlg.height() <= area.height() - 60
