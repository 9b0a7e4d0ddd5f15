"""PDF preview with page navigation, zoom, Print (QPrintDialog) and Save as.

`preview_pdf(parent, path, title)` shows a rendered PDF. `print_document_preview(parent, db,
actor, kind, key)` builds one of app.documents' documents on a background thread (which also
records the ``print`` audit event), then previews it: the one call a view's "Print…" button needs.

QtPdf ships in its own wheel from PySide6 6.12 (PySide6_Pdf; before that in PySide6_Addons).
Without it the dialog still opens, says so, and offers Save as and the system's PDF viewer.
"""
from __future__ import annotations

import logging

import re
import shutil
import tempfile
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QPointF, QRectF, QSize, QSizeF, Qt, QUrl
from PySide6.QtGui import QDesktopServices, QKeySequence, QPainter, QPageLayout, QShortcut
from PySide6.QtWidgets import (QComboBox, QDialog, QFileDialog, QHBoxLayout, QLabel, QMessageBox, QPushButton,
                               QSpinBox, QToolButton, QVBoxLayout, QWidget)

try:  # see the module doc
    from PySide6.QtPdf import QPdfDocument
    from PySide6.QtPdfWidgets import QPdfView
except ImportError:  # pragma: no cover - depends on the installed wheels
    QPdfDocument = QPdfView = None

HAVE_QTPDF = QPdfDocument is not None
ZOOMS = (0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0)
PRINT_DPI_CAP = 300  # enough for text on paper; keeps one A4 page image near 26 MB at most


def preview_size(parent: QWidget | None = None, area=None) -> tuple[int, int]:
    """900×1000 where the screen has room, else what its available area (`area`, a QRect or QSize;
    by default the parent's screen's) holds: at 1280×800 less a taskbar the dialog's bottom row
    of buttons stays on the screen."""
    if area is None:
        from PySide6.QtGui import QGuiApplication
        screen = (parent.screen() if parent is not None else None) or QGuiApplication.primaryScreen()
        if screen is None:
            return 900, 1000
        area = screen.availableGeometry()
    return min(900, int(area.width() * 0.9)), min(1000, area.height() - 60)   # 60: a window frame's title


class PdfPreviewDialog(QDialog):
    """Shows one PDF file. `on_printed(pages)` is called after pages went to a printer."""

    def __init__(self, path: str | Path, title: str = "", parent: QWidget | None = None, *,
                 on_printed: Callable[[int], None] | None = None, save_name: str | None = None):
        super().__init__(parent)
        self.setObjectName("pdfPreview")
        self.path = Path(path)
        self.save_name = save_name or self.path.name   # Save as proposes it: FZ-202610-000009.pdf
        self.on_printed = on_printed
        self.setWindowTitle(title or self.path.name)
        self.resize(*preview_size(parent))
        self.document = None
        self.view = None

        layout = QVBoxLayout(self)
        bar = QHBoxLayout()
        self.prev_button = QToolButton(text="◀", objectName="prevPage", toolTip=self.tr("Previous page"))
        self.next_button = QToolButton(text="▶", objectName="nextPage", toolTip=self.tr("Next page"))
        self.page_spin = QSpinBox(objectName="pageSpin")
        self.page_spin.setMinimum(1)
        self.page_label = QLabel(objectName="pageLabel")
        self.zoom_out_button = QToolButton(text="−", objectName="zoomOut", toolTip=self.tr("Zoom out"))
        self.zoom_in_button = QToolButton(text="+", objectName="zoomIn", toolTip=self.tr("Zoom in"))
        self.zoom_combo = QComboBox(objectName="zoomCombo")
        self.zoom_combo.addItem(self.tr("Fit width"), "width")
        self.zoom_combo.addItem(self.tr("Whole page"), "page")
        for z in ZOOMS:
            self.zoom_combo.addItem(f"{z:.0%}", z)
        self.save_button = QPushButton(self.tr("Save as…"), objectName="saveAs")
        self.print_button = QPushButton(self.tr("Print…"), objectName="print")
        self.close_button = QPushButton(self.tr("Close"), objectName="close")
        for w in (self.prev_button, self.page_spin, self.page_label, self.next_button):
            bar.addWidget(w)
        bar.addSpacing(16)
        for w in (self.zoom_out_button, self.zoom_combo, self.zoom_in_button):
            bar.addWidget(w)
        bar.addStretch(1)
        for w in (self.save_button, self.print_button, self.close_button):
            w.setAutoDefault(False)  # Enter in the page box jumps to the page, it does not press a button
            bar.addWidget(w)
        layout.addLayout(bar)

        if HAVE_QTPDF:
            self.document = QPdfDocument(self)
            self.view = QPdfView(self)
            self.view.setObjectName("pdfView")
            self.view.setDocument(self.document)
            self.view.setPageMode(QPdfView.PageMode.MultiPage)
            layout.addWidget(self.view, 1)
            self.view.pageNavigator().currentPageChanged.connect(self._page_changed)
            self.prev_button.clicked.connect(lambda: self.go_to_page(self.current_page() - 1))
            self.next_button.clicked.connect(lambda: self.go_to_page(self.current_page() + 1))
            self.page_spin.editingFinished.connect(self._page_typed)
            self.zoom_combo.currentIndexChanged.connect(self._zoom_chosen)
            self.zoom_in_button.clicked.connect(lambda: self.step_zoom(+1))
            self.zoom_out_button.clicked.connect(lambda: self.step_zoom(-1))
            QShortcut(QKeySequence.ZoomIn, self, lambda: self.step_zoom(+1))
            QShortcut(QKeySequence.ZoomOut, self, lambda: self.step_zoom(-1))
            QShortcut(QKeySequence.MoveToNextPage, self, lambda: self.go_to_page(self.current_page() + 1))
            QShortcut(QKeySequence.MoveToPreviousPage, self, lambda: self.go_to_page(self.current_page() - 1))
            QShortcut(QKeySequence.Print, self, self.print_pdf)
            self.print_button.clicked.connect(self.print_pdf)
            self.load(self.path)
        else:
            note = QLabel(self.tr("The PDF preview needs Qt's PDF module (the PySide6_Pdf package). "
                                  "You can still save the document or open it in your PDF viewer."),
                          objectName="noPreview", wordWrap=True, alignment=Qt.AlignCenter)
            layout.addWidget(note, 1)
            for w in (self.prev_button, self.next_button, self.page_spin, self.zoom_in_button,
                      self.zoom_out_button, self.zoom_combo):
                w.setEnabled(False)
            self.print_button.setText(self.tr("Open in viewer…"))
            self.print_button.clicked.connect(self.open_externally)
        self.save_button.clicked.connect(self.save_as)
        self.close_button.clicked.connect(self.close)

    # --- document ----------------------------------------------------------------
    def load(self, path: str | Path) -> bool:
        self.path = Path(path)
        if self.document is None:
            return False
        error = self.document.load(str(self.path))
        ok = error == QPdfDocument.Error.None_
        if not ok:
            logging.getLogger(__name__).warning("%s cannot be shown: %s", self.path, error.name)
            QMessageBox.warning(self, self.windowTitle(),
                                self.tr("%1 cannot be shown: %2").replace("%1", self.path.name)
                                .replace("%2", str(error.name)))
        n = self.page_count()
        self.page_spin.setMaximum(max(n, 1))
        self._page_changed(0)
        self.zoom_combo.setCurrentIndex(0)
        self._zoom_chosen()
        return ok

    def page_count(self) -> int:
        return self.document.pageCount() if self.document is not None else 0

    def current_page(self) -> int:
        """0-based."""
        return self.view.pageNavigator().currentPage() if self.view is not None else 0

    def go_to_page(self, page: int) -> None:
        if self.view is None or not self.page_count():
            return
        page = max(0, min(page, self.page_count() - 1))
        self.view.pageNavigator().jump(page, QPointF(), self.view.pageNavigator().currentZoom())
        self._page_changed(page)

    def _page_typed(self) -> None:
        self.go_to_page(self.page_spin.value() - 1)

    def _page_changed(self, page: int) -> None:
        n = self.page_count()
        self.page_spin.blockSignals(True)
        self.page_spin.setValue(page + 1)
        self.page_spin.blockSignals(False)
        self.page_label.setText(self.tr("of %1").replace("%1", str(n)))
        self.prev_button.setEnabled(page > 0)
        self.next_button.setEnabled(page < n - 1)

    # --- zoom ----------------------------------------------------------------------
    def _zoom_chosen(self, *_: Any) -> None:
        if self.view is None:
            return
        data = self.zoom_combo.currentData()
        if data == "width":
            self.view.setZoomMode(QPdfView.ZoomMode.FitToWidth)
        elif data == "page":
            self.view.setZoomMode(QPdfView.ZoomMode.FitInView)
        else:
            self.view.setZoomMode(QPdfView.ZoomMode.Custom)
            self.view.setZoomFactor(float(data))

    def zoom_factor(self) -> float:
        return self.view.zoomFactor() if self.view is not None else 1.0

    def step_zoom(self, direction: int) -> None:
        if self.view is None:
            return
        current = self.zoom_factor() if self.view.zoomMode() == QPdfView.ZoomMode.Custom else 1.0
        steps = [z for z in ZOOMS if (z > current + 1e-6 if direction > 0 else z < current - 1e-6)]
        if not steps:
            return
        target = steps[0] if direction > 0 else steps[-1]
        self.zoom_combo.setCurrentIndex(self.zoom_combo.findData(target))

    # --- printing and saving -----------------------------------------------------------
    def print_pdf(self) -> int:
        """Ask for a printer and print; returns the number of pages sent (0 when cancelled)."""
        from PySide6.QtPrintSupport import QPrintDialog, QPrinter

        if not self.page_count():
            return 0
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        printer.setDocName(self.windowTitle())
        printer.setFromTo(1, self.page_count())
        dialog = QPrintDialog(printer, self)
        dialog.setMinMax(1, self.page_count())
        dialog.setOption(QPrintDialog.PrintDialogOption.PrintPageRange, True)
        if dialog.exec() != QDialog.Accepted:
            return 0
        return self.print_to(printer)

    def print_to(self, printer, first: int | None = None, last: int | None = None) -> int:
        """Render pages (1-based, inclusive; default: the printer's range or all) onto `printer`."""
        if self.document is None or not self.page_count():
            return 0
        n = self.page_count()
        first = first or printer.fromPage() or 1
        last = last or printer.toPage() or n
        pages = list(range(max(1, first) - 1, min(n, last)))
        if not pages:
            return 0
        size = self.document.pagePointSize(pages[0])
        printer.setPageOrientation(QPageLayout.Landscape if size.width() > size.height() else QPageLayout.Portrait)
        painter = QPainter()
        if not painter.begin(printer):
            logging.getLogger(__name__).warning("the printer %s could not be started", printer.printerName())
            QMessageBox.warning(self, self.windowTitle(), self.tr("The printer could not be started."))
            return 0
        try:
            dpi = min(printer.resolution(), PRINT_DPI_CAP)
            for i, page in enumerate(pages):
                if i:
                    printer.newPage()
                target = QRectF(printer.pageLayout().paintRectPixels(printer.resolution()))
                target.moveTo(0, 0)
                pts: QSizeF = self.document.pagePointSize(page)
                image = self.document.render(page, QSize(round(pts.width() * dpi / 72),
                                                         round(pts.height() * dpi / 72)))
                scale = min(target.width() / image.width(), target.height() / image.height())
                w, h = image.width() * scale, image.height() * scale
                painter.drawImage(QRectF(target.x() + (target.width() - w) / 2, target.y(), w, h), image)
        finally:
            painter.end()
        if self.on_printed:
            self.on_printed(len(pages))
        return len(pages)

    def proposed_path(self) -> Path:
        """The document's number as its name, in the folder used last (else the home folder)."""
        from ui.shell.settings import settings
        folder = Path(settings().get("last_save_dir") or Path.home())
        if not folder.is_dir():
            folder = Path.home()
        return folder / self.save_name

    def save_as(self) -> Path | None:
        from ui.shell.settings import settings
        target, _ = QFileDialog.getSaveFileName(self, self.tr("Save PDF as"), str(self.proposed_path()),
                                                self.tr("PDF files (*.pdf)"))
        if not target:
            return None
        target_path = Path(target if target.lower().endswith(".pdf") else target + ".pdf")
        try:
            shutil.copyfile(self.path, target_path)
        except OSError as exc:
            logging.getLogger(__name__).warning("saving %s failed", target_path, exc_info=True)
            QMessageBox.warning(self, self.windowTitle(), self.tr("Could not save: %1").replace("%1", str(exc)))
            return None
        settings().set("last_save_dir", str(target_path.parent))
        return target_path

    def open_externally(self) -> None:
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.path)))


def preview_pdf(parent: QWidget | None, path: str | Path, title: str = "", *,
                on_printed: Callable[[int], None] | None = None, save_name: str | None = None) -> PdfPreviewDialog:
    """Open a (non-modal) preview of `path`; the dialog deletes itself when closed."""
    dialog = PdfPreviewDialog(path, title, parent, on_printed=on_printed, save_name=save_name)
    dialog.setAttribute(Qt.WA_DeleteOnClose)
    dialog.show()
    return dialog


def saved_name(kind: str, what: str) -> str:
    """A statement or contract is saved under its number (FZ-202610-000009.pdf, FZ-2026-0013.pdf);
    other documents under their kind and subject."""
    text = what if kind in ("statement", "contract") and what else f"{kind}-{what}" if what else kind
    return re.sub(r"[^\w.-]+", "_", text).strip("_")[:80] + ".pdf"


def _file_name(kind: str, key: Any) -> str:
    text = f"{kind}-{getattr(key, 'describe', lambda: key)() if key is not None else 'report'}"
    return re.sub(r"[^\w.-]+", "_", text).strip("_")[:80] + ".pdf"


def print_document_preview(parent: QWidget | None, db, actor, kind: str, key: Any = None, *,
                           language: str | None = None, title: str | None = None,
                           on_ready: Callable[[PdfPreviewDialog], None] | None = None):
    """Build `kind` (app.documents.DOCUMENT_KINDS) on a background thread, then preview it.

    The PDF goes to a temporary folder (the preview's Save as keeps a copy); the font is the
    console's `pdf_font_path` setting, else $IDC_PDF_FONT, else a system font. Building the
    document records the ``print`` audit event. Returns the running Operation.
    """
    from app.documents import print_document

    from ui.shell.operations import run_op
    from ui.shell.settings import settings

    font = settings().get("pdf_font_path") or None
    out = Path(tempfile.mkdtemp(prefix="idc-pdf-")) / _file_name(kind, key)

    def work(progress):
        return print_document(db, actor, kind, key, out, language=language, font_path=font)

    def show(done) -> None:
        dialog = preview_pdf(parent, done.path, title or done.what, save_name=saved_name(kind, done.what))
        if on_ready:
            on_ready(dialog)

    from PySide6.QtCore import QCoreApplication

    label = QCoreApplication.translate("pdfpreview", "Preparing the document…")
    # the print event is a new audit entry: the audit log view refreshes
    return run_op(parent, work, label=label, on_success=show)
