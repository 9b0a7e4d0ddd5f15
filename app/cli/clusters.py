"""GPU cluster commands (issue 25): `cluster` (create, list, show, add-node, add-switch, add-domain,
connect, validate), `node` (show, state, drain, undrain, maintenance, burn-in import), `health`
(import, list). The rules live in app/services/clusters/."""
from __future__ import annotations

from models.choices import Fabric, NodeState, ScaleUpKind, SwitchTier


def register(sub) -> None:
    _register_cluster(sub)
    _register_node(sub)
    _register_health(sub)


def _register_cluster(sub) -> None:
    cl = sub.add_parser("cluster", help="GPU clusters: topology (nodes, scale-up domains, leaf/spine switches, "
                                        "rails, cables), validation")
    cs = cl.add_subparsers(dest="cluster_command", required=True, metavar="ACTION")
    c = cs.add_parser("create", help="a cluster at a site with its fabric (--rails N: rail-optimised)")
    c.add_argument("name")
    c.add_argument("--site", required=True, help="site code, e.g. FZ-MW1")
    c.add_argument("--fabric", required=True, choices=Fabric.values())
    c.add_argument("--rails", type=int, help="rails of a rail-optimised fabric: one per GPU of a node")
    c.add_argument("--storage-network", help="the storage network's name")
    c.add_argument("--management-network", help="the management network's name")
    c.add_argument("--note")
    c.set_defaults(handler=cluster_create)
    ls = cs.add_parser("list", help="clusters with their fabric, nodes by state and GPUs")
    ls.add_argument("--site", help="site code")
    ls.set_defaults(handler=cluster_list)
    sh = cs.add_parser("show", help="one cluster: switches by tier and rail, nodes with state and tenant")
    sh.add_argument("cluster", help="name or id")
    sh.add_argument("--state", choices=NodeState.values(), help="only nodes in this state")
    sh.set_defaults(handler=cluster_show)
    an = cs.add_parser("add-node", help="make a GPU server a node (or move it from its site's unassigned cluster)")
    an.add_argument("cluster")
    an.add_argument("server", help="the GPU server's device name or id")
    an.add_argument("--domain", help="its scale-up domain (name)")
    an.add_argument("--state", choices=NodeState.values(), default=NodeState.ONBOARDING)
    an.add_argument("--reason")
    an.set_defaults(handler=cluster_add_node)
    asw = cs.add_parser("add-switch", help="a leaf (with its rail on a rail-optimised fabric) or a spine")
    asw.add_argument("cluster")
    asw.add_argument("switch", help="the switch's device name or id")
    asw.add_argument("--tier", required=True, choices=SwitchTier.values())
    asw.add_argument("--rail", type=int)
    asw.set_defaults(handler=cluster_add_switch)
    ad = cs.add_parser("add-domain", help="a scale-up domain (NVLink in a server, NVL72, Ascend HCCS)")
    ad.add_argument("cluster")
    ad.add_argument("name")
    ad.add_argument("--kind", required=True, choices=ScaleUpKind.values())
    ad.add_argument("--size", required=True, type=int, help="GPUs in the domain")
    ad.set_defaults(handler=cluster_add_domain)
    co = cs.add_parser("connect", help="a fabric cable: node NIC → leaf port, or leaf → spine (a port takes one)")
    co.add_argument("cluster")
    co.add_argument("a", metavar="DEVICE:PORT", help="e.g. gpu-fz-mw1-001:mlx5_0")
    co.add_argument("b", metavar="DEVICE:PORT", help="e.g. ib-fz-leaf-r1:p1")
    co.add_argument("--type", dest="cable_type", help="NetBox cable type, e.g. aoc, dac-passive, smf-os2")
    co.add_argument("--label")
    co.set_defaults(handler=cluster_connect)
    va = cs.add_parser("validate", help="what is wrong with a cluster's topology (exit 1 when something is)")
    va.add_argument("cluster")
    va.set_defaults(handler=cluster_validate)


def _register_node(sub) -> None:
    nd = sub.add_parser("node", help="GPU nodes: service state, drain/undrain, maintenance, burn-in results")
    ns = nd.add_subparsers(dest="node_command", required=True, metavar="ACTION")
    sh = ns.add_parser("show", help="a node: state, history, burn-ins, health events")
    sh.add_argument("node", help="the server's device name or the node id")
    sh.set_defaults(handler=node_show)
    st = ns.add_parser("state", help="move a node: onboarding → burn_in → available → allocated → draining → "
                                     "triage → rma → retired (triage and RMA stop a leased node's bill)")
    st.add_argument("node")
    st.add_argument("state", choices=NodeState.values())
    st.add_argument("--reason", required=True)
    st.add_argument("--at", help="when (YYYY-MM-DD HH:MM Shanghai; default now)")
    st.set_defaults(handler=node_state)
    dr = ns.add_parser("drain", help="no new work on the node, with a reason (who and when are recorded)")
    dr.add_argument("node")
    dr.add_argument("--reason", required=True)
    dr.set_defaults(handler=node_drain)
    ud = ns.add_parser("undrain", help="back in service from draining or triage (allocated while leased)")
    ud.add_argument("node")
    ud.add_argument("--reason", required=True)
    ud.add_argument("--at", help="when (YYYY-MM-DD HH:MM Shanghai; default now)")
    ud.set_defaults(handler=node_undrain)
    mt = ns.add_parser("maintenance", help="set or clear the maintenance flag")
    mt.add_argument("node")
    mt.add_argument("flag", choices=["on", "off"])
    mt.add_argument("--reason", required=True)
    mt.set_defaults(handler=node_maintenance)
    bi = ns.add_parser("burn-in", help="burn-in results")
    bis = bi.add_subparsers(dest="burnin_command", required=True, metavar="ACTION")
    bim = bis.add_parser("import", help="results a node produced (JSON or CSV: node, at, dcgm_level, passed, "
                                        "duration_s, nccl_busbw_gbps in GB/s); a node in burn-in moves to available "
                                        "when it passed, to triage when it failed")
    bim.add_argument("file")
    bim.add_argument("--no-advance", action="store_true", help="record only; leave the nodes' states")
    bim.set_defaults(handler=node_burn_in_import)


def _register_health(sub) -> None:
    he = sub.add_parser("health", help="health events: NVIDIA XID and Ascend fault codes")
    hs = he.add_subparsers(dest="health_command", required=True, metavar="ACTION")
    hi = hs.add_parser("import", help="an events file (CSV or JSON: node, gpu, at, vendor nvidia|ascend, code, "
                                      "note); a drain or service event moves its node to triage")
    hi.add_argument("file")
    hi.set_defaults(handler=health_import)
    hl = hs.add_parser("list", help="the newest events")
    hl.add_argument("--cluster")
    hl.add_argument("--node")
    hl.add_argument("--limit", type=int, default=50)
    hl.set_defaults(handler=health_list)


def _at(text):
    from app.domain.clock import DateError, parse_instant
    from app.domain.errors import ValidationError
    try:
        return parse_instant(text)
    except DateError as exc:
        raise ValidationError({"at": str(exc)}) from None


def _when(t) -> str:
    from app.domain.clock import local_text
    return local_text(t)[:16] if t else "—"


def cluster_create(ctx, args) -> int:
    from app.services.clusters import create_cluster
    create_cluster(ctx.db, ctx.actor(), name=args.name, site_id=args.site, fabric=args.fabric, rails=args.rails,
                   storage_network=args.storage_network, management_network=args.management_network, note=args.note)
    print(f"cluster {args.name} created at {args.site}: {Fabric.label(args.fabric)}"
          + (f", rail-optimised with {args.rails} rails" if args.rails else ""))
    return 0


def _states(states: dict) -> str:
    return ", ".join(f"{n} {NodeState.label(st).lower()}" for st, n in sorted(states.items())) or "no nodes"


def cluster_list(ctx, args) -> int:
    from app.services.clusters.read import list_clusters
    rows = list_clusters(ctx.db, site=args.site)
    for r in rows:
        rails = f", {r.rails} rails" if r.rails else ""
        print(f"{r.name:<24} {r.site:<8} {Fabric.label(r.fabric)}{rails}: {r.nodes} nodes, {r.gpus} GPUs "
              f"({_states(r.states)}) {r.models}")
    print(f"{len(rows)} cluster(s)")
    return 0


def _held(n) -> str:
    """" [held: FZ-H2026-0001 for 海口…, quote FZ-Q2026-0001, until 2026-12-09 18:00]" for a held node."""
    if not n.hold:
        return ""
    quote = f", quote {n.hold_quote}" if n.hold_quote else ""
    return f" [held: {n.hold} for {n.hold_customer or '—'}{quote}, until {_when(n.hold_expires)}]"


def _node_line(n) -> str:
    flag = (" [maintenance]" if n.maintenance else "") + _held(n)
    return (f"  {n.name:<20} {NodeState.label(n.state):<10}{flag} {n.gpus} × {n.model or '—'}  rack {n.rack or '—'}  "
            f"{n.tenant or ''}  {n.reason or ''} ({n.by or '—'}, {_when(n.at)})")


def cluster_show(ctx, args) -> int:
    from app.services.clusters.read import topology
    t = topology(ctx.db, args.cluster)
    c = t.cluster
    print(f"{c.name} at {c.site}: {Fabric.label(c.fabric)}" + (f", rail-optimised with {c.rails} rails" if c.rails else ""))
    if c.storage_network or c.management_network:
        print(f"storage network: {c.storage_network or '—'}; management network: {c.management_network or '—'}")
    print(f"spines: {', '.join(n for _i, n in t.spines) or '—'}")
    print("leaves: " + (", ".join(f"{n} (rail {r})" if r else n for _i, n, r in t.leaves) or "—"))
    nodes = [n for n in t.nodes if not args.state or n.state == args.state]
    print(f"{len(nodes)} node(s), {sum(n.gpus for n in nodes)} GPUs ({_states(c.states)}):")
    for n in nodes:
        print(_node_line(n))
    return 0


def cluster_add_node(ctx, args) -> int:
    from app.services.clusters import add_node
    add_node(ctx.db, ctx.actor(), args.cluster, args.server, domain=args.domain, state=args.state, reason=args.reason)
    print(f"{args.server} is a node of {args.cluster} ({NodeState.label(args.state)})")
    return 0


def cluster_add_switch(ctx, args) -> int:
    from app.services.clusters import add_switch
    add_switch(ctx.db, ctx.actor(), args.cluster, args.switch, tier=args.tier, rail=args.rail)
    print(f"{args.switch} is a {args.tier} of {args.cluster}" + (f" (rail {args.rail})" if args.rail else ""))
    return 0


def cluster_add_domain(ctx, args) -> int:
    from app.services.clusters import add_domain
    add_domain(ctx.db, ctx.actor(), args.cluster, name=args.name, kind=args.kind, size=args.size)
    print(f"domain {args.name} ({ScaleUpKind.label(args.kind)}, {args.size} GPUs) added to {args.cluster}")
    return 0


def _end(text: str) -> tuple[str, str]:
    from app.domain.errors import ValidationError
    dev, sep, port = text.rpartition(":")
    if not sep or not dev or not port:
        raise ValidationError({"end": f"{text!r}: write DEVICE:PORT, e.g. gpu-fz-mw1-001:mlx5_0"})
    return dev, port


def cluster_connect(ctx, args) -> int:
    from app.services.clusters import connect
    (a, ap), (b, bp) = _end(args.a), _end(args.b)
    cid = connect(ctx.db, ctx.actor(), args.cluster, a, ap, b, bp, cable_type=args.cable_type, label=args.label)
    print(f"cable {cid}: {a} {ap} → {b} {bp}")
    return 0


def cluster_validate(ctx, args) -> int:
    from app.services.clusters import validate_cluster
    problems = validate_cluster(ctx.db, args.cluster)
    for p in problems:
        print(p)
    print(f"{args.cluster}: " + (f"{len(problems)} problem(s)" if problems else "topology is consistent"))
    return 1 if problems else 0


def node_show(ctx, args) -> int:
    from app.services.clusters.read import burn_ins, health_events, node_history
    from app.services.clusters.topology import find_node_in
    with ctx.db.session() as s:
        n = find_node_in(s, args.node)
        print(f"node {args.node}: {NodeState.label(n.state)}{' [maintenance]' if n.maintenance else ''}"
              f" since {_when(n.state_at)} ({n.state_by}): {n.state_reason or ''}")
    hist = node_history(ctx.db, args.node)
    for h in hist[:20]:
        print(f"  {_when(h.at)}  {NodeState.label(h.from_state) if h.from_state else '—'} → "
              f"{NodeState.label(h.to_state)}  {h.by}: {h.reason}")
    for at, level, passed, dur, bw, exp, src in burn_ins(ctx.db, args.node)[:5]:
        print(f"  burn-in {_when(at)} DCGM level {level} {'passed' if passed else 'FAILED'} {dur} s"
              + (f", NCCL {bw} GB/s of {exp} expected" if bw is not None else "") + f" ({src})")
    for e in health_events(ctx.db, node=args.node, limit=10):
        print(f"  {_when(e.at)} {'XID' if e.vendor == 'nvidia' else 'Ascend'} {e.code} → {e.action}"
              f"{' on ' + e.gpu if e.gpu else ''} ({e.source})")
    return 0


def node_state(ctx, args) -> int:
    from app.services.clusters import set_node_state
    set_node_state(ctx.db, ctx.actor(), args.node, args.state, args.reason, at=_at(args.at))
    print(f"node {args.node} is {NodeState.label(args.state)}")
    return 0


def node_drain(ctx, args) -> int:
    from app.services.clusters import drain_node
    drain_node(ctx.db, ctx.actor(), args.node, args.reason)
    print(f"node {args.node} is draining: {args.reason}")
    return 0


def node_undrain(ctx, args) -> int:
    from app.services.clusters import undrain_node
    state = undrain_node(ctx.db, ctx.actor(), args.node, args.reason, at=_at(args.at))
    print(f"node {args.node} is {NodeState.label(state)}")
    return 0


def node_maintenance(ctx, args) -> int:
    from app.services.clusters import set_maintenance
    set_maintenance(ctx.db, ctx.actor(), args.node, args.flag == "on", args.reason)
    print(f"node {args.node}: maintenance {args.flag}")
    return 0


def node_burn_in_import(ctx, args) -> int:
    from pathlib import Path

    from app.services.clusters import import_burn_in
    from app.services.clusters.nodes import read_burn_in_file
    out = import_burn_in(ctx.db, ctx.actor(), read_burn_in_file(args.file), source=Path(args.file).name,
                         advance=not args.no_advance)
    print(f"{out.recorded} burn-in result(s): {len(out.passed)} passed, {len(out.failed)} failed"
          + (f" ({', '.join(out.failed)})" if out.failed else ""))
    for m in out.moved:
        print(f"  {m}")
    return 0


def health_import(ctx, args) -> int:
    from pathlib import Path

    from app.services.clusters import import_health_events
    from app.services.clusters.health import read_events_file
    out = import_health_events(ctx.db, ctx.actor(), read_events_file(args.file), source=Path(args.file).name)
    print(f"{out.events} health event(s) recorded; {len(out.triaged)} node(s) moved to triage")
    for t in out.triaged:
        print(f"  {t}")
    if out.unknown:
        print(f"  not in the catalogue (recorded, no action): {', '.join(out.unknown)}")
    return 0


def health_list(ctx, args) -> int:
    from app.services.clusters.read import health_events
    rows = health_events(ctx.db, cluster=args.cluster, node=args.node, limit=args.limit)
    for e in rows:
        print(f"{_when(e.at)}  {e.node:<20} {'XID' if e.vendor == 'nvidia' else 'Ascend'} {e.code:<10} → {e.action:<11}"
              f" {e.gpu or ''}  {e.note or ''} ({e.source})")
    print(f"{len(rows)} event(s)")
    return 0
