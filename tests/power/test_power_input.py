"""Writes to the power chain that leave a rack failing `power check` are not silent: a feed added or
imported below its load, a PDU moved to the other side say the verdict and exit 1 (the chain is kept
as recorded, as `power check` would report it); a panel smaller than its feeds' breakers is refused.

Figures: the `chain` fixture's feeds are 16 A at 220 V single-phase, 3,520 W, 80 %: 2,816 W; a
server draws 700 W, split over its two supplies."""
from __future__ import annotations

import pytest
from sqlalchemy import select

from app.cli.main import main
from app.domain.errors import ValidationError
from app.importexport import run_import
from app.read import power as RP
from app.services import power as P
from app.services.dcim import place_device
from models import Rack, Site
from models.power import PduFeed, PowerPanel
from tests.conftest import PASSWORD
from tests.power.test_power import add_servers, chain  # noqa: F401  (the fixture; its uses below are noqa: F811)


@pytest.fixture
def cli(db, admin, monkeypatch, capsys):
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", PASSWORD)

    def call(*argv):
        code = main(["--db", db.url, "--user", "admin"] + list(argv))
        out = capsys.readouterr()
        return code, out.out, out.err
    return call


def _names(db, chain):  # noqa: F811
    with db.session() as s:
        rack = s.get(Rack, chain["rack"])
        return rack.room.site.code, rack.room.name, rack.name


def test_a_feed_added_below_its_load_says_so_and_exits_1(db, admin, chain, cli):  # noqa: F811
    site, room, rack = _names(db, chain)
    # four servers plugged into no PDU: 2,800 W spread over every active feed of the rack
    for k in range(1, 5):
        place_device(db, admin, dict(name=f"loose-{k}", device_type_id=chain["server"], rack_id=chain["rack"],
                                     position=k, face="front"))
    code, out, err = cli("power", "feed-add", "--rack", f"{site}/{room}/{rack}", "--amperage", "16",
                         f"{site}/PP-A", "A-01-A2")
    # 2,800 W over three feeds: 933 W each, under 2,816 W
    assert code == 0, out + err
    code, out, err = cli("power", "feed-add", "--rack", f"{site}/{room}/{rack}", "--amperage", "1",
                         f"{site}/PP-A", "A-01-A3")
    # 1 A at 220 V: 220 W, 80 %: 176 W; it carries 2,800 / 4 = 700 W: 318 %
    assert code == 1, out + err
    assert "feed PP-A/A-01-A3 (A) carries 0.70 kW, over 80 % of its 1 A breaker (0.18 kW)" in out
    assert "fails the power check" in out
    assert [f.name for f in RP.list_feeds(db, rack_id=chain["rack"])].count("A-01-A3") == 1  # kept, as recorded


def test_a_feed_imported_below_its_load_is_reported_and_exits_1(db, admin, chain, cli, tmp_path):  # noqa: F811
    site, _room, rack = _names(db, chain)
    add_servers(db, admin, chain, 3)  # 2,100 W: 1,050 W a side
    path = tmp_path / "feeds.csv"
    path.write_text(f"site,power_panel,rack,name,side,amperage\n{site},PP-A,{rack},A-01-A,A,4\n", encoding="utf-8")
    # the A feed's breaker lowered to 4 A: 880 W, 80 %: 704 W, under its 1,050 W
    result = run_import(db, admin, "power-feeds", path)
    assert result.updated == 1
    assert result.failing and "feed PP-A/A-01-A (A) carries 1.05 kW, over 80 % of its 4 A breaker (0.70 kW)" \
        in result.failing[0]
    path.write_text(f"site,power_panel,rack,name,side,amperage\n{site},PP-A,{rack},A-01-A,A,16\n", encoding="utf-8")
    code, out, err = cli("import", "power-feeds", str(path))
    assert code == 0 and "failing" not in out, out + err
    path.write_text(f"site,power_panel,rack,name,side,amperage\n{site},PP-A,{rack},A-01-A,A,4\n", encoding="utf-8")
    code, out, err = cli("import", "power-feeds", str(path))
    assert code == 1 and "imported, but failing its check" in out and "over 80 % of its 4 A breaker" in out


def test_a_pdu_moved_to_the_other_side_says_so_and_exits_1(db, admin, chain, cli):  # noqa: F811
    add_servers(db, admin, chain, 2)  # 1,400 W, each server on PDU-A and PDU-B
    feed_a, feed_b = chain["feeds"]
    code, out, err = cli("power", "pdu", str(chain["pdus"]["B"]), str(feed_a))
    # both PDUs now on side A: with A lost, all 1,400 W go dark
    assert code == 1, out + err
    assert "with side A lost, 1.40 kW of devices plugged into side A only would go dark" in out
    with db.session() as s:
        assert s.execute(select(PduFeed.power_feed_id).where(PduFeed.device_id == chain["pdus"]["B"])) \
            .scalar_one() == feed_a
    code, out, err = cli("power", "pdu", str(chain["pdus"]["B"]), str(feed_b))
    assert code == 0 and "fails" not in out, out + err


def test_a_panel_smaller_than_its_feeds_is_refused(db, admin, chain, tmp_path):  # noqa: F811
    with db.session() as s:
        site = s.execute(select(Site.code).join(PowerPanel, PowerPanel.site_id == Site.id)).scalars().first()
    path = tmp_path / "panels.csv"
    path.write_text(f"site,name,amperage\n{site},PP-A,10\n", encoding="utf-8")
    with pytest.raises(ValidationError) as info:
        run_import(db, admin, "power-panels", path)
    assert "feed A-01-A of this panel has a 16 A breaker; a panel cannot be smaller than its feeds" in info.value.message
    with db.session() as s:
        assert s.execute(select(PowerPanel.amperage).where(PowerPanel.name == "PP-A")).scalar_one() == 250
    path.write_text(f"site,name,amperage\n{site},PP-A,16\n", encoding="utf-8")
    assert run_import(db, admin, "power-panels", path).updated == 1


@pytest.mark.parametrize("kwh", ["1e400", "Infinity", "NaN", "123456789012", "1.2345", "-5", "abc"])
def test_a_circuit_reading_that_is_not_a_count_is_refused(db, admin, chain, kwh):  # noqa: F811
    # kwh_total is Numeric(14, 3): 11 digits and 3 decimals; SQLite stored 1e400 as Inf, PostgreSQL
    # answered "numeric field overflow"
    from tests.conftest import table_counts

    before = table_counts(db)
    with pytest.raises(ValidationError) as exc:
        P.import_circuit_readings(db, admin, [{"circuit": "PP-A/A-01-A", "read_at": "2026-10-10T00:00",
                                               "kwh_total": kwh}])
    assert "is not a meter reading" in exc.value.errors["line 2"]
    assert table_counts(db) == before
    assert P.import_circuit_readings(db, admin, [{"circuit": "PP-A/A-01-A", "read_at": "2026-10-10T00:00",
                                                  "kwh_total": "12,345,678,901.125"}]) == P.ReadingImport(1, 0, 1)
