"""The SLA clock (app/domain/sla.py), worked by hand. Times are Asia/Shanghai unless said."""
import datetime as dt
import json
from pathlib import Path

from app.domain.clock import TZ
from app.domain.sla import Calendar, Step, Targets, clocks, parse_hours

HOLIDAYS = Path(__file__).resolve().parents[2] / "resources" / "holidays_cn"


def t(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text).replace(tzinfo=TZ)


def china_days(year: int) -> dict[dt.date, bool]:
    data = json.loads((HOLIDAYS / f"{year}.json").read_text(encoding="utf-8"))
    return {dt.date.fromisoformat(d["date"]): d["isOffDay"] for d in data["days"]}


BUSINESS = Calendar(parse_hours("mon 09:00-18:00; tue 09:00-18:00; wed 09:00-18:00; thu 09:00-18:00; "
                                "fri 09:00-18:00"), china_days(2026))
ALWAYS = Calendar()


def test_business_clock_across_national_day_and_the_tiaoxiu_saturday():
    # opened Wed 30 Sep 17:00; 1–7 Oct are off; Sat 10 Oct is a make-up working day (调休)
    # resolve 1,500 working minutes: 30 Sep 60 + 8 Oct 540 + 9 Oct 540 = 1,140; 360 more on Sat 10 Oct -> 15:00
    # acknowledge 120: 60 on 30 Sep, 60 more on 8 Oct -> 10:00
    steps = [Step(t("2026-09-30 17:00"), "new", "P3")]
    cs = clocks(steps, lambda p: Targets(120, None, 1500), BUSINESS, t("2026-10-08 09:30"))
    assert cs["ack"].due_at == t("2026-10-08 10:00")
    assert (cs["ack"].elapsed_minutes, cs["ack"].state) == (90, "ok")          # 75 %
    warned = clocks(steps, lambda p: Targets(120, None, 1500), BUSINESS, t("2026-10-08 09:40"))["ack"]
    assert (warned.elapsed_minutes, warned.state) == (100, "warning")           # 83 % ≥ 80 %
    assert cs["resolve"].due_at == t("2026-10-10 15:00")
    assert "onsite" not in cs
    # without the calendar's days, the 7 days off would be counted as working days
    plain = Calendar(BUSINESS.hours, {})
    assert clocks(steps, lambda p: Targets(120, None, 1500), plain, t("2026-10-01 09:00"))["ack"].due_at == \
        t("2026-10-01 10:00")
    # the make-up Saturday counts; a plain Saturday does not
    assert BUSINESS.seconds_between(t("2026-10-10 00:00"), t("2026-10-11 00:00")) == 540 * 60
    assert BUSINESS.seconds_between(t("2026-10-17 00:00"), t("2026-10-18 00:00")) == 0


def test_pause_and_resume_keep_the_paused_minutes():
    # P1 at 03:00, acknowledged 03:10, waiting for the vendor 04:00–06:00, resolved 07:30
    steps = [Step(t("2026-11-03 03:00"), "new", "P1"), Step(t("2026-11-03 03:10"), "acknowledged", "P1"),
             Step(t("2026-11-03 03:20"), "on_site", "P1"), Step(t("2026-11-03 04:00"), "waiting_vendor", "P1"),
             Step(t("2026-11-03 06:00"), "in_progress", "P1"), Step(t("2026-11-03 07:30"), "resolved", "P1")]
    cs = clocks(steps, lambda p: Targets(15, 30, 240), ALWAYS, t("2026-11-03 09:00"))
    assert (cs["ack"].state, cs["ack"].elapsed_minutes, cs["ack"].stopped_at) == ("met", 10, t("2026-11-03 03:10"))
    assert (cs["onsite"].state, cs["onsite"].elapsed_minutes) == ("met", 20)
    r = cs["resolve"]
    assert (r.elapsed_minutes, r.paused_minutes, r.state, r.due_at) == (150, 120, "met", None)
    # while it waited, the clock stood still and showed no due time
    mid = clocks(steps[:4], lambda p: Targets(15, 30, 240), ALWAYS, t("2026-11-03 05:00"))["resolve"]
    assert (mid.elapsed_minutes, mid.paused_minutes, mid.due_at) == (60, 60, None)


def test_priority_change_mid_ticket_recomputes_and_keeps_paused_minutes():
    targets = {"P3": Targets(120, None, 1440), "P1": Targets(15, 30, 240)}
    steps = [Step(t("2026-11-03 00:00"), "new", "P3"), Step(t("2026-11-03 00:30"), "acknowledged", "P3"),
             Step(t("2026-11-03 02:00"), "acknowledged", "P1"), Step(t("2026-11-03 03:00"), "waiting_customer", "P1"),
             Step(t("2026-11-03 04:00"), "in_progress", "P1")]
    cs = clocks(steps, targets.get, ALWAYS, t("2026-11-03 04:30"))
    r = cs["resolve"]
    # 00:00–03:00 running (180) + 04:00–04:30 (30) = 210 of P1's 240: 87.5 % -> warning, due 05:00
    assert (r.target_minutes, r.elapsed_minutes, r.paused_minutes, r.state) == (240, 210, 60, "warning")
    assert r.due_at == t("2026-11-03 05:00")
    # acknowledged after 30 min: met under P3's 120, breached under P1's 15 (at 00:15) once recomputed
    assert cs["ack"].state == "breached" and cs["ack"].breached_at == t("2026-11-03 00:15")
    later = clocks(steps, targets.get, ALWAYS, t("2026-11-03 05:10"))["resolve"]
    assert (later.state, later.breached_at) == ("breached", t("2026-11-03 05:00"))
    assert later.paused_minutes == 60


def test_reopen_adds_to_the_minutes_before_the_resolution():
    steps = [Step(t("2026-11-03 08:00"), "new", "P2"), Step(t("2026-11-03 08:20"), "in_progress", "P2"),
             Step(t("2026-11-03 12:00"), "resolved", "P2"), Step(t("2026-11-03 14:00"), "in_progress", "P2")]
    tg = lambda p: Targets(30, None, 480)  # noqa: E731
    at_18 = clocks(steps, tg, ALWAYS, t("2026-11-03 18:00"))["resolve"]
    assert (at_18.elapsed_minutes, at_18.state, at_18.due_at) == (480, "warning", t("2026-11-03 18:00"))
    at_1801 = clocks(steps, tg, ALWAYS, t("2026-11-03 18:01"))["resolve"]
    assert (at_1801.state, at_1801.breached_at) == ("breached", t("2026-11-03 18:00"))
    # resolved again at 17:00: 240 + 180 = 420, met; stopped at the second resolution
    again = clocks(steps + [Step(t("2026-11-03 17:00"), "resolved", "P2")], tg, ALWAYS, t("2026-11-04 09:00"))
    assert (again["resolve"].elapsed_minutes, again["resolve"].state) == (420, "met")
    assert again["resolve"].stopped_at == t("2026-11-03 17:00")


def test_excluded_maintenance_does_not_count():
    steps = [Step(t("2026-11-03 08:00"), "new", "P2")]
    tg = lambda p: Targets(30, None, 480)  # noqa: E731
    cs = clocks(steps, tg, ALWAYS, t("2026-11-03 12:00"), excluded=[(t("2026-11-03 09:00"), t("2026-11-03 11:00"))])
    assert cs["resolve"].elapsed_minutes == 120


def test_parse_hours_refuses_what_it_cannot_read():
    import pytest
    with pytest.raises(ValueError, match="mon 09:00-18:00"):
        parse_hours("monday nine to six")
    assert parse_hours("mon 09:00-12:00; mon 13:00-18:00") == {0: [(540, 720), (780, 1080)]}
