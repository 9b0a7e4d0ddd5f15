"""Bulk import and export: CSV (UTF-8 with BOM) and XLSX, plus device types from YAML.

Import is all or nothing. Every row goes through the same service rules as a form (the
EntitySpec validators, and for devices the rack placement rules): every bad row is reported
with its line number, column and reason, and then nothing at all is written. Rows are checked
and written in batches (one SAVEPOINT and one audit append each); a kind with a set-wise writer
(BULK_WRITE: GPUs) has a batch's rows checked by the services' set-wise rules (one query per
rule for the batch) and inserted together; a batch whose write fails is checked again row by
row, each row in its own SAVEPOINT, so that one bad row does not hide the next. Rows are matched to
existing records by their natural key (region code, site code, rack name in its room,
GPU serial, credit code, device-type slug, device asset tag / serial / name in its rack),
so importing what `export` wrote is repeatable and changes nothing.

Exports stream from the database in file order and append one `export` audit event.
Column names follow NetBox's bulk import where the concept exists; `tenant` is a customer,
`location` a room.

The package: `schema` (kinds, columns, results, the registry of kinds declared elsewhere),
`reading` (CSV/XLSX/YAML into rows of text), `kinds` (per-kind mapping: resolve then write through
the services), `running` (preview and the all-or-nothing import), `export` (with `export_sql`: a
whole kind's CSV written by the database, and `xlsx`: the streaming XLSX writer). Everything public
is importable from `app.importexport` itself.
"""
from __future__ import annotations

from app.importexport.kinds import leases as _leases

# Kinds declared in their own modules: one register_kind line each (docs/import.md, "Adding a kind").
from app.importexport.schema import ImportKind, register_kind  # noqa: I001

register_kind(ImportKind("leases", _leases.COLUMNS, _leases.REQUIRED, "space_lease", _leases.SpaceLease,
                         _leases.resolve_leases, _leases.write_leases, _leases.export_leases_query,
                         _leases.FIELD_COLUMN))
from app.importexport.kinds import power as _power  # power panels, feeds and PDUs (issue 15)
from app.importexport.kinds import xconnect as _xc  # cables and cross-connects (issue 15)

for _name in _power.KINDS:
    register_kind(ImportKind(_name, _power.COLUMNS[_name], _power.REQUIRED[_name], _power.OBJECT_TYPE[_name],
                             _power.MODEL[_name], *_power.HANDLERS[_name], _power.EXPORTS[_name],
                             _power.FIELD_COLUMN.get(_name, {}), _power.ROW_KEY[_name],
                             verdict=_power.VERDICT.get(_name)))
register_kind(ImportKind("cables", _xc.CABLE_COLUMNS, _xc.CABLE_REQUIRED, "cable", _xc.Cable, _xc.resolve_cables,
                         _xc.write_cables, _xc.export_cables_query, _xc.CABLE_FIELD_COLUMN,
                         lambda v: (v.get("side_a_device_id"), v.get("side_a_type"), v.get("side_a_name"))))
register_kind(ImportKind("cross-connects", _xc.XC_COLUMNS, _xc.XC_REQUIRED, "cross_connect", _xc.CrossConnect,
                         _xc.resolve_cross_connects, _xc.write_cross_connects, _xc.export_cross_connects_query,
                         _xc.XC_FIELD_COLUMN, lambda v: v.get("reference")))
from app.importexport.kinds import operations as _ops  # the operations desk (issue 24)

register_kind(ImportKind("holidays", _ops.HOLIDAY_COLUMNS, _ops.HOLIDAY_REQUIRED, "holiday_day", _ops.HolidayDay,
                         _ops.resolve_holidays, _ops.write_holidays, _ops.export_holidays_query, {},
                         lambda v: v.get("day")))
register_kind(ImportKind("oncall", _ops.ONCALL_COLUMNS, _ops.ONCALL_REQUIRED, "oncall_shift", _ops.OncallShift,
                         _ops.resolve_oncall, _ops.write_oncall, _ops.export_oncall_query, _ops.ONCALL_FIELD_COLUMN,
                         lambda v: (v.get("site_id"), v.get("week"))))
register_kind(ImportKind("tickets", _ops.TICKET_COLUMNS, _ops.TICKET_REQUIRED, "ticket", _ops.Ticket,
                         _ops.resolve_tickets, _ops.write_tickets, _ops.export_tickets_query, _ops.TICKET_FIELD_COLUMN,
                         lambda v: v.get("number")))

from app.importexport.kinds import access as _acc  # maintenance windows and visits (issue 24)

register_kind(ImportKind("maintenance", _acc.M_COLUMNS, _acc.M_REQUIRED, "maintenance", _acc.MaintenanceWindow,
                         _acc.resolve_maintenance, _acc.write_maintenance, _acc.export_maintenance_query,
                         _acc.M_FIELD_COLUMN, lambda v: v.get("reference")))
register_kind(ImportKind("visits", _acc.V_COLUMNS, (), "visit", _acc.Visitor, _acc.refuse_visit_import,
                         _acc.no_write, _acc.export_visits_query))

from app.importexport.kinds import clusters as _cl  # GPU clusters, nodes, health events (issue 25)

register_kind(ImportKind("clusters", _cl.CLUSTER_COLUMNS, _cl.CLUSTER_REQUIRED, "gpu_cluster", _cl.GpuCluster,
                         _cl.resolve_clusters, _cl.write_clusters, _cl.export_clusters_query, _cl.CLUSTER_FIELD_COLUMN,
                         lambda v: v.get("name")))
register_kind(ImportKind("nodes", _cl.NODE_COLUMNS, _cl.NODE_REQUIRED, "gpu_node", _cl.GpuNode, _cl.resolve_nodes,
                         _cl.write_nodes, _cl.export_nodes_query, _cl.NODE_FIELD_COLUMN, lambda v: v.get("device_id")))
register_kind(ImportKind("health-events", _cl.EVENT_COLUMNS, _cl.EVENT_REQUIRED, "health_event", _cl.HealthEvent,
                         _cl.resolve_health_events, _cl.write_health_events, _cl.export_health_events_query, {},
                         lambda v: (v.get("node_id"), v.get("at"), v.get("code"))))
from app.importexport.kinds import prices as _prices  # the price list (issue 25)

register_kind(ImportKind("price-list", _prices.COLUMNS, _prices.REQUIRED, "price", _prices.MODEL, _prices.resolve_prices,
                         _prices.write_prices, _prices.export_prices_query, _prices.FIELD_COLUMN, _prices.row_key))
# --- new kinds here ---

from app.importexport.export import *  # noqa: E402,F401,F403
from app.importexport.export import _csv_value, _export_query, _write_xlsx  # noqa: E402,F401
from app.importexport.kinds.core import *  # noqa: E402,F401,F403
from app.importexport.kinds.core import _customer, _device_ref, _memo, _room, _Row, _site  # noqa: E402,F401
# the built-in kinds, one module each; importing them registers their handlers
from app.importexport.kinds import contracts as _contracts  # noqa: E402,F401
from app.importexport.kinds import devices as _devices  # noqa: E402,F401
from app.importexport.kinds import gpus as _gpus  # noqa: E402,F401
from app.importexport.kinds import parties as _parties  # noqa: E402,F401
from app.importexport.kinds import places as _places  # noqa: E402,F401
from app.importexport.reading import *  # noqa: E402,F401,F403
from app.importexport.reading import _is_yaml_source, _load, _raw_rows, _read_yaml_rows  # noqa: E402,F401
from app.importexport.running import *  # noqa: E402,F401,F403
from app.importexport.schema import *  # noqa: E402,F401,F403  (KINDS and EXPORT_KINDS as registered above)
from app.importexport.schema import EXPORT_KINDS, KINDS, _Cancelled, _check_kind, _RowRefused, unneutralise  # noqa: E402,F401

