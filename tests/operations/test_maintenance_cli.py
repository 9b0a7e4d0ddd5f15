"""The `maintenance` and `visit` commands on the demo: plan, impact, a late confirm refused with its
reason, the notice PDF, visitors on site (masked for a reader), who was in the cage, the daily list."""
from __future__ import annotations

import datetime as dt

import pytest

from app.cli.main import main
from app.domain.clock import TZ


@pytest.fixture
def cli(demo_db, monkeypatch, capsys):
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", "demo1234")

    def call(*argv, user="wanglei"):
        code = main(["--db", demo_db.url] + (["--user", user] if user else []) + list(argv))
        out = capsys.readouterr()
        return code, out.out, out.err
    return call


def test_maintenance_commands(cli, tmp_path):
    code, out, err = cli("maintenance", "impact", "MW-000001", user=None)
    assert code == 0, err
    assert "Outage" in out and "A 机房/A03" in out and "Reduced redundancy" in out and "2 customer(s)" in out
    soon = (dt.datetime.now(TZ) + dt.timedelta(hours=30)).strftime("%Y-%m-%d %H:%M")
    later = (dt.datetime.now(TZ) + dt.timedelta(hours=31)).strftime("%Y-%m-%d %H:%M")
    code, out, err = cli("maintenance", "plan", "feed", "GZ-HP1/PP-A/A03-A", "--start", soon, "--end", later,
                         "--title", "A03 feed breaker")
    assert code == 0, err
    assert "1 customer(s) affected" in out
    ref = out.split()[0]
    code, out, err = cli("maintenance", "confirm", ref)
    assert code == 1 and "noticed at least 72 h" in err
    code, out, err = cli("maintenance", "cancel", ref, "--reason", "merged into MW-000001")
    assert code == 0 and "cancelled" in out
    pdf = tmp_path / "n.pdf"
    code, out, err = cli("maintenance", "notice", "MW-000001", "--customer", "贵州大数据交易服务有限公司",
                         "--lang", "en", "-o", str(pdf), user=None)
    assert code == 0, err
    assert pdf.read_bytes()[:4] == b"%PDF"


def test_visit_commands(cli, tmp_path):
    code, out, err = cli("visit", "on-site", user=None)
    assert code == 0, err
    assert "OVERSTAY" in out and "**********" in out and "3 visitor(s) on site" in out
    code, out, err = cli("visit", "on-site")  # the guard desk sees the numbers
    assert "**********" not in out
    yesterday = (dt.datetime.now(TZ) - dt.timedelta(hours=26)).date().isoformat()
    code, out, err = cli("visit", "who-was-in", yesterday, "--cage", "Cage-SH1", user=None)
    assert code == 0, err
    assert "SH-017" in out
    pdf = tmp_path / "list.pdf"
    code, out, err = cli("visit", "daily-list", "--site", "SH-ZJ1", "-o", str(pdf), user=None)
    assert code == 0, err
    assert pdf.exists()


def test_maintenance_export_import_and_visits_export_masked(cli, tmp_path):
    out_m = tmp_path / "m.csv"
    code, out, err = cli("export", "maintenance", "-o", str(out_m))
    assert code == 0, err
    assert "MW-000001" in out_m.read_text(encoding="utf-8-sig")
    code, out, err = cli("import", "maintenance", str(out_m))
    assert code == 0, err
    assert "0 new" in out and "unchanged" in out
    new = tmp_path / "new.csv"
    new.write_text("site,target_kind,target,title,planned_start,planned_end\n"
                   "GZ-HP1,feed,PP-A/A03-A,A03 breaker,2027-01-10 01:00,2027-01-10 02:00\n", encoding="utf-8")
    code, out, err = cli("import", "maintenance", str(new))
    assert code == 0, err
    code, out, err = cli("maintenance", "impact", "MW-000002", user=None)
    assert "Outage" in out and "A03" in out and "2027-01-10 01:00" in out
    out_v = tmp_path / "v.csv"
    code, out, err = cli("export", "visits", "-o", str(out_v))  # the guard desk exports: still masked
    assert code == 0, err
    text = out_v.read_text(encoding="utf-8-sig")
    assert "**********" in text and "Cage-SH1" in text and "A05" in text
    import re
    assert not re.search(r"\d{17}[\dX]", text)
