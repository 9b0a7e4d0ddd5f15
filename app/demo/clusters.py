"""Demo GPU clusters (issue 25): an H100 cluster in Fuzhou on InfiniBand NDR with 8 rails, 8 leaves
and 2 spines (the demo's four H100 servers and eight new ones, 96 GPUs); a 910B cluster on RoCE in
Beijing (four new Atlas 800T A2, HCCS domains); every other GPU server in its site's "unassigned"
cluster, as migration 0033 does for a database that had them; burn-in results; a node in triage
after an XID 79 (its leased GPUs stop billing from then)."""
from __future__ import annotations

import datetime as dt
import zlib
from decimal import Decimal

from sqlalchemy import func, select

from models import Device, DeviceType, GpuAsset, GpuModel, Rack, Room, Site
from models.choices import DeviceStatus, Fabric, GpuState, NodeState, ScaleUpKind, SwitchTier

from app.domain.actor import Actor
from app.domain.errors import DomainError
from app.services.clusters.health import record_event_in
from app.services.clusters.nodes import import_burn_in, leased_gpus, set_node_state_in
from app.services.clusters.topology import add_node_in, add_switch_in, connect_in
from app.services.entities import create_in
from app.services.dcim import write_device_in
from app.services.gpus import install_gpu_in, move_gpu
from app.store.db import Database
from app.store.uow import UnitOfWork

FZ, BJ = "FZ-MW1", "BJ-YZ1"
H100_CLUSTER, ASCEND_CLUSTER = "FZ-H100-NDR-01", "BJ-910B-RoCE-01"


def _site_racks(s, code: str) -> list[Rack]:
    return list(s.execute(select(Rack).join(Room, Room.id == Rack.room_id).join(Site, Site.id == Room.site_id)
                          .where(Site.code == code).order_by(Rack.power_capacity_kw.desc(), Rack.id)).scalars())


def _place(uow, racks: list[Rack], values: dict, u_height: int) -> Device:
    """The first rack with room (U and power) for the device, bottom up."""
    s = uow.session
    for rack in racks:
        used = [(int(d.position), int(d.position) + int(d.device_type.u_height) - 1) for d in s.execute(
            select(Device).where(Device.rack_id == rack.id, Device.position.is_not(None))).scalars()]
        pos = 1
        while pos + u_height - 1 <= rack.u_height - 2:
            if all(pos + u_height - 1 < a or pos > b for a, b in used):
                try:
                    with s.begin_nested():
                        return write_device_in(uow, None, dict(values, rack_id=rack.id, position=pos, face="front",
                                                               status=DeviceStatus.ACTIVE))
                except DomainError:
                    break  # power or space refused in this rack: the next one
            pos += 1
    raise RuntimeError(f"demo layout: no rack has room for {values['name']}")


def _new_servers(uow, site: str, slug: str, count: int, prefix: str, serial_from: int) -> list[Device]:
    s = uow.session
    dtype = s.execute(select(DeviceType).where(DeviceType.slug == slug)).scalar_one()
    model = s.get(GpuModel, dtype.gpu_model_id)
    racks = _site_racks(s, site)
    out = []
    for i in range(1, count + 1):
        dev = _place(uow, racks, dict(name=f"{prefix}-{i:02d}", serial=f"SN{serial_from + i}",
                                      asset_tag=f"AT-{prefix.upper()}-{i:02d}", device_type_id=dtype.id),
                     int(dtype.u_height))
        for slot in range(1, dtype.gpu_slots + 1):
            short = model.name.split()[1] if model.name.split()[0] in ("Ascend", "RTX") else model.name.split()[0]
            gpu = create_in(uow, "gpu", dict(
                serial=f"{'HW' if model.vendor == 'Huawei' else 'NV'}-{short}-C{serial_from + i:04d}{slot}",
                gpu_model_id=model.id, state=GpuState.ORDERED, purchase_date=dt.date(2026, 6, 1),
                purchase_cost=Decimal(220000 if model.vendor == "NVIDIA" else 120000),
                warranty_end=dt.date(2029, 6, 1), depreciation_months=36))
            for step, why in ((GpuState.RECEIVED, "到货签收 received"), (GpuState.BURN_IN, "集群上架压测 burn-in"),
                              (GpuState.AVAILABLE, "压测通过 burn-in passed")):
                move_gpu(uow, gpu, step, why)
            install_gpu_in(uow, gpu.id, dev.id, slot, "集群上架 installed in the cluster")
        out.append(dev)
    return out


def _switches(uow, site: str, slug: str, names: list[str]) -> list[Device]:
    s = uow.session
    dtype = s.execute(select(DeviceType).where(DeviceType.slug == slug)).scalar_one()
    racks = _site_racks(s, site)
    return [_place(uow, racks, dict(name=n, serial=f"MT{zlib.crc32(n.encode()) % 10 ** 9:09d}", device_type_id=dtype.id), 1)
            for n in names]


def _servers_of(s, site: str, slug: str) -> list[Device]:
    return list(s.execute(select(Device).join(DeviceType, DeviceType.id == Device.device_type_id)
                          .join(Rack, Rack.id == Device.rack_id).join(Room, Room.id == Rack.room_id)
                          .join(Site, Site.id == Room.site_id)
                          .where(Site.code == site, DeviceType.slug == slug).order_by(Device.name)).scalars())


def _in_service(uow, node, at: dt.datetime) -> None:
    """onboarding → burn-in → available, and allocated when its GPUs are leased."""
    set_node_state_in(uow, node, NodeState.BURN_IN, "上架完成，开始压测 racked, burn-in started",
                      at=at + dt.timedelta(minutes=30))
    set_node_state_in(uow, node, NodeState.AVAILABLE, "DCGM level 3 passed", at=at + dt.timedelta(hours=2))
    if leased_gpus(uow.session, node, at + dt.timedelta(hours=3)):
        set_node_state_in(uow, node, NodeState.ALLOCATED, "GPUs leased under their contract",
                          at=at + dt.timedelta(hours=3))


def load_demo_clusters(db: Database, actor: Actor, today: dt.date) -> None:
    now = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
    since = now - dt.timedelta(days=30)
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        sites = {c: i for c, i in s.execute(select(Site.code, Site.id))}
        h100 = _h100_cluster(uow, sites, since)
        ascend = _ascend_cluster(uow, sites, since)
        _unassigned_clusters(uow, {d.id for d in h100 + ascend}, since)
        uow.commit()

    # burn-in results the nodes produced (NDR 8 × 400 Gb/s: 368 GB/s expected)
    import_burn_in(db, actor, [
        {"node": d.name, "at": (since + dt.timedelta(hours=1)).isoformat(), "dcgm_level": 3, "passed": True,
         "duration_s": 900 + 7 * i, "nccl_busbw_gbps": f"{371 + (i % 5) * 1.5:.1f}"} for i, d in enumerate(h100)]
        + [{"node": d.name, "at": (since + dt.timedelta(hours=1)).isoformat(), "dcgm_level": 2, "passed": True,
            "duration_s": 240, "nccl_busbw_gbps": "84.5"} for d in ascend], source="demo burn-in (dcgmi diag -r 3)",
        advance=False)

    _xid_events(db, actor, h100, now)


def _h100_cluster(uow, sites: dict[str, int], since: dt.datetime) -> list:
    """Fuzhou's H100 cluster on a rail-optimised NDR fabric; returns its servers."""
    h100 = _servers_of(uow.session, FZ, "supermicro-as-8125gs-tnmr2") + _new_servers(
        uow, FZ, "supermicro-as-8125gs-tnmr2", 8, "h100-fz-ndr", 700000)
    leaves = _switches(uow, FZ, "nvidia-qm9700", [f"ib-fz-leaf-r{r}" for r in range(1, 9)])
    spines = _switches(uow, FZ, "nvidia-qm9700", ["ib-fz-spine-1", "ib-fz-spine-2"])
    c = create_in(uow, "gpu_cluster", dict(
        name=H100_CLUSTER, site_id=sites[FZ], fabric=Fabric.IB_NDR, rails=8,
        storage_network="存储网 200GbE RoCE (DDN)", management_network="带外管理 1GbE OOB",
        note="H100 训练集群：8 轨道 NDR 400G，8 台叶交换机、2 台脊交换机 · rail-optimised NDR training cluster"))
    for r, leaf in enumerate(leaves, start=1):
        add_switch_in(uow, c, leaf, tier=SwitchTier.LEAF, rail=r)
    for sp in spines:
        add_switch_in(uow, c, sp, tier=SwitchTier.SPINE)
    h100_nodes = []
    for i, dev in enumerate(h100, start=1):
        dom = create_in(uow, "scaleup_domain", dict(cluster_id=c.id, name=f"{dev.name} NVLink",
                                                    kind=ScaleUpKind.NVLINK, size=8))
        node = add_node_in(uow, c, dev, domain=dom.id, reason="集群上线 onboarded into the cluster", at=since)
        for r, leaf in enumerate(leaves, start=1):
            connect_in(uow, c, dev, f"mlx5_{r - 1}", leaf, f"p{i}", cable_type="aoc")
        h100_nodes.append(node)
    for r, leaf in enumerate(leaves, start=1):
        for k, sp in enumerate(spines, start=1):
            connect_in(uow, c, leaf, f"up{k}", sp, f"p{r}", cable_type="aoc")
    for node in h100_nodes:
        _in_service(uow, node, since)
    return h100


def _ascend_cluster(uow, sites: dict[str, int], since: dt.datetime) -> list:
    """Beijing's 910B cluster on RoCE, HCCS inside each Atlas 800T A2; returns its servers."""
    ascend = _new_servers(uow, BJ, "huawei-atlas-800t-a2", 4, "atlas-bj-roce", 800000)
    rleaves = _switches(uow, BJ, "huawei-ce6881", ["roce-bj-leaf-1", "roce-bj-leaf-2"])
    rspine = _switches(uow, BJ, "huawei-ce6881", ["roce-bj-spine-1"])
    b = create_in(uow, "gpu_cluster", dict(
        name=ASCEND_CLUSTER, site_id=sites[BJ], fabric=Fabric.ROCE, storage_network="存储网 100GbE (OceanStor)",
        management_network="带外管理 1GbE OOB", note="昇腾 910B 训练集群 · Ascend 910B on RoCE"))
    for leaf in rleaves:
        add_switch_in(uow, b, leaf, tier=SwitchTier.LEAF)
    add_switch_in(uow, b, rspine[0], tier=SwitchTier.SPINE)
    for i, dev in enumerate(ascend, start=1):
        dom = create_in(uow, "scaleup_domain", dict(cluster_id=b.id, name=f"{dev.name} HCCS",
                                                    kind=ScaleUpKind.HCCS, size=8))
        node = add_node_in(uow, b, dev, domain=dom.id, reason="集群上线 onboarded into the cluster", at=since)
        for k, leaf in enumerate(rleaves):
            connect_in(uow, b, dev, f"eth{k}", leaf, f"p{i}", cable_type="dac-passive")
        _in_service(uow, node, since)
    for k, leaf in enumerate(rleaves, start=1):
        connect_in(uow, b, leaf, "up1", rspine[0], f"p{k}", cable_type="aoc")
    return ascend


def _unassigned_clusters(uow, taken: set[int], since: dt.datetime) -> None:
    """Every other GPU server: its site's unassigned cluster (as migration 0033 makes them)."""
    s = uow.session
    rest = s.execute(select(Device, Site.code, Site.id).join(DeviceType, DeviceType.id == Device.device_type_id)
                     .join(Rack, Rack.id == Device.rack_id).join(Room, Room.id == Rack.room_id)
                     .join(Site, Site.id == Room.site_id).where(DeviceType.gpu_slots > 0)
                     .order_by(Site.code, Device.name)).all()
    unassigned = {}
    for dev, code, site_id in rest:
        if dev.id in taken:
            continue
        if code not in unassigned:
            unassigned[code] = create_in(uow, "gpu_cluster", dict(
                name=f"{code} unassigned", site_id=site_id, fabric=Fabric.NONE,
                note="未编入集群的 GPU 服务器 · GPU servers not in a cluster yet"))
        node = add_node_in(uow, unassigned[code], dev, reason="GPU server of the site", at=since)
        has_gpus = s.execute(select(func.count()).select_from(GpuAsset)
                             .where(GpuAsset.device_id == dev.id)).scalar_one()
        if has_gpus:
            _in_service(uow, node, since)


def _xid_events(db: Database, actor: Actor, h100: list, now: dt.datetime) -> None:
    """An XID 79 on a leased H100 node (a free one if none is leased): triage from six hours ago."""
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        from models import GpuNode
        nodes = [s.execute(select(GpuNode).where(GpuNode.device_id == d.id)).scalar_one() for d in h100]
        victim = next((n for n in nodes if n.state == NodeState.ALLOCATED), nodes[-1])
        gpu = s.execute(select(GpuAsset).where(GpuAsset.device_id == victim.device_id, GpuAsset.slot == 3)).scalar_one()
        record_event_in(uow, victim, vendor="nvidia", code="79", at=now - dt.timedelta(hours=6), gpu=gpu,
                        note="NVRM: Xid (PCI:0000:4c:00): 79, GPU has fallen off the bus.", source="demo xid.log")
        other = next(n for n in nodes if n.id != victim.id)
        record_event_in(uow, other, vendor="nvidia", code="13", at=now - dt.timedelta(days=2),
                        note="Graphics Exception on a customer job", source="demo xid.log")
        uow.commit()
