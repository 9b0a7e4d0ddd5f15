"""Find N contiguous free U (app.read.freespace) and the rack list's free U / utilisation columns.

The estate is tests/read/test_viewdata.py's, worked out by hand:
A01 (42U, leased to c1): GPU server U1-8 and server U10-11 full depth; KVM U20 (0.5U at 20.5)
front; switch U42 front; patch panel U40 rear; old server U30-31 full depth (decommissioning,
still mounted); c2's active front reservation U30-33; c1's ended reservation U35-36 does not count.
  front free for c1: 9, 12-19 (8), 21-29 (9), 34-41 (8);  rear: 9, 12-29 (18), 32-39, 41-42;
  both faces (full depth): 9, 12-19, 21-29, 34-39, 41
A02 (42U, unleased): server U1-2 full depth -> 3-42 free (40).  A03 (48U, empty).  Z99 decommissioned.
"""
from __future__ import annotations

import pytest

from app.read import queries
from app.domain.errors import ValidationError
from app.read.freespace import find_free_units
from tests.read.test_viewdata import TODAY, build_estate


@pytest.fixture
def estate(db):
    return build_estate(db)


def _found(rows):
    return [(r.rack_name, r.u_from, r.u_to) for r in rows]


def test_own_equipment_goes_to_unleased_racks_only(db, estate):
    # best fit first: A02's 40-U run before A03's 48
    assert _found(find_free_units(db, 4, site_id=estate["fz1"], today=TODAY)) == [("A02", 3, 6), ("A03", 1, 4)]
    assert _found(find_free_units(db, 41, today=TODAY)) == [("A03", 1, 41)]
    assert find_free_units(db, 49, today=TODAY) == []


def test_lessee_sees_its_rack_and_other_reservations_block(db, estate):
    rows = find_free_units(db, 9, customer_id=estate["c1"], room_id=estate["room"], today=TODAY)
    assert _found(rows) == [("A01", 21, 29), ("A02", 3, 11), ("A03", 1, 9)]
    a01 = rows[0]
    assert a01.lessee_name == "星河智算科技有限公司" and a01.run_length == 9 and a01.free_units == 26
    # 10 U do not fit in A01 for c1: the c2 reservation cuts 30-33
    assert "A01" not in [r.rack_name for r in find_free_units(db, 10, customer_id=estate["c1"], today=TODAY)]
    # c2 may not use c1's rack at all
    assert "A01" not in [r.rack_name for r in find_free_units(db, 1, customer_id=estate["c2"], today=TODAY)]


def test_full_depth_needs_both_faces(db, estate):
    front = find_free_units(db, 8, customer_id=estate["c1"], room_id=estate["room"], today=TODAY)
    assert _found(front)[0] == ("A01", 12, 19)          # 12-19 is the tightest 8-U run
    rear = find_free_units(db, 9, customer_id=estate["c1"], room_id=estate["room"], face="rear", today=TODAY)
    assert ("A01", 12, 20) in _found(rear)
    deep = find_free_units(db, 8, customer_id=estate["c1"], room_id=estate["room"], full_depth=True, today=TODAY)
    # both faces: 12-19 (8) and 21-29 (9) fit; 34-39 is only 6 (rear 40 is the patch panel)
    assert _found(deep)[0] == ("A01", 12, 19)


def test_bad_input_refused(db, estate):
    with pytest.raises(ValidationError, match="whole number"):
        find_free_units(db, 0)
    with pytest.raises(ValidationError, match="face"):
        find_free_units(db, 2, face="top")


def test_rack_list_shows_free_u_and_utilisation_sortable(db, estate):
    spec = queries.SPECS["rack"]
    rows = [r for batch in queries.fetch_all(db, spec, sort="free_u") for r in batch]
    keys = spec.keys()
    by_name = {r[1 + keys.index("name")]: r for r in rows}
    free, used = 1 + keys.index("free_u"), 1 + keys.index("used_pct")
    # A01: 8 + 2 + 0.5 + 1 + 1 + 2 = 14.5 U mounted (the PDU is zero-U and unmounted) of 42
    assert float(by_name["A01"][free]) == 27.5 and float(by_name["A01"][used]) == 34.5
    assert float(by_name["A02"][free]) == 40 and float(by_name["A02"][used]) == 4.8
    assert float(by_name["A03"][free]) == 48 and float(by_name["A03"][used]) == 0
    assert [r[1 + keys.index("name")] for r in rows][:2] == ["A01", "A02"]
    desc = [r for batch in queries.fetch_all(db, spec, sort="used_pct", desc=True) for r in batch]
    assert desc[0][1 + keys.index("name")] == "A01"


def test_device_type_leaves_out_racks_without_power(db, estate):
    from models import DeviceType
    with db.session() as s:
        big = DeviceType(manufacturer="Acme", model="Heater 4U", slug="heater", u_height=4, is_full_depth=True,
                         typical_power_w=7000, role="server")
        s.add(big)
        s.commit()
        big_id = big.id
    # A02: 10 kW, 500 W drawn -> 7.5 kW fits; A03: 6 kW -> 7 kW does not
    rows = find_free_units(db, 4, full_depth=True, device_type_id=big_id, today=TODAY)
    assert _found(rows) == [("A02", 3, 6)]
    with pytest.raises(ValidationError, match="unknown device type"):
        find_free_units(db, 4, device_type_id=999999)
