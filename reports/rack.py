"""Rack elevation drawing (front and rear side by side) with ReportLab graphics."""
from __future__ import annotations

from decimal import Decimal

from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth

from .base import Context
from .documents import RackElevation

_NUM_W = 16  # column for U numbers
_GAP = 26  # between the two faces
_HEAD = 16  # face caption above the rack
_FOOT = 6


def _fit(text: str, font: str, size: float, width: float) -> str:
    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…" if text else ""


def _hatch(d: Drawing, x: float, y: float, w: float, h: float, colour, step: float = 5) -> None:
    """45° lines clipped to the rectangle (graphics shapes have no clipping)."""
    c = -w
    while c < h:
        t0, t1 = max(0.0, -c), min(w, h - c)
        if t0 < t1:
            d.add(Line(x + t0, y + c + t0, x + t1, y + c + t1, strokeColor=colour, strokeWidth=0.5))
        c += step


def _lighter(hex_colour: str, amount: float = 0.55):
    try:
        base = colors.HexColor(hex_colour)
    except (ValueError, TypeError):
        base = colors.HexColor("#9FC5E8")
    return colors.linearlyInterpolatedColor(base, colors.white, 0, 1, amount)


def _reservations(d: Drawing, rack: RackElevation, ctx: Context, face: str, x: float, y0: float, u: float,
                 face_w: float, text_size: float) -> None:
    """Reservations on this face: a hatched, outlined range with the customer's name on white."""
    font = ctx.fonts.regular
    col = ctx.colour
    for res in rack.reservations:
        if res.face not in (face, "both", ""):
            continue
        lo, hi = max(1, res.u_from), min(rack.u_height, res.u_to)
        if lo > hi:
            continue
        ry, rh = y0 + (lo - 1) * u, (hi - lo + 1) * u
        d.add(Rect(x, ry, face_w, rh, fillColor=None, strokeColor=col["reservation"],
                   strokeWidth=0.6))
        _hatch(d, x, ry, face_w, rh, col["reservation"])
        caption = _fit(f"{ctx.t('reserved')} {res.customer}", font, text_size, face_w - 8)
        tw = stringWidth(caption, font, text_size)
        d.add(Rect(x + (face_w - tw) / 2 - 2, ry + rh / 2 - text_size / 2 - 1.5, tw + 4,
                   text_size + 3, fillColor=colors.white, strokeColor=None))
        d.add(String(x + face_w / 2, ry + rh / 2 - text_size / 2 + 0.5, caption,
                     fontName=font, fontSize=text_size, textAnchor="middle",
                     fillColor=col["reservation"]))


def _leases(d: Drawing, rack: RackElevation, ctx: Context, face: str, x: float, y0: float, u: float,
           face_w: float, text_size: float) -> None:
    """The U range the document's contract leases on this face: outlined, tinted, captioned."""
    font = ctx.fonts.regular
    col = ctx.colour
    for lease in rack.leases:  # the U range the document's contract leases: outlined, captioned
        if lease.face not in (face, "both", ""):
            continue
        lo, hi = max(1, lease.u_from), min(rack.u_height, lease.u_to)
        if lo > hi:
            continue
        ry, rh = y0 + (lo - 1) * u, (hi - lo + 1) * u
        d.add(Rect(x, ry, face_w, rh, fillColor=col["lease"], fillOpacity=0.12, strokeColor=col["lease"],
                   strokeWidth=1.2))
        caption = _fit(f"{ctx.t('leased')} U{lo}–U{hi} {lease.customer}", font, text_size, face_w - 8)
        d.add(String(x + face_w / 2, ry + 2, caption, fontName=font, fontSize=text_size, textAnchor="middle",
                     fillColor=col["lease"]))


def _devices(d: Drawing, rack: RackElevation, ctx: Context, face: str, x: float, y0: float, u: float,
            face_w: float, text_size: float) -> None:
    """Devices mounted on this face, and the shadows of full-depth ones mounted on the other."""
    font = ctx.fonts.regular
    col = ctx.colour
    for dev in rack.devices:
        mounted = dev.face == face
        if not mounted and not dev.full_depth:
            continue
        # clamp to the rack so bad data cannot draw over the captions
        bottom = max(Decimal(dev.position), Decimal(1))
        top = min(Decimal(dev.position) + Decimal(dev.height), Decimal(rack.u_height + 1))
        if top <= bottom:
            continue
        dy, dh = y0 + float(bottom - 1) * u, float(top - bottom) * u
        inset = 1.5
        fill = _lighter(dev.colour, 0.0 if mounted else 0.75)
        d.add(Rect(x + inset, dy + 0.6, face_w - 2 * inset, dh - 1.2, fillColor=fill,
                   strokeColor=col["rack_frame"] if mounted else col["muted"],
                   strokeWidth=0.6 if mounted else 0.4,
                   strokeDashArray=None if mounted else [2, 1.5]))
        size = min(text_size, dh * 0.75)
        if size < 3.5:  # half-U blanking panels and the like: no room for a label
            continue
        lines = [dev.name]
        if dh >= 2.3 * size + 4:
            lines.append(dev.model + (f" · {dev.owner}" if dev.owner else ""))
        ty = dy + dh / 2 + (len(lines) - 1) * size * 0.6 - size * 0.35
        for line in lines:
            d.add(String(x + face_w / 2, ty, _fit(line, font, size, face_w - 8),
                         fontName=font, fontSize=size, textAnchor="middle",
                         fillColor=col["text"] if mounted else col["muted"]))
            ty -= size * 1.2


def rack_drawing(rack: RackElevation, ctx: Context, max_width: float, max_height: float) -> Drawing:
    """Front and rear faces of ``rack``, scaled so the drawing fits the given box."""
    u = min(13.0, (max_height - _HEAD - _FOOT) / max(rack.u_height, 1))
    face_w = min(170.0, (max_width - _GAP - 2 * _NUM_W) / 2)
    width = 2 * (_NUM_W + face_w) + _GAP
    height = rack.u_height * u + _HEAD + _FOOT
    d = Drawing(width, height)
    d.hAlign = "CENTER"
    d.initialFontName = ctx.fonts.regular  # renderPDF would otherwise set Helvetica
    font = ctx.fonts.regular
    col = ctx.colour
    num_size = max(4.0, min(6.5, u * 0.6))
    text_size = max(4.0, min(7.0, u * 0.68))
    y0 = _FOOT

    for i, face in enumerate(("front", "rear")):
        x = i * (_NUM_W + face_w + _GAP) + _NUM_W
        d.add(String(x + face_w / 2, height - _HEAD + 5, f"{ctx.t(face)}",
                     fontName=ctx.fonts.bold, fontSize=8, textAnchor="middle", fillColor=col["accent"]))
        d.add(Rect(x, y0, face_w, rack.u_height * u, fillColor=col["rack_empty"],
                   strokeColor=None))
        for k in range(1, rack.u_height + 1):
            yk = y0 + (k - 1) * u
            if k > 1:
                d.add(Line(x, yk, x + face_w, yk, strokeColor=col["rack_slot_line"], strokeWidth=0.3))
            d.add(String(x - 3, yk + (u - num_size) / 2 + 0.8, str(k), fontName=font,
                         fontSize=num_size, textAnchor="end", fillColor=col["muted"]))

        _reservations(d, rack, ctx, face, x, y0, u, face_w, text_size)
        _leases(d, rack, ctx, face, x, y0, u, face_w, text_size)
        _devices(d, rack, ctx, face, x, y0, u, face_w, text_size)

        d.add(Rect(x, y0, face_w, rack.u_height * u, fillColor=None,
                   strokeColor=col["rack_frame"], strokeWidth=1.2))
    return d
