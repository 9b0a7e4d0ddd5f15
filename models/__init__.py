"""SQLAlchemy models. Importing this package registers every table on Base.metadata."""
from .base import Base, utcnow  # noqa: F401
from .org import Region, Subsidiary, Site, Coverage, Room  # noqa: F401
from .customers import User, AppSecret, Customer, Contact  # noqa: F401
from .gpu import GpuModel, GpuAsset, GpuHistory, DeviceGpuCount  # noqa: F401
from .dcim import Cage, Rack, RackReservation, SpaceLease, DeviceType, Device  # noqa: F401
from .contracts import Contract, ContractItem, contract_item_gpu  # noqa: F401
from .billing import (  # noqa: F401
    TaxRate, Statement, StatementLine, DocumentCounter, MeterReading, GpuLease, Downtime)
from .xconnect import Cable, CrossConnect  # noqa: F401
from .settings import AppSetting  # noqa: F401
from .receivables import Payment, PaymentAllocation  # noqa: F401
from .power import PowerPanel, PowerFeed, PduFeed, PowerConnection, CircuitReading  # noqa: F401
from .finance import DepositEntry, Fapiao, InvoicingProfile, OverdueDecision, TaxCode  # noqa: F401
from .operations import (  # noqa: F401
    SlaCalendar, HolidayDay, SlaTarget, SlaCreditRule, Ticket, TicketObject, TicketEvent, TicketAttachment,
    SlaBreach, SlaCredit, OncallShift, Notification, SlaRulesGeneration, TicketSlaState)
from .cluster import (  # noqa: F401
    GpuCluster, ScaleUpDomain, GpuNode, FabricSwitch, GpuNodeHistory, HealthEvent, NodeBurnIn, NodeSwap)
from .capacity import PriceListEntry, CapacityHold, Quote, QuoteLine, capacity_hold_node  # noqa: F401
from .audit import AuditEvent, AuditHead, GENESIS_HASH  # noqa: F401
from .maintenance import MaintenanceWindow, MaintenanceImpact, SiteAccess, Visit, Visitor, visit_rack  # noqa: F401
