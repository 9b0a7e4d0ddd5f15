"""GPU clusters (issue 25): topology rules, the node state machine, health events, and billing that
follows health through the downtime rule; a swap recorded on the contract item and printed.

Worked example (both backends): 8 H100 of node gpu-01 at ¥20.00 per GPU-hour, leased all October.
An XID 79 (GPU has fallen off the bus) at 10 Oct 08:00 moves the node to triage; it is undrained
at 14:30.

| what        | arithmetic                                  | GPU-hours | amount      | tax 13 %  |
|-------------|---------------------------------------------|-----------|-------------|-----------|
| leased      | 8 GPUs × 744 h                              | 5,952     | 119,040.00  | 15,475.20 |
| triage      | 8 GPUs × 6.5 h = 52 h = 187,200 s           |           |             |           |
| credit      | 5,952 − 5,900 (started hours of the rest)   | −52       | −1,040.00   | −135.20   |
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from app.domain.errors import PermissionDenied, RuleViolation, ValidationError
from app.services import billing as BS
from app.services import clusters as CL
from models import (Customer, Device, DeviceType, Downtime, GpuAsset, GpuNode, GpuNodeHistory, HealthEvent, NodeSwap,
                    Site, Ticket, TicketObject)
from models.choices import DeviceRole, Fabric, NodeState, SwitchTier, TicketKind, TicketPriority
from tests.conftest import table_counts
from tests.billing.test_billing_world import cst, gpu_item, make_world, signed
from tests.support.kept import gpu_counts_are_the_gpus

D = Decimal
RUN_AT = cst(2026, 12, 1, 9)


def _fleet(db, admin, *, rails: int | None = 8):
    """Site GZ1: two 8-GPU H100 servers gpu-01 (GPUs 1–8) and gpu-02 (9–16), two leaves, a spine;
    cluster GZ1-H100 on InfiniBand NDR (rail-optimised with 8 rails unless told), both nodes available."""
    w = make_world(db, n_gpus=16)
    with db.session() as s:
        server_t = DeviceType(manufacturer="Supermicro", model="AS-8125GS-TNHR", slug="sm-8125gs", u_height=D(8),
                              gpu_slots=8, role=DeviceRole.GPU_SERVER, gpu_model_id=w.h100_id)
        switch_t = DeviceType(manufacturer="NVIDIA", model="QM9700", slug="nvidia-qm9700", u_height=D(1),
                              role=DeviceRole.SWITCH)
        s.add_all([server_t, switch_t])
        s.flush()
        servers = [Device(name=f"gpu-{i:02d}", device_type_id=server_t.id, rack_id=w.rack_ids[i - 1]) for i in (1, 2)]
        switches = [Device(name=n, device_type_id=switch_t.id, rack_id=w.rack_ids[2]) for n in ("leaf-1", "leaf-2",
                                                                                                 "spine-1")]
        s.add_all(servers + switches)
        s.flush()
        for n, gid in enumerate(w.gpu_ids):
            g = s.get(GpuAsset, gid)
            g.device_id, g.slot = servers[n // 8].id, n % 8 + 1
        site_id = s.execute(select(Site.id).where(Site.code == "GZ1")).scalar_one()
        s.commit()
    CL.create_cluster(db, admin, name="GZ1-H100", site_id=site_id, fabric=Fabric.IB_NDR, rails=rails)
    for name in ("gpu-01", "gpu-02"):
        CL.add_node(db, admin, "GZ1-H100", name, reason="racked and cabled")
        CL.set_node_state(db, admin, name, NodeState.BURN_IN, "burn-in started", at=cst(2026, 9, 20))
        CL.set_node_state(db, admin, name, NodeState.AVAILABLE, "burn-in passed", at=cst(2026, 9, 21))
    return w


def _node(db, name):
    with db.session() as s:
        return s.execute(select(GpuNode).join(Device, Device.id == GpuNode.device_id)
                         .where(Device.name == name)).scalar_one()


def _lines(summary):
    return [(ln.charge, ln.quantity, ln.unit_price, ln.amount, ln.tax) for st in summary.statements for ln in st.lines]


def test_xid_79_moves_the_node_to_triage_and_the_statement_leaves_those_hours_out(db, admin, manager):
    w = _fleet(db, admin)
    c = signed(db, manager, admin, w, [gpu_item(w, list(range(1, 9)), "20")], dt.date(2026, 10, 1),
               dt.date(2027, 9, 30))
    assert _node(db, "gpu-01").state == NodeState.ALLOCATED  # activation allocated the node
    assert _node(db, "gpu-02").state == NodeState.AVAILABLE
    out = CL.import_health_events(db, admin, [
        {"node": "gpu-01", "gpu": "H100-0003", "at": "2026-10-10 08:00", "vendor": "nvidia", "code": "79",
         "note": "NVRM: Xid (PCI:0000:1b:00): 79, GPU has fallen off the bus."},
        {"node": "gpu-02", "at": "2026-10-10 09:00", "vendor": "nvidia", "code": "13"},  # restart the job only
    ], source="xid-2026-10-10.csv")
    assert out.events == 2 and len(out.triaged) == 1
    assert out.triaged[0].startswith("gpu-01: XID 79 — Allocated → Triage (ticket T-2026-")
    with db.session() as s:  # the incident ticket on the operations desk names the node and its customer
        ticket = s.execute(select(Ticket)).scalar_one()
        customer = s.get(Customer, w.customer_id).name
        assert (ticket.kind, ticket.priority, ticket.customer_id, ticket.contract_id) == (
            TicketKind.INCIDENT, TicketPriority.P2, w.customer_id, c.id)
        assert ticket.title.startswith(f"gpu-01 ({customer}): XID 79 on H100-0003")
        assert out.triaged[0].endswith(f"(ticket {ticket.number})")
        assert s.execute(select(TicketObject.object_type, TicketObject.object_id)).one() == (
            "device", _node(db, "gpu-01").device_id)
    node = _node(db, "gpu-01")
    assert (node.state, node.state_by) == (NodeState.TRIAGE, "admin") and "XID 79" in node.state_reason
    assert _node(db, "gpu-02").state == NodeState.AVAILABLE
    with db.session() as s:  # one downtime per leased GPU of the node, from the event's time, open
        downs = s.execute(select(Downtime).order_by(Downtime.gpu_id)).scalars().all()
        assert [(d.gpu_id, d.start, d.end) for d in downs] == [(g, cst(2026, 10, 10, 8), None) for g in w.gpu_ids[:8]]
    assert CL.undrain_node(db, admin, "gpu-01", "GPU reseated, DCGM level 2 passed",
                           at=cst(2026, 10, 10, 14, 30)) == NodeState.ALLOCATED
    with db.session() as s:
        assert {d.end for d in s.execute(select(Downtime)).scalars()} == {cst(2026, 10, 10, 14, 30)}
        hist = s.execute(select(GpuNodeHistory.from_state, GpuNodeHistory.to_state)
                         .where(GpuNodeHistory.node_id == node.id).order_by(GpuNodeHistory.id)).all()
        assert hist[-2:] == [(NodeState.ALLOCATED, NodeState.TRIAGE), (NodeState.TRIAGE, NodeState.ALLOCATED)]
    octo = BS.run_billing(db, admin, "2026-10", as_of=RUN_AT)
    assert _lines(octo) == [("usage", D(5952), D("20"), D("119040.00"), D("15475.20")),
                            ("credit", D(-52), D("20"), D("-1040.00"), D("-135.20"))]
    credit = octo.statements[0].lines[1]
    assert "故障停机抵扣 52.00 小时" in credit.description and "187,200 秒" in credit.note
    assert "H100-0003 2026-10-10 08:00–2026-10-10 14:30 node gpu-01 triage: XID 79 on H100-0003" in credit.note
    assert c.number


def test_a_swap_is_recorded_on_the_item_and_printed(db, admin, manager, tmp_path):
    """XID 79 on gpu-01 at 10 Oct 08:00; its 8 GPUs swapped to gpu-02 at 12:00.
    H100-0001…0008 served 1 Oct 00:00–10 Oct 12:00 (228 h each), down from 08:00 (4 h each = 32 h);
    H100-0009…0016 serve from 12:00 (516 h each). 8 × (228 + 516) = 5,952 GPU-hours; credit 32 × 20."""
    w = _fleet(db, admin)
    c = signed(db, manager, admin, w, [gpu_item(w, list(range(1, 9)), "20")], dt.date(2026, 10, 1),
               dt.date(2027, 9, 30))
    CL.record_health_event(db, admin, "gpu-01", vendor="nvidia", code="Xid 79", at=cst(2026, 10, 10, 8))
    item_id = c.items[0].id
    with pytest.raises(RuleViolation, match="item .* leases no GPU of gpu-02"):
        CL.swap_node(db, admin, item_id, "gpu-02", "gpu-01", reason="wrong way round")
    CL.swap_node(db, admin, item_id, "gpu-01", "gpu-02", reason="XID 79 on gpu-01", at=cst(2026, 10, 10, 12))
    with db.session() as s:
        sw = s.execute(select(NodeSwap)).scalar_one()
        assert sw.from_serials == ", ".join(f"H100-{i:04d}" for i in range(1, 9))
        assert sw.to_serials == ", ".join(f"H100-{i:04d}" for i in range(9, 17))
        assert {g.state for g in s.execute(select(GpuAsset).where(GpuAsset.id.in_(w.gpu_ids[8:]))).scalars()} == {
            "leased"}
    assert _node(db, "gpu-02").state == NodeState.ALLOCATED
    from tests.clusters.test_capacity import busy_until_follows_leases
    busy_until_follows_leases(db)  # the swap's closed and opened leases are on their GPUs' rows
    octo = BS.run_billing(db, admin, "2026-10", as_of=RUN_AT)
    assert _lines(octo) == [("usage", D(5952), D("20"), D("119040.00"), D("15475.20")),
                            ("credit", D(-32), D("20"), D("-640.00"), D("-83.20"))]
    usage = octo.statements[0].lines[0]
    assert "更换节点 gpu-01 → gpu-02" in usage.note and "H100-0001" in usage.note and "H100-0016" in usage.note
    # printed: the statement PDF says which serials served which hours, in Chinese and in English
    import re
    import subprocess

    from app.documents import statement_doc
    from reports.statement import render_statement
    for lang, words in (("zh", "更换节点"), ("en", "node swapped")):
        out = tmp_path / f"statement-{lang}.pdf"
        render_statement(statement_doc(db, octo.statements[0].id, language=lang), out)
        text = re.sub(r"\s+", "", subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True,
                                                  check=True).stdout)
        assert re.sub(r"\s+", "", words) in text and "gpu-01→gpu-02" in text and "H100-0009" in text, lang
    gpu_counts_are_the_gpus(db)   # the GPUs per server followed (device_gpu_count)


def test_topology_rules_name_what_is_wrong(db, admin, operator, auditor):
    _fleet(db, admin)
    with pytest.raises(ValidationError, match="rail"):  # a leaf of a rail-optimised fabric has its rail
        CL.add_switch(db, admin, "GZ1-H100", "leaf-1", tier=SwitchTier.LEAF)
    CL.add_switch(db, operator, "GZ1-H100", "leaf-1", tier=SwitchTier.LEAF, rail=1)
    CL.add_switch(db, operator, "GZ1-H100", "spine-1", tier=SwitchTier.SPINE)
    with pytest.raises(PermissionDenied):
        CL.add_switch(db, auditor, "GZ1-H100", "leaf-2", tier=SwitchTier.LEAF, rail=2)
    CL.connect(db, operator, "GZ1-H100", "gpu-01", "mlx5_0", "leaf-1", "p1")
    before = table_counts(db)
    with pytest.raises(RuleViolation, match="port p1 of leaf-1 already has cable"):  # a port carries one cable
        CL.connect(db, operator, "GZ1-H100", "gpu-02", "mlx5_0", "leaf-1", "p1")
    with pytest.raises(RuleViolation, match="a node to a leaf, or a leaf to a spine"):
        CL.connect(db, operator, "GZ1-H100", "gpu-01", "mlx5_1", "spine-1", "p1")
    assert table_counts(db) == before  # a refused write changes nothing
    problems = CL.validate_cluster(db, "GZ1-H100")
    assert "GZ1-H100 has no leaf for rails 2, 3, 4, 5, 6, 7, 8" in problems
    assert "gpu-01 has no cable to the leaf of rails 2, 3, 4, 5, 6, 7, 8" in problems
    assert "gpu-02 has no cable to a leaf of GZ1-H100" in problems
    # a node belongs to one fabric: another cluster cannot take gpu-01
    with db.session() as s:
        site_id = s.execute(select(Site.id).where(Site.code == "GZ1")).scalar_one()
    CL.create_cluster(db, admin, name="GZ1-ROCE", site_id=site_id, fabric=Fabric.ROCE)
    with pytest.raises(RuleViolation, match="gpu-01 is a node of GZ1-H100 .*belongs to one fabric"):
        CL.add_node(db, admin, "GZ1-ROCE", "gpu-01")
    # a rail-optimised fabric has as many rails as GPUs per node
    CL.create_cluster(db, admin, name="GZ1-4R", site_id=site_id, fabric=Fabric.IB_NDR, rails=4)
    with pytest.raises(RuleViolation, match="4 rails .* gpu-01 has 8 GPUs"):
        CL.add_node(db, admin, "GZ1-4R", "gpu-01")
    # the state machine refuses a jump, naming what is allowed
    with pytest.raises(RuleViolation, match="gpu-02 is Available; it cannot move to RMA"):
        CL.set_node_state(db, admin, "gpu-02", NodeState.RMA, "skip triage")
    CL.drain_node(db, operator, "gpu-02", "fan replacement")
    n = _node(db, "gpu-02")
    assert (n.state, n.state_reason, n.state_by) == (NodeState.DRAINING, "fan replacement", "op")
    assert CL.undrain_node(db, operator, "gpu-02", "fan replaced") == NodeState.AVAILABLE


def test_burn_in_results_move_the_node_and_check_the_bandwidth(db, admin):
    _fleet(db, admin)
    CL.drain_node(db, admin, "gpu-01", "re-test")
    CL.set_node_state(db, admin, "gpu-01", NodeState.BURN_IN, "re-test after the NIC swap")
    CL.set_node_state(db, admin, "gpu-02", NodeState.DRAINING, "re-test")
    CL.set_node_state(db, admin, "gpu-02", NodeState.BURN_IN, "re-test")
    # 8 × 400 Gb/s NDR = 400 GB/s × 0.92 = 368 GB/s expected; 300 < 90 % of it fails
    out = CL.import_burn_in(db, admin, [
        {"node": "gpu-01", "at": "2026-11-20 10:00", "dcgm_level": "3", "passed": "pass", "duration_s": "900",
         "nccl_busbw_gbps": "371.5"},
        {"node": "gpu-02", "at": "2026-11-20 10:05", "dcgm_level": 3, "passed": True, "duration_s": 910,
         "nccl_busbw_gbps": 300},
    ], source="burnin.json")
    assert (out.passed, out.failed) == (["gpu-01"], ["gpu-02"])
    assert (_node(db, "gpu-01").state, _node(db, "gpu-02").state) == (NodeState.AVAILABLE, NodeState.TRIAGE)
    with pytest.raises(ValidationError, match="row 1: dcgm_level is 1 to 4"):
        CL.import_burn_in(db, admin, [{"node": "gpu-01", "dcgm_level": 5, "passed": "yes", "duration_s": 1}],
                          source="x")


def test_an_ascend_fault_and_an_unknown_code(db, admin):
    _fleet(db, admin, rails=None)
    out = CL.import_health_events(db, admin, [
        {"node": "gpu-01", "at": "2026-11-01T00:00:00Z", "vendor": "nvidia", "code": "9999"},
        {"node": "gpu-02", "at": "2026-11-01 08:00", "vendor": "huawei", "code": "0x80E3A201"},
    ], source="events.csv")
    assert out.unknown == ["gpu-01: XID 9999"] and len(out.triaged) == 1
    assert out.triaged[0].startswith("gpu-02: Ascend 80E3A201 — Available → Triage (ticket ")
    with db.session() as s:
        assert s.execute(select(func.count()).select_from(HealthEvent)).scalar_one() == 2
        ticket = s.execute(select(Ticket)).scalar_one()  # a node without a tenant: the ticket says so
        assert ticket.customer_id is None and ticket.title.startswith("gpu-02 (no tenant): Ascend 80E3A201")
    before = table_counts(db)
    with pytest.raises(ValidationError, match="row 2: .*no node named 'nope'|row 2: no node"):
        CL.import_health_events(db, admin, [
            {"node": "gpu-01", "at": "2026-11-02 08:00", "vendor": "nvidia", "code": "48"},
            {"node": "nope", "at": "2026-11-02 08:00", "vendor": "nvidia", "code": "48"}], source="bad.csv")
    assert table_counts(db) == before


def test_cli_and_the_kinds_round_trip(demo_db, tmp_path, capsys, monkeypatch):
    """On the demo: `cluster validate` says the H100 fabric is consistent; `health import` of an XID 48
    file triages its node; clusters, nodes and health events export and import back unchanged; the
    fabric's cables go out in NetBox's columns."""
    import csv

    from app.importexport import run_export, run_import
    from app.services.users import login
    from launcher import main

    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", "demo1234")
    url = demo_db.engine.url.render_as_string(hide_password=False)

    def cli(*args) -> int:
        return main(["--db", url, "--user", "admin", *args])

    assert cli("cluster", "validate", "FZ-H100-NDR-01") == 0
    assert "topology is consistent" in capsys.readouterr().out
    events = tmp_path / "xid.csv"
    events.write_text("node,gpu,at,vendor,code,note\nh100-fz-ndr-02,,2026-11-30 10:00,nvidia,48,DBE\n", encoding="utf-8")
    assert cli("health", "import", str(events)) == 0
    assert "h100-fz-ndr-02: XID 48 — Available → Triage" in capsys.readouterr().out
    assert cli("node", "undrain", "h100-fz-ndr-02", "--reason", "GPU reset") == 0
    admin = login(demo_db, "admin", "demo1234")
    for kind in ("clusters", "nodes", "health-events"):
        out = tmp_path / f"{kind}.csv"
        run_export(demo_db, admin, kind, out)
        result = run_import(demo_db, admin, kind, out)
        assert result.created == 0 and result.unchanged > 0, (kind, result)
    cables = tmp_path / "cables.csv"
    assert cli("export", "cables", "--netbox", "-o", str(cables)) == 0
    with open(cables, encoding="utf-8-sig", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["side_b_device"].startswith("ib-fz-leaf-r")]
    assert len(rows) == 96 and {r["side_a_type"] for r in rows} == {"dcim.interface"}


def test_the_utilisation_counts_the_gpus_a_capacity_hold_holds(demo_db):
    """The demo's Haikou hold keeps 64 H100 in FZ-H100-NDR-01: the utilisation chart shows them held,
    not available (the holds of app/services/capacity/ read by the clusters' utilisation)."""
    from app.services.clusters.read import utilisation

    rows = {(model, site): buckets for model, site, buckets in utilisation(demo_db)}
    h100 = next(b for (model, site), b in rows.items() if model.startswith("H100") and site == "FZ-MW1")
    assert h100.get("held", 0) == 64


def test_the_clusters_page_counts_the_gpus_once_for_its_list_and_its_chart(demo_db):
    """clusters_and_utilisation (the page's reads) gives what list_clusters and utilisation give apart,
    and the shown cluster's reads, made before the list is known, give cluster_view of its first row
    (of the one kept, while it exists)."""
    from app.services.clusters.read import (cluster_view, clusters_and_utilisation, list_clusters, shown_cluster_reads,
                                            utilisation, view_of)

    rows, used = clusters_and_utilisation(demo_db)
    assert rows == list_clusters(demo_db) and used == utilisation(demo_db)
    assert sum(r.gpus for r in rows) > 0 and any(r.models for r in rows)
    for keep, row in ((None, rows[0]), (rows[2].id, rows[2]), (10 ** 9, rows[0])):
        topo, events = view_of(row, shown_cluster_reads(demo_db, keep))
        again, events_again = cluster_view(demo_db, row)
        assert (topo.nodes, topo.spines, topo.leaves, topo.node_links, topo.spine_links, events) == (
            again.nodes, again.spines, again.leaves, again.node_links, again.spine_links, events_again)
    assert view_of(rows[1], shown_cluster_reads(demo_db, rows[2].id)) is None   # another cluster's rows


def test_every_capacity_view_shows_the_hold_and_why_a_free_looking_node_is_not_offered(demo_db, qtbot):
    """The demo's Haikou hold FZ-H2026-0001 holds 8 nodes of FZ-H100-NDR-01: the node rows, the
    node list, the topology picture and the utilisation chart name it with its expiry, in English
    and Chinese. Of the two available nodes it does not hold, gpu-fz-mw1-004 has a GPU in
    maintenance (ECC errors): the search takes whole nodes, so only h100-fz-ndr-08's 8 GPUs are
    offered, and the views say why the other is not."""
    from PySide6.QtWidgets import QApplication

    from app.domain.clock import local_text
    from app.services.capacity.holds import list_holds
    from app.services.capacity.search import CapacityRequest, search_capacity
    from app.services.clusters.read import cluster_nodes, utilisation_holds
    from app.services.users import login
    from ui.pages.clusters import ClustersPage
    from ui.pages.clusters.topology import hold_text, unfit_text
    from ui.shell.i18n import install_translators

    hold = next(h for h in list_holds(demo_db) if h.number == "FZ-H2026-0001")
    rows = {n.name: n for n in cluster_nodes(demo_db, "FZ-H100-NDR-01")}
    assert {name for name, n in rows.items() if n.hold} == set(hold.nodes)
    assert {n.hold_expires for n in rows.values() if n.hold} == {hold.expires_at}
    assert rows["gpu-fz-mw1-004"].state == NodeState.AVAILABLE and rows["gpu-fz-mw1-004"].hold is None
    assert rows["gpu-fz-mw1-004"].unfit == (("maintenance", 1),) and not rows["gpu-fz-mw1-004"].offerable
    offerable = [n for n in rows.values() if n.offerable and n.state == NodeState.AVAILABLE]  # allocated: leased on
    assert [n.name for n in offerable] == ["h100-fz-ndr-08"]
    found = search_capacity(demo_db, CapacityRequest(count=8, models=("H100",), scope="fabric"))
    offer = next(o for o in found.offers if o.group == "FZ-H100-NDR-01")
    assert offer.free_in_group == sum(n.gpus for n in offerable) == 8
    assert [h.gpus for h in utilisation_holds(demo_db) if h.number == hold.number] == [64]

    until = local_text(hold.expires_at)[:16]
    page = ClustersPage(demo_db, login(demo_db, "admin", "demo1234"))
    qtbot.addWidget(page)
    page.load()
    page.cluster_table.selectRow(next(i for i, c in enumerate(page.clusters) if c.name == "FZ-H100-NDR-01"))
    table = {page.node_model.index(i, 0).data(): page.node_model.index(i, 2).data()
             for i in range(page.node_model.rowCount())}
    assert table["h100-fz-ndr-01"] == f"Held FZ-H2026-0001 until {until}"
    assert table["gpu-fz-mw1-004"] == "not offered: GPUs 1 × Maintenance" and table["h100-fz-ndr-08"] == ""
    assert page.view.node_colour(rows["h100-fz-ndr-01"]).name() == "#ffc107"
    assert page.chart.hold_lines() == [f"Held FZ-H2026-0001: 64 × H100 SXM 80GB · FZ-MW1, until {until}"]
    app = QApplication.instance()
    install_translators(app, "zh")
    try:
        zh = (hold_text(rows["h100-fz-ndr-01"]), unfit_text(rows["gpu-fz-mw1-004"]), page.chart.hold_lines())
    finally:
        install_translators(app, "en")
    assert zh == (f"预留单 FZ-H2026-0001，至 {until}", "不可提供：GPU 1 × 维护中",
                  [f"预留单 FZ-H2026-0001：64 × H100 SXM 80GB · FZ-MW1，至 {until}"])
