"""Cross-connect ports and cables as typed: port "0" or "-1" names no port, and a cable joins two
ports, never a port to itself; refused with the field named and nothing written."""
from __future__ import annotations

import pytest

from app.domain.errors import ValidationError
from app.importexport import run_import
from models import Device
from tests.support.builders import build_types
from tests.conftest import table_counts
from tests.dcim.test_xconnects import order_xconnect, world  # noqa: F401  (the fixture)


@pytest.mark.parametrize("field,port", [("port", "0"), ("port", "-1"), ("port", "+3"), ("mmr_port", "0"),
                                        ("mmr_port", "-1"), ("port", "00")])
def test_a_cross_connect_port_is_numbered_from_1(db, admin, world, field, port):  # noqa: F811
    w, info = world
    before = table_counts(db)
    with pytest.raises(ValidationError) as exc:
        order_xconnect(db, admin, w, info, **{"port": "1", field: port})
    assert "ports are numbered from 1" in exc.value.errors[field]
    assert table_counts(db) == before
    assert order_xconnect(db, admin, w, info, port="12A", mmr_port="1")


def test_a_cable_from_a_port_to_itself_is_refused(db, admin, world, tmp_path):  # noqa: F811
    w, _info = world
    types = build_types(db, admin)
    with db.session() as s:
        s.add(Device(name="sw-1", device_type_id=types["switch"], rack_id=w.rack_ids[0], position=30, face="front"))
        s.commit()
    path = tmp_path / "cables.csv"
    path.write_text("side_a_device,side_a_type,side_a_name,side_b_device,side_b_type,side_b_name\n"
                    "sw-1,dcim.interface,eth1,sw-1,dcim.interface,eth1\n", encoding="utf-8")
    before = table_counts(db)
    with pytest.raises(ValidationError) as exc:
        run_import(db, admin, "cables", path)
    assert "both ends are port eth1 of the same device" in exc.value.message
    assert table_counts(db) == before
    path.write_text("side_a_device,side_a_type,side_a_name,side_b_device,side_b_type,side_b_name\n"
                    "sw-1,dcim.interface,eth1,sw-1,dcim.interface,eth2\n", encoding="utf-8")
    assert run_import(db, admin, "cables", path).created == 1
