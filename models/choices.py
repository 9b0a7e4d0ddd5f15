"""Every status and enum: stored value, translatable label and colour.

Labels are marked with `_` (a no-op here); the UI translates them in the
"choices" context and the reports use their own label tables.
"""
from __future__ import annotations


def _(text: str) -> str:
    return text


class ChoiceSet:
    CHOICES: tuple[tuple[str, str, str], ...] = ()

    @classmethod
    def values(cls) -> list[str]:
        return [c[0] for c in cls.CHOICES]

    @classmethod
    def label(cls, value: str) -> str:
        for v, label, _c in cls.CHOICES:
            if v == value:
                return label
        return value

    @classmethod
    def colour(cls, value: str) -> str:
        for v, _l, colour in cls.CHOICES:
            if v == value:
                return colour
        return "#9e9e9e"

    @classmethod
    def check_sql(cls, column: str) -> str:
        return f"{column} IN ({', '.join(repr(v) for v in cls.values())})"


class SiteStatus(ChoiceSet):
    PLANNED, ACTIVE, DECOMMISSIONING, RETIRED = "planned", "active", "decommissioning", "retired"
    CHOICES = (
        (PLANNED, _("Planned"), "#03a9f4"),
        (ACTIVE, _("Active"), "#4caf50"),
        (DECOMMISSIONING, _("Decommissioning"), "#ff9800"),
        (RETIRED, _("Retired"), "#9e9e9e"),
    )


class Cooling(ChoiceSet):
    AIR, LIQUID = "air", "liquid"
    CHOICES = ((AIR, _("Air"), "#90caf9"), (LIQUID, _("Liquid"), "#1565c0"))


class ServiceLevel(ChoiceSet):
    ONSITE, REMOTE, PARTNER = "onsite", "remote", "partner"
    CHOICES = (
        (ONSITE, _("On-site team"), "#4caf50"),
        (REMOTE, _("Remote"), "#2196f3"),
        (PARTNER, _("Partner"), "#ff9800"),
    )


class RackStatus(ChoiceSet):
    PLANNED, AVAILABLE, RESERVED, LEASED = "planned", "available", "reserved", "leased"
    MAINTENANCE, DECOMMISSIONED = "maintenance", "decommissioned"
    CHOICES = (
        (PLANNED, _("Planned"), "#03a9f4"),
        (AVAILABLE, _("Available"), "#4caf50"),
        (RESERVED, _("Reserved"), "#ffc107"),
        (LEASED, _("Leased"), "#3f51b5"),
        (MAINTENANCE, _("Maintenance"), "#ff9800"),
        (DECOMMISSIONED, _("Decommissioned"), "#9e9e9e"),
    )


class Face(ChoiceSet):
    FRONT, REAR = "front", "rear"
    CHOICES = ((FRONT, _("Front"), "#607d8b"), (REAR, _("Rear"), "#795548"))


class ReservationStatus(ChoiceSet):
    ACTIVE, CANCELLED, ENDED = "active", "cancelled", "ended"
    CHOICES = (
        (ACTIVE, _("Active"), "#ffc107"),
        (CANCELLED, _("Cancelled"), "#9e9e9e"),
        (ENDED, _("Ended"), "#607d8b"),
    )


class Airflow(ChoiceSet):
    FRONT_TO_REAR, REAR_TO_FRONT, LEFT_TO_RIGHT, RIGHT_TO_LEFT = (
        "front-to-rear", "rear-to-front", "left-to-right", "right-to-left")
    SIDE_TO_REAR, PASSIVE, MIXED = "side-to-rear", "passive", "mixed"
    CHOICES = tuple((v, v, "#9e9e9e") for v in (
        FRONT_TO_REAR, REAR_TO_FRONT, LEFT_TO_RIGHT, RIGHT_TO_LEFT, SIDE_TO_REAR, PASSIVE, MIXED))


class DeviceRole(ChoiceSet):
    SERVER, GPU_SERVER, SWITCH, OTHER = "server", "gpu_server", "switch", "other"
    ROUTER, FIREWALL, STORAGE = "router", "firewall", "storage"
    PDU, UPS, PATCH_PANEL, BLANK, SHELF = "pdu", "ups", "patch_panel", "blank", "shelf"
    CHOICES = (
        (SERVER, _("Hosted server"), "#607d8b"),
        (GPU_SERVER, _("GPU server"), "#7b1fa2"),
        (SWITCH, _("Switch"), "#00897b"),
        (OTHER, _("Other"), "#9e9e9e"),
        (ROUTER, _("Router"), "#3949ab"),
        (FIREWALL, _("Firewall"), "#c62828"),
        (STORAGE, _("Storage"), "#6d4c41"),
        (PDU, _("PDU"), "#f9a825"),
        (UPS, _("UPS"), "#ef6c00"),
        (PATCH_PANEL, _("Patch panel"), "#78909c"),
        (BLANK, _("Blank panel"), "#bdbdbd"),
        (SHELF, _("Shelf"), "#a1887f"),
    )
    # Passive or power-distribution equipment: carries no load of its own (NetBox leaves the
    # draw of a port that feeds outlets blank and counts the devices downstream instead).
    NO_LOAD = (PDU, UPS, PATCH_PANEL, BLANK, SHELF)


class DeviceStatus(ChoiceSet):
    INVENTORY, PLANNED, ACTIVE, OFFLINE = "inventory", "planned", "active", "offline"
    FAILED, DECOMMISSIONING = "failed", "decommissioning"
    CHOICES = (
        (INVENTORY, _("Inventory"), "#9e9e9e"),
        (PLANNED, _("Planned"), "#03a9f4"),
        (ACTIVE, _("Active"), "#4caf50"),
        (OFFLINE, _("Offline"), "#ff9800"),
        (FAILED, _("Failed"), "#f44336"),
        (DECOMMISSIONING, _("Decommissioning"), "#795548"),
    )


class FormFactor(ChoiceSet):
    SXM, PCIE, OAM = "sxm", "pcie", "oam"
    CHOICES = ((SXM, "SXM", "#7b1fa2"), (PCIE, "PCIe", "#1976d2"), (OAM, "OAM", "#00897b"))


class GpuState(ChoiceSet):
    ORDERED, RECEIVED, BURN_IN, AVAILABLE = "ordered", "received", "burn_in", "available"
    LEASED, MAINTENANCE, RMA, RETIRED = "leased", "maintenance", "rma", "retired"
    CHOICES = (
        (ORDERED, _("Ordered"), "#b0bec5"),
        (RECEIVED, _("Received"), "#90caf9"),
        (BURN_IN, _("Burn-in"), "#ffe082"),
        (AVAILABLE, _("Available"), "#4caf50"),
        (LEASED, _("Leased"), "#3f51b5"),
        (MAINTENANCE, _("Maintenance"), "#ff9800"),
        (RMA, _("RMA"), "#f44336"),
        (RETIRED, _("Retired"), "#616161"),
    )
    # The only allowed moves; retired is final.
    TRANSITIONS: dict[str, frozenset[str]] = {
        ORDERED: frozenset({RECEIVED}),
        RECEIVED: frozenset({BURN_IN}),
        BURN_IN: frozenset({AVAILABLE, RMA}),
        AVAILABLE: frozenset({LEASED, MAINTENANCE, RETIRED}),
        LEASED: frozenset({AVAILABLE, MAINTENANCE}),
        MAINTENANCE: frozenset({AVAILABLE, RMA, RETIRED}),
        RMA: frozenset({RECEIVED, RETIRED}),
        RETIRED: frozenset(),
    }


class Role(ChoiceSet):
    ADMIN, OPERATOR, ACCOUNT_MANAGER, AUDITOR = "admin", "operator", "account_manager", "auditor"
    CHOICES = (
        (ADMIN, _("Administrator"), "#d32f2f"),
        (OPERATOR, _("Operator"), "#1976d2"),
        (ACCOUNT_MANAGER, _("Account manager"), "#388e3c"),
        (AUDITOR, _("Auditor"), "#7b1fa2"),
    )


class CustomerStatus(ChoiceSet):
    ACTIVE, INACTIVE = "active", "inactive"
    CHOICES = ((ACTIVE, _("Active"), "#4caf50"), (INACTIVE, _("Inactive"), "#9e9e9e"))


class ContractStatus(ChoiceSet):
    DRAFT, PENDING, APPROVED, ACTIVE = "draft", "pending_approval", "approved", "active"
    SUSPENDED, EXPIRED, TERMINATED = "suspended", "expired", "terminated"
    CHOICES = (
        (DRAFT, _("Draft"), "#9e9e9e"),
        (PENDING, _("Pending approval"), "#ffc107"),
        (APPROVED, _("Approved"), "#03a9f4"),
        (ACTIVE, _("Active"), "#4caf50"),
        (SUSPENDED, _("Suspended"), "#ff9800"),
        (EXPIRED, _("Expired"), "#607d8b"),
        (TERMINATED, _("Terminated"), "#f44336"),
    )
    TRANSITIONS: dict[str, frozenset[str]] = {
        DRAFT: frozenset({PENDING}),
        PENDING: frozenset({DRAFT, APPROVED}),
        APPROVED: frozenset({ACTIVE, TERMINATED}),
        ACTIVE: frozenset({SUSPENDED, EXPIRED, TERMINATED}),
        SUSPENDED: frozenset({ACTIVE, EXPIRED, TERMINATED}),
        EXPIRED: frozenset(),
        TERMINATED: frozenset(),
    }


# Contracts that hold their racks and GPUs and are billed: what "ending within N days" counts.
LIVE_CONTRACT = (ContractStatus.ACTIVE, ContractStatus.SUSPENDED)


class ItemKind(ChoiceSet):
    RACK, HOSTING, GPU, BANDWIDTH = "rack", "hosting", "gpu", "bandwidth"
    MAINTENANCE, ONE_OFF, DISCOUNT = "maintenance", "one_off", "discount"
    CHOICES = (
        (RACK, _("Rack lease"), "#3f51b5"),
        (HOSTING, _("Hosting"), "#607d8b"),
        (GPU, _("GPU rental"), "#7b1fa2"),
        (BANDWIDTH, _("Bandwidth"), "#00897b"),
        (MAINTENANCE, _("Maintenance"), "#ff9800"),
        (ONE_OFF, _("One-off charge"), "#795548"),
        (DISCOUNT, _("Discount"), "#f44336"),
    )


class PriceUnit(ChoiceSet):
    MONTH, YEAR, GPU_HOUR, GPU_MINUTE = "month", "year", "gpu_hour", "gpu_minute"
    KWH, MBPS_MONTH, ONE_OFF, HYBRID = "kwh", "mbps_month", "one_off", "hybrid"
    CHOICES = (
        (MONTH, _("per month"), "#9e9e9e"),
        (YEAR, _("per year"), "#9e9e9e"),
        (GPU_HOUR, _("per GPU-hour"), "#9e9e9e"),
        (GPU_MINUTE, _("per GPU-minute"), "#9e9e9e"),
        (KWH, _("per kWh"), "#9e9e9e"),
        (MBPS_MONTH, _("per Mbps-month"), "#9e9e9e"),
        (ONE_OFF, _("one-off"), "#9e9e9e"),
        (HYBRID, _("hybrid (commit + hourly)"), "#9e9e9e"),
    )


class TaxCategory(ChoiceSet):
    IDC, TELECOM, EQUIPMENT_LEASE = "idc", "telecom", "equipment_lease"
    CHOICES = (
        (IDC, _("IDC services"), "#9e9e9e"),
        (TELECOM, _("Value-added telecom"), "#9e9e9e"),
        (EQUIPMENT_LEASE, _("Equipment leasing"), "#9e9e9e"),
    )


class StatementStatus(ChoiceSet):
    DRAFT, ISSUED, VOID = "draft", "issued", "void"
    CHOICES = (
        (DRAFT, _("Draft"), "#9e9e9e"),
        (ISSUED, _("Issued"), "#4caf50"),
        (VOID, _("Void"), "#f44336"),
    )


class StatementKind(ChoiceSet):
    STATEMENT, CREDIT_NOTE = "statement", "credit_note"
    CHOICES = ((STATEMENT, _("Statement"), "#3f51b5"), (CREDIT_NOTE, _("Credit note"), "#f44336"))


class Outcome(ChoiceSet):
    SUCCESS, FAILURE = "success", "failure"
    CHOICES = ((SUCCESS, _("Success"), "#4caf50"), (FAILURE, _("Failure"), "#f44336"))
