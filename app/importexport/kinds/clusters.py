"""`import|export clusters`, `nodes` and `health-events` (issue 25), for app.importexport.

clusters: one row per cluster (its site's code, fabric, rails, networks). nodes: one row per GPU
server in a cluster (its service state; a node imported in any state is created in that state, as
an estate brought over; its state then moves only through `node state|drain|undrain`).
health-events: an XID or Ascend fault per row; a drain or service event moves its node to triage,
as `health import` does (app/services/clusters/health.py). Fabric cables are plain cables:
`export cables --netbox` writes them in NetBox's columns.
"""
from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import aliased

from models import Device, GpuAsset, GpuCluster, GpuNode, HealthEvent, ScaleUpDomain, Site
from models.choices import Fabric, HealthVendor, NodeState

from app.domain.clock import DateError, parse_instant
from app.domain.errors import RuleViolation
from app.importexport.schema import LOCAL_TIME_COLUMNS
from app.services.clusters.health import record_event_in
from app.services.clusters.topology import add_node_in
from app.services.entities import create_in

CLUSTER_COLUMNS = ("name", "site", "fabric", "rails", "storage_network", "management_network", "note")
CLUSTER_REQUIRED = ("name", "site", "fabric")
CLUSTER_FIELD_COLUMN = {"site_id": "site"}
NODE_COLUMNS = ("device", "cluster", "domain", "state", "maintenance", "state_reason", "state_by", "state_at")
NODE_REQUIRED = ("device", "cluster")
NODE_FIELD_COLUMN = {"device_id": "device", "cluster_id": "cluster", "domain_id": "domain"}
EVENT_COLUMNS = ("node", "gpu", "at", "vendor", "code", "action", "note", "source")
EVENT_REQUIRED = ("node", "at", "vendor", "code")
LOCAL_TIME_COLUMNS.update({("nodes", "state_at"), ("health-events", "at")})


def _choice(r, col: str, values, default=None):
    raw = (r.get(col) or "").strip()
    if not raw:
        return default
    if raw.lower() in values:
        return raw.lower()
    r.err(col, f"{raw!r} is not one of {', '.join(values)}")
    return None


def _instant(r, col: str):
    try:
        return parse_instant(r.get(col), what=col)
    except DateError as exc:
        r.err(col, str(exc))
        return None


# --- clusters --------------------------------------------------------------------------------------

def resolve_clusters(s, r) -> dict[str, Any]:
    from app.importexport.kinds.core import _site
    site = _site(s, r, "site") if r.get("site") else None
    return {"name": r.get("name"), "site_id": site.id if site else None,
            "fabric": _choice(r, "fabric", Fabric.values(), Fabric.NONE), "rails": r.integer("rails"),
            "storage_network": r.get("storage_network") or None,
            "management_network": r.get("management_network") or None, "note": r.get("note") or None}


def write_clusters(uow, r, v: dict) -> str:
    same = uow.session.execute(select(GpuCluster).where(GpuCluster.name == v["name"])).scalar_one_or_none()
    if same is not None:
        differs = [k for k in v if getattr(same, k) != v[k]]
        if not differs:
            return "unchanged"
        raise RuleViolation(f"cluster {same.name} exists with other {', '.join(differs)}; change it in the console")
    create_in(uow, "gpu_cluster", v, reason=f"imported from line {r.line}")
    return "created"


def export_clusters_query():
    return (select(GpuCluster.name, Site.code, GpuCluster.fabric, GpuCluster.rails, GpuCluster.storage_network,
                   GpuCluster.management_network, GpuCluster.note)
            .join(Site, Site.id == GpuCluster.site_id).order_by(Site.code, GpuCluster.name))


# --- nodes -----------------------------------------------------------------------------------------

def resolve_nodes(s, r) -> dict[str, Any]:
    from app.importexport.kinds.core import _device_ref
    dev = _device_ref(s, r, "device")
    c = s.execute(select(GpuCluster).where(GpuCluster.name == r.get("cluster"))).scalar_one_or_none()
    if c is None and r.get("cluster"):
        r.err("cluster", f"there is no cluster {r.get('cluster')!r}: import clusters first")
    return {"device_id": dev.id if dev else None, "cluster_id": c.id if c else None,
            "domain": r.get("domain") or None, "state": _choice(r, "state", NodeState.values(), NodeState.ONBOARDING),
            "maintenance": bool(r.boolean("maintenance")), "state_reason": r.get("state_reason") or None,
            "state_at": _instant(r, "state_at")}


def write_nodes(uow, r, v: dict) -> str:
    s = uow.session
    same = s.execute(select(GpuNode).where(GpuNode.device_id == v["device_id"])).scalar_one_or_none()
    if same is not None and same.cluster_id == v["cluster_id"]:
        if same.state == v["state"] and same.maintenance == v["maintenance"]:
            return "unchanged"
        raise RuleViolation("the node exists in another state; move it with `node state`, `node drain` or "
                            "`node undrain`, not by importing it again")
    c, dev = s.get(GpuCluster, v["cluster_id"]), s.get(Device, v["device_id"])
    if v["domain"] and not s.execute(select(ScaleUpDomain.id).where(ScaleUpDomain.cluster_id == c.id,
                                                                    ScaleUpDomain.name == v["domain"])).first():
        create_in(uow, "scaleup_domain", dict(cluster_id=c.id, name=v["domain"], kind=_domain_kind(s, dev),
                                              size=dev.device_type.gpu_slots or 8))
    node = add_node_in(uow, c, dev, domain=v["domain"], state=v["state"],
                       reason=v["state_reason"] or f"imported from line {r.line}", at=v["state_at"])
    if v["maintenance"] and not node.maintenance:
        node.maintenance = True
        s.flush()
    return "created" if same is None else "updated"


def _domain_kind(s, dev: Device) -> str:
    from models import GpuModel
    model = s.get(GpuModel, dev.device_type.gpu_model_id) if dev.device_type.gpu_model_id else None
    return "hccs" if model is not None and model.vendor == "Huawei" else "nvlink"


def export_nodes_query():
    return (select(Device.name, GpuCluster.name, ScaleUpDomain.name, GpuNode.state, GpuNode.maintenance,
                   GpuNode.state_reason, GpuNode.state_by, GpuNode.state_at)
            .join(Device, Device.id == GpuNode.device_id).join(GpuCluster, GpuCluster.id == GpuNode.cluster_id)
            .outerjoin(ScaleUpDomain, ScaleUpDomain.id == GpuNode.domain_id).order_by(GpuCluster.name, Device.name))


# --- health events ---------------------------------------------------------------------------------

def resolve_health_events(s, r) -> dict[str, Any]:
    from app.importexport.kinds.core import _device_ref
    dev = _device_ref(s, r, "node")
    node = s.execute(select(GpuNode).where(GpuNode.device_id == dev.id)).scalar_one_or_none() if dev else None
    if dev is not None and node is None:
        r.err("node", f"{dev.name} is not a node of any cluster")
    gpu = None
    if r.get("gpu"):
        gpu = s.execute(select(GpuAsset).where(GpuAsset.serial == r.get("gpu"))).scalar_one_or_none()
        if gpu is None or (dev is not None and gpu.device_id != dev.id):
            r.err("gpu", f"GPU {r.get('gpu')} is not in {r.get('node')}")
    vendor = (r.get("vendor") or "").strip().lower()
    vendor = "ascend" if vendor in ("huawei", "昇腾") else vendor
    if vendor not in HealthVendor.values():
        r.err("vendor", f"vendor is {' or '.join(HealthVendor.values())}")
    return {"node_id": node.id if node else None, "gpu_id": gpu.id if gpu else None, "at": _instant(r, "at"),
            "vendor": vendor, "code": r.get("code"), "note": r.get("note") or None,
            "source": r.get("source") or None}


def write_health_events(uow, r, v: dict) -> str:
    s = uow.session
    same = s.execute(select(HealthEvent.id).where(HealthEvent.node_id == v["node_id"], HealthEvent.at == v["at"],
                                                  HealthEvent.code == str(v["code"]).strip())).first()
    if same:
        return "unchanged"
    record_event_in(uow, s.get(GpuNode, v["node_id"]), vendor=v["vendor"], code=v["code"], at=v["at"],
                    gpu=s.get(GpuAsset, v["gpu_id"]) if v["gpu_id"] else None, note=v["note"],
                    source=v["source"] or f"import line {r.line}")
    return "created"


def export_health_events_query():
    node_dev = aliased(Device)
    return (select(node_dev.name, GpuAsset.serial, HealthEvent.at, HealthEvent.vendor, HealthEvent.code,
                   HealthEvent.action, HealthEvent.note, HealthEvent.source)
            .join(GpuNode, GpuNode.id == HealthEvent.node_id).join(node_dev, node_dev.id == GpuNode.device_id)
            .outerjoin(GpuAsset, GpuAsset.id == HealthEvent.gpu_id).order_by(HealthEvent.at, HealthEvent.id))
