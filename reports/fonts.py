"""Find and register a CJK TrueType font that ReportLab can embed.

ReportLab embeds TrueType outlines only: OpenType/CFF fonts such as Noto Sans CJK
raise ``TTFError`` and are skipped. Fonts without Latin glyphs (DroidSansFallback)
are never candidates, because digits and ¥ would come out blank.
"""
from __future__ import annotations

import logging
import os
import platform
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

log = logging.getLogger(__name__)

ENV_VAR = "IDC_PDF_FONT"
ENV_VAR_BOLD = "IDC_PDF_FONT_BOLD"
REGULAR = "IDC-CJK"
BOLD = "IDC-CJK-Bold"

# The font shipped with the program (resources/fonts/README.md): the same PDFs on every machine.
BUNDLED_DIR = Path(__file__).resolve().parent.parent / "resources" / "fonts"

# System fonts, only the fallback when the bundled font is missing: (regular, bold or None) in
# order of preference per platform; bold is used only if regular registers.
SYSTEM_FONTS: dict[str, list[tuple[str, str | None]]] = {
    "Windows": [
        (r"C:\Windows\Fonts\msyh.ttc", r"C:\Windows\Fonts\msyhbd.ttc"),
        (r"C:\Windows\Fonts\simhei.ttf", None),
        (r"C:\Windows\Fonts\simsun.ttc", None),
    ],
    # most of these are TrueType collections; PingFang is CFF on recent versions
    "Darwin": [
        ("/System/Library/Fonts/STHeiti Medium.ttc", None),
        ("/System/Library/Fonts/STHeiti Light.ttc", "/System/Library/Fonts/STHeiti Medium.ttc"),
        ("/System/Library/Fonts/Hiragino Sans GB.ttc", None),
        ("/System/Library/Fonts/PingFang.ttc", None),
        ("/System/Library/Fonts/Supplemental/Songti.ttc", None),
        ("/Library/Fonts/Arial Unicode.ttf", None),
        ("/System/Library/Fonts/Supplemental/Arial Unicode.ttf", None),
    ],
    "Linux": [
        ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", None),
        ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", None),
        ("/usr/share/fonts/truetype/arphic/uming.ttc", None),
        ("/usr/share/fonts/truetype/arphic/ukai.ttc", None),
    ],
}
_FC_FAMILIES = ("WenQuanYi Micro Hei", "WenQuanYi Zen Hei", "AR PL UMing", "AR PL UKai")
_AVOID = ("droidsansfallback", "notosanscjk", "notoserifcjk", "sourcehan")


class FontNotFoundError(RuntimeError):
    """No CJK TrueType font could be registered with ReportLab."""


@dataclass(frozen=True)
class RegisteredFonts:
    regular: str  # ReportLab font name for regular text
    bold: str  # bold font name (the regular one again when no bold face exists)
    regular_path: str
    bold_path: str


registered: RegisteredFonts | None = None


def _try_register(name: str, path: str) -> bool:
    if not path or not os.path.isfile(path):
        return False
    kwargs = {"subfontIndex": 0} if path.lower().endswith(".ttc") else {}
    try:
        font = TTFont(name, path, **kwargs)
        # a font without digits is useless for invoices (see module doc)
        if not all(ord(c) in font.face.charToGlyph for c in "0123456789¥汉"):
            return False
        pdfmetrics.registerFont(font)
    except Exception:  # TTFError, struct errors on odd files, permission errors
        log.debug("the font %s cannot be used", path, exc_info=True)
        return False
    return True


def fc_list_candidates() -> list[str]:
    if not shutil.which("fc-list"):
        return []
    paths: list[str] = []
    for family in _FC_FAMILIES + (":lang=zh",):
        pattern = family if family.startswith(":") else f"{family}"
        try:
            out = subprocess.run(["fc-list", pattern, "file"], capture_output=True,
                                 text=True, timeout=10, check=False).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        for line in out.splitlines():
            path = line.split(":")[0].strip()
            low = path.lower().replace(" ", "").replace("-", "")
            if (path and path.lower().endswith((".ttf", ".ttc")) and not any(a in low for a in _AVOID)
                    and path not in paths):
                paths.append(path)
    return paths


def candidate_paths(path: str | os.PathLike | None = None, *, system: str | None = None,
                    bundled_dir: Path | None = None) -> list[tuple[str, str | None]]:
    """Candidates in order: the argument (the console's setting, --font), $IDC_PDF_FONT, the
    bundled font, then this platform's system fonts (and fontconfig's on Linux and the BSDs)."""
    system = system or platform.system()
    bundled = BUNDLED_DIR if bundled_dir is None else Path(bundled_dir)
    out: list[tuple[str, str | None]] = []
    if path:
        out.append((str(path), None))
    if os.environ.get(ENV_VAR):
        out.append((os.environ[ENV_VAR], os.environ.get(ENV_VAR_BOLD)))
    if bundled.is_dir():
        out += [(str(p), None) for p in sorted(bundled.glob("*.tt[fc]"))]
    out += SYSTEM_FONTS.get(system, SYSTEM_FONTS["Linux"])
    if system not in ("Windows", "Darwin"):
        out += [(p, None) for p in fc_list_candidates()]
    return out


def register_cjk_fonts(path: str | os.PathLike | None = None, *, system: str | None = None,
                       bundled_dir: Path | None = None) -> RegisteredFonts:
    """Register the first usable CJK font (and a bold face if one exists); cached.

    An explicit ``path`` that cannot be used is an error rather than silently replaced,
    so a misconfigured deployment is noticed.
    """
    global registered
    simulated = system is not None or bundled_dir is not None
    if registered is not None and not simulated and (path is None or registered.regular_path == str(path)):
        return registered
    if path is not None and not _try_register(REGULAR, str(path)):
        raise FontNotFoundError(f"PDF font {path} cannot be embedded (needs a TrueType "
                                "font with CJK, Latin and digit glyphs)")
    tried: list[str] = []
    for regular, bold in candidate_paths(path, system=system, bundled_dir=bundled_dir):
        tried.append(regular)
        if not _try_register(REGULAR, regular):
            continue
        bold_name, bold_path = REGULAR, regular
        if bold and _try_register(BOLD, bold):
            bold_name, bold_path = BOLD, bold
        pdfmetrics.registerFontFamily(REGULAR, normal=REGULAR, bold=bold_name,
                                      italic=REGULAR, boldItalic=bold_name)
        registered = RegisteredFonts(REGULAR, bold_name, regular, bold_path)
        return registered
    raise FontNotFoundError(
        "No Chinese TrueType font usable for PDFs was found. Set the environment variable "
        f"{ENV_VAR} to a .ttf/.ttc file (e.g. msyh.ttc, simsun.ttc, wqy-microhei.ttc). "
        "OpenType/CFF fonts such as Noto Sans CJK cannot be embedded. Tried: "
        + ", ".join(tried))
