"""Fonts and translators: Qt's own and ours; choices and column labels translated here."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator
from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QApplication

TRANSLATIONS_DIR = Path(__file__).resolve().parents[2] / "resources" / "translations"
CJK_FAMILIES = ["Microsoft YaHei", "Microsoft YaHei UI", "PingFang SC", "Hiragino Sans GB",
                "Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Zen Hei", "WenQuanYi Micro Hei",
                "Droid Sans Fallback"]
LATIN_FAMILIES = ["Segoe UI", ".AppleSystemUIFont", "Helvetica Neue", "DejaVu Sans", "Liberation Sans"]

_installed: list[QTranslator] = []


def apply_font(app: QApplication) -> list[str]:
    """Set the families explicitly so Noto picks its SC forms; returns the chosen families."""
    available = set(QFontDatabase.families())
    cjk = [f for f in CJK_FAMILIES if f in available]
    latin = [f for f in LATIN_FAMILIES if f in available]
    families = latin[:1] + cjk
    if families:
        font = QFont(app.font())
        font.setFamilies(families)
        app.setFont(font)
    return families


def system_language() -> str:
    return "zh" if QLocale.system().language() == QLocale.Chinese else "en"


def install_translators(app: QApplication, language: str) -> str:
    """Install Qt's and our translators for `language` ('zh' or 'en'); returns it."""
    for t in _installed:
        app.removeTranslator(t)
    _installed.clear()
    if language == "zh":
        qt = QTranslator(app)
        if qt.load(QLocale(QLocale.Chinese, QLocale.China), "qtbase", "_",
                   QLibraryInfo.path(QLibraryInfo.TranslationsPath)):
            app.installTranslator(qt)
            _installed.append(qt)
        ours = QTranslator(app)
        if ours.load(str(TRANSLATIONS_DIR / "idc_console_zh_CN.qm")):
            app.installTranslator(ours)
            _installed.append(ours)
        QLocale.setDefault(QLocale(QLocale.Chinese, QLocale.China))
    else:
        QLocale.setDefault(QLocale(QLocale.English, QLocale.UnitedStates))
    return language


def ui_language() -> str:
    """The console's language now ('zh' or 'en'): install_translators sets the default locale."""
    return "zh" if QLocale().language() == QLocale.Chinese else "en"


def choice_context(choices) -> str:
    """Each choice set translates in its own context: "Active" is 生效 for a contract, 运营中 for a site."""
    return f"choices/{choices.__name__}"


def choice_label(choices, value) -> str:
    if value is None:
        return ""
    return QCoreApplication.translate(choice_context(choices), choices.label(value))


def column_label(label: str) -> str:
    return QCoreApplication.translate("columns", label)


KIND_LABELS = {
    "site": "Site", "rack": "Rack", "device": "Device", "gpu": "GPU", "customer": "Customer",
    "contract": "Contract", "statement": "Statement", "user": "User", "audit": "Audit event",
}


def kind_label(kind: str) -> str:
    return QCoreApplication.translate("kinds", KIND_LABELS.get(kind, kind))
