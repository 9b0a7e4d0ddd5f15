"""Write NetBox's demo data (netbox-community/netbox-demo-data, sql/netbox-demo-v4.2.sql, MIT) as the
CSV files NetBox's own bulk import takes (its import forms' columns; related objects by name), into
tests/data/netbox-demo/. Run: python -m tests.support.netbox_demo_csv PATH/TO/netbox-demo-v4.2.sql
"""
from __future__ import annotations

import csv
import re
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "data" / "netbox-demo"
TABLES = {"dcim_site", "dcim_location", "dcim_rack", "dcim_powerpanel", "dcim_powerfeed", "dcim_cable",
          "dcim_cabletermination", "dcim_device", "dcim_devicetype", "dcim_manufacturer", "dcim_devicerole",
          "dcim_region", "tenancy_tenant", "django_content_type", "dcim_interface", "dcim_frontport",
          "dcim_rearport", "dcim_powerport", "dcim_rackrole"}


def copy_tables(path: Path) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    cur, cols = None, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if cur is None:
                m = re.match(r"COPY public\.(\w+) \((.*)\) FROM stdin;", line)
                if m and m.group(1) in TABLES:
                    cur, cols = m.group(1), [c.strip().strip('"') for c in m.group(2).split(",")]
                    out[cur] = []
                continue
            if line.startswith("\\."):
                cur = None
                continue
            vals = [None if v == "\\N" else re.sub(r"\\(.)", lambda m: {"t": "\t", "n": "\n", "r": "\r"}.get(
                m.group(1), m.group(1)), v) for v in line.rstrip("\n").split("\t")]
            out[cur].append(dict(zip(cols, vals)))
    return out


def write(name: str, header: list[str], rows: list[list]) -> None:
    with open(OUT / name, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows([["" if v is None else v for v in r] for r in rows])


def main(sql: Path) -> None:
    t = copy_tables(sql)
    by = {k: {r["id"]: r for r in v} for k, v in t.items()}
    name = lambda table, i: by[table][i]["name"] if i else ""   # noqa: E731
    OUT.mkdir(parents=True, exist_ok=True)
    write("sites.csv", ["name", "slug", "status", "region", "tenant", "facility", "time_zone", "description",
                        "physical_address", "latitude", "longitude", "comments"],
          [[s["name"], s["slug"], s["status"], name("dcim_region", s["region_id"]),
            name("tenancy_tenant", s["tenant_id"]), s["facility"], s["time_zone"], s["description"],
            s["physical_address"], s["latitude"], s["longitude"], s["comments"]] for s in t["dcim_site"]])
    write("tenants.csv", ["name", "slug", "description"],
          [[x["name"], x["slug"], x["description"]] for x in t["tenancy_tenant"]])
    write("locations.csv", ["site", "parent", "name", "slug", "status", "tenant", "facility", "description"],
          [[name("dcim_site", x["site_id"]), name("dcim_location", x["parent_id"]), x["name"], x["slug"], x["status"],
            name("tenancy_tenant", x["tenant_id"]), x["facility"], x["description"]] for x in t["dcim_location"]])
    write("racks.csv", ["site", "location", "name", "facility_id", "tenant", "status", "role", "u_height", "width",
                        "serial", "asset_tag", "comments"],
          [[name("dcim_site", x["site_id"]), name("dcim_location", x["location_id"]), x["name"], x["facility_id"],
            name("tenancy_tenant", x["tenant_id"]), x["status"], name("dcim_rackrole", x["role_id"]), x["u_height"],
            x["width"], x["serial"], x["asset_tag"], x["comments"]] for x in t["dcim_rack"]])
    write("device-types.csv", ["manufacturer", "model", "slug", "part_number", "u_height", "is_full_depth",
                               "airflow", "comments"],
          [[name("dcim_manufacturer", x["manufacturer_id"]), x["model"], x["slug"], x["part_number"], x["u_height"],
            {"t": "true", "f": "false"}[x["is_full_depth"]], x["airflow"], x["comments"]]
           for x in t["dcim_devicetype"]])
    rack_loc = {r["id"]: r["location_id"] for r in t["dcim_rack"]}
    write("devices.csv", ["name", "role", "tenant", "manufacturer", "device_type", "serial", "asset_tag", "status",
                          "site", "location", "rack", "position", "face", "comments"],
          [[x["name"], name("dcim_devicerole", x["role_id"]), name("tenancy_tenant", x["tenant_id"]),
            name("dcim_manufacturer", by["dcim_devicetype"][x["device_type_id"]]["manufacturer_id"]),
            by["dcim_devicetype"][x["device_type_id"]]["model"], x["serial"], x["asset_tag"], x["status"],
            name("dcim_site", x["site_id"]), name("dcim_location", x["location_id"] or rack_loc.get(x["rack_id"])),
            name("dcim_rack", x["rack_id"]), x["position"], x["face"], x["comments"]] for x in t["dcim_device"]])
    write("power-panels.csv", ["site", "location", "name", "description", "comments"],
          [[name("dcim_site", x["site_id"]), name("dcim_location", x["location_id"]), x["name"], x["description"],
            x["comments"]] for x in t["dcim_powerpanel"]])
    write("power-feeds.csv", ["site", "power_panel", "location", "rack", "name", "status", "type", "supply", "phase",
                              "voltage", "amperage", "max_utilization", "comments"],
          [[name("dcim_site", by["dcim_powerpanel"][x["power_panel_id"]]["site_id"]),
            name("dcim_powerpanel", x["power_panel_id"]), name("dcim_location", rack_loc.get(x["rack_id"])),
            name("dcim_rack", x["rack_id"]), x["name"], x["status"], x["type"], x["supply"], x["phase"], x["voltage"],
            x["amperage"], x["max_utilization"], x["comments"]] for x in t["dcim_powerfeed"]])
    ctype = {c["id"]: f"{c['app_label']}.{c['model']}" for c in t["django_content_type"]}
    ports = {"dcim.interface": "dcim_interface", "dcim.frontport": "dcim_frontport", "dcim.rearport": "dcim_rearport",
             "dcim.powerport": "dcim_powerport"}
    ends: dict[str, dict[str, list]] = {}
    for e in t["dcim_cabletermination"]:
        kind = ctype[e["termination_type_id"]]
        if kind in ports:
            port = by[ports[kind]][e["termination_id"]]
            dev = by["dcim_device"][port["device_id"]]
            end = [name("dcim_site", dev["site_id"]), dev["name"], kind, port["name"]]
        elif kind == "dcim.powerfeed":
            feed = by["dcim_powerfeed"][e["termination_id"]]
            end = [name("dcim_site", by["dcim_powerpanel"][feed["power_panel_id"]]["site_id"]), "", kind, feed["name"]]
        else:   # circuits.circuittermination: not a device's port
            end = ["", "", kind, e["termination_id"]]
        ends.setdefault(e["cable_id"], {}).setdefault(e["cable_end"], end)
    write("cables.csv", ["side_a_site", "side_a_device", "side_a_type", "side_a_name", "side_b_site", "side_b_device",
                         "side_b_type", "side_b_name", "type", "status", "label", "color", "length", "length_unit"],
          [[*ends[c["id"]]["A"], *ends[c["id"]]["B"], c["type"], c["status"], c["label"], c["color"], c["length"],
            c["length_unit"]] for c in t["dcim_cable"] if set(ends.get(c["id"], {})) == {"A", "B"}])


if __name__ == "__main__":
    main(Path(sys.argv[1]))
