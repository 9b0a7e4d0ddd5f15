"""The PDF font: the bundled WenQuanYi Micro Hei unless the settings or IDC_PDF_FONT name another;
a system font only when the bundled one is missing. Windows and macOS are simulated."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from reports import fonts

BUNDLED = fonts.BUNDLED_DIR / "wqy-microhei.ttc"
SYSTEMS = ["Windows", "Darwin", "Linux"]


@pytest.fixture(autouse=True)
def fresh_registry(monkeypatch):
    monkeypatch.delenv(fonts.ENV_VAR, raising=False)
    monkeypatch.delenv(fonts.ENV_VAR_BOLD, raising=False)
    monkeypatch.setattr(fonts, "registered", None)
    monkeypatch.setattr(fonts, "fc_list_candidates", lambda: [])
    yield
    fonts.registered = None
    monkeypatch.undo()
    fonts.register_cjk_fonts()   # leave ReportLab with the default font for the tests after these


def test_the_bundled_font_and_its_licence_are_shipped():
    assert BUNDLED.is_file()
    assert "Apache License" in (fonts.BUNDLED_DIR / "LICENSE-Apache-2.0.txt").read_text()
    assert "Apache License 2.0" in (fonts.BUNDLED_DIR / "README.md").read_text()
    import tomllib

    data = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    assert "*.ttc" in data["tool"]["setuptools"]["package-data"]["*"]


@pytest.mark.parametrize("system", SYSTEMS)
def test_bundled_font_is_used_on_every_platform(system):
    found = fonts.register_cjk_fonts(system=system)
    assert found.regular_path == str(BUNDLED)


@pytest.mark.parametrize("system", SYSTEMS)
def test_setting_and_environment_name_another(system, tmp_path, monkeypatch):
    other = tmp_path / "other.ttc"
    shutil.copy(BUNDLED, other)
    monkeypatch.setenv(fonts.ENV_VAR, str(other))
    assert fonts.register_cjk_fonts(system=system).regular_path == str(other)
    setting = tmp_path / "setting.ttc"
    shutil.copy(BUNDLED, setting)
    assert fonts.register_cjk_fonts(setting, system=system).regular_path == str(setting)


@pytest.mark.parametrize("system", SYSTEMS)
def test_system_font_only_as_fallback(system, tmp_path, monkeypatch):
    system_font = tmp_path / "system.ttc"
    shutil.copy(BUNDLED, system_font)
    monkeypatch.setitem(fonts.SYSTEM_FONTS, system, [(str(system_font), None)])
    order = [p for p, _ in fonts.candidate_paths(system=system)]
    assert order.index(str(BUNDLED)) < order.index(str(system_font))
    found = fonts.register_cjk_fonts(system=system, bundled_dir=tmp_path / "no-bundle")
    assert found.regular_path == str(system_font)


@pytest.mark.parametrize("system", ["Windows", "Darwin"])
def test_no_font_found_says_what_to_do(system, tmp_path):
    """Neither the bundle nor Microsoft YaHei / STHeiti (absent on this Linux machine)."""
    with pytest.raises(fonts.FontNotFoundError) as e:
        fonts.register_cjk_fonts(system=system, bundled_dir=tmp_path)
    assert fonts.ENV_VAR in str(e.value)
    tried = str(e.value)
    assert ("msyh.ttc" in tried) if system == "Windows" else ("STHeiti" in tried)
    assert "/usr/share/fonts" not in tried   # another platform's fonts are not looked for


def test_fontconfig_only_where_it_lives(monkeypatch):
    monkeypatch.setattr(fonts, "fc_list_candidates", lambda: ["/fc/found.ttf"])
    assert "/fc/found.ttf" in [p for p, _ in fonts.candidate_paths(system="Linux")]
    for system in ("Windows", "Darwin"):
        assert "/fc/found.ttf" not in [p for p, _ in fonts.candidate_paths(system=system)]
