"""The console's widget font: the bundled WenQuanYi Micro Hei (resources/fonts, what the PDFs use),
registered with Qt at start, unless the settings name another font file (`pdf_font_path`, the same
setting the PDFs read); system CJK fonts follow it only as fallbacks. So a desktop without any CJK
font (a bare Windows or Linux install) still shows Chinese."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QApplication

from reports.fonts import BUNDLED_DIR

from ui.shell.i18n import CJK_FAMILIES, LATIN_FAMILIES

BUNDLED_FONT = BUNDLED_DIR / "wqy-microhei.ttc"
added: dict[str, list[str]] = {}


def register_font(path: str | Path | None) -> list[str]:
    """Add a font file to Qt's font database (once per path); its families, [] when it cannot be read."""
    if not path:
        return []
    key = str(Path(path).resolve())
    if key not in added:
        font_id = QFontDatabase.addApplicationFont(key) if Path(key).is_file() else -1
        added[key] = list(QFontDatabase.applicationFontFamilies(font_id)) if font_id >= 0 else []
    return added[key]


def ui_font_families(setting: str | None = None, bundled: Path = BUNDLED_FONT) -> list[str]:
    """The application font's families in order: a Latin UI font if the system has one, then the font the
    setting names (if it loads) or else the bundled one, then the system's CJK fonts as fallbacks."""
    chosen = register_font(setting) or register_font(bundled)
    available = set(QFontDatabase.families())
    latin = [f for f in LATIN_FAMILIES if f in available]
    return latin[:1] + chosen[:1] + [f for f in CJK_FAMILIES if f in available and f not in chosen[:1]]


def apply_ui_font(app: QApplication, setting: str | None = None) -> list[str]:
    """Set the application font (make_app); returns the families chosen."""
    if setting is None:
        from ui.shell.settings import settings

        setting = settings().get("pdf_font_path") or None
    families = ui_font_families(setting)
    if families:
        font = QFont(app.font())
        font.setFamilies(families)
        app.setFont(font)
    return families
