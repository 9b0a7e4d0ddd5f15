"""Device types against installed racks and NetBox's power semantics (issue 14, first defects).

- A re-imported type that would make installed devices overlap, stick out of their rack or
  lose occupied GPU slots is refused, naming the devices, and nothing changes.
- PDUs carry no load of their own; redundant supplies are not summed; a maximum is not a
  typical draw.
"""
from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import select

from app.importexport.devicetypes import device_draw, import_device_types, parse_device_type, read_device_type_file
from app.domain.errors import ValidationError
from app.services.common import create_in, update_record
from app.services.dcim import place_device, write_device_in
from app.services.gpus import install_gpu_in
from app.read.power import rack_power_of
from app.store.uow import UnitOfWork
from models import Device, DeviceType, GpuAsset, GpuModel
from tests.support.builders import build_site
from tests.conftest import table_counts

DATA = Path(__file__).resolve().parents[1] / "data" / "devicetype-library"
AP7868 = DATA / "APC" / "AP7868.yml"
ARISTA = DATA / "Arista" / "DCS-7060DX4-32.yaml"


def gpu_type_yaml(u_height: int, bays: int) -> str:
    lines = ["manufacturer: Acme", "model: G8 GPU Server", "slug: acme-g8", f"u_height: {u_height}",
             "is_full_depth: true", "power-ports:"]
    lines += [f"  - name: PSU{i}\n    type: iec-60320-c20\n    maximum_draw: 3000\n    allocated_draw: 2000"
              for i in (1, 2)]
    if bays:
        lines.append("module-bays:")
        lines += [f"  - name: GPU {i:02d}" for i in range(1, bays + 1)]
    return "\n".join(lines) + "\n"


# --- parsing: NetBox's meaning of the power figures ----------------------------------------------

def test_pdu_input_capacity_is_not_a_load():
    v = read_device_type_file(AP7868)  # one inlet with maximum_draw 12500, 36 outlets, 0U
    assert v["role"] == "pdu" and v["u_height"] == 0
    assert (v["max_power_w"], v["typical_power_w"], v["power_flag"]) == (None, None, None)


def test_redundant_supplies_are_not_summed_and_a_maximum_is_not_typical():
    v = read_device_type_file(ARISTA)  # 2 × (1600 W max, 342 W allocated), 1U
    assert v["role"] == "switch"
    assert (v["max_power_w"], v["typical_power_w"]) == (1600, 342)
    assert v["power_flag"] is None  # was "3200 W in 1U ... implausible"


@pytest.mark.parametrize("figures, draw", [
    ([1600, 1600], 1600),          # A/B pair: one carries the load
    ([3000] * 6, 9000),            # 3+3
    ([2900] * 4, 5800),            # 2+2
    ([530, 550], 550),             # unlike supplies: the larger one
    ([640, 390], 640),             # a main PSU and a redundant power system
    ([500], 500),
    ([], None),
])
def test_device_draw_of_redundant_supplies(figures, draw):
    assert device_draw(figures) == draw


def test_allocated_above_maximum_is_flagged_as_netbox_refuses_it():
    text = ("manufacturer: Acme\nmodel: Box Server\nslug: acme-box\nu_height: 1\nis_full_depth: true\n"
            "power-ports:\n  - name: PSU1\n    type: iec-60320-c14\n    maximum_draw: 300\n    allocated_draw: 450\n")
    v = parse_device_type(text)
    assert (v["max_power_w"], v["typical_power_w"]) == (300, None)
    assert "allocated 450 W is more than its maximum 300 W" in v["power_flag"]


# --- placement --------------------------------------------------------------------------------------

def test_a_0u_pdu_goes_into_an_empty_10kw_rack(db, admin):
    ids = build_site(db, admin, rack_kw=Decimal("10"))
    assert import_device_types(db, admin, AP7868).created == 1
    with db.session() as s:
        pdu = s.execute(select(DeviceType.id).where(DeviceType.slug == "apc-ap7868")).scalar_one()
    placed = [place_device(db, admin, dict(name=n, device_type_id=pdu, rack_id=ids["racks"][0]))
              for n in ("pdu-a", "pdu-b")]
    # 2 × 12.5 kW of input in a 10 kW rack: accepted, because a PDU passes power on and draws none
    with db.session() as s:
        assert s.execute(select(Device.rack_id).where(Device.id.in_(placed))).scalars().all() == [ids["racks"][0]] * 2
    assert rack_power_of(db, ids["racks"][0]).load_w == 0


def test_a_pdu_stored_with_a_draw_still_adds_no_load(db, admin):
    # a type imported before the fix kept its 12.5 kW input as a draw; its role says what it is
    ids = build_site(db, admin, rack_kw=Decimal("10"))
    with UnitOfWork(db, admin) as uow:
        pdu = create_in(uow, "device_type", dict(manufacturer="APC", model="AP7868", slug="apc-ap7868", u_height=0,
                                                 max_power_w=12500, role="pdu")).id
        uow.commit()
    place_device(db, admin, dict(name="pdu-a", device_type_id=pdu, rack_id=ids["racks"][0]))
    assert rack_power_of(db, ids["racks"][0]).load_w == 0   # its stored 12.5 kW is not a draw


def test_a_type_with_only_a_maximum_counts_it_and_says_so(db, admin):
    ids = build_site(db, admin, rack_kw=Decimal("10"))
    with UnitOfWork(db, admin) as uow:
        big = create_in(uow, "device_type", dict(manufacturer="Acme", model="Big", slug="acme-big", u_height=4,
                                                 max_power_w=6000, role="gpu_server")).id
        uow.commit()
    place_device(db, admin, dict(name="big-1", device_type_id=big, rack_id=ids["racks"][0], position=1))
    before = table_counts(db)
    with pytest.raises(Exception) as info:
        place_device(db, admin, dict(name="big-2", device_type_id=big, rack_id=ids["racks"][0], position=5))
    assert "12.00 kW" in info.value.message and "the maximum for 2 device(s)" in info.value.message
    assert table_counts(db) == before


# --- a re-import must not corrupt installed racks ---------------------------------------------------

@pytest.fixture
def installed(db, admin, tmp_path):
    """32 servers of an 8U type with 8 GPUs each, five to a 42U rack (U1, U9, U17, U25, U33)."""
    ids = build_site(db, admin, rack_kw=Decimal("100"), racks=7)
    f = tmp_path / "acme-g8.yaml"
    f.write_text(gpu_type_yaml(8, 8), encoding="utf-8")
    assert import_device_types(db, admin, f).created == 1
    with db.session() as s:
        type_id = s.execute(select(DeviceType.id).where(DeviceType.slug == "acme-g8")).scalar_one()
        model = s.execute(select(GpuModel.id).where(GpuModel.name == "H100 SXM 80GB")).scalar_one()
    with UnitOfWork(db, admin) as uow:
        for n in range(32):
            dev = write_device_in(uow, None, dict(name=f"g8-{n + 1:02d}", device_type_id=type_id,
                                                  rack_id=ids["racks"][n // 5], position=1 + (n % 5) * 8))
            for slot in range(1, 9):
                gpu = create_in(uow, "gpu", dict(serial=f"H100-{n:02d}-{slot}", gpu_model_id=model))
                install_gpu_in(uow, gpu.id, dev.id, slot)
        uow.commit()
    return dict(ids, type_id=type_id, file=f)


def test_reimport_that_breaks_installed_devices_is_refused_naming_them(db, admin, installed):
    f = installed["file"]
    # 4 GPU bays where 8 GPUs are installed (a file without GPU bays keeps the slots: NetBox has none)
    f.write_text(gpu_type_yaml(20, 4), encoding="utf-8")
    before = table_counts(db)
    result = import_device_types(db, admin, f)
    assert (result.created, result.updated, result.refused_files) == (0, 0, 1)
    reasons = {e.column: e.reason for e in result.refused}
    assert "cannot have 4 GPU slot(s): 32 installed device(s)" in reasons["gpu_slots"]
    assert "g8-01 (8 GPU(s), up to slot 8)" in reasons["gpu_slots"]
    assert "cannot become 20U" in reasons["u_height"]
    assert "g8-01 would overlap g8-02 in rack GZ-HP1/A 机房/A01" in reasons["u_height"]
    assert "g8-05 at U33 would reach U52 of rack GZ-HP1/A 机房/A01 (42U)" in reasons["u_height"]
    # only the import event is new; the type and the GPUs are as they were
    after = table_counts(db)
    assert after["audit_event"] == before["audit_event"] + 1
    assert {k: v for k, v in after.items() if k not in ("audit_event", "_head")} == \
        {k: v for k, v in before.items() if k not in ("audit_event", "_head")}
    with db.session() as s:
        t = s.get(DeviceType, installed["type_id"])
        assert (t.u_height, t.gpu_slots, t.version) == (8, 8, 1)
        assert s.execute(select(GpuAsset).where(GpuAsset.device_id.is_not(None))).scalars().all().__len__() == 256


def test_the_same_change_through_the_form_is_refused(db, admin, installed):
    with db.session() as s:
        version = s.get(DeviceType, installed["type_id"]).version
    with pytest.raises(ValidationError) as info:
        update_record(db, admin, "device_type", installed["type_id"], {"u_height": 9}, version)
    assert "g8-01 would overlap g8-02" in info.value.errors["u_height"]
    with pytest.raises(ValidationError) as info:
        update_record(db, admin, "device_type", installed["type_id"], {"gpu_slots": 4}, version)
    assert "32 installed device(s) hold GPUs in higher slots" in info.value.errors["gpu_slots"]


def test_changes_the_installed_devices_can_take_are_accepted(db, admin, installed):
    f = installed["file"]
    f.write_text(gpu_type_yaml(8, 8).replace("allocated_draw: 2000", "allocated_draw: 2500"), encoding="utf-8")
    result = import_device_types(db, admin, f)
    assert (result.updated, result.refused_files) == (1, 0)
    with db.session() as s:
        version = s.get(DeviceType, installed["type_id"]).version
    # 8U -> 7U leaves gaps but breaks nothing; 8 -> 10 GPU bays keeps every GPU in its slot
    update_record(db, admin, "device_type", installed["type_id"], {"u_height": 7, "gpu_slots": 10}, version)


def test_a_misspelled_draw_field_is_flagged_not_silently_dropped():
    # Ubiquiti/USW-Pro-Max-16-PoE.yaml in the library says "maxium_draw: 210"
    text = ("manufacturer: Ubiquiti\nmodel: USW Pro Max 16 PoE\nslug: ubiquiti-usw-pro-max-16-poe\nu_height: 1\n"
            "is_full_depth: false\npower-ports:\n  - name: Input\n    type: nema-5-15p\n    maxium_draw: 210\n")
    v = parse_device_type(text)
    assert v["max_power_w"] is None
    assert "Input: 'maxium_draw' is not a NetBox field" in v["power_flag"]


def test_a_half_depth_type_cannot_become_full_depth_over_a_device_behind_it(db, admin):
    from tests.support.builders import build_types
    ids = build_site(db, admin)
    ids.update(build_types(db, admin))
    for name, face in (("srv-front", "front"), ("srv-rear", "rear")):
        place_device(db, admin, dict(name=name, device_type_id=ids["server"], rack_id=ids["racks"][0], position=10,
                                     face=face))
    with db.session() as s:
        version = s.get(DeviceType, ids["server"]).version
    before = table_counts(db)
    with pytest.raises(ValidationError) as info:
        update_record(db, admin, "device_type", ids["server"], {"is_full_depth": True}, version)
    assert "srv-front would overlap srv-rear" in info.value.errors["is_full_depth"]
    assert table_counts(db) == before
