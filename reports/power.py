"""The capacity report's power-chain section: per rack the A and B loads against their limits
and the N-redundancy verdict, per room the totals (issue 15). Plain data in, flowables out."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from reportlab.lib import colors

from .base import Context, fmt_qty


@dataclass(frozen=True)
class PowerRackRow:
    room: str
    rack: str
    a_kw: Decimal
    a_limit_kw: Decimal
    b_kw: Decimal
    b_limit_kw: Decimal
    over_feeds: int
    verdict: str          # the N-redundancy state's label in the document's language
    colour: str           # its colour
    failing: bool
    problems: str = ""    # why, in English (the data behind the verdict)


def _t(ctx: Context, zh: str, en: str) -> str:
    return zh if ctx.lang == "zh" else en


def power_story(rows: tuple[PowerRackRow, ...], ctx: Context, width: float) -> list:
    """A heading, one table of racks fed by feeds (subtotals per room) and a note on the rule."""
    if not rows:
        return []
    p = ctx.p
    story: list = [p(_t(ctx, "配电链路：A/B 路负载与 N 冗余校验", "Power chain: A/B loads and the N-redundancy check"), "h2")]
    head = [_t(ctx, "机房", "Room"), _t(ctx, "机柜", "Rack"), _t(ctx, "A 路 kW / 限值", "A kW / limit"),
            _t(ctx, "B 路 kW / 限值", "B kW / limit"), _t(ctx, "超限回路", "Feeds over"),
            _t(ctx, "N 冗余", "N redundancy")]
    table = [head]
    extra = []
    rooms: dict[str, list[PowerRackRow]] = {}
    for r in rows:
        rooms.setdefault(r.room, []).append(r)
    for room, group in rooms.items():
        for r in group:
            table.append([p(r.room, "cell"), p(r.rack, "cell"), f"{fmt_qty(r.a_kw)} / {fmt_qty(r.a_limit_kw)}",
                          f"{fmt_qty(r.b_kw)} / {fmt_qty(r.b_limit_kw)}", str(r.over_feeds), p(r.verdict, "cell")])
            n = len(table) - 1
            if r.failing or r.over_feeds:
                extra.append(("TEXTCOLOR", (2, n), (-1, n), colors.HexColor(r.colour)))
        fails = sum(1 for r in group if r.failing)
        n = len(table)
        table.append([p(room, "cell"), _t(ctx, "小计", "Subtotal"),
                      f"{fmt_qty(sum((r.a_kw for r in group), Decimal(0)))} / "
                      f"{fmt_qty(sum((r.a_limit_kw for r in group), Decimal(0)))}",
                      f"{fmt_qty(sum((r.b_kw for r in group), Decimal(0)))} / "
                      f"{fmt_qty(sum((r.b_limit_kw for r in group), Decimal(0)))}",
                      str(sum(r.over_feeds for r in group)),
                      _t(ctx, f"{fails} 柜不满足", f"{fails} failing")])
        extra += [("BACKGROUND", (0, n), (-1, n), ctx.colour["header_bg"]), ("FONTNAME", (0, n), (-1, n), ctx.fonts.bold)]
    widths = [72, 60, 96, 96, 56]
    widths.append(width - sum(widths))
    story.append(ctx.table(table, widths, right=(2, 3, 4), long=True, zebra=False, extra=extra))
    story.append(p(_t(ctx, "限值：回路断路器容量（电压 × 电流，三相 × √3）的 80%（设置 power_breaker_limit_pct）与回路自身最大利用率中的较小者；"
                           "N 冗余：任一路失电时，另一路须在限值内承载全部负载，仅接单路的设备将断电。",
                      "Limit: the lower of 80 % (setting power_breaker_limit_pct) and the feed's max utilisation, of its "
                      "breaker's capacity (voltage × amperage, × √3 three-phase). N redundancy: with either side "
                      "lost, the other carries the whole load within its limit; devices on one side only go dark."),
                   "small"))
    return story
