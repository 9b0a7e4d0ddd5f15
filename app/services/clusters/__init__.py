"""GPU clusters as products (issue 25): topology (clusters, scale-up domains, fabric switches, node
NIC → leaf cables), node service state with drain/undrain and history, burn-in results, health
events (NVIDIA XID, Ascend fault codes) and what they do to a node and its bill, node swaps.

- `topology`: create a cluster, add domains, nodes, switches, cables; validate.
- `nodes`: the node state machine (triage/RMA stop the bill through the downtime rule), drain,
  undrain, maintenance, burn-in import.
- `health`: health events recorded and imported; drain/service events move the node to triage.
- `swap`: a leased node replaced by another in the same fabric, recorded on the contract item.
- `read`: lists, the topology picture's data, the utilisation by model and site.
"""
from app.services.clusters.topology import (  # noqa: F401
    add_domain, add_node, add_switch, connect, create_cluster, find_cluster_in, find_node_in, validate_cluster)
from app.services.clusters.nodes import (  # noqa: F401
    drain_node, import_burn_in, set_maintenance, set_node_state, undrain_node)
from app.services.clusters.health import import_health_events, record_health_event  # noqa: F401
from app.services.clusters.swap import swap_node  # noqa: F401
