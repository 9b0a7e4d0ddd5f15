"""Every status and enum: stored value, its label in English and Chinese, and its colour.

The one home of these words: the screen translates the English label in the Qt context
"choices/<Class>" with the Chinese given here (scripts/update_translations.py writes it into
the .ts), and the PDFs take `label(value, lang)`. English labels are marked with `_` (a no-op).
"""
from __future__ import annotations


def _(text: str) -> str:
    return text


LANGS = ("zh", "en")


class ChoiceSet:
    # (stored value, English label, Chinese label, colour)
    CHOICES: tuple[tuple[str, str, str, str], ...] = ()

    @classmethod
    def values(cls) -> list[str]:
        return [c[0] for c in cls.CHOICES]

    @classmethod
    def label(cls, value: str, lang: str = "en") -> str:
        """The English label (the Qt msgid), or the Chinese one with lang="zh"; unknown values as they are."""
        for v, en, zh, _c in cls.CHOICES:
            if v == value:
                return zh if lang == "zh" else en
        return value

    @classmethod
    def labels(cls) -> list[tuple[str, str, str]]:
        """(value, en, zh) of every choice."""
        return [(v, en, zh) for v, en, zh, _c in cls.CHOICES]

    @classmethod
    def colour(cls, value: str) -> str:
        for v, _en, _zh, colour in cls.CHOICES:
            if v == value:
                return colour
        return "#9e9e9e"

    @classmethod
    def check_sql(cls, column: str) -> str:
        return f"{column} IN ({', '.join(repr(v) for v in cls.values())})"


def choice_sets() -> list[type[ChoiceSet]]:
    """Every ChoiceSet defined here, in order."""
    return [obj for obj in globals().values()
            if isinstance(obj, type) and issubclass(obj, ChoiceSet) and obj is not ChoiceSet]


class SiteStatus(ChoiceSet):
    PLANNED, ACTIVE, DECOMMISSIONING, RETIRED = "planned", "active", "decommissioning", "retired"
    CHOICES = (
        (PLANNED, _("Planned"), "规划中", "#03a9f4"),
        (ACTIVE, _("Active"), "运营中", "#4caf50"),
        (DECOMMISSIONING, _("Decommissioning"), "退役中", "#ff9800"),
        (RETIRED, _("Retired"), "已退役", "#9e9e9e"),
    )


class Cooling(ChoiceSet):
    AIR, LIQUID = "air", "liquid"
    CHOICES = ((AIR, _("Air"), "风冷", "#90caf9"), (LIQUID, _("Liquid"), "液冷", "#1565c0"))


class ServiceLevel(ChoiceSet):
    ONSITE, REMOTE, PARTNER = "onsite", "remote", "partner"
    CHOICES = (
        (ONSITE, _("On-site team"), "驻场团队", "#4caf50"),
        (REMOTE, _("Remote support"), "远程支持", "#2196f3"),
        (PARTNER, _("Partner service"), "合作伙伴服务", "#ff9800"),
    )


class RackStatus(ChoiceSet):
    PLANNED, AVAILABLE, RESERVED, LEASED = "planned", "available", "reserved", "leased"
    MAINTENANCE, DECOMMISSIONED = "maintenance", "decommissioned"
    CHOICES = (
        (PLANNED, _("Planned"), "规划中", "#03a9f4"),
        (AVAILABLE, _("Available"), "空闲", "#4caf50"),
        (RESERVED, _("Reserved"), "已预留", "#ffc107"),
        (LEASED, _("Leased"), "已出租", "#3f51b5"),
        (MAINTENANCE, _("Maintenance"), "维护中", "#ff9800"),
        (DECOMMISSIONED, _("Decommissioned"), "已拆除", "#9e9e9e"),
    )


class Face(ChoiceSet):
    FRONT, REAR = "front", "rear"
    CHOICES = ((FRONT, _("Front"), "前面", "#607d8b"), (REAR, _("Rear"), "后面", "#795548"))


class ReservationStatus(ChoiceSet):
    ACTIVE, CANCELLED, ENDED = "active", "cancelled", "ended"
    CHOICES = (
        (ACTIVE, _("Active"), "有效", "#ffc107"),
        (CANCELLED, _("Cancelled"), "已取消", "#9e9e9e"),
        (ENDED, _("Ended"), "已结束", "#607d8b"),
    )


class Airflow(ChoiceSet):
    FRONT_TO_REAR, REAR_TO_FRONT, LEFT_TO_RIGHT, RIGHT_TO_LEFT = (
        "front-to-rear", "rear-to-front", "left-to-right", "right-to-left")
    SIDE_TO_REAR, PASSIVE, MIXED = "side-to-rear", "passive", "mixed"
    CHOICES = tuple((v, v, zh, "#9e9e9e") for v, zh in (
        (FRONT_TO_REAR, "前进后出"), (REAR_TO_FRONT, "后进前出"), (LEFT_TO_RIGHT, "左进右出"),
        (RIGHT_TO_LEFT, "右进左出"), (SIDE_TO_REAR, "侧进后出"), (PASSIVE, "被动"), (MIXED, "混合")))


class DeviceRole(ChoiceSet):
    SERVER, GPU_SERVER, SWITCH, OTHER = "server", "gpu_server", "switch", "other"
    ROUTER, FIREWALL, STORAGE = "router", "firewall", "storage"
    PDU, UPS, PATCH_PANEL, BLANK, SHELF = "pdu", "ups", "patch_panel", "blank", "shelf"
    CHOICES = (
        (SERVER, _("Hosted server"), "托管服务器", "#607d8b"),
        (GPU_SERVER, _("GPU server"), "GPU 服务器", "#7b1fa2"),
        (SWITCH, _("Switch"), "交换机", "#00897b"),
        (OTHER, _("Other"), "其他", "#9e9e9e"),
        (ROUTER, _("Router"), "路由器", "#3949ab"),
        (FIREWALL, _("Firewall"), "防火墙", "#c62828"),
        (STORAGE, _("Storage"), "存储", "#6d4c41"),
        (PDU, _("PDU"), "PDU 配电单元", "#f9a825"),
        (UPS, _("UPS"), "UPS 不间断电源", "#ef6c00"),
        (PATCH_PANEL, _("Patch panel"), "配线架", "#78909c"),
        (BLANK, _("Blank panel"), "盲板", "#bdbdbd"),
        (SHELF, _("Shelf"), "托板", "#a1887f"),
    )
    # Passive or power-distribution equipment: carries no load of its own (NetBox leaves the
    # draw of a port that feeds outlets blank and counts the devices downstream instead).
    NO_LOAD = (PDU, UPS, PATCH_PANEL, BLANK, SHELF)


class DeviceStatus(ChoiceSet):
    INVENTORY, PLANNED, ACTIVE, OFFLINE = "inventory", "planned", "active", "offline"
    FAILED, DECOMMISSIONING = "failed", "decommissioning"
    CHOICES = (
        (INVENTORY, _("Inventory"), "库存", "#9e9e9e"),
        (PLANNED, _("Planned"), "计划上架", "#03a9f4"),
        (ACTIVE, _("Active"), "在用", "#4caf50"),
        (OFFLINE, _("Offline"), "离线", "#ff9800"),
        (FAILED, _("Failed"), "故障", "#f44336"),
        (DECOMMISSIONING, _("Decommissioning"), "退役中", "#795548"),
    )


class FormFactor(ChoiceSet):
    SXM, PCIE, OAM = "sxm", "pcie", "oam"
    CHOICES = ((SXM, "SXM", "SXM", "#7b1fa2"), (PCIE, "PCIe", "PCIe", "#1976d2"), (OAM, "OAM", "OAM", "#00897b"))


class GpuState(ChoiceSet):
    ORDERED, RECEIVED, BURN_IN, AVAILABLE = "ordered", "received", "burn_in", "available"
    LEASED, MAINTENANCE, RMA, RETIRED = "leased", "maintenance", "rma", "retired"
    CHOICES = (
        (ORDERED, _("Ordered"), "已订购", "#b0bec5"),
        (RECEIVED, _("Received"), "已到货", "#90caf9"),
        (BURN_IN, _("Burn-in"), "老化测试", "#ffe082"),
        (AVAILABLE, _("Available"), "可用", "#4caf50"),
        (LEASED, _("Leased"), "已出租", "#3f51b5"),
        (MAINTENANCE, _("Maintenance"), "维护中", "#ff9800"),
        (RMA, _("RMA"), "返修", "#f44336"),
        (RETIRED, _("Retired"), "已报废", "#616161"),
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
    # Which GPUs may go into a server slot from the shelf: received ones (burn-in runs in a server),
    # in burn-in, available. One in maintenance or RMA is not fit to install; a retired one never is.
    INSTALLABLE: frozenset[str] = frozenset({RECEIVED, BURN_IN, AVAILABLE})
    # Moving here takes the GPU out of its slot (it goes back to the vendor, or is scrapped).
    LEAVES_SLOT: frozenset[str] = frozenset({RMA, RETIRED})


class Role(ChoiceSet):
    ADMIN, OPERATOR, ACCOUNT_MANAGER, AUDITOR = "admin", "operator", "account_manager", "auditor"
    CHOICES = (
        (ADMIN, _("Administrator"), "管理员", "#d32f2f"),
        (OPERATOR, _("Operator"), "运维", "#1976d2"),
        (ACCOUNT_MANAGER, _("Account manager"), "客户经理", "#388e3c"),
        (AUDITOR, _("Auditor"), "审计员", "#7b1fa2"),
    )


class CustomerStatus(ChoiceSet):
    ACTIVE, INACTIVE = "active", "inactive"
    CHOICES = ((ACTIVE, _("Active"), "正常", "#4caf50"), (INACTIVE, _("Inactive"), "停用", "#9e9e9e"))


class ContractStatus(ChoiceSet):
    DRAFT, PENDING, APPROVED, ACTIVE = "draft", "pending_approval", "approved", "active"
    SUSPENDED, EXPIRED, TERMINATED = "suspended", "expired", "terminated"
    CHOICES = (
        (DRAFT, _("Draft"), "草稿", "#9e9e9e"),
        (PENDING, _("Pending approval"), "待审批", "#ffc107"),
        (APPROVED, _("Approved"), "已批准", "#03a9f4"),
        (ACTIVE, _("Active"), "履行中", "#4caf50"),
        (SUSPENDED, _("Suspended"), "已暂停", "#ff9800"),
        (EXPIRED, _("Expired"), "已到期", "#607d8b"),
        (TERMINATED, _("Terminated"), "已终止", "#f44336"),
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
    POWER = "power"  # power circuits: a fee per circuit and/or metered energy (app/services/power.py)
    XCONNECT = "xconnect"  # cross-connects: an installation fee each (setup_price) + a monthly fee
    CHOICES = (
        (RACK, _("Rack lease"), "机柜租赁", "#3f51b5"),
        (HOSTING, _("Hosting"), "服务器托管", "#607d8b"),
        (GPU, _("GPU rental"), "算力租赁", "#7b1fa2"),
        (BANDWIDTH, _("Bandwidth"), "带宽", "#00897b"),
        (MAINTENANCE, _("Maintenance"), "维保服务", "#ff9800"),
        (ONE_OFF, _("One-off charge"), "一次性费用", "#795548"),
        (DISCOUNT, _("Discount"), "折扣", "#f44336"),
        (POWER, _("Power circuits"), "电力回路", "#f9a825"),
        (XCONNECT, _("Cross-connect"), "交叉连接", "#00acc1"),
    )


class PriceUnit(ChoiceSet):
    MONTH, YEAR, GPU_HOUR, GPU_MINUTE = "month", "year", "gpu_hour", "gpu_minute"
    KWH, MBPS_MONTH, ONE_OFF, HYBRID = "kwh", "mbps_month", "one_off", "hybrid"
    CHOICES = (
        (MONTH, _("per month"), "按月", "#9e9e9e"),
        (YEAR, _("per year"), "按年", "#9e9e9e"),
        (GPU_HOUR, _("per GPU-hour"), "按卡时", "#9e9e9e"),
        (GPU_MINUTE, _("per GPU-minute"), "按卡分钟", "#9e9e9e"),
        (KWH, _("per kWh"), "按千瓦时", "#9e9e9e"),
        (MBPS_MONTH, _("per Mbps-month"), "按 Mbps·月", "#9e9e9e"),
        (ONE_OFF, _("one-off"), "一次性", "#9e9e9e"),
        (HYBRID, _("hybrid (commit + hourly)"), "混合计费（保底 + 按小时）", "#9e9e9e"),
    )
    # The unit a unit price is quoted in, short for a schedule's narrow column: (zh, en).
    UNIT: dict[str, tuple[str, str]] = {
        MONTH: ("月", "month"), YEAR: ("年", "year"), GPU_HOUR: ("GPU时", "GPU-h"), GPU_MINUTE: ("GPU分", "GPU-min"),
        KWH: ("kWh", "kWh"), MBPS_MONTH: ("Mbps·月", "Mbps·mo"), ONE_OFF: ("次", "once"),
        HYBRID: ("月", "month"),  # the item's note says what the commitment includes
    }

    @classmethod
    def unit(cls, value: str, lang: str = "en") -> str:
        pair = cls.UNIT.get(value)
        return (pair[0] if lang == "zh" else pair[1]) if pair else value


class LineUnit:
    """The unit a statement line is counted in, (zh, en). A line stores the word of its contract's
    language (statement_line.unit, as billed); a document prints the word of its own (`show`)."""

    MONTH, YEAR, MBPS_MONTH, ONCE = "month", "year", "mbps_month", "once"
    GPU_HOUR, GPU_MINUTE, GPU_MONTH, GPU_YEAR = "gpu_hour", "gpu_minute", "gpu_month", "gpu_year"
    KWH, XC_MONTH, EACH = "kwh", "xc_month", "each"
    WORDS: dict[str, tuple[str, str]] = {
        MONTH: ("月", "month"), YEAR: ("年", "year"), MBPS_MONTH: ("Mbps·月", "Mbps-month"), ONCE: ("次", "once"),
        GPU_HOUR: ("GPU时", "GPU-hour"), GPU_MINUTE: ("GPU分钟", "GPU-minute"), GPU_MONTH: ("GPU·月", "GPU-month"),
        GPU_YEAR: ("GPU·年", "GPU-year"), KWH: ("kWh", "kWh"), XC_MONTH: ("条·月", "xc-month"), EACH: ("条", "each"),
    }
    _BY_WORD = {word: pair for pair in WORDS.values() for word in pair}

    @classmethod
    def word(cls, key: str, lang: str) -> str:
        zh, en = cls.WORDS[key]
        return en if lang == "en" else zh

    @classmethod
    def show(cls, stored: str, lang: str) -> str:
        """A stored unit word in the document's language; a word not in the set as it is."""
        pair = cls._BY_WORD.get(stored)
        return (pair[1] if lang == "en" else pair[0]) if pair else stored


class TaxCategory(ChoiceSet):
    IDC, TELECOM, EQUIPMENT_LEASE = "idc", "telecom", "equipment_lease"
    CHOICES = (
        (IDC, _("IDC services"), "IDC 服务", "#9e9e9e"),
        (TELECOM, _("Value-added telecom"), "增值电信", "#9e9e9e"),
        (EQUIPMENT_LEASE, _("Equipment leasing"), "设备租赁", "#9e9e9e"),
    )


# The tax_rate category of metered energy: a rack's kWh beyond its allowance, a kWh-priced item, a
# circuit's metered kWh (the `power` charge). Resold electricity (转售电) is taxed as the sale of
# electricity (13 %), whatever the item's own category; power included in a rent stays part of the
# IDC service. Chosen by the charge, never by an item, so it is not a TaxCategory an item can carry.
ELECTRICITY = "electricity"
RATE_CATEGORIES = (*TaxCategory.values(), ELECTRICITY)


class StatementStatus(ChoiceSet):
    DRAFT, ISSUED, VOID = "draft", "issued", "void"
    CHOICES = (
        (DRAFT, _("Draft"), "草稿", "#9e9e9e"),
        (ISSUED, _("Issued"), "已开具", "#4caf50"),
        (VOID, _("Void"), "已作废", "#f44336"),
    )


class StatementKind(ChoiceSet):
    STATEMENT, CREDIT_NOTE = "statement", "credit_note"
    # 对账单 is what the printed document is titled and what the customer reconciles against; a
    # negative, offsetting document is 红字 in Chinese finance (红字发票), as the console's credit-note
    # actions already say, not the translated 贷项通知单.
    CHOICES = ((STATEMENT, _("Statement"), "对账单", "#3f51b5"),
               (CREDIT_NOTE, _("Credit note"), "红字账单", "#f44336"))


class Outcome(ChoiceSet):
    SUCCESS, FAILURE = "success", "failure"
    CHOICES = ((SUCCESS, _("Success"), "成功", "#4caf50"), (FAILURE, _("Failure"), "失败", "#f44336"))


# --- power (issue 15): NetBox's power feed choices (netbox/dcim/choices.py PowerFeed*Choices) ---

class PowerFeedStatus(ChoiceSet):
    OFFLINE, ACTIVE, PLANNED, FAILED = "offline", "active", "planned", "failed"
    CHOICES = (
        (OFFLINE, _("Offline"), "离线", "#9e9e9e"),
        (ACTIVE, _("Active"), "在用", "#4caf50"),
        (PLANNED, _("Planned"), "规划中", "#03a9f4"),
        (FAILED, _("Failed"), "故障", "#f44336"),
    )


class PowerFeedType(ChoiceSet):
    PRIMARY, REDUNDANT = "primary", "redundant"
    CHOICES = ((PRIMARY, _("Primary"), "主用", "#1976d2"), (REDUNDANT, _("Redundant"), "冗余", "#7b1fa2"))


class PowerSupply(ChoiceSet):
    AC, DC = "ac", "dc"
    CHOICES = ((AC, "AC", "交流", "#9e9e9e"), (DC, "DC", "直流", "#9e9e9e"))


class PowerPhase(ChoiceSet):
    SINGLE, THREE = "single-phase", "three-phase"
    CHOICES = ((SINGLE, _("Single phase"), "单相", "#9e9e9e"), (THREE, _("Three-phase"), "三相", "#9e9e9e"))


class PowerSide(ChoiceSet):
    A, B = "A", "B"
    CHOICES = ((A, _("A side"), "A 路", "#1e88e5"), (B, _("B side"), "B 路", "#8e24aa"))


class RedundancyState(ChoiceSet):
    """The N-redundancy check of a rack: with one side lost, can the other carry the rack?"""
    OK, FAIL, SINGLE, NONE = "ok", "fail", "single", "none"
    CHOICES = (
        (OK, _("Redundant"), "冗余满足", "#43a047"),
        (FAIL, _("Not redundant: one side cannot carry the load"), "冗余不足：单路无法承载", "#e53935"),
        (SINGLE, _("One side only"), "仅单路供电", "#fb8c00"),
        (NONE, _("No feeds"), "无供电回路", "#9e9e9e"),
    )
# --- cables and cross-connects (models/xconnect.py) -----------------------------------------------
# Cable values are NetBox's (netbox/dcim/choices.py CableTypeChoices, LinkStatusChoices,
# CableLengthUnitChoices), so NetBox's bulk-import files read as they are.

class CableType(ChoiceSet):
    CAT5E, CAT6, CAT6A, MMF_OM3, MMF_OM4, SMF_OS2, DAC, AOC = (
        "cat5e", "cat6", "cat6a", "mmf-om3", "mmf-om4", "smf-os2", "dac-passive", "aoc")
    CHOICES = (
        (CAT5E, "CAT5e", "超五类网线", "#8d6e63"),
        (CAT6, "CAT6", "六类网线", "#8d6e63"),
        (CAT6A, "CAT6a", "超六类网线", "#8d6e63"),
        (MMF_OM3, _("Multimode fibre (OM3)"), "多模光纤 (OM3)", "#00bcd4"),
        (MMF_OM4, _("Multimode fibre (OM4)"), "多模光纤 (OM4)", "#e040fb"),
        (SMF_OS2, _("Single-mode fibre (OS2)"), "单模光纤 (OS2)", "#fdd835"),
        (DAC, _("Direct attach copper (passive)"), "无源直连铜缆", "#616161"),
        (AOC, _("Active optical cable"), "有源光缆", "#26a69a"),
    )


class CableStatus(ChoiceSet):
    CONNECTED, PLANNED, DECOMMISSIONING = "connected", "planned", "decommissioning"
    CHOICES = (
        (CONNECTED, _("Connected"), "已连接", "#4caf50"),
        (PLANNED, _("Planned"), "规划中", "#03a9f4"),
        (DECOMMISSIONING, _("Decommissioning"), "拆除中", "#ff9800"),
    )


class LengthUnit(ChoiceSet):
    M, CM, FT, IN = "m", "cm", "ft", "in"
    CHOICES = ((M, _("Metres"), "米", "#9e9e9e"), (CM, _("Centimetres"), "厘米", "#9e9e9e"),
               (FT, _("Feet"), "英尺", "#9e9e9e"), (IN, _("Inches"), "英寸", "#9e9e9e"))


class CableEnd(ChoiceSet):
    """What a cable end attaches to (NetBox's side_a_type / side_b_type content types)."""
    INTERFACE, FRONT_PORT, REAR_PORT = "dcim.interface", "dcim.frontport", "dcim.rearport"
    CHOICES = (
        (INTERFACE, _("Interface"), "网络接口", "#9e9e9e"),
        (FRONT_PORT, _("Front port"), "前端口", "#9e9e9e"),
        (REAR_PORT, _("Rear port"), "后端口", "#9e9e9e"),
    )


class XconnectMedium(ChoiceSet):
    SMF, MMF, COPPER = "smf", "mmf", "copper"
    CHOICES = (
        (SMF, _("Single-mode fibre"), "单模光纤", "#fdd835"),
        (MMF, _("Multi-mode fibre"), "多模光纤", "#00bcd4"),
        (COPPER, _("Copper"), "铜缆", "#8d6e63"),
    )


class XconnectPeer(ChoiceSet):
    """Who is at the far (Z) end of a cross-connect."""
    CARRIER, CLOUD, CUSTOMER = "carrier", "cloud", "customer"
    CHOICES = (
        (CARRIER, _("Carrier"), "运营商", "#3f51b5"),
        (CLOUD, _("Cloud on-ramp"), "云接入", "#00897b"),
        (CUSTOMER, _("Another customer"), "其他客户", "#7b1fa2"),
    )


class XconnectState(ChoiceSet):
    ORDERED, INSTALLED, ACTIVE, DISCONNECTED = "ordered", "installed", "active", "disconnected"
    CHOICES = (
        (ORDERED, _("Ordered"), "已下单", "#b0bec5"),
        (INSTALLED, _("Installed"), "已安装", "#90caf9"),
        (ACTIVE, _("Active"), "已开通", "#4caf50"),
        (DISCONNECTED, _("Disconnected"), "已拆除", "#616161"),
    )
    # The only allowed moves; an order may be cancelled (disconnected) before installation;
    # disconnected is final (a new cross-connect is ordered instead).
    TRANSITIONS: dict[str, frozenset[str]] = {
        ORDERED: frozenset({INSTALLED, DISCONNECTED}),
        INSTALLED: frozenset({ACTIVE, DISCONNECTED}),
        ACTIVE: frozenset({DISCONNECTED}),
        DISCONNECTED: frozenset(),
    }
    # The date column each state sets when it is entered.
    DATE_FIELD: dict[str, str] = {ORDERED: "ordered_date", INSTALLED: "installed_date", ACTIVE: "active_date",
                                  DISCONNECTED: "disconnected_date"}
# --- finance: fapiao records, deposits (app/services/fapiao.py, app/services/deposits.py) ---
class FapiaoType(ChoiceSet):
    DIGITAL_SPECIAL, DIGITAL_NORMAL, PAPER = "digital_special", "digital_normal", "paper"
    CHOICES = (
        (DIGITAL_SPECIAL, _("Digital special VAT fapiao"), "数电专票", "#3f51b5"),
        (DIGITAL_NORMAL, _("Digital ordinary fapiao"), "数电普票", "#03a9f4"),
        (PAPER, _("Paper fapiao"), "纸质发票", "#795548"),
    )


class FapiaoStatus(ChoiceSet):
    """How much of a statement (net of its credit notes) its fapiao cover."""
    NONE, PARTIAL, FULL = "none", "partial", "full"
    CHOICES = (
        (NONE, _("Not invoiced"), "未开票", "#9e9e9e"),
        (PARTIAL, _("Partly invoiced"), "部分开票", "#ff9800"),
        (FULL, _("Invoiced"), "已开票", "#4caf50"),
    )


class PaymentKind(ChoiceSet):
    RECEIPT, REVERSAL = "receipt", "reversal"
    CHOICES = (
        (RECEIPT, _("Receipt"), "收款", "#2e7d32"),
        (REVERSAL, _("Reversal"), "冲销", "#c62828"),
    )


class PaymentMethod(ChoiceSet):
    TRANSFER, CASH, CHEQUE, DRAFT, OTHER = "transfer", "cash", "cheque", "draft", "other"
    CHOICES = (
        (TRANSFER, _("Bank transfer"), "银行转账", "#1565c0"),
        (CASH, _("Cash"), "现金", "#6d4c41"),
        (CHEQUE, _("Cheque"), "支票", "#5e35b1"),
        (DRAFT, _("Bank draft"), "银行汇票", "#00838f"),
        (OTHER, _("Other"), "其他", "#757575"),
    )


class DepositKind(ChoiceSet):
    DEPOSIT, PREPAYMENT = "deposit", "prepayment"
    CHOICES = (
        (DEPOSIT, _("Deposit"), "押金", "#607d8b"),
        (PREPAYMENT, _("Prepayment"), "预付款", "#00897b"),
    )


# --- the operations desk: tickets, SLA clocks, on call (issue 24, models/operations.py) -------------

class TicketKind(ChoiceSet):
    INCIDENT, REMOTE_HANDS, SERVICE_REQUEST, SHIPMENT, SITE_VISIT = (
        "incident", "remote_hands", "service_request", "shipment", "site_visit")
    CHOICES = (
        (INCIDENT, _("Incident"), "故障", "#d32f2f"),
        (REMOTE_HANDS, _("Remote hands"), "远程协助", "#1976d2"),
        (SERVICE_REQUEST, _("Service request"), "服务请求", "#388e3c"),
        (SHIPMENT, _("Inbound shipment"), "到货签收", "#6d4c41"),
        (SITE_VISIT, _("Site visit"), "进场访问", "#7b1fa2"),
    )


class TicketState(ChoiceSet):
    NEW, ACKNOWLEDGED, ON_SITE, IN_PROGRESS = "new", "acknowledged", "on_site", "in_progress"
    WAITING_CUSTOMER, WAITING_VENDOR, RESOLVED, CLOSED = "waiting_customer", "waiting_vendor", "resolved", "closed"
    CHOICES = (
        (NEW, _("New"), "新建", "#d32f2f"),
        (ACKNOWLEDGED, _("Acknowledged"), "已响应", "#f57c00"),
        (ON_SITE, _("On site"), "已到场", "#fbc02d"),
        (IN_PROGRESS, _("In progress"), "处理中", "#1976d2"),
        (WAITING_CUSTOMER, _("Waiting for customer"), "等待客户", "#9e9e9e"),
        (WAITING_VENDOR, _("Waiting for vendor"), "等待厂商", "#9e9e9e"),
        (RESOLVED, _("Resolved"), "已解决", "#388e3c"),
        (CLOSED, _("Closed"), "已关闭", "#616161"),
    )
    # the states that stop the SLA clock (Zammad's ignore_escalation)
    PAUSED = frozenset({WAITING_CUSTOMER, WAITING_VENDOR})
    OPEN = frozenset({NEW, ACKNOWLEDGED, ON_SITE, IN_PROGRESS, WAITING_CUSTOMER, WAITING_VENDOR})
    TRANSITIONS = {
        NEW: (ACKNOWLEDGED, ON_SITE, IN_PROGRESS, RESOLVED),
        ACKNOWLEDGED: (ON_SITE, IN_PROGRESS, WAITING_CUSTOMER, WAITING_VENDOR, RESOLVED),
        ON_SITE: (IN_PROGRESS, WAITING_CUSTOMER, WAITING_VENDOR, RESOLVED),
        IN_PROGRESS: (ON_SITE, WAITING_CUSTOMER, WAITING_VENDOR, RESOLVED),
        WAITING_CUSTOMER: (IN_PROGRESS, ON_SITE, WAITING_VENDOR, RESOLVED),
        WAITING_VENDOR: (IN_PROGRESS, ON_SITE, WAITING_CUSTOMER, RESOLVED),
        RESOLVED: (CLOSED,),   # back to work only by a reopen (with a reason, within the setting's days)
        CLOSED: (),
    }


class TicketPriority(ChoiceSet):
    P1, P2, P3, P4 = "P1", "P2", "P3", "P4"
    CHOICES = (
        (P1, _("P1 service down"), "P1 业务中断", "#b71c1c"),
        (P2, _("P2 degraded"), "P2 性能下降", "#e65100"),
        (P3, _("P3 component, redundancy left"), "P3 部件故障（冗余仍在）", "#f9a825"),
        (P4, _("P4 request"), "P4 请求", "#546e7a"),
    )


class ContactChannel(ChoiceSet):
    PHONE, EMAIL, IN_PERSON = "phone", "email", "in_person"
    CHOICES = (
        (PHONE, _("Phone"), "电话", "#1976d2"),
        (EMAIL, _("E-mail"), "电子邮件", "#388e3c"),
        (IN_PERSON, _("In person"), "现场", "#6d4c41"),
    )


class RemoteTask(ChoiceSet):
    INSTALL, REMOVE, REBOOT, CABLE, INSPECT, UNPACK, ESCORT, OTHER = (
        "install", "remove", "reboot", "cable", "inspect", "unpack", "escort", "other")
    CHOICES = (
        (INSTALL, _("Install equipment"), "设备上架", "#1976d2"),
        (REMOVE, _("Remove equipment"), "设备下架", "#1976d2"),
        (REBOOT, _("Reboot or power-cycle"), "重启/断电重启", "#f57c00"),
        (CABLE, _("Patch, move or remove a cable"), "跳线/移线/拆线", "#388e3c"),
        (INSPECT, _("Inspect and photograph"), "巡检拍照", "#616161"),
        (UNPACK, _("Receive and unpack a shipment"), "收货拆箱", "#6d4c41"),
        (ESCORT, _("Escort"), "陪同", "#7b1fa2"),
        (OTHER, _("Other"), "其他", "#9e9e9e"),
    )


class HandsUrgency(ChoiceSet):
    STANDARD, EXPEDITED, SCHEDULED = "standard", "expedited", "scheduled"
    CHOICES = (
        (STANDARD, _("Standard"), "标准", "#546e7a"),
        (EXPEDITED, _("Expedited"), "加急", "#d32f2f"),
        (SCHEDULED, _("Scheduled"), "预约", "#1976d2"),
    )


class TicketObjectType(ChoiceSet):
    RACK, SPACE_LEASE, DEVICE, GPU, XCONNECT, FEED, CIRCUIT = (
        "rack", "space_lease", "device", "gpu", "cross_connect", "power_feed", "circuit")
    CHOICES = (
        (RACK, _("Rack"), "机柜", "#3f51b5"),
        (SPACE_LEASE, _("U range or cage lease"), "U位/笼位租用", "#3f51b5"),
        (DEVICE, _("Device"), "设备", "#1976d2"),
        (GPU, _("GPU"), "GPU", "#2e7d32"),
        (XCONNECT, _("Cross-connect"), "交叉连接", "#00838f"),
        (FEED, _("Power feed"), "电源馈线", "#f57c00"),
        (CIRCUIT, _("Circuit"), "电路", "#f57c00"),
    )


class SlaMetric(ChoiceSet):
    ACK, ONSITE, RESOLVE = "ack", "onsite", "resolve"
    CHOICES = (
        (ACK, _("Acknowledge"), "响应", "#f57c00"),
        (ONSITE, _("Arrive on site"), "到场", "#fbc02d"),
        (RESOLVE, _("Resolve"), "解决", "#388e3c"),
    )


class SlaState(ChoiceSet):
    OK, WARNING, BREACHED, MET = "ok", "warning", "breached", "met"
    CHOICES = (
        (OK, _("On time"), "正常", "#4caf50"),
        (WARNING, _("Due soon"), "即将超时", "#ff9800"),
        (BREACHED, _("Breached"), "已超时", "#d32f2f"),
        (MET, _("Met"), "已达成", "#2e7d32"),
    )


class CalendarMode(ChoiceSet):
    ALWAYS, BUSINESS = "7x24", "business"
    CHOICES = (
        (ALWAYS, _("7×24"), "7×24", "#1976d2"),
        (BUSINESS, _("Business hours"), "工作时间", "#616161"),
    )


class CreditState(ChoiceSet):
    PROPOSED, APPROVED, REJECTED = "proposed", "approved", "rejected"
    CHOICES = (
        (PROPOSED, _("Proposed"), "待审批", "#ff9800"),
        (APPROVED, _("Approved"), "已批准", "#4caf50"),
        (REJECTED, _("Rejected"), "已驳回", "#9e9e9e"),
    )


class NoteVisibility(ChoiceSet):
    INTERNAL, CUSTOMER = "internal", "customer"
    CHOICES = (
        (INTERNAL, _("Internal"), "内部", "#616161"),
        (CUSTOMER, _("For the customer"), "对客户", "#1976d2"),
    )


# --- the operations desk: maintenance windows and site access (models/maintenance.py) -------------
# Impact levels follow netbox-circuitmaintenance (NO-IMPACT, REDUCED-REDUNDANCY, DEGRADED, OUTAGE).

class MaintenanceTarget(ChoiceSet):
    FEED, PANEL, UPS, PDU, RACK, DEVICE, XCONNECT, COOLING = (
        "feed", "panel", "ups", "pdu", "rack", "device", "xconnect", "cooling")
    CHOICES = (
        (FEED, _("Power feed"), "供电回路", "#1e88e5"),
        (PANEL, _("Power panel"), "列头柜", "#1e88e5"),
        (UPS, _("UPS"), "UPS", "#1e88e5"),
        (PDU, _("PDU"), "PDU", "#1e88e5"),
        (RACK, _("Rack"), "机柜", "#6d4c41"),
        (DEVICE, _("Device"), "设备", "#6d4c41"),
        (XCONNECT, _("Cross-connect"), "交叉连接", "#00897b"),
        (COOLING, _("Room cooling"), "机房制冷", "#00acc1"),
    )


class MaintenanceState(ChoiceSet):
    TENTATIVE, CONFIRMED, IN_PROGRESS, COMPLETED, CANCELLED, RESCHEDULED = (
        "tentative", "confirmed", "in_progress", "completed", "cancelled", "rescheduled")
    CHOICES = (
        (TENTATIVE, _("Tentative"), "待定", "#b0bec5"),
        (CONFIRMED, _("Confirmed"), "已确认", "#1976d2"),
        (IN_PROGRESS, _("In progress"), "进行中", "#fb8c00"),
        (COMPLETED, _("Completed"), "已完成", "#43a047"),
        (CANCELLED, _("Cancelled"), "已取消", "#616161"),
        (RESCHEDULED, _("Rescheduled"), "已改期", "#8e24aa"),
    )
    TRANSITIONS: dict[str, frozenset[str]] = {
        TENTATIVE: frozenset({CONFIRMED, CANCELLED, RESCHEDULED}),
        CONFIRMED: frozenset({IN_PROGRESS, CANCELLED, RESCHEDULED}),
        IN_PROGRESS: frozenset({COMPLETED}),
        COMPLETED: frozenset(), CANCELLED: frozenset(), RESCHEDULED: frozenset(),
    }
    OPEN: frozenset[str] = frozenset({TENTATIVE, CONFIRMED, IN_PROGRESS})


class ImpactLevel(ChoiceSet):
    NONE, REDUCED, DEGRADED, OUTAGE = "no_impact", "reduced_redundancy", "degraded", "outage"
    CHOICES = (
        (NONE, _("No impact"), "无影响", "#9e9e9e"),
        (REDUCED, _("Reduced redundancy"), "冗余降低", "#fb8c00"),
        (DEGRADED, _("Degraded"), "性能降级", "#f4511e"),
        (OUTAGE, _("Outage"), "中断", "#e53935"),
    )
    RANK: dict[str, int] = {NONE: 0, REDUCED: 1, DEGRADED: 2, OUTAGE: 3}


class IdType(ChoiceSet):
    RESIDENT, PASSPORT, HKMO, TAIWAN, OTHER = "resident_id", "passport", "hk_macao_permit", "taiwan_permit", "other"
    CHOICES = (
        (RESIDENT, _("Resident ID card"), "居民身份证", "#9e9e9e"),
        (PASSPORT, _("Passport"), "护照", "#9e9e9e"),
        (HKMO, _("Mainland travel permit (Hong Kong and Macao)"), "港澳居民来往内地通行证", "#9e9e9e"),
        (TAIWAN, _("Mainland travel permit (Taiwan)"), "台湾居民来往大陆通行证", "#9e9e9e"),
        (OTHER, _("Other ID"), "其他证件", "#9e9e9e"),
    )


class VisitState(ChoiceSet):
    REQUESTED, APPROVED, REJECTED, CANCELLED, CLOSED = "requested", "approved", "rejected", "cancelled", "closed"
    CHOICES = (
        (REQUESTED, _("Requested"), "待审批", "#b0bec5"),
        (APPROVED, _("Approved"), "已批准", "#1976d2"),
        (REJECTED, _("Rejected"), "已驳回", "#e53935"),
        (CANCELLED, _("Cancelled"), "已取消", "#616161"),
        (CLOSED, _("Closed"), "已结束", "#43a047"),
    )
# --- capacity: price list, holds and quotes (models/capacity.py) ----------------------------

class PriceTerm(ChoiceSet):
    """How GPU compute is sold: by the GPU-hour, month, year, or hybrid (a monthly commitment with
    hours included, overage by the hour)."""

    HOURLY, MONTHLY, YEARLY, HYBRID = "hourly", "monthly", "yearly", "hybrid"
    CHOICES = (
        (HOURLY, _("Hourly"), "按小时", "#26a69a"),
        (MONTHLY, _("Monthly"), "包月", "#42a5f5"),
        (YEARLY, _("Yearly"), "包年", "#5c6bc0"),
        (HYBRID, _("Hybrid"), "混合计费", "#ab47bc"),
    )
    # The contract item's price unit of each term (models.choices.PriceUnit)
    PRICE_UNIT: dict[str, str] = {HOURLY: "gpu_hour", MONTHLY: "month", YEARLY: "year", HYBRID: "hybrid"}


class PriceProduct(ChoiceSet):
    """What a price-list row prices: a GPU of a model, or a colocation add-on."""

    GPU, RACK, U_RANGE, CIRCUIT, XCONNECT = "gpu", "rack", "u_range", "circuit", "xconnect"
    CHOICES = (
        (GPU, _("GPU"), "GPU 算力", "#7b1fa2"),
        (RACK, _("Whole rack"), "整机柜", "#3f51b5"),
        (U_RANGE, _("Rack unit (U)"), "机位（U）", "#607d8b"),
        (CIRCUIT, _("Power circuit"), "电力回路", "#f9a825"),
        (XCONNECT, _("Cross-connect"), "交叉连接", "#00acc1"),
    )
    # The contract item kind each product becomes
    ITEM_KIND: dict[str, str] = {GPU: "gpu", RACK: "rack", U_RANGE: "hosting", CIRCUIT: "power", XCONNECT: "xconnect"}


class HoldStatus(ChoiceSet):
    ACTIVE, RELEASED, EXPIRED, CONVERTED = "active", "released", "expired", "converted"
    CHOICES = (
        (ACTIVE, _("Held"), "预留中", "#ff9800"),
        (RELEASED, _("Released"), "已释放", "#9e9e9e"),
        (EXPIRED, _("Expired"), "已过期", "#607d8b"),
        (CONVERTED, _("Moved to contract"), "已转合同", "#4caf50"),
    )


class QuoteStatus(ChoiceSet):
    OPEN, ACCEPTED, WITHDRAWN = "open", "accepted", "withdrawn"
    CHOICES = (
        (OPEN, _("Open"), "有效", "#03a9f4"),
        (ACCEPTED, _("Accepted"), "已接受", "#4caf50"),
        (WITHDRAWN, _("Withdrawn"), "已撤回", "#9e9e9e"),
    )


# --- GPU clusters (issue 25, models/cluster.py) ----------------------------------------------------

class Fabric(ChoiceSet):
    """A cluster's scale-out fabric between its nodes (RDMA), or none."""
    IB_HDR, IB_NDR, IB_XDR, ROCE, NONE = "infiniband_hdr", "infiniband_ndr", "infiniband_xdr", "roce", "none"
    CHOICES = (
        (IB_HDR, _("InfiniBand HDR (200 Gb/s)"), "InfiniBand HDR (200 Gb/s)", "#5e35b1"),
        (IB_NDR, _("InfiniBand NDR (400 Gb/s)"), "InfiniBand NDR (400 Gb/s)", "#3949ab"),
        (IB_XDR, _("InfiniBand XDR (800 Gb/s)"), "InfiniBand XDR (800 Gb/s)", "#1e88e5"),
        (ROCE, _("RoCE (Ethernet RDMA)"), "RoCE（以太网 RDMA）", "#00897b"),
        (NONE, _("No fabric"), "无高速网络", "#9e9e9e"),
    )
    # Per-port line rate in Gb/s (one NIC per GPU on a rail-optimised fabric); RoCE as 400 GbE.
    PORT_GBPS: dict[str, int] = {IB_HDR: 200, IB_NDR: 400, IB_XDR: 800, ROCE: 400, NONE: 0}


class NodeState(ChoiceSet):
    """A GPU node's service state (apart from its GPUs' asset lifecycle, GpuState): CoreWeave's
    onboard → test → production → triage → RMA, with Slurm's drain."""
    ONBOARDING, BURN_IN, AVAILABLE, ALLOCATED = "onboarding", "burn_in", "available", "allocated"
    DRAINING, TRIAGE, RMA, RETIRED = "draining", "triage", "rma", "retired"
    CHOICES = (
        (ONBOARDING, _("Onboarding"), "上线中", "#90caf9"),
        (BURN_IN, _("Burn-in"), "老化测试", "#ffe082"),
        (AVAILABLE, _("Available"), "可用", "#4caf50"),
        (ALLOCATED, _("Allocated"), "已分配", "#3f51b5"),
        (DRAINING, _("Draining"), "排空中", "#ff9800"),
        (TRIAGE, _("Triage"), "故障诊断", "#e53935"),
        (RMA, _("RMA"), "返修", "#8e24aa"),
        (RETIRED, _("Retired"), "已退役", "#616161"),
    )
    TRANSITIONS: dict[str, frozenset[str]] = {
        ONBOARDING: frozenset({BURN_IN, RETIRED}),
        BURN_IN: frozenset({AVAILABLE, TRIAGE, RMA, ONBOARDING}),
        AVAILABLE: frozenset({ALLOCATED, DRAINING, TRIAGE, BURN_IN, RETIRED}),
        ALLOCATED: frozenset({AVAILABLE, DRAINING, TRIAGE}),
        DRAINING: frozenset({AVAILABLE, ALLOCATED, TRIAGE, RMA, BURN_IN, RETIRED}),
        TRIAGE: frozenset({AVAILABLE, ALLOCATED, BURN_IN, RMA, RETIRED}),
        RMA: frozenset({BURN_IN, RETIRED}),
        RETIRED: frozenset(),
    }
    # The states in which a leased node is not billed (through the downtime rule).
    NOT_BILLED: frozenset[str] = frozenset({TRIAGE, RMA})


class ScaleUpKind(ChoiceSet):
    NVLINK, NVL72, HCCS = "nvlink", "nvl72", "hccs"
    CHOICES = (
        (NVLINK, _("NVLink (in one server)"), "NVLink（服务器内）", "#7b1fa2"),
        (NVL72, _("NVL72 (rack-scale NVLink)"), "NVL72（机柜级 NVLink）", "#4a148c"),
        (HCCS, _("HCCS (Ascend)"), "HCCS（昇腾）", "#c62828"),
    )


class SwitchTier(ChoiceSet):
    LEAF, SPINE = "leaf", "spine"
    CHOICES = ((LEAF, _("Leaf"), "叶交换机", "#00897b"), (SPINE, _("Spine"), "脊交换机", "#004d40"))


class HealthVendor(ChoiceSet):
    NVIDIA, ASCEND = "nvidia", "ascend"
    CHOICES = ((NVIDIA, "NVIDIA", "NVIDIA（英伟达）", "#76b900"), (ASCEND, _("Huawei Ascend"), "华为昇腾", "#c62828"))
