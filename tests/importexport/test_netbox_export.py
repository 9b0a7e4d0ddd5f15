"""`export KIND --netbox`: the demo's files pass NetBox's bulk-import checks with nothing refused.

NetBox itself is not run here (it is a Django server). Its import forms are written below as data,
read from github.com/netbox-community/netbox at commit 43fe81f9e833228c9869f7ddadb67e6c5f145060
(2026-08-22):
- fields, which are required, related objects and the field they are looked up by
  (`to_field_name`): netbox/dcim/forms/bulk_import.py (RegionImportForm, SiteImportForm,
  LocationImportForm, RackImportForm, ManufacturerImportForm, DeviceRoleImportForm,
  DeviceTypeImportForm, DeviceImportForm, PowerPanelImportForm, PowerFeedImportForm,
  CableImportForm), netbox/tenancy/forms/bulk_import.py (TenantImportForm), the base forms'
  `owner` and `tags` (netbox/netbox/forms/bulk_import.py);
- the header rules (a column must be a field; `field.attr` only for a related field whose model has
  `attr`; every required field's header present): parse_csv and validate_csv in
  netbox/utilities/forms/utils.py;
- choices: netbox/dcim/choices.py (SiteStatusChoices, LocationStatusChoices, RackStatusChoices,
  RackWidthChoices, DeviceStatusChoices, DeviceFaceChoices, DeviceAirflowChoices,
  PowerFeed*Choices, LinkStatusChoices, CableLengthUnitChoices, CableTypeChoices), WeightUnitChoices
  in netbox/netbox/choices.py, CABLE_TERMINATION_MODELS in netbox/dcim/constants.py;
- uniqueness: the models' UniqueConstraints (netbox/dcim/models/sites.py, racks.py, devices.py,
  power.py; tenancy/models/tenants.py); the slug rule: Django's SlugField (ASCII letters, digits,
  '-', '_'); the rack-position rules of dcim/models/devices.py Device.clean (a face with a
  position, no position for a 0U type, within the rack's height).
The harness below keeps what each accepted row created, so a later file's look-ups (a rack's
location within its site, a device type's model within its manufacturer) are checked against what
NetBox would hold by then.
"""
from __future__ import annotations

import csv
import re
import zoneinfo
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path

import pytest

from app.importexport import run_export
from app.importexport.netbox import NETBOX_ORDER, run_netbox_export
from app.services.users import login

BASE_FIELDS = ("id", "owner", "tags")   # every import form: NetBoxModelImportForm.tags, OwnerCSVMixin.owner
SLUG = re.compile(r"[-a-zA-Z0-9_]+")    # django.core.validators.validate_slug

SITE_STATUS = {"planned", "staging", "active", "decommissioning", "retired"}
CHOICES = {
    ("sites", "status"): SITE_STATUS, ("locations", "status"): SITE_STATUS,
    ("racks", "status"): {"reserved", "available", "planned", "active", "deprecated"},
    ("racks", "width"): {"10", "19", "21", "23"},
    ("devices", "status"): {"offline", "active", "planned", "staged", "failed", "inventory", "decommissioning"},
    ("devices", "face"): {"front", "rear"},
    ("device-types", "airflow"): {"front-to-rear", "rear-to-front", "left-to-right", "right-to-left",
                                  "side-to-rear", "rear-to-side", "bottom-to-top", "top-to-bottom", "passive",
                                  "mixed"},
    ("device-types", "weight_unit"): {"kg", "g", "lb", "oz"},
    ("device-types", "is_full_depth"): {"true", "false"},
    ("power-feeds", "status"): {"offline", "active", "planned", "failed"},
    ("power-feeds", "type"): {"primary", "redundant"},
    ("power-feeds", "supply"): {"ac", "dc"},
    ("power-feeds", "phase"): {"single-phase", "three-phase"},
    ("cables", "status"): {"connected", "planned", "decommissioning"},
    ("cables", "length_unit"): {"km", "m", "cm", "mi", "ft", "in"},
    # CableTypeChoices has 80-odd values; these are the ones a provider's cables use
    ("cables", "type"): {"cat3", "cat5", "cat5e", "cat6", "cat6a", "cat7", "cat7a", "cat8", "dac-active",
                         "dac-passive", "mmf", "mmf-om1", "mmf-om2", "mmf-om3", "mmf-om4", "mmf-om5", "smf",
                         "smf-os1", "smf-os2", "aoc", "power"},
    **{("cables", f"side_{s}_type"): {"circuits.circuittermination", "dcim.consoleport", "dcim.consoleserverport",
                                       "dcim.frontport", "dcim.interface", "dcim.powerfeed", "dcim.poweroutlet",
                                       "dcim.powerport", "dcim.rearport"} for s in "ab"},
}


@dataclass(frozen=True)
class Ref:
    kind: str                    # the NetBox kind looked in
    by: str = "name"             # to_field_name
    within: tuple[tuple[str, str], ...] = ()  # (this row's column, the target's field) that narrow the look-up


@dataclass(frozen=True)
class Form:
    fields: tuple[str, ...]      # Meta.fields
    required: tuple[str, ...]    # fields whose header and value NetBox needs
    refs: dict = field(default_factory=dict)       # field -> Ref
    unique: tuple[tuple[str, ...], ...] = ()        # the model's unique field sets (as stored values)
    attrs: tuple[str, ...] = ("name", "slug")       # the model's fields a dotted header may name


FORMS: dict[str, Form] = {
    "regions": Form(("name", "slug", "parent", "description", "comments"), ("name", "slug"),
                    {"parent": Ref("regions")}, (("parent", "name"), ("parent", "slug"))),
    "tenants": Form(("name", "slug", "group", "description", "comments"), ("name", "slug"),
                    unique=(("name",), ("slug",))),
    "sites": Form(("name", "slug", "status", "region", "group", "tenant", "facility", "time_zone", "description",
                   "physical_address", "shipping_address", "latitude", "longitude", "comments"),
                  ("name", "slug", "status"), {"region": Ref("regions"), "tenant": Ref("tenants")},
                  (("name",), ("slug",))),
    "locations": Form(("site", "parent", "name", "slug", "status", "tenant", "facility", "description", "comments"),
                      ("site", "name", "slug", "status"),
                      {"site": Ref("sites"), "parent": Ref("locations", within=(("site", "site"),)),
                       "tenant": Ref("tenants")}, (("site", "parent", "name"), ("site", "parent", "slug"))),
    "racks": Form(("site", "location", "group", "name", "facility_id", "tenant", "status", "role", "rack_type",
                   "form_factor", "serial", "asset_tag", "width", "u_height", "desc_units", "outer_width",
                   "outer_height", "outer_depth", "outer_unit", "mounting_depth", "airflow", "weight", "max_weight",
                   "weight_unit", "description", "comments"),
                  ("site", "name", "status", "width", "u_height"),   # width, u_height: clean() without a rack type
                  {"site": Ref("sites"), "location": Ref("locations", within=(("site", "site"),)),
                   "tenant": Ref("tenants")}, (("location", "name"),), ("name", "facility_id", "asset_tag")),
    "manufacturers": Form(("name", "slug", "description", "comments"), ("name", "slug"),
                          unique=(("name",), ("slug",))),
    "device-roles": Form(("name", "slug", "parent", "color", "vm_role", "config_template", "description", "comments"),
                         ("name", "slug"), {"parent": Ref("device-roles")}, (("name",), ("slug",))),
    "device-types": Form(("manufacturer", "default_platform", "model", "slug", "part_number", "u_height",
                          "exclude_from_utilization", "is_full_depth", "subdevice_role", "airflow", "description",
                          "weight", "weight_unit", "comments"), ("manufacturer", "model", "slug"),
                         {"manufacturer": Ref("manufacturers")},
                         (("manufacturer", "model"), ("manufacturer", "slug")), ("model", "slug", "part_number")),
    "devices": Form(("name", "role", "tenant", "manufacturer", "device_type", "platform", "serial", "asset_tag",
                     "status", "site", "location", "rack", "position", "face", "latitude", "longitude", "parent",
                     "device_bay", "airflow", "virtual_chassis", "vc_position", "vc_priority", "cluster",
                     "description", "config_template", "comments"),
                    ("role", "manufacturer", "device_type", "status", "site"),
                    {"role": Ref("device-roles"), "tenant": Ref("tenants"), "manufacturer": Ref("manufacturers"),
                     "device_type": Ref("device-types", "model", (("manufacturer", "manufacturer"),)),
                     "site": Ref("sites"), "location": Ref("locations", within=(("site", "site"),)),
                     "rack": Ref("racks", within=(("site", "site"), ("location", "location")))},
                    (("site", "tenant", "name"), ("asset_tag",)), ("name", "asset_tag", "serial")),
    "power-panels": Form(("site", "location", "name", "description", "comments"), ("site", "name"),
                         {"site": Ref("sites"), "location": Ref("locations", within=(("site", "site"),))},
                         (("site", "name"),), ("name",)),
    "power-feeds": Form(("site", "power_panel", "location", "rack", "name", "status", "type", "mark_connected",
                         "supply", "phase", "voltage", "amperage", "max_utilization", "tenant", "description",
                         "comments"),
                        ("site", "power_panel", "name", "status", "type", "supply", "phase", "voltage", "amperage",
                         "max_utilization"),
                        {"site": Ref("sites"), "power_panel": Ref("power-panels", within=(("site", "site"),)),
                         "location": Ref("locations", within=(("site", "site"),)),
                         "rack": Ref("racks", within=(("site", "site"), ("location", "location"))),
                         "tenant": Ref("tenants")}, (("power_panel", "name"),), ("name",)),
    "cables": Form(("side_a_site", "side_a_device", "side_a_power_panel", "side_a_type", "side_a_name",
                    "side_b_site", "side_b_device", "side_b_power_panel", "side_b_type", "side_b_name", "type",
                    "status", "profile", "tenant", "bundle", "label", "color", "length", "length_unit",
                    "description", "comments"),
                   ("side_a_type", "side_a_name", "side_b_type", "side_b_name"),
                   {"side_a_site": Ref("sites"), "side_b_site": Ref("sites"), "tenant": Ref("tenants"),
                    "side_a_device": Ref("devices", within=(("side_a_site", "site"),)),
                    "side_b_device": Ref("devices", within=(("side_b_site", "site"),))}, (), ("label",)),
}


class FakeNetBox:
    """What NetBox's bulk import checks, applied file by file; accepted rows become objects."""

    def __init__(self):
        self.objects: dict[str, list[dict]] = {k: [] for k in FORMS}

    def find(self, ref: Ref, by: str, value: str, row: dict, form_refs: dict) -> dict | None:
        hits = [o for o in self.objects[ref.kind] if str(o.get(by)) == value]
        for col, target in ref.within:
            if row.get(col):
                scope = self.resolve(form_refs[col], col, row, form_refs, None)
                hits = [o for o in hits if o.get(target) is scope]
        return hits[0] if len(hits) == 1 else None

    def resolve(self, ref: Ref, col: str, row: dict, form_refs: dict, headers: dict | None) -> dict | None:
        by = (headers or {}).get(col) or ref.by
        return self.find(ref, by, row[col], row, form_refs) if row.get(col) else None

    def load(self, kind: str, path: Path) -> list[str]:
        form = FORMS[kind]
        with open(path, encoding="utf-8-sig", newline="") as f:   # NetBox: file.read().decode('utf-8-sig')
            reader = csv.reader(f)
            raw = next(reader)
            rows = list(reader)
        headers: dict[str, str | None] = {}
        refused: list[str] = []
        for h in raw:   # parse_csv / validate_csv
            name, _, to = h.strip().partition(".")
            if name in headers:
                refused.append(f"duplicate header {name}")
            headers[name] = to or None
            if name not in form.fields + BASE_FIELDS:
                refused.append(f'Unexpected column header "{name}" found.')
            elif to and (name not in form.refs or to not in FORMS_ATTRS(form.refs[name].kind)):
                refused.append(f'Invalid related object attribute for column "{name}": {to}')
        for req in form.required:
            if req not in headers:
                refused.append(f'Required column header "{req}" not found.')
        if refused:
            return refused
        for line, cells in enumerate(rows, start=2):
            if len(cells) != len(raw):
                refused.append(f"row {line}: expected {len(raw)} columns but found {len(cells)}")
                continue
            row = dict(zip(headers, (c.strip() for c in cells)))
            problems = self.check_row(kind, form, headers, row)
            refused.extend(f"{path.name} row {line}: {p}" for p in problems)
        return refused

    def check_row(self, kind: str, form: Form, headers: dict, row: dict) -> list[str]:
        problems = [f"{req}: This field is required." for req in form.required if not row.get(req)]
        for (k, col), allowed in CHOICES.items():
            if k == kind and row.get(col) and row[col] not in allowed:
                problems.append(f"{col}: Select a valid choice. {row[col]} is not one of the available choices.")
        if row.get("slug") and not SLUG.fullmatch(row["slug"]):
            problems.append(f"slug: {row['slug']!r} is not a valid slug")
        if kind == "sites" and row.get("time_zone"):
            try:
                zoneinfo.ZoneInfo(row["time_zone"])
            except zoneinfo.ZoneInfoNotFoundError:
                problems.append(f"time_zone: {row['time_zone']!r} is not a time zone")
        obj: dict = dict(row)
        for col, ref in form.refs.items():
            if row.get(col):
                hit = self.resolve(ref, col, row, form.refs, headers)
                if hit is None:
                    problems.append(f"{col}: Object not found: {row[col]}")
                obj[col] = hit
        if kind == "racks" and row.get("u_height") and not 1 <= int(row["u_height"]) <= 100:
            problems.append("u_height: at most 100 (RACK_U_HEIGHT_MAX)")
        if kind == "device-types" and row.get("u_height"):
            u = Decimal(row["u_height"])
            if u < 0 or (u * 2) % 1:
                problems.append(f"u_height: {u} is not a multiple of 0.5")
        if kind == "devices" and not problems:
            problems += self.placement(row, obj)
        for number in ("latitude", "longitude", "position", "weight", "length", "voltage", "amperage",
                       "max_utilization", "u_height"):
            if row.get(number):
                try:
                    Decimal(row[number])
                except InvalidOperation:
                    problems.append(f"{number}: {row[number]!r} is not a number")
        for fields_ in form.unique:
            key = tuple(obj.get(f) if isinstance(obj.get(f), dict) else (obj.get(f) or None) for f in fields_)
            if all(v is None for v in key):
                continue
            key_ids = tuple(id(v) if isinstance(v, dict) else (v.lower() if kind == "devices" and f == "name" and v
                                                               else v) for f, v in zip(fields_, key))
            if key_ids in self._seen(kind, fields_):
                problems.append(f"{', '.join(fields_)}: already exists ({row.get('name') or row.get('model')})")
            elif not problems:
                self._seen(kind, fields_).add(key_ids)
        if not problems:
            self.objects[kind].append(obj)
        return problems

    def placement(self, row: dict, obj: dict) -> list[str]:
        """Device.clean: a position needs a face and a rack; a 0U type has no position; it fits in the rack."""
        if not row.get("position"):
            return []
        if not row.get("face"):
            return ["face: Must specify rack face when defining rack position."]
        dtype, rack = obj["device_type"], obj.get("rack")
        u = Decimal(dtype.get("u_height") or 1)
        if u == 0:
            return [f"position: A 0U device type ({dtype['model']}) cannot be assigned to a rack position."]
        if rack is None:
            return ["rack: a position needs a rack"]
        top = Decimal(row["position"]) + u - 1
        if top > int(rack["u_height"]):
            return [f"position: U{row['position']} is already occupied or does not have sufficient space"]
        return []

    def _seen(self, kind, fields_) -> set:
        return self.__dict__.setdefault("_unique", {}).setdefault((kind, fields_), set())


def FORMS_ATTRS(kind: str) -> tuple[str, ...]:
    return FORMS[kind].attrs + ("id",)


def _export_all(db, folder: Path) -> dict[str, Path]:
    actor = login(db, "admin", "demo1234")
    files = {}
    for kind in NETBOX_ORDER:
        files[kind] = folder / f"{kind}.csv"
        run_netbox_export(db, actor, kind, files[kind])
    return files


def _rows(path: Path) -> int:
    with open(path, encoding="utf-8-sig", newline="") as f:
        return sum(1 for _ in csv.reader(f)) - 1


def test_the_demo_exported_for_netbox_passes_netbox_import_checks(demo_db, tmp_path):
    files = _export_all(demo_db, tmp_path)
    netbox = FakeNetBox()
    refused = {kind: netbox.load(kind, files[kind]) for kind in NETBOX_ORDER}
    assert refused == {kind: [] for kind in NETBOX_ORDER}
    created = {kind: len(netbox.objects[kind]) for kind in NETBOX_ORDER}
    assert created == {kind: _rows(files[kind]) for kind in NETBOX_ORDER}
    assert created["sites"] == 7 and created["racks"] == 280 and created["devices"] == 697
    assert created["power-feeds"] == 11 and created["regions"] > 3000
    # statuses NetBox lacks: the demo's 16 leased racks are active, each with its tenant
    active = [r for r in netbox.objects["racks"] if r["status"] == "active"]
    assert len(active) == 16 and all(r["tenant"] is not None for r in active)


def test_our_own_export_is_what_netbox_refused(demo_db, tmp_path):
    """The plain export is for our import, not NetBox's: the harness refuses it as NetBox did (the review)."""
    actor = login(demo_db, "admin", "demo1234")
    netbox = FakeNetBox()
    for kind in ("regions", "tenants"):
        run_netbox_export(demo_db, actor, kind, tmp_path / f"{kind}.csv")
        assert netbox.load(kind, tmp_path / f"{kind}.csv") == []
    run_export(demo_db, actor, "sites", tmp_path / "ours-sites.csv")
    refused = netbox.load("sites", tmp_path / "ours-sites.csv")
    assert any('"code"' in r for r in refused) and any('"slug"' not in r for r in refused)


def test_cables_and_their_ends_by_site(demo_db, tmp_path):
    """A cable's ends are written as NetBox's CableImportForm names them: the device by name within the site."""
    from app.importexport import run_import
    actor = login(demo_db, "admin", "demo1234")
    files = _export_all(demo_db, tmp_path)
    with open(files["devices"], encoding="utf-8-sig", newline="") as f:
        devices = list(csv.DictReader(f))
    a, b = devices[0], devices[-1]
    cables = tmp_path / "ours-cables.csv"
    with open(cables, "w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows([
            ["side_a_site", "side_a_device", "side_a_type", "side_a_name", "side_b_site", "side_b_device",
             "side_b_type", "side_b_name", "type", "status", "label", "color", "length", "length_unit"],
            [a["site"], a["name"], "dcim.interface", "eth0", b["site"], b["name"], "dcim.interface", "eth0",
             "smf-os2", "connected", "X-0001", "ffeb3b", "12.5", "m"]])
    assert run_import(demo_db, actor, "cables", cables).created == 1    # our import: sites by name
    run_netbox_export(demo_db, actor, "cables", tmp_path / "cables.csv")
    netbox = FakeNetBox()
    for kind in NETBOX_ORDER:
        path = tmp_path / "cables.csv" if kind == "cables" else files[kind]
        assert netbox.load(kind, path) == [], kind
    # the demo's fabric cables (issue 25) go in too; this test's own is the one labelled X-0001
    assert len(netbox.objects["cables"]) > 100
    [cable] = [c for c in netbox.objects["cables"] if c.get("label") == "X-0001"]
    assert (cable["side_a_device"]["name"], cable["side_b_device"]["name"]) == (a["name"], b["name"])
    assert (cable["length"], cable["length_unit"], cable["color"]) == ("12.5", "m", "ffeb3b")


def test_netbox_export_refuses_what_netbox_cannot_read(demo_db, tmp_path):
    from app.domain.errors import ValidationError
    actor = login(demo_db, "admin", "demo1234")
    with pytest.raises(ValidationError) as info:
        run_netbox_export(demo_db, actor, "gpus", tmp_path / "gpus.csv")
    assert "no NetBox import" in str(info.value.errors)
    with pytest.raises(ValidationError) as info:
        run_netbox_export(demo_db, actor, "sites", tmp_path / "sites.xlsx")
    assert "CSV" in str(info.value.errors)


def test_export_netbox_from_the_command_line(demo_db, tmp_path, capsys, monkeypatch):
    from app.cli.main import main
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", "demo1234")
    url = demo_db.engine.url.render_as_string(hide_password=False)
    out = tmp_path / "locations.csv"
    assert main(["--db", url, "--user", "admin", "export", "rooms", "--netbox", "-o", str(out)]) == 0
    assert "NetBox locations" in capsys.readouterr().out
    assert FakeNetBox().load("locations", out) != []              # alone: its sites are not in NetBox yet
    assert main(["--db", url, "--user", "admin", "export", "manufacturers", "-o", str(out)]) == 1
    assert "--netbox" in capsys.readouterr().err
