"""Render resources/icons/idc-console.svg to PNG (256) and a multi-size ICO with Qt's SVG renderer."""
import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QGuiApplication, QImage, QPainter  # noqa: E402
from PySide6.QtSvg import QSvgRenderer  # noqa: E402

ICONS = Path(__file__).resolve().parent.parent / "resources" / "icons"


def render(size: int) -> QImage:
    img = QImage(size, size, QImage.Format_ARGB32)
    img.fill(Qt.transparent)
    p = QPainter(img)
    QSvgRenderer(str(ICONS / "idc-console.svg")).render(p)
    p.end()
    return img


if __name__ == "__main__":
    app = QGuiApplication(sys.argv[:1])
    render(256).save(str(ICONS / "idc-console.png"))
    for s in (16, 32, 48, 64, 128):
        render(s).save(f"/tmp/idc-icon-{s}.png")
    # ICO with several sizes: Pillow when present, else the 256 PNG alone (Qt writes single-image ICO)
    try:
        from PIL import Image
        Image.open(ICONS / "idc-console.png").save(ICONS / "idc-console.ico",
                                                   sizes=[(s, s) for s in (16, 32, 48, 64, 128, 256)])
    except ImportError:
        render(256).save(str(ICONS / "idc-console.ico"))
    print("ok")
