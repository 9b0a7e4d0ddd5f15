"""Read models for the console's pictures: rack elevation, room floor, dashboard, coverage, site plot.

Plain frozen dataclasses built from SQL, no Qt and nothing ORM-bound, so a background
operation can build them and hand them to a widget. Everything that scales with the size of
the estate (racks, devices, GPUs, statements) is aggregated in SQL with GROUP BY; only the
handful of rows a picture shows (one rack's devices, one room's racks, one region's children)
come back as rows.

One module per picture (elevation, room, dashboard, regions, siteplot; common holds what they
share); their public names are re-exported here for the widgets and documents that read them.
"""
from app.read.viewdata.common import FLEET_COLOUR, KW, OWNER_PALETTE, ZERO, owner_colour
from app.read.viewdata.dashboard import (
    DashboardData,
    EndingContract,
    GpuFleetCount,
    RevenueMonth,
    SiteUtilisation,
    counted_by_fleet,
    dashboard_data,
)
from app.read.viewdata.elevation import (
    ElevationDevice,
    ElevationLease,
    ElevationReservation,
    RackElevationData,
    free_units,
    rack_elevation,
)
from app.read.viewdata.regions import (
    HOLDING_CONTRACT,
    REGION_SEPARATOR,
    CoverageInfo,
    RegionCoverage,
    RegionNode,
    coverage_for,
    find_regions,
    racks_free_for,
    region_choices,
    region_path,
    region_tree,
)
from app.read.viewdata.room import RoomCage, RoomLayoutData, RoomRack, room_layout, utilisation_colour
from app.read.viewdata.siteplot import REGION_CENTRES, ServedRegion, SitePlotData, SitePoint, region_centre, site_points

__all__ = [
    "ElevationDevice", "ElevationReservation", "ElevationLease", "RoomCage", "RackElevationData", "rack_elevation", "free_units",
    "RoomRack", "RoomLayoutData", "room_layout", "utilisation_colour", "owner_colour",
    "SiteUtilisation", "GpuFleetCount", "EndingContract", "RevenueMonth", "DashboardData", "dashboard_data", "counted_by_fleet",
    "CoverageInfo", "RegionNode", "RegionCoverage", "region_tree", "coverage_for", "find_regions",
    "region_path", "SitePoint", "ServedRegion", "SitePlotData", "site_points", "region_centre",
    "REGION_CENTRES", "FLEET_COLOUR", "OWNER_PALETTE",
    "racks_free_for", "region_choices", "HOLDING_CONTRACT", "REGION_SEPARATOR", "KW", "ZERO",
]
