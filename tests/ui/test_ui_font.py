"""The console's widgets use the bundled WenQuanYi Micro Hei (ui/shell/fonts.py), registered at make_app,
unless the settings name another font file; system CJK fonts are fallbacks only."""
from __future__ import annotations

import pytest


def test_make_app_registers_the_bundled_font_and_uses_it(monkeypatch):
    from PySide6.QtGui import QFontDatabase, QFontMetrics, QFont
    from PySide6.QtWidgets import QApplication

    from ui.shell import fonts
    from ui.shell.main import make_app

    real_families = QFontDatabase.families
    # a desktop without any system CJK font (only a Latin one)
    monkeypatch.setattr(fonts.QFontDatabase, "families", staticmethod(lambda *a: ["DejaVu Sans"]))
    app = make_app()
    try:
        assert fonts.added[str(fonts.BUNDLED_FONT.resolve())][0] == "WenQuanYi Micro Hei"   # from resources/fonts
        assert "WenQuanYi Micro Hei" in real_families()
        assert app.font().families() == ["DejaVu Sans", "WenQuanYi Micro Hei"]
        only = QFont(app.font())
        only.setFamilies(["WenQuanYi Micro Hei"])
        assert QFontMetrics(only).inFontUcs4(ord("机"))   # the glyphs really come from it
    finally:
        QApplication.instance().setFont(QFont())


def test_the_setting_names_another_font_and_a_bad_one_falls_back(tmp_path, monkeypatch):
    import shutil

    from ui.shell import fonts

    monkeypatch.setattr(fonts.QFontDatabase, "families", staticmethod(lambda *a: []))
    monkeypatch.setattr(fonts, "added", {})
    other = tmp_path / "another.ttc"
    shutil.copy(fonts.BUNDLED_FONT, other)
    assert fonts.ui_font_families(str(other)) == ["WenQuanYi Micro Hei"]
    assert str(other.resolve()) in fonts.added          # the setting's file was the one loaded
    assert fonts.ui_font_families(str(tmp_path / "missing.ttf")) == ["WenQuanYi Micro Hei"]
    assert fonts.register_font(tmp_path / "missing.ttf") == []


@pytest.mark.parametrize("system_has", [["Microsoft YaHei"], ["PingFang SC"], ["Noto Sans CJK SC"]])
def test_system_cjk_fonts_come_after_the_bundled_one(monkeypatch, system_has):
    from ui.shell import fonts

    monkeypatch.setattr(fonts.QFontDatabase, "families", staticmethod(lambda *a: ["Segoe UI"] + system_has))
    assert fonts.ui_font_families(None) == ["Segoe UI", "WenQuanYi Micro Hei"] + system_has
