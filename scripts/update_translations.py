"""Regenerate resources/translations/idc_console_zh_CN.ts and compile it to .qm.

pyside6-lupdate cannot see strings that are data (choice labels in models/choices.py,
column labels in app/queries.py, form labels, page names) or that go through a module's
`tr()` helper, so this script extracts with Python's own parser instead:
  self.tr("…")                     context = the enclosing class
  X.translate("ctx", "…")          context = ctx
  tr("…")                          context = the module's TR_CONTEXT
plus the data contexts "choices", "columns", "forms", "kinds" and the navigation.
Translations come from ZH below; a string without one is written "unfinished" (and
shown in English) and listed on stderr.

Run: python scripts/update_translations.py
"""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TS = ROOT / "resources" / "translations" / "idc_console_zh_CN.ts"
QM = TS.with_suffix(".qm")

ZH = {
    # navigation, window
    "Dashboard": "总览", "Sites & coverage": "站点与覆盖", "Racks": "机柜", "Devices": "设备", "GPUs": "GPU",
    "Customers": "客户", "Contracts": "合同", "Billing": "账单", "Audit log": "审计日志",
    "Users & settings": "用户与设置", "IDC console": "IDC 管理控制台", "Database: %1": "数据库：%1",
    "User: %1 (%2)": "用户：%1（%2）", "Settings…": "设置…", "Coverage": "区域覆盖", "Site map": "站点分布图", "Elevation": "机柜立面", "Room": "机房",
    "Search": "搜索", "Rack, device, GPU serial, customer, contract, statement…": "机柜、设备、GPU 序列号、客户、合同、账单…",
    # dashboard
    "Sites": "站点", "Racks (leased)": "机柜（已租）", "Active contracts": "生效合同",
    "Ending in 30/60/90 days": "30/60/90 天内到期", "GPU fleet by state: ": "GPU 按状态：",
    # list pages
    "New": "新建", "Open": "打开", "Retire": "退役", "Lifecycle move…": "生命周期变更…", "Export…": "导出…",
    "Import…": "导入…", "Refresh": "刷新", "Filter (Ctrl+F): code, name, serial, customer…": "筛选（Ctrl+F）：编码、名称、序列号、客户…",
    "%1 of %2": "%1 / 共 %2", "%1 rows": "共 %1 行",
    "Retire %1 selected record(s)? This is recorded in the audit trail.\nReason:":
        "确定退役所选 %1 条记录？此操作将记入审计日志。\n原因：",
    "A reason is required.": "必须填写原因。", "Retiring…": "正在退役…", "Some GPUs were not moved": "部分 GPU 未变更",
    "%1 moved, %2 refused:": "已变更 %1 个，拒绝 %2 个：", "Moving GPUs…": "正在变更 GPU 状态…", "Export": "导出",
    "Excel (*.xlsx);;CSV (*.csv)": "Excel (*.xlsx);;CSV (*.csv)", "Exporting…": "正在导出…",
    # forms
    "New %1": "新建%1", "Edit %1": "编辑%1", "Details": "详情", "Save": "保存", "Cancel": "取消", "(none)": "（无）",
    "leave empty to keep": "留空则不修改", "This record no longer exists.": "该记录已不存在。",
    "choose one of the listed entries": "请从列表中选择", "a whole number": "请输入整数",
    "a number, e.g. 12.5": "请输入数字，例如 12.5", "required": "必填",
    "Changed by someone else": "记录已被他人修改",
    "Reload the record now? Your edits will be lost.": "现在重新加载该记录？您的修改将丢失。",
    "Time": "时间", "From": "原状态", "To": "新状态", "User": "用户", "Reason": "原因", "History (%1)": "历史（%1）",
    "Lifecycle move": "生命周期变更", "%1 GPU(s), now: %2": "%1 个 GPU，当前：%2", "Move to": "变更为",
    "Reason *": "原因 *", "Move": "变更", "No move is allowed from these states together.": "所选状态之间没有共同允许的变更。",
    "Give a reason: it goes into the GPU's history and the audit trail.": "请填写原因：它将记入 GPU 历史和审计日志。",
    # startup
    "Welcome to the IDC console": "欢迎使用 IDC 管理控制台", "Create the administrator": "创建管理员",
    "This database has no users yet. The first user is the administrator.": "该数据库还没有用户。第一个用户即为管理员。",
    "Login": "登录名", "Display name": "显示名称", "Password (8+ characters)": "密码（至少 8 位）",
    "Repeat password": "确认密码", "Load the demo data (sites, racks, GPUs, customers, contracts)":
        "加载演示数据（站点、机柜、GPU、客户、合同）",
    "Create": "创建", "The two passwords differ.": "两次输入的密码不一致。", "Log in": "登录", "Password": "密码",
    "Login failed: unknown user, disabled account or wrong password.": "登录失败：用户不存在、账号已停用或密码错误。",
    "Preparing the database (backup and schema upgrade)…": "正在准备数据库（备份并升级结构）…",
    "Database is newer than this console": "数据库版本高于本控制台", "Cannot open the database": "无法打开数据库",
    "%1\n\nCheck the database in the settings.": "%1\n\n请在设置中检查数据库。", "Loading the demo data…": "正在加载演示数据…",
    # settings
    "Settings": "设置", "System default": "跟随系统", "Language": "语言", "SQLite file": "SQLite 文件",
    "PostgreSQL server": "PostgreSQL 服务器", "Open…": "打开…", "New…": "新建…", "File": "文件", "URL": "地址",
    "Keep the password in the system keyring": "将密码保存在系统钥匙串中", "Test connection": "测试连接",
    "automatic": "自动", "PDF font (TrueType)": "PDF 字体（TrueType）",
    "Language and database changes apply at the next start.": "语言和数据库的更改将在下次启动时生效。",
    "Open database": "打开数据库", "SQLite (*.db *.sqlite);;All (*)": "SQLite (*.db *.sqlite);;所有文件 (*)",
    "New database": "新建数据库", "SQLite (*.db)": "SQLite (*.db)", "Give a file or a URL first.": "请先填写文件或地址。",
    "Connected.": "连接成功。", "Failed: %1": "失败：%1",
    "The system keyring is not available (%1); the password was not stored.": "系统钥匙串不可用（%1），密码未保存。",
    # import
    "Import %1": "导入%1", "Choose file…": "选择文件…", "Preview": "预览", "Import": "导入", "Close": "关闭",
    "Import file": "导入文件", "Tables (*.csv *.xlsx);;All (*)": "表格 (*.csv *.xlsx);;所有文件 (*)",
    "Cannot read the file: %1": "无法读取文件：%1", "Problem": "问题",
    "%1 rows, %2 with problems (marked red). Fix the file and preview again; nothing is imported while a row is bad.":
        "共 %1 行，其中 %2 行有问题（红色标出）。请修改文件后重新预览；存在错误行时不会导入任何数据。",
    "%1 rows, all good. Press Import to write them.": "共 %1 行，全部正确。点击“导入”写入。",
    "Imported.": "已导入。", "Importing…": "正在导入…", "line %1": "第 %1 行",
    "Nothing was imported: %1 bad row(s). Preview again to see them.": "未导入任何数据：%1 行有错误。请重新预览查看。",
    # operations
    "Working…": "处理中…", "Refused": "操作被拒绝", "Error": "错误", "The operation failed: %1": "操作失败：%1",
    "Preparing the document…": "正在准备文档…",
    # kinds
    "Site": "站点", "Rack": "机柜", "Device": "设备", "GPU": "GPU", "Customer": "客户", "Contract": "合同",
    "Statement": "账单", "Audit event": "审计事件",
    # columns and form labels
    "Code": "编码", "Name": "名称", "Subsidiary": "子公司", "Region": "区域", "Status": "状态", "Cooling": "制冷",
    "Power (kW)": "功率（kW）", "Address": "地址", "Site ": "站点", "Customer ": "客户", "Height (U)": "高度（U）",
    "Asset tag": "资产标签", "Serial": "序列号", "Type": "型号", "Position (U)": "位置（U）", "Face": "朝向",
    "Owner": "所有者", "Model": "型号", "State": "状态", "Host": "所在服务器", "Slot": "槽位", "Warranty end": "保修截止",
    "Purchased": "购置日期", "Cost (CNY)": "成本（元）", "Credit code": "统一社会信用代码", "Account manager": "客户经理",
    "Number": "编号", "Title": "标题", "Start": "开始", "End": "结束", "Revision": "版本", "Statements": "账单",
    "Period": "账期", "Kind": "类型", "Subtotal": "小计", "Tax": "税额", "Total": "合计", "Fapiao no.": "发票号",
    "No.": "序号", "Action": "操作", "Object type": "对象类型", "Object": "对象", "Outcome": "结果", "Users": "用户",
    "Role": "角色", "Active": "启用", "Latitude": "纬度", "Longitude": "经度", "Power capacity (kW)": "电力容量（kW）",
    "Grid row": "网格行", "Grid column": "网格列", "Notes": "备注", "Depreciation (months)": "折旧（月）",
    # choices
    "Planned": "规划中", "Decommissioning": "退役中", "Retired": "已退役", "Air": "风冷", "Liquid": "液冷",
    "On-site team": "驻场团队", "Remote": "远程", "Partner": "合作伙伴", "Available": "可用", "Reserved": "已预留",
    "Leased": "已出租", "Maintenance": "维护中", "Decommissioned": "已拆除", "Front": "前面", "Rear": "后面",
    "Cancelled": "已取消", "Ended": "已结束", "Hosted server": "托管服务器", "GPU server": "GPU 服务器",
    "Switch": "交换机", "Other": "其他", "Inventory": "库存", "Offline": "离线", "Failed": "故障",
    "Ordered": "已订购", "Received": "已到货", "Burn-in": "压力测试", "RMA": "返修", "Administrator": "管理员",
    "Operator": "运维", "Auditor": "审计员", "Inactive": "停用", "Draft": "草稿", "Pending approval": "待审批",
    "Approved": "已批准", "Suspended": "已暂停", "Expired": "已到期", "Terminated": "已终止", "Rack lease": "机柜租赁",
    "Hosting": "托管", "GPU rental": "算力租赁", "Bandwidth": "带宽", "One-off charge": "一次性费用", "Discount": "折扣",
    "per month": "按月", "per year": "按年", "per GPU-hour": "按卡时", "per GPU-minute": "按卡分钟", "per kWh": "按千瓦时",
    "per Mbps-month": "按 Mbps·月", "one-off": "一次性", "hybrid (commit + hourly)": "混合计费（保底 + 按小时）",
    "IDC services": "IDC 服务", "Value-added telecom": "增值电信", "Equipment leasing": "设备租赁", "Issued": "已开具",
    "Void": "已作废", "Credit note": "红字账单", "Success": "成功", "Failure": "失败",
    # the pictures (widgets by another part of the project)
    "%1: %2 of %3 U used in %4 racks": "%1：%4 个机柜共 %3 U，已用 %2 U", "%1: %2 of %3 kW (%4%)": "%1：%2 / %3 kW（%4%）",
    "%1: ¥%2 net, ¥%3 with tax": "%1：不含税 ¥%2，含税 ¥%3", "%n day(s)": "%n 天", "CNY": "元", "Capacity": "容量",
    "Contracts ending": "即将到期的合同", "GPU fleet by model and state": "GPU 按型号和状态", "Net revenue (CNY)": "不含税收入（元）",
    "No GPUs yet": "暂无 GPU", "No issued statements yet": "暂无已开具账单", "No live contract ends within 90 days.": "90 天内没有到期的生效合同。",
    "No racks yet": "暂无机柜", "No sites yet": "暂无站点", "Power: typical draw against capacity per site (kW)": "各站点典型功耗与容量（kW）",
    "Rack utilisation per site": "各站点机柜使用率", "Revenue by month (issued statements, net of tax)": "月度收入（已开具账单，不含税）",
    "Soonest": "最近到期", "Typical draw": "典型功耗", "Units used (%)": "已用 U 位（%）", "within %1 days": "%1 天内",
    "%1 cannot be shown: %2": "无法显示 %1：%2", "Could not save: %1": "无法保存：%1", "Fit width": "适合宽度",
    "Next page": "下一页", "Open in viewer…": "用查看器打开…", "PDF files (*.pdf)": "PDF 文件 (*.pdf)", "Previous page": "上一页",
    "Print…": "打印…", "Save PDF as": "PDF 另存为", "Save as…": "另存为…",
    "The PDF preview needs Qt's PDF module (the PySide6_Pdf package). You can still save the document or open it in your PDF viewer.":
        "PDF 预览需要 Qt 的 PDF 模块（PySide6_Pdf）。您仍可保存文档或用 PDF 查看器打开。",
    "The printer could not be started.": "无法启动打印机。", "Whole page": "整页", "Zoom in": "放大", "Zoom out": "缩小",
    "of %1": "/ %1", "%1 · leased to %2": "%1 · 租给 %2", "%n U free": "空闲 %n U", "Choose a rack to see its elevation": "选择机柜以查看立面图",
    "Fleet": "自有", "Not mounted (0U or no position): %1": "未上架（0U 或无位置）：%1", "Open %1": "打开 %1",
    "Place a device at U%1 (%2)…": "在 U%1（%2）放置设备…", "Power: %1 of %2 kW typical (%3%)": "功率：典型 %1 / %2 kW（%3%）",
    "Reserve U%1 (%2)…": "预留 U%1（%2）…", "Reserve the free block U%1–U%2 (%3)…": "预留空闲区段 U%1–U%2（%3）…",
    "Reserved for %1, U%2–U%3, %4 to %5": "为 %1 预留，U%2–U%3，%4 至 %5", "Reserved: %1": "已预留：%1",
    "front": "前面", "open-ended": "长期", "rear": "后面", "Move refused": "移动被拒绝", "The move failed: %1": "移动失败：%1",
    "%1 h": "%1 小时", "Covered by": "覆盖方", "No region has the code %1.": "没有代码为 %1 的区域。",
    "No region matches “%1”.": "没有匹配“%1”的区域。", "Nobody covers this region, nor any region it lies in.": "该区域及其上级区域均无覆盖。",
    "Response": "响应时间", "Who serves:": "由谁服务：", "not covered": "未覆盖", "region code or name, e.g. 460108 or 美兰": "区域代码或名称，例如 460108 或 美兰",
    "Choose a room to see its floor": "选择机房以查看平面图", "Not on the floor plan:": "不在平面图上：",
    "%1 / %2 — %n rack(s)": "%1 / %2 — %n 个机柜", "50–80%": "50–80%", "80–95%": "80–95%", "95% and over": "95% 及以上",
    "Colour by:": "着色依据：", "Utilisation": "使用率", "empty": "空", "under 50%": "低于 50%", " and %n more": " 等 %n 个",
    "No sites with coordinates yet": "暂无带坐标的站点", "Without latitude/longitude: %1": "无经纬度：%1",
    "solid line: the region's own point; dashed: its city's or province capital's": "实线：区域自身位置；虚线：所在城市或省会位置",
    "SXM": "SXM", "PCIe": "PCIe", "OAM": "OAM", "front-to-rear": "前进后出", "rear-to-front": "后进前出",
    "left-to-right": "左进右出", "right-to-left": "右进左出", "side-to-rear": "侧进后出", "passive": "被动", "mixed": "混合",
}


def _literal(node) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def extract_file(path: Path) -> list[tuple[str, str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module_ctx = None
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "TR_CONTEXT" for t in node.targets):
            module_ctx = _literal(node.value)
    out = []

    def walk(node, cls):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                walk(child, child.name)
                continue
            if isinstance(child, ast.Call):
                f = child.func
                args = child.args
                if isinstance(f, ast.Attribute) and f.attr == "tr" and isinstance(f.value, ast.Name) \
                        and f.value.id == "self" and args and _literal(args[0]) is not None and cls:
                    out.append((cls, _literal(args[0]), child.lineno))
                elif isinstance(f, ast.Attribute) and f.attr == "translate" and len(args) >= 2 \
                        and _literal(args[0]) is not None and _literal(args[1]) is not None:
                    out.append((_literal(args[0]), _literal(args[1]), child.lineno))
                elif isinstance(f, ast.Name) and f.id == "tr" and args and _literal(args[0]) is not None \
                        and module_ctx:
                    out.append((module_ctx, _literal(args[0]), child.lineno))
            walk(child, cls)
    walk(tree, None)
    return out


def data_messages() -> list[tuple[str, str]]:
    import inspect

    import models.choices as choices
    from app import queries
    from ui.forms import FORMS
    from ui.i18n import KIND_LABELS
    from ui.mainwindow import PAGES
    out = []
    for obj in vars(choices).values():
        if inspect.isclass(obj) and issubclass(obj, choices.ChoiceSet) and obj is not choices.ChoiceSet:
            out += [("choices", label) for _v, label, _c in obj.CHOICES]
    for spec in queries.SPECS.values():
        out.append(("columns", spec.title))
        out += [("columns", c.label) for c in spec.columns]
    out += [("forms", f.label) for fields in FORMS.values() for f in fields]
    out += [("kinds", label) for label in KIND_LABELS.values()]
    out += [("MainWindow", label) for _p, label, _k in PAGES]
    return out


# PySide's self.tr() looks up the runtime class's name: subclasses need their parents' strings.
SUBCLASS_CONTEXTS = {"FormDialog": ["GpuDialog"]}


def main() -> int:
    messages: dict[str, dict[str, list[str]]] = {}

    def add(ctx, src, where=None):
        locs = messages.setdefault(ctx, {}).setdefault(src, [])
        if where:
            locs.append(where)
    for path in sorted((ROOT / "ui").rglob("*.py")):
        for ctx, src, line in extract_file(path):
            rel = f"../../{path.relative_to(ROOT).as_posix()}"
            add(ctx, src, (rel, line))
            for sub in SUBCLASS_CONTEXTS.get(ctx, []):
                add(sub, src, (rel, line))
    for ctx, src in data_messages():
        add(ctx, src)
    missing = []
    lines = ['<?xml version="1.0" encoding="utf-8"?>', "<!DOCTYPE TS>", '<TS version="2.1" language="zh_CN">']
    for ctx in sorted(messages):
        lines += ["<context>", f"    <name>{escape(ctx)}</name>"]
        for src in sorted(messages[ctx]):
            numerus = "%n" in src
            lines.append('    <message numerus="yes">' if numerus else "    <message>")
            for rel, line in messages[ctx][src][:1]:
                lines.append(f'        <location filename="{rel}" line="{line}"/>')
            lines.append(f"        <source>{escape(src)}</source>")
            zh = ZH.get(src) or ZH.get(src.strip())
            if zh is None:
                missing.append((ctx, src))
                lines.append('        <translation type="unfinished"></translation>')
            elif numerus:
                lines.append(f"        <translation><numerusform>{escape(zh)}</numerusform></translation>")
            else:
                lines.append(f"        <translation>{escape(zh)}</translation>")
            lines.append("    </message>")
        lines.append("</context>")
    lines.append("</TS>")
    TS.parent.mkdir(parents=True, exist_ok=True)
    TS.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for ctx, src in missing:
        print(f"untranslated: [{ctx}] {src!r}", file=sys.stderr)
    lrelease = Path(sys.executable).with_name("pyside6-lrelease")
    subprocess.run([str(lrelease) if lrelease.exists() else "pyside6-lrelease", str(TS), "-qm", str(QM)], check=True)
    print(f"{sum(len(v) for v in messages.values())} messages, {len(missing)} untranslated -> {QM.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
