"""Sample documents with realistic Chinese data, for tests and ``scripts/sample_reports.py``."""
from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal

from .documents import (AuditReportDoc, AuditRow, AuditSummaryRow, CapacityDoc, CapacityRow,
                        ContractDoc, ContractItemRow, CreditLine, DeviceRow, ElevDevice, FleetDoc,
                        FleetRow, GpuRow, Party, RackElevation, RackSheetDoc, Reservation,
                        StatementDoc, StatementLine)

D = Decimal

SUBSIDIARY = Party(
    name="闽算智能科技（上海）有限公司",
    credit_code="91310115MA1K4ABC1X",
    address="上海市浦东新区张江路 888 号 5 幢",
    bank_name="招商银行上海张江支行",
    bank_account="1219 0876 5432 101",
    phone="021-5080 1234",
)
CUSTOMER = Party(
    name="海口美兰星河人工智能有限公司",
    credit_code="91460108MA5TXYZ12K",
    address="海南省海口市美兰区国兴大道 15 号",
    bank_name="中国工商银行海口国兴支行",
    bank_account="2201 0201 0900 1234 567",
    phone="0898-6653 2100",
)


def _fen(d: Decimal) -> Decimal:
    from app.domain.money import round_fen

    return round_fen(d)


def sample_statement(language: str = "zh") -> StatementDoc:
    # figures chosen so the total is ¥12,345.67 = 壹万贰仟叁佰肆拾伍元陆角柒分
    specs = [
        ("H100 算力租赁（按小时）", D("1000"), "GPU时", D("7.80"), D("0.06")),
        ("42U 机柜租赁 R-A01", D("1"), "柜·月", D("4198.56"), D("0.06")),
        ("超额电力 R-A01", D("100"), "kWh", D("1.20"), D("0.06")),
    ]
    lines = []
    for desc, qty, unit, price, rate in specs:
        amount = _fen(qty * price)
        lines.append(StatementLine(desc, qty, unit, price, amount, rate, _fen(amount * rate),
                                   "2026-10-01 至 2026-10-31" if "机柜" in desc else ""))
    subtotal = sum((l.amount for l in lines), D(0))
    tax = sum((l.tax for l in lines), D(0))
    credit = D("500.00")
    total = subtotal + tax - credit  # 12,845.67 - 500.00 = 12,345.67
    assert total == D("12345.67")
    return StatementDoc(
        number="ST-SH-202610-0042", kind="statement", subsidiary=SUBSIDIARY, customer=CUSTOMER,
        period_label="2026年10月" if language == "zh" else "October 2026",
        issue_date=date(2026, 11, 3), lines=tuple(lines), subtotal=subtotal, tax=tax, total=total,
        total_in_words="壹万贰仟叁佰肆拾伍元陆角柒分", credits=(CreditLine("SLA 故障补偿（9月 R-A01 停电 35 分钟）", credit),),
        references=("CN-SH-202609-0007",), fapiao_no="26312000000012345678", status="已确认",
        language=language, due_date=date(2026, 11, 30))


def sample_rack(name: str = "R-A01", customer: str = CUSTOMER.name) -> RackElevation:
    devices = (
        ElevDevice("GPU-SH-0001", "Supermicro SYS-821GE-TNHR (8×H100)", "自有", D(1), D(8), "front", True, "#F4B183"),
        ElevDevice("GPU-SH-0002", "Supermicro SYS-821GE-TNHR (8×H100)", "自有", D(9), D(8), "front", True, "#F4B183"),
        ElevDevice("GPU-SH-0003", "NVIDIA DGX H200", "自有", D(17), D(8), "front", True, "#F8CBAD"),
        ElevDevice("存储-01", "浪潮 NF5280M6", "客户自有", D(26), D(2), "front", True, "#A9D08E"),
        ElevDevice("IB-SW-01", "NVIDIA QM9700 InfiniBand", "自有", D(40), D(1), "rear", False, "#9DC3E6"),
        ElevDevice("TOR-01", "华为 CE6881-48S6CQ", "自有", D(41), D(1), "rear", False, "#9DC3E6"),
        ElevDevice("PDU-A", "0U 配电 32A", "自有", D(42), D("0.5"), "rear", False, "#D9D9D9"),
        ElevDevice("理线架", "1U 理线架", "自有", D(39), D(1), "front", False, "#D9D9D9"),
    )
    reservations = (Reservation(customer, "front", 30, 36), Reservation("预留扩容", "rear", 33, 37))
    return RackElevation(name, "上海张江数据中心", "3F-A 液冷机房", 42, D("40"), D("32.5"),
                         devices, reservations, customer)


def sample_contract(language: str = "zh") -> ContractDoc:
    racks = (sample_rack("R-A01"), sample_rack("R-A02"))
    gpus = tuple(GpuRow(f"1654022{n:06d}", "NVIDIA H100 SXM5 80GB", f"GPU-SH-{n // 8 + 1:04d}")
                 for n in range(24))
    devices = tuple(DeviceRow(d.name, f"SN{n:08d}", d.model, r.name, f"U{d.position}")
                    for r in racks for n, d in enumerate(r.devices))
    return ContractDoc(
        number="HT-SH-2026-0108", title="算力租赁及机柜托管服务合同", subsidiary=SUBSIDIARY,
        customer=CUSTOMER, start=date(2026, 10, 1), end=date(2027, 9, 30), status="已生效",
        terms=(
            "乙方按本合同附件所列配置向甲方提供 GPU 算力租赁及机柜租赁服务，服务期自起租日起算。",
            "甲方数据存储于乙方位于上海的数据中心，未经甲方书面同意，乙方不得将数据转移出境或提供给第三方。",
            "乙方对全部运维操作留痕，甲方可随时申请调阅审计报告（操作全程留痕、可审计可追溯）。",
            "任何一方违约，应赔偿守约方因此遭受的直接损失；因不可抗力导致的服务中断不视为违约。",
            "本合同一式两份，双方各执一份，自双方签字盖章之日起生效。",
        ),
        items=(
            ContractItemRow("H100 GPU 算力租赁（包月）", D("16"), "GPU·月", D("5600.00"), D("0.06"), date(2026, 10, 1), "NVLink 全互联"),
            ContractItemRow("H100 GPU 超额用量（按小时）", D("1"), "GPU时", D("7.80"), D("0.06"), date(2026, 10, 1), "超出承诺部分"),
            ContractItemRow("42U 机柜租赁（含 40 kW 电力）", D("2"), "柜·月", D("8800.00"), D("0.06"), date(2026, 10, 1), ""),
            ContractItemRow("超额电力", D("1"), "kWh", D("1.20"), D("0.06"), None, "按月结算"),
            ContractItemRow("RDMA 组网一次性实施费", D("1"), "项", D("45000.00"), D("0.06"), date(2026, 10, 1), ""),
        ),
        service_level="7×24 运维值守；可用性承诺 99.95%/月；硬件故障 15 分钟响应、4 小时内更换；"
                      "每低于承诺 0.1%，按当月服务费的 5% 补偿，最高 30%。",
        billing_terms=("月度账期按北京时间自然月计算，乙方于次月 5 日前出具对账单。",
                       "混合计费：每月承诺金额 89,600.00 元，超出部分按小时计费。",
                       "甲方应于收到对账单及增值税专用发票后 15 日内付款。"),
        racks=racks, gpus=gpus, devices=devices, language=language, sign_place="上海市浦东新区")


def sample_audit(n_events: int = 120, language: str = "zh") -> AuditReportDoc:
    actors = ("张伟", "李娜", "王芳", "admin", "陈静")
    actions = ("lease_rack", "transition_gpu", "update_contract", "run_billing", "login")
    start = datetime(2026, 10, 1, 8, 0, 0)
    events = []
    counts: dict[tuple[str, str], int] = {}
    for i in range(1, n_events + 1):
        actor, action = actors[i % len(actors)], actions[(i * 7) % len(actions)]
        counts[(actor, action)] = counts.get((actor, action), 0) + 1
        changes = f"status: 空闲 → 已租\ncustomer: — → {CUSTOMER.name}" if i % 3 else "price: 5,600.00 → 5,400.00"
        events.append(AuditRow(i, (start + timedelta(minutes=7 * i)).strftime("%Y-%m-%d %H:%M:%S"),
                               actor, action, f"GPU 1654022{i:06d}" if i % 2 else f"机柜 R-A{i % 40:02d}",
                               changes, "客户申请扩容，工单 #%d" % (4000 + i) if i % 4 == 0 else "",
                               "成功" if i % 17 else "拒绝"))
    summary = tuple(AuditSummaryRow(a, b, c) for (a, b), c in sorted(counts.items()))
    checkpoint = f"{n_events}:9f2c4e1ab77d03c5e8a1f6b2d4c9e0a7315b8d6f2e4a1c9b7d5e3f1a2b4c6d8e0"
    return AuditReportDoc(
        title="审计报告 2026年10月" if language == "zh" else "Audit report October 2026",
        period_from=date(2026, 10, 1), period_to=date(2026, 10, 31), filters="全部操作人；全部对象类型",
        generated_at=datetime(2026, 11, 1, 9, 30), summary=summary, events=tuple(events),
        verification=f"哈希链完整：已校验第 1 至第 {n_events} 条事件，未发现篡改。",
        checkpoint=checkpoint, subsidiary=SUBSIDIARY, number="AR-2026-10", language=language)


def sample_rack_sheet(language: str = "zh") -> RackSheetDoc:
    return RackSheetDoc(sample_rack(), SUBSIDIARY, "RS-SH-R-A01", datetime(2026, 11, 1, 10, 0), language)


def sample_capacity(language: str = "zh") -> CapacityDoc:
    rows = []
    for room, racks in (("3F-A 液冷机房", 6), ("3F-B 风冷机房", 5), ("4F-C 机房", 4)):
        for n in range(1, racks + 1):
            used = (n * 7) % 40 + 2
            rows.append(CapacityRow(room, f"R-{room[3]}{n:02d}", used, 42, D(used) * D("0.8"), D("40"),
                                    {"在租": n * 8 % 24, "空闲": n % 3 * 8, "维修": n % 2}))
    return CapacityDoc("上海张江数据中心", tuple(rows), datetime(2026, 11, 1, 10, 0),
                       ("在租", "空闲", "维修", "报废"), SUBSIDIARY, "CAP-2026-11", language)


def sample_fleet(language: str = "zh") -> FleetDoc:
    models = [("H100", 320, "2350000"), ("H200", 128, "1120000"), ("A800", 96, "410000"),
              ("L40S", 64, "96000"), ("RTX 4090", 200, "120000"), ("Ascend 910B", 160, "560000")]
    rows = tuple(FleetRow(m, {"在租": n * 6 // 10, "空闲": n * 3 // 10, "维修": n // 20, "报废": n // 40},
                          D(n) * D("142000.00"), D(rev)) for m, n, rev in models)
    return FleetDoc(rows, datetime(2026, 11, 1, 10, 0), ("在租", "空闲", "维修", "报废"), SUBSIDIARY,
                    "FL-2026-11", language, "GPU 资产报告 2026年11月")
