"""Clusters, scale-up domains, fabric switches, nodes and their cables; the topology's rules.

Rules (refused with the offending objects named): a node belongs to one fabric (one cluster; a
server of a site's "unassigned" cluster, fabric none, may move to a real one); a port carries one
cable (app/services/xconnects.connect_cable_in); a rail-optimised fabric has as many rails as GPUs
per node; a leaf of a rail-optimised fabric has its rail; cables join a node to a leaf of its own
cluster, or a leaf to a spine of it.
"""
from __future__ import annotations

import datetime as dt

from sqlalchemy import func, select

from models import Cable, Device, FabricSwitch, GpuAsset, GpuCluster, GpuNode, GpuNodeHistory, Rack, Room
from models import ScaleUpDomain, Site
from models.choices import DeviceRole, Fabric, NodeState, ScaleUpKind, SwitchTier

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import NotFound, RuleViolation, ValidationError
from app.services.entities import EntitySpec, create_in, flush_or_refuse, get_or_404, register, snapshot
from app.store.db import Database
from app.store.uow import UnitOfWork

CLUSTER_FIELDS = ("name", "site_id", "fabric", "rails", "storage_network", "management_network", "note")


def _clean(v):
    return v.strip() if isinstance(v, str) and v.strip() else (None if isinstance(v, str) else v)


def find_cluster_in(s, key: int | str) -> GpuCluster:
    """A cluster by id or by name."""
    if isinstance(key, int) or (isinstance(key, str) and key.isdigit()):
        c = s.get(GpuCluster, int(key))
        if c is not None:
            return c
    c = s.execute(select(GpuCluster).where(GpuCluster.name == str(key))).scalar_one_or_none()
    if c is None:
        raise NotFound(f"no cluster {key!r}: `cluster show` lists them")
    return c


def find_device_in(s, key: int | str, what: str = "device") -> Device:
    if isinstance(key, int):
        return get_or_404(s, Device, key, what)
    rows = s.execute(select(Device).where(Device.name == str(key))).scalars().all()
    if not rows and str(key).isdigit():
        return get_or_404(s, Device, int(key), what)
    if not rows:
        raise NotFound(f"no {what} named {key!r}")
    if len(rows) > 1:
        raise ValidationError({what: f"{len(rows)} devices are named {key!r}; give the device id"})
    return rows[0]


def find_node_in(s, key: int | str) -> GpuNode:
    """A node by its id, or by its server's name."""
    if isinstance(key, int):
        return get_or_404(s, GpuNode, key, "node")
    dev = find_device_in(s, key, "node")
    node = s.execute(select(GpuNode).where(GpuNode.device_id == dev.id)).scalar_one_or_none()
    if node is None:
        raise NotFound(f"{dev.name} is not a node of any cluster: `cluster add-node` makes it one")
    return node


def device_site_id(s, device: Device) -> int | None:
    if device.rack_id is None:
        return None
    return s.execute(select(Room.site_id).join(Rack, Rack.room_id == Room.id)
                     .where(Rack.id == device.rack_id)).scalar_one_or_none()


def gpus_per_node(s, device: Device) -> int:
    """GPUs a server takes: its type's GPU bays, or the GPUs installed when the type names none."""
    if device.device_type.gpu_slots:
        return device.device_type.gpu_slots
    return s.execute(select(func.count()).select_from(GpuAsset).where(GpuAsset.device_id == device.id)).scalar_one()


# --- clusters ----------------------------------------------------------------------------------------

def validate_cluster_values(s, v: dict, current: GpuCluster | None = None) -> dict[str, str]:
    e: dict[str, str] = {}
    if not v.get("name"):
        e["name"] = "name the cluster"
    elif len(v["name"]) > 64:
        e["name"] = "a cluster name has at most 64 characters"
    elif s.execute(select(GpuCluster.id).where(GpuCluster.name == v["name"],
                                               GpuCluster.id != (current.id if current else -1))).first():
        e["name"] = f"a cluster named {v['name']} exists already"
    if v.get("site_id") is None or s.get(Site, v["site_id"]) is None:
        e["site_id"] = "name the site the cluster is at"
    if v.get("fabric") not in Fabric.values():
        e["fabric"] = f"fabric is one of {', '.join(Fabric.values())}"
    rails = v.get("rails")
    if rails is not None:
        if not isinstance(rails, int) or rails < 1:
            e["rails"] = "rails is a whole number from 1 (one rail per GPU of a node), or empty"
        elif v.get("fabric") == Fabric.NONE:
            e["rails"] = "a cluster without a fabric has no rails"
    return e


def validate_domain_values(s, v: dict) -> dict[str, str]:
    e: dict[str, str] = {}
    v["name"] = (v.get("name") or "").strip()
    c = s.get(GpuCluster, v["cluster_id"]) if v.get("cluster_id") is not None else None
    if c is None:
        e["cluster_id"] = "name the cluster of the domain"
    if not v["name"]:
        e["name"] = "name the domain"
    elif c is not None and s.execute(select(ScaleUpDomain.id).where(ScaleUpDomain.cluster_id == c.id,
                                                                    ScaleUpDomain.name == v["name"])).first():
        e["name"] = f"{c.name} has a domain {v['name']} already"
    if v.get("kind") not in ScaleUpKind.values():
        e["kind"] = f"a domain is one of {', '.join(ScaleUpKind.values())}"
    if not isinstance(v.get("size"), int) or v["size"] < 1:
        e["size"] = "size is the GPUs in the domain (from 1)"
    return e


def _normalise_cluster(v: dict) -> None:
    for k in CLUSTER_FIELDS:
        if k in v:
            v[k] = _clean(v[k])
    v["fabric"] = v.get("fabric") or Fabric.NONE


register(EntitySpec("gpu_cluster", GpuCluster, validate_cluster_values, "name", normalise=_normalise_cluster))
register(EntitySpec("scaleup_domain", ScaleUpDomain, validate_domain_values, "name"))


def create_cluster(db: Database, actor: Actor, **values) -> int:
    """A cluster at a site (id or site code) with its fabric; rails set make it rail-optimised."""
    require(actor, "manage_gpus")
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        v = {k: values.get(k) for k in CLUSTER_FIELDS}
        if isinstance(v.get("site_id"), str):
            site = s.execute(select(Site).where(Site.code == v["site_id"].strip())).scalar_one_or_none()
            if site is None:
                raise ValidationError({"site_id": f"no site with code {v['site_id']}"})
            v["site_id"] = site.id
        c = create_in(uow, "gpu_cluster", v)
        uow.commit()
        return c.id


def add_domain(db: Database, actor: Actor, cluster: int | str, *, name: str, kind: str, size: int) -> int:
    """A scale-up domain: NVLink inside a server, a rack-scale NVL72, or Ascend's HCCS."""
    require(actor, "manage_gpus")
    with UnitOfWork(db, actor) as uow:
        c = find_cluster_in(uow.session, cluster)
        d = create_in(uow, "scaleup_domain", dict(cluster_id=c.id, name=name, kind=kind, size=size))
        uow.commit()
        return d.id


# --- nodes -------------------------------------------------------------------------------------------

def add_node_in(uow: UnitOfWork, c: GpuCluster, dev: Device, *, domain: str | int | None = None,
                state: str = NodeState.ONBOARDING, reason: str | None = None,
                at: dt.datetime | None = None) -> GpuNode:
    s = uow.session
    label = dev.name
    is_gpu_server = dev.device_type.gpu_slots > 0 or dev.device_type.role == DeviceRole.GPU_SERVER or s.execute(
        select(GpuAsset.id).where(GpuAsset.device_id == dev.id).limit(1)).first()
    if not is_gpu_server:
        raise RuleViolation(f"{label} ({dev.device_type.label}) is not a GPU server: its type has no GPU bays")
    site_id = device_site_id(s, dev)
    if site_id is not None and site_id != c.site_id:
        site = s.get(Site, site_id)
        raise RuleViolation(f"{label} is at {site.code}; cluster {c.name} is at {s.get(Site, c.site_id).code}")
    if c.rails is not None:
        n = gpus_per_node(s, dev)
        if n != c.rails:
            raise RuleViolation(f"{c.name} is rail-optimised with {c.rails} rails (one per GPU); {label} has {n} "
                                f"GPU{'s' if n != 1 else ''}: a node of it has {c.rails}")
    if isinstance(state, str) and state not in NodeState.values():
        raise ValidationError({"state": f"state is one of {', '.join(NodeState.values())}"})
    dom = None
    if domain not in (None, ""):
        dom = s.execute(select(ScaleUpDomain).where(
            ScaleUpDomain.cluster_id == c.id,
            (ScaleUpDomain.id == domain) if isinstance(domain, int) else (ScaleUpDomain.name == str(domain)))
        ).scalar_one_or_none()
        if dom is None:
            raise NotFound(f"cluster {c.name} has no scale-up domain {domain!r}")
    now = at or dt.datetime.now(dt.timezone.utc)
    node = s.execute(select(GpuNode).where(GpuNode.device_id == dev.id)).scalar_one_or_none()
    if node is not None:
        old = s.get(GpuCluster, node.cluster_id)
        if old.id == c.id:
            raise RuleViolation(f"{label} is a node of {c.name} already")
        if old.fabric != Fabric.NONE:
            raise RuleViolation(f"{label} is a node of {old.name} ({Fabric.label(old.fabric)}); a node belongs to "
                                f"one fabric: take it out of {old.name} first")
        cabled = _cables_to_other_cluster(s, dev.id, c.id)
        if cabled:
            raise RuleViolation(f"{label} is cabled to {', '.join(cabled)} of another cluster; a node belongs to one "
                                "fabric: move those cables first")
        before = {"cluster_id": node.cluster_id, "domain_id": node.domain_id}
        node.cluster_id, node.domain_id = c.id, dom.id if dom else None
        node.updated_by, node.updated_at = uow.actor.login, now
        flush_or_refuse(s)
        uow.audit("node.move", "gpu_node", node.id, label, before=before,
                  after={"cluster_id": c.id, "domain_id": node.domain_id}, reason=reason or f"into {c.name}")
        return node
    cabled = _cables_to_other_cluster(s, dev.id, c.id)
    if cabled:
        raise RuleViolation(f"{label} is cabled to {', '.join(cabled)} of another cluster; a node belongs to one fabric")
    node = GpuNode(device_id=dev.id, cluster_id=c.id, domain_id=dom.id if dom else None, state=state,
                   maintenance=False, state_reason=(reason or "added to the cluster")[:255],
                   state_by=uow.actor.login, state_at=now, updated_by=uow.actor.login)
    s.add(node)
    flush_or_refuse(s)
    s.add(GpuNodeHistory(node_id=node.id, from_state=None, to_state=state, at=now, actor_login=uow.actor.login,
                         reason=node.state_reason))
    uow.audit("node.add", "gpu_node", node.id, label, after=snapshot(node), reason=reason)
    return node


def _cables_to_other_cluster(s, device_id: int, cluster_id: int) -> list[str]:
    """Switches of another cluster this device is cabled to."""
    peers = set()
    for a, b in s.execute(select(Cable.side_a_device_id, Cable.side_b_device_id).where(
            (Cable.side_a_device_id == device_id) | (Cable.side_b_device_id == device_id))):
        peers.add(b if a == device_id else a)
    if not peers:
        return []
    rows = s.execute(select(Device.name, GpuCluster.name).join(FabricSwitch, FabricSwitch.device_id == Device.id)
                     .join(GpuCluster, GpuCluster.id == FabricSwitch.cluster_id)
                     .where(Device.id.in_(peers), FabricSwitch.cluster_id != cluster_id)).all()
    return [f"{d} ({c})" for d, c in rows]


def add_node(db: Database, actor: Actor, cluster: int | str, device: int | str, *, domain: str | int | None = None,
             state: str = NodeState.ONBOARDING, reason: str | None = None) -> int:
    """Make a GPU server a node of the cluster (onboarding unless told), or move it there from its
    site's unassigned cluster."""
    require(actor, "manage_gpus")
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        node = add_node_in(uow, find_cluster_in(s, cluster), find_device_in(s, device, "server"), domain=domain,
                           state=state, reason=reason)
        uow.commit()
        return node.id


# --- switches and cables -----------------------------------------------------------------------------

def add_switch(db: Database, actor: Actor, cluster: int | str, device: int | str, *, tier: str,
               rail: int | None = None) -> int:
    require(actor, "manage_gpus")
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        c = find_cluster_in(s, cluster)
        dev = find_device_in(s, device, "switch")
        sw = add_switch_in(uow, c, dev, tier=tier, rail=rail)
        uow.commit()
        return sw.id


def add_switch_in(uow: UnitOfWork, c: GpuCluster, dev: Device, *, tier: str, rail: int | None = None) -> FabricSwitch:
    s = uow.session
    e = {}
    if tier not in SwitchTier.values():
        e["tier"] = f"a switch is a {' or a '.join(SwitchTier.values())}"
    if dev.device_type.role != DeviceRole.SWITCH:
        e["device"] = f"{dev.name} is a {DeviceRole.label(dev.device_type.role)}, not a switch"
    if c.fabric == Fabric.NONE:
        e["cluster"] = f"{c.name} has no fabric: set its fabric before adding switches"
    if tier == SwitchTier.SPINE and rail is not None:
        e["rail"] = "a spine serves every rail: give no rail"
    if tier == SwitchTier.LEAF and c.rails is not None:
        if rail is None:
            e["rail"] = f"{c.name} is rail-optimised ({c.rails} rails): name the leaf's rail, 1 to {c.rails}"
        elif not 1 <= rail <= c.rails:
            e["rail"] = f"{c.name} has rails 1 to {c.rails}; {rail} is not one of them"
    elif tier == SwitchTier.LEAF and rail is not None:
        e["rail"] = f"{c.name} is not rail-optimised: a leaf has no rail (set the cluster's rails first)"
    if e:
        raise ValidationError(e)
    other = s.execute(select(GpuCluster.name).join(FabricSwitch, FabricSwitch.cluster_id == GpuCluster.id)
                      .where(FabricSwitch.device_id == dev.id)).scalar_one_or_none()
    if other:
        raise RuleViolation(f"{dev.name} is a switch of {other} already")
    site_id = device_site_id(s, dev)
    if site_id is not None and site_id != c.site_id:
        raise RuleViolation(f"{dev.name} is at another site than cluster {c.name}")
    sw = FabricSwitch(cluster_id=c.id, device_id=dev.id, tier=tier, rail=rail, updated_by=uow.actor.login)
    s.add(sw)
    flush_or_refuse(s)
    uow.audit("cluster.switch", "fabric_switch", sw.id, dev.name, after=snapshot(sw))
    return sw


def connect(db: Database, actor: Actor, cluster: int | str, a_device: int | str, a_port: str, b_device: int | str,
            b_port: str, *, cable_type: str | None = None, label: str | None = None) -> int:
    """A cable of the fabric: node NIC → leaf port, or leaf → spine (a port carries one cable)."""
    require(actor, "manage_gpus")
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        c = find_cluster_in(s, cluster)
        cable = connect_in(uow, c, find_device_in(s, a_device), a_port, find_device_in(s, b_device), b_port,
                           cable_type=cable_type, label=label)
        uow.commit()
        return cable.id


def connect_in(uow: UnitOfWork, c: GpuCluster, a: Device, a_port: str, b: Device, b_port: str, *,
               cable_type: str | None = None, label: str | None = None) -> Cable:
    from app.services.xconnects import connect_cable_in

    s = uow.session

    def role(dev: Device) -> tuple[str, GpuCluster | None]:
        sw = s.execute(select(FabricSwitch).where(FabricSwitch.device_id == dev.id)).scalar_one_or_none()
        if sw is not None:
            return sw.tier, s.get(GpuCluster, sw.cluster_id)
        node = s.execute(select(GpuNode).where(GpuNode.device_id == dev.id)).scalar_one_or_none()
        if node is not None:
            return "node", s.get(GpuCluster, node.cluster_id)
        return "other", None

    (ra, ca), (rb, cb) = role(a), role(b)
    for dev, _r, cl in ((a, ra, ca), (b, rb, cb)):
        if cl is None:
            raise RuleViolation(f"{dev.name} is neither a node nor a switch of a cluster")
        if cl.id != c.id:
            raise RuleViolation(f"{dev.name} belongs to {cl.name}, not {c.name}: a node belongs to one fabric")
    pair = {ra, rb}
    if pair not in ({"node", SwitchTier.LEAF}, {SwitchTier.LEAF, SwitchTier.SPINE}):
        raise RuleViolation(f"a fabric cable joins a node to a leaf, or a leaf to a spine; {a.name} ({ra}) and "
                            f"{b.name} ({rb}) are not such a pair")
    # `connect_cable_in` checks manage_dcim; the fabric's cables are the GPU operators' (manage_gpus).
    return connect_cable_in(uow, dict(side_a_device_id=a.id, side_a_type="dcim.interface", side_a_name=a_port,
                                      side_b_device_id=b.id, side_b_type="dcim.interface", side_b_name=b_port,
                                      type=cable_type, label=label), reason=f"fabric of {c.name}")


# --- validation --------------------------------------------------------------------------------------

def validate_cluster(db: Database, cluster: int | str) -> list[str]:
    """What is wrong with a cluster's topology, one sentence each (empty: nothing)."""
    with db.session() as s:
        c = find_cluster_in(s, cluster)
        problems: list[str] = []
        nodes = s.execute(select(GpuNode, Device).join(Device, Device.id == GpuNode.device_id)
                          .where(GpuNode.cluster_id == c.id).order_by(Device.name)).all()
        switches = s.execute(select(FabricSwitch, Device).join(Device, Device.id == FabricSwitch.device_id)
                             .where(FabricSwitch.cluster_id == c.id)).all()
        sw_by_dev = {d.id: (sw, d) for sw, d in switches}
        leaves = [sw for sw, _d in switches if sw.tier == SwitchTier.LEAF]
        spines = [sw for sw, _d in switches if sw.tier == SwitchTier.SPINE]
        if c.fabric != Fabric.NONE:
            if not leaves:
                problems.append(f"{c.name} has a {Fabric.label(c.fabric)} fabric but no leaf switch")
            if len(leaves) > 1 and not spines:
                problems.append(f"{c.name} has {len(leaves)} leaves and no spine: its nodes cannot all reach each other")
        if c.rails is not None:
            have = {sw.rail for sw in leaves}
            missing = [r for r in range(1, c.rails + 1) if r not in have]
            if missing:
                problems.append(f"{c.name} has no leaf for rail{'s' if len(missing) > 1 else ''} "
                                f"{', '.join(map(str, missing))}")
        dev_ids = [d.id for _n, d in nodes]
        cables: dict[int, list[int]] = {i: [] for i in dev_ids}
        if dev_ids:
            for a, b in s.execute(select(Cable.side_a_device_id, Cable.side_b_device_id).where(
                    Cable.side_a_device_id.in_(dev_ids) | Cable.side_b_device_id.in_(dev_ids))):
                if a in cables:
                    cables[a].append(b)
                if b in cables:
                    cables[b].append(a)
        for _node, dev in nodes:
            if c.rails is not None:
                n = gpus_per_node(s, dev)
                if n != c.rails:
                    problems.append(f"{dev.name} has {n} GPUs; {c.name}'s {c.rails} rails need {c.rails} per node")
            peers = cables.get(dev.id, [])
            foreign = [p for p in peers if p in sw_by_dev and sw_by_dev[p][0].cluster_id != c.id]
            if foreign:
                problems.append(f"{dev.name} is cabled to a switch of another cluster")
            if c.fabric == Fabric.NONE:
                continue
            if not any(p in sw_by_dev for p in peers):
                problems.append(f"{dev.name} has no cable to a leaf of {c.name}")
            elif c.rails is not None:
                rails = {sw_by_dev[p][0].rail for p in peers if p in sw_by_dev}
                missing = [r for r in range(1, c.rails + 1) if r not in rails]
                if missing:
                    problems.append(f"{dev.name} has no cable to the leaf of rail{'s' if len(missing) > 1 else ''} "
                                    f"{', '.join(map(str, missing))}")
        return problems


