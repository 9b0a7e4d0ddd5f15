"""Regenerate resources/translations/idc_console_zh_CN.ts and compile it to .qm.

pyside6-lupdate cannot see strings that are data (choice labels in models/choices.py,
column labels in app/read/lists/specs.py, form labels, page names) or that go through a module's
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
    "The slot changes are already saved (see History)": "槽位的变更已随操作保存（见历史记录）",
    # dashboard
    "Sites": "站点", "Racks (leased)": "机柜（已租）", "Active contracts": "生效合同",
    "Ending in 30/60/90 days": "30/60/90 天内到期", "GPU fleet by state: ": "GPU 按状态：",
    # list pages
    "New": "新建", "Open": "打开", "Retire": "退役", "Lifecycle move…": "生命周期变更…", "Export…": "导出…",
    "Import…": "导入…", "Refresh": "刷新", "Search failed: %1": "搜索失败：%1",
    "The customer has no region: no subsidiary can be suggested.": "该客户未填写所在地区，无法推荐签约主体。",
    "%1 serves the customer's region %2 (%3 h response).": "%1 覆盖客户所在地区 %2（%3 小时响应）。",
    "The chosen subsidiary does not cover the customer's region %1; it is served by %2.":
        "所选子公司不覆盖客户所在地区 %1；该地区由 %2 服务。",
    "No subsidiary covers the customer's region %1.": "没有子公司覆盖客户所在地区 %1。", " (%1 shown)": "（列出 %1）",
    "The nearest %1 are listed; the Contracts page has all of them.": "列出最近到期的 %1 份；全部合同见“合同”页。", "Sorting %1 rows…": "正在排序 %1 行…",
    "Filtering %1 rows…": "正在筛选 %1 行…", "Could not read the list: %1": "无法读取列表：%1",
    "%1+ of %2, counting…": "%1+ / 共 %2，正在计数…", "Filter (Ctrl+F): code, name, serial, customer…": "筛选（Ctrl+F）：编码、名称、序列号、客户…",
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
    # --- billing ---
    "empty: credit the lines in full (they may be rebilled)": "留空：全额冲销所选条目（之后可重新计费）",
    "Partial amount": "部分冲减金额",
    "A partial amount credits exactly one line: tick only that line.": "部分冲减只针对一个条目：请只勾选该条目。",
    "Rebill credited lines": "重新计费已冲销条目", "Rebills %1": "重开 %1", "Rebilling…": "正在重新计费…",
    "Rebilled %1 line(s) on %2.": "已在 %2 上重新计费 %1 个条目。",
    "%1 has not ended; it can be billed from %2 00:00 (Asia/Shanghai). A dry run shows it now, provisionally.":
        "%1 尚未结束，自 %2 00:00（北京时间）起可计费。试算可先查看暂估结果。",
    "%1 line(s) rebill credited lines.": "%1 个条目为已冲销条目的重新计费。",
    "PROVISIONAL: %1 has not ended; usage metered up to %2 only.": "暂估：%1 尚未结束，用量仅计至 %2。",
    "%1 draft statement(s) of %2 pending issue.": "%2 尚有 %1 张草稿账单待开具。",
    "Awaiting handover": "待交付", "planned %1": "计划 %1",
    "Handed over at (Asia/Shanghai)": "交付时间（北京时间）",
    "evidence: signed handover form, ticket, who received it": "凭据：签字交接单、工单号、接收人",
    "Evidence *": "凭据 *", "Record handover": "记录交付", "Choose an item.": "请选择一个条目。",
    "Handovers…": "交付…",
    # the tax codes dialog (ui/installsettings.TaxCodesDialog)
    "Tax codes (税收分类编码)": "税收分类编码", "Tax codes…": "税收分类编码…", "Kind of line": "项目类别",
    "VAT rate": "税率", "Short name (简称)": "简称", "Item name": "项目名称", "Source": "来源",
    "19 digits": "19 位数字", "Metered electricity (electricity)": "计量电费（electricity）",
    "The fapiao export codes each line by its kind and VAT rate; a discount goes out under the line it reduces. "
    "Confirm each code with your tax office.":
        "发票导出按项目类别和税率确定税收分类编码；折扣作为折扣行列在被折扣的项目之下。请与主管税务机关确认各编码。",
}

# contracts, billing, audit, rack forms, PDFs, dashboard (console views)
ZH.update({
    # real-window fixes: contracts due, warranty tooltips
    "Days": "天数",
    "Warranty expired %1 (%2 days ago)": "保修已于 %1 到期（%2 天前）",
    "Warranty ends %1, in %2 days (highlighted within %3 days)": "保修将于 %1 到期，还剩 %2 天（%3 天内到期时标出）",
    "Billing starts at handover; empty = the contract's start": "计费自交付日开始；留空即合同开始日",
    "Expire %1? Its racks and GPUs are released to %2's end date.": "确定使 %1 到期？其机柜和 GPU 将按 %2 的合同结束日释放。",
    "Issue the period's drafts": "开具本期草稿账单",
    "Place even if the rack's typical power would exceed its capacity": "即使机柜典型功耗超出容量也放置",
    "Verify recomputes every event's hash and link.": "校验会重新计算每条事件的哈希和链接。",
    "%1 (%2) may not %3; this needs the role: %4": "%1（%2）无权%3；需要角色：%4",
    "%1 (dry run, nothing written): would create %2 line(s) on %3 new and %4 existing draft statement(s).":
        "%1（试算，未写入）：将在 %3 张新账单和 %4 张已有草稿账单上生成 %2 条明细。",
    "%1 (%2 d)": "%1（%2 天）", "renewal drafted": "已起草续签", "Red: within 30 days; orange: 60; yellow: 90; green: 180": "红色：30 天内；橙色：60 天内；黄色：90 天内；绿色：180 天内", "%1 contract %2. The reason goes into the audit trail.": "%1合同 %2。原因将记入审计日志。",
    "%1 draft #%2": "%1 草稿 #%2", "%1 line(s) held back: see the warnings.": "%1 条明细暂缓计费：见警告。",
    "%1 line(s) were billed by earlier runs.": "%1 条明细已在之前的运行中计费。", "%1 statement(s) issued.": "已开具 %1 张账单。",
    "%1: created %2 line(s) on %3 new and %4 existing draft statement(s).": "%1：已在 %3 张新账单和 %4 张已有草稿账单上生成 %2 条明细。",
    "%1: nothing to bill.": "%1：没有需要计费的项目。",
    "%1: nothing to bill; every line already exists (%2 from earlier runs).": "%1：没有需要计费的项目；所有明细均已存在（之前运行生成 %2 条）。",
    "%n item(s) need attention (marked red).": "%n 个条目需要修改（红色标出）。", "(by kind)": "（按类型）",
    "(every action)": "（全部操作）", "(everyone)": "（全部用户）", "(last good event %1)": "（最后一条完好事件 %1）",
    "(numbered when saved)": "（保存时编号）", "A credit note says why.": "红字账单须说明原因。",
    "A new revision takes over on its effective date; edit its items, then submit it.": "新版本自生效日起取代原合同；请修改条目后提交审批。",
    "Activate %1? Its racks and GPUs are leased to %2 now.": "确定生效 %1？其机柜和 GPU 将立即租给 %2。",
    "Activate": "生效", "Add item": "添加条目", "Alert": "提醒", "Amend %1": "变更 %1", "Amend…": "变更…",
    "Amount": "金额", "An action (e.g. contract.approve) or a prefix ending in a dot (e.g. gpu.)": "操作名（如 contract.approve）或以点结尾的前缀（如 gpu.）",
    "Approve %1 for %2?": "确定批准 %2 的合同 %1？", "Approve": "批准", "Audit report %1": "审计报告 %1",
    "Audit report PDF…": "审计报告 PDF…", "Audit report": "审计报告", "Billing %1…": "正在计费 %1…",
    "Billing run %1 cancelled; nothing was written.": "%1 计费已取消，未写入任何数据。",
    "CSV (*.csv);;Excel (*.xlsx)": "CSV (*.csv);;Excel (*.xlsx)", "Capacity of %1": "%1 容量报告",
    "Chain BROKEN: %1": "审计链已损坏：%1", "Chain intact: %1 events; head %2": "审计链完好：%1 条事件；链头 %2",
    "Chinese": "中文", "Choose a contract": "请选择合同",
    "Choose a month and press Dry run to see what a run would bill.": "选择月份并点击“试算”，查看本次将计费的内容。",
    "Choose a rack in the list first": "请先在列表中选择机柜", "Choose a rack in the list first.": "请先在列表中选择机柜。",
    "Choose a statement": "请选择账单", "Choose at least one line.": "请至少选择一条明细。",
    "Contract %1 is %2: only drafts are edited; a signed contract changes by amendment.": "合同 %1 状态为%2：只能编辑草稿；已签合同须通过变更修改。",
    "Contract %1": "合同 %1", "Contracts due (within 180/90/60/30 days)": "即将到期的合同（180/90/60/30 天内）",
    "Contracts due (within 180/90/60/30 days): %1": "即将到期的合同（180/90/60/30 天内）：%1",
    "Copy SEQ:HASH": "复制 SEQ:HASH", "Credit note %1 issued for %2.": "已开具红字账单 %1，金额 %2。",
    "Credit note for %1": "为 %1 开具红字账单", "Credit notes: %1": "红字账单：%1", "Credit note…": "红字账单…",
    "Credits %1": "冲销 %1", "Customer *": "客户 *", "Customer: %1": "客户：%1", "Description *": "描述 *", "Description in English": "英文描述",
    "for English documents of a Chinese contract; empty: made from the kind and object":
        "用于中文合同的英文单据；留空则按类型与对象自动生成",
    "Description": "描述", "Device type *": "设备型号 *", "Dry run for %1…": "正在试算 %1…", "Dry run": "试算",
    "Edit contract": "编辑合同", "Edit draft…": "编辑草稿…", "Effective date": "生效日期", "Empty: open-ended": "留空表示长期",
    "End *": "结束 *", "Ends": "到期", "English": "英文", "Expire": "到期", "Export period…": "按期间导出…",
    "Export statements": "导出账单", "Export statements…": "导出账单…", "Export the audit trail": "导出审计日志",
    "Fapiao no.: %1": "发票号：%1", "Fapiao number": "发票号", "Fleet report PDF…": "GPU 资产报告 PDF…",
    "For audit verify --expect-head later": "用于之后的 audit verify --expect-head", "From *": "开始 *",
    "From unit": "起始 U 位", "GPU fleet report": "GPU 资产报告", "GPU model": "GPU 型号",
    "Give a reason: it goes into the audit trail.": "请填写原因：它将记入审计日志。", "Hourly rate beyond": "超出部分小时单价",
    "Included GPU-hours": "包含卡时", "Issue credit note": "开具红字账单",
    "Issue every draft statement of %1? Issued statements take their numbers and never change.": "开具 %1 的全部草稿账单？开具后的账单将获得编号且不可再修改。",
    "Issue statements": "开具账单", "Issue": "开具", "Issued %1: %2": "已开具 %1 张：%2", "Issued: %1": "开具日期：%1",
    "Issuing…": "正在开具…", "Items": "条目", "Language: %1": "语言：%1", "Last day of service": "服务最后一天",
    "Lines to credit": "要冲销的明细", "Lines": "明细数", "Mbps": "带宽（Mbps）", "Name *": "名称 *",
    "Named GPUs": "指定 GPU", "New contract": "新建合同", "New contract…": "新建合同…",
    "No warnings: meters and leases are complete.": "无警告：电表读数和租赁记录完整。", "Note": "备注", "OK": "确定",
    "Override the power budget": "超出功率预算", "Period: %1": "账期：%1", "Place a device in %1": "在 %1 放置设备",
    "Place": "放置", "Position (lowest U)": "位置（最低 U 位）", "Power allowance (kW)": "功率配额（kW）", "Power": "功率",
    "Preview / Print PDF…": "预览 / 打印 PDF…", "Price per kWh over it": "超出部分每千瓦时单价", "Price": "价格",
    "Priced": "计价方式", "Print / PDF…": "打印 / PDF…", "Quantity": "数量", "Rack sheet %1": "机柜图 %1",
    "Rack sheet PDF…": "机柜图 PDF…", "Reason for the override": "超限原因", "Reason: %1": "原因：%1",
    "Record fapiao no.…": "登记发票号…", "Reject…": "驳回…", "Reload the contract now? Your edits will be lost.": "现在重新加载合同？您的修改将丢失。",
    "Reload the contract now?": "现在重新加载合同？", "Remove item": "删除条目", "Renew %1": "续签 %1", "Renew": "续签",
    "Renewal": "续签", "Renews %1": "续签自 %1", "Renew…": "续签…", "Reserve units in %1": "在 %1 预留 U 位", "Reserve": "预留",
    "Resume": "恢复", "Revision %1, effective %2": "第 %1 版，%2 生效", "Run and issue": "计费并开具", "Run result": "运行结果",
    "Run": "计费", "Save draft": "保存草稿", "Service end": "服务结束", "Service level": "服务级别",
    "Service start (handover)": "服务开始（交付日）", "Service start": "服务开始", "Site capacity PDF…": "站点容量 PDF…",
    "Start *": "开始 *", "Statement %1": "账单 %1", "Status: %1": "状态：%1", "Submit for approval": "提交审批",
    "Subsidiary *": "子公司 *", "Subtotal %1 + tax %2 = %3.": "小计 %1 + 税额 %2 = %3。",
    "Subtotal %1 · Tax %2 · <b>Total %3</b><br>Amount in words: <b>%4</b>": "小计 %1 · 税额 %2 · <b>合计 %3</b><br>大写金额：<b>%4</b>",
    "Suspend…": "暂停…", "Tax category": "税目", "Tax rate": "税率", "Term: %1 – %2": "期限：%1 至 %2", "Terminate…": "终止…",
    "Terms": "条款", "Text": "内容", "The fapiao number issued for %1:": "为 %1 开具的发票号：",
    "The period ends before it starts.": "结束日期早于开始日期。", "To unit": "结束 U 位", "Unit price (CNY) *": "单价（元）*",
    "Unit price": "单价", "Unit": "单位", "Units": "U 位", "Until": "截止", "Updating the contract…": "正在更新合同…",
    "Verify chain": "校验审计链", "Verifying the audit chain…": "正在校验审计链…",
    "approve contracts": "审批合同", "change GPUs": "修改 GPU", "change customers": "修改客户",
    "change rooms, racks and devices": "修改机房、机柜和设备", "change sites, subsidiaries and coverage": "修改站点、子公司和覆盖范围",
    "draft #%1": "草稿 #%1", "draft contracts": "起草合同", "drafted": "已起草", "import data": "导入数据",
    "item %1: %2": "条目 %1：%2", "manage users": "管理用户", "no GPU with serial %1": "没有序列号为 %1 的 GPU",
    "or named GPUs: serials, comma separated": "或指定 GPU：序列号，以逗号分隔",
    "override the rack power budget": "超出机柜功率预算", "reserve rack units": "预留机柜 U 位",
    "run billing and issue statements": "运行计费并开具账单", "≤ %1 days": "≤ %1 天",
    # --- devicetypes ---
    "%1 file(s): %2 can be imported (%3), %4 refused, %5 with power to check.":
        "%1 个文件：%2 个可导入（%3），%4 个被拒绝，%5 个功率待核实。",
    "%1 new, %2 updated, %3 unchanged": "新增 %1，更新 %2，未变 %3",
    "A .yaml/.yml file, or a folder such as devicetype-library/device-types":
        "一个 .yaml/.yml 文件，或一个文件夹（如 devicetype-library/device-types）",
    "All or nothing: import nothing if any file is refused": "全部或全不：任一文件被拒绝则什么也不导入",
    "Checking device types…": "正在检查设备型号…", "Choose folder…": "选择文件夹…",
    "Device type file": "设备型号文件", "Device types (*.yaml *.yml);;All (*)": "设备型号 (*.yaml *.yml);;全部 (*)",
    "Folder of device types": "设备型号文件夹", "Import device types": "导入设备型号",
    "Import device types…": "导入设备型号…",
    "Imported %1 of %2 file(s) (%3); %4 refused, listed above.": "已导入 %2 个文件中的 %1 个（%3）；%4 个被拒绝，见上表。",
    "Importing device types…": "正在导入设备型号…",
    "Nothing was imported: %1 file(s) refused (listed above).": "未导入任何内容：%1 个文件被拒绝（见上表）。",
    "power to check": "功率待核实", "refused": "已拒绝", "Cancelled; nothing was imported.": "已取消，未导入任何内容。",
    "Blank panel": "盲板", "Firewall": "防火墙", "PDU": "PDU 配电单元", "Patch panel": "配线架", "Router": "路由器",
    "Shelf": "托板", "Storage": "存储", "UPS": "UPS 不间断电源",
    # --- console ---
    "No audit event matches %1: %2 holds only the header row.": "没有符合 %1 的审计事件：%2 中只有表头行。",
    "%1 audit events (%2) written to %3.": "已将 %1 条审计事件（%2）写入 %3。",
    "not a date: type it as YYYY-MM-DD": "不是日期：请按 YYYY-MM-DD 输入", "no such day: %1": "没有这一天：%1",
    "a year from %1 to %2": "年份须在 %1 至 %2 之间", "YYYY-MM-DD (empty: none)": "YYYY-MM-DD（留空表示无）",
    "Choose from the calendar": "从日历中选择",
    "Database password": "数据库密码", "The password of %1 on %2 is not stored on this computer.":
        "%2 上 %1 的密码未保存在本机。", "Connect": "连接",
    "The system keyring is not available (%1); the password was not stored. Untick the keyring to be asked for it at each start.":
        "系统钥匙串不可用（%1），密码未保存。取消勾选钥匙串后，每次启动时将询问密码。",
    # the audit list's filter bar and an event's detail
    "After": "变更后", "App version": "程序版本", "Audit event %1": "审计事件 %1", "Before": "变更前",
    "Changed fields: %1": "变更字段：%1", "Field": "字段", "Hash": "哈希", "Previous hash": "前一哈希",
    "No field values recorded with this event.": "该事件未记录字段值。", "Request id": "请求 ID",
    "(every type)": "（全部类型）", "An action, or a prefix ending in a dot (e.g. gpu.)": "某个操作，或以点结尾的前缀（如 gpu.）",
    "Clear": "清除", "every %1 action": "全部%1操作", "Action code": "操作代码", "Type code": "类型代码",
    # names of audit actions (verb + object) and objects
    "Amend": "变更", "Billing run": "运行计费", "Credit": "冲销", "Delete": "删除", "Delete draft statement": "删除草稿账单",
    "Edit customer contacts": "编辑客户联系人", "GPU lifecycle move": "GPU 生命周期变更", "Import meter readings": "导入电表读数",
    "Install": "安装", "Lease": "出租", "Load": "加载", "Print": "打印", "Record": "记录", "Record fapiao number": "登记发票号",
    "Reject": "驳回", "Release": "释放", "Remove": "拆除", "Submit": "提交", "Supersede": "取代", "Suspend": "暂停",
    "Terminate": "终止", "Update": "修改", "audit trail": "审计日志", "billing": "计费", "contract": "合同",
    "coverage": "覆盖范围", "customer": "客户", "device": "设备", "device type": "设备型号", "downtime": "故障停机",
    "meter reading": "电表读数", "rack": "机柜", "region": "地区", "reservation": "机柜预留", "room": "机房",
    "site": "站点", "statement": "账单", "subsidiary": "子公司", "user": "用户",
    # --- twins ---
    "Contracts are approved by a second person (four eyes)": "合同须由另一人审批（双人复核）",
    "Off lets whoever drafted a contract approve it; the change is audited and the contract's approval line says so.":
        "关闭后起草人可自行审批合同；此更改记入审计日志，合同的审批栏也会注明。",
    "Why? The change goes into the audit trail.": "原因？此更改将记入审计日志。",
    # --- sec2 ---
    "The audit trail was changed outside the program": "审计日志在程序之外被更改",
    # --- checks ---
    "&Help": "帮助(&H)", "About IDC console…": "关于 IDC 管理控制台…", "About IDC console": "关于 IDC 管理控制台",
    "Version": "版本", "Database": "数据库", "Log file": "日志文件", "Data directory": "数据目录",
    # --- coloc ---
    "Leased %1 U · reserved %2 U · used %3 U · free %4 U": "已租 %1 U · 预留 %2 U · 已用 %3 U · 空闲 %4 U",
    "leased %1 U · reserved %2 U · used %3 U · free %4 U": "已租 %1 U · 预留 %2 U · 已用 %3 U · 空闲 %4 U",
    "Leased to %1, U%2–U%3, %4 to %5": "租给 %1，U%2–U%3，%4 至 %5", "Leased: %1": "已租：%1",
    "cage %1": "笼位 %1", "Cage %1": "笼位 %1", "leased to %1": "租给 %1",
    "Cancel the reservation for %1 (U%2–U%3)…": "取消 %1 的预留（U%2–U%3）…", "Cancel reservation": "取消预留",
    "Why is the reservation cancelled?": "取消预留的原因？", "Reservation not cancelled": "预留未取消",
    "Shared: %1 U leased": "共享：已租 %1 U", "Leased units: %1 of %2 (%3)": "已租 U 位：%1 / %2（%3）",
    "leased space": "租赁空间", "cage": "笼位",
    "Cage (instead of a rack)": "笼位（代替机柜）",
    # --- oper ---
    "GPU slots (%1)": "GPU 槽位（%1）", "%1 rack(s) with %2 contiguous free U, best fit first.":
        "%1 个机柜有连续 %2U 空闲，最贴合的在前。", "(any: units only)": "（任意：只按 U 数）",
    "(our own equipment)": "（本公司设备）", "(whole fleet)": "（全部站点）",
    "A rack leased to a customer takes only that customer's devices; other customers' reservations are never offered":
        "已出租给客户的机柜只放该客户的设备；其他客户预留的 U 位不会列出",
    "Contiguous units": "连续 U 数", "Device type": "设备型号", "Find free U": "查找空闲 U 位", "For": "用于",
    "Free (U)": "空闲（U）", "Used (%)": "使用率（%）", "Full depth (both faces free)": "全深（前后两面均空闲）",
    "Lessee": "承租客户", "No rack has %1 contiguous free U there.": "该范围内没有机柜有连续 %1U 空闲。",
    "Open elevation": "打开立面图", "Place a device here…": "在此上架设备…", "Range": "U 位范围",
    "Room %1": "机房 %1", "Site %1": "站点 %1",
    "Takes the type's height and depth, and leaves out racks whose power capacity cannot take its typical draw":
        "按型号的高度和深度查找，并排除功率容量承受不了其典型功耗的机柜",
    "Where": "范围", "both faces": "前后两面", "%1 installed into slot %2.": "%1 已装入槽位 %2。",
    "%1 moved from slot %2 to slot %3.": "%1 已从槽位 %2 移到槽位 %3。", "%1 of %2 slots hold a GPU.":
        "%2 个槽位中有 %1 个已装 GPU。", "%1 removed from slot %2 to stock.": "%1 已从槽位 %2 拆下入库。",
    "(empty)": "（空）", "Changed by someone else: %1 The slots were reloaded.": "记录已被他人修改：%1 已重新载入槽位。",
    "From stock": "库存 GPU", "Install into slot": "装入槽位", "Move to slot": "移到槽位", "Remove to stock": "拆下入库",
    "Slot %1": "槽位 %1", "This device no longer exists.": "该设备已不存在。", "This server takes %1 GPUs.":
        "该服务器使用 %1 GPU。", "goes into the audit trail": "将记入审计日志", "Find free U…": "查找空闲 U 位…",
    "Give a reason: it goes into the device's history and the audit trail.": "请填写原因：它将记入设备历史和审计日志。",
    "Move %1": "移动 %1", "Move %1 in rack %2 from %3 to %4?": "将 %1 在机柜 %2 中从 %3 移到 %4？",
    "Fit to the window (Ctrl+0)": "适应窗口（Ctrl+0）", "Zoom in (Ctrl+wheel, Ctrl++)": "放大（Ctrl+滚轮，Ctrl++）",
    "Zoom out (Ctrl+wheel, Ctrl+-)": "缩小（Ctrl+滚轮，Ctrl+-）",
    "%1 or more racks fit; the best %1 are listed. Choose a site or a room to narrow the search.":
        "至少 %1 个机柜满足条件；列出最贴合的 %1 个。选择站点或机房以缩小范围。",
    # --- consam ---
    "Add contact": "添加联系人", "Remove contact": "删除联系人", "Contacts (%1)": "联系人（%1）",
    "Contact %1: %2": "联系人 %1：%2", "Position": "职务", "Phone": "电话", "E-mail": "电子邮箱",
    "the customer's legal name is required": "请填写客户的法定名称",
    "the legal name is required": "请填写法定名称",
    "the unified social credit code is required": "请填写统一社会信用代码",
    "a unified social credit code has 18 characters, this one has %1": "统一社会信用代码应为 18 位，此处为 %1 位",
    "a unified social credit code cannot contain %1 (I, O, S, V and Z are never used)":
        "统一社会信用代码不能包含 %1（不使用 I、O、S、V、Z）",
    "the check character is wrong: %1 must end in %2, not %3": "校验码错误：%1 的末位应为 %2，而不是 %3",
    "credit code %1 belongs to another customer": "信用代码 %1 已属于另一客户",
    "'%1' is not an e-mail address": "“%1”不是有效的电子邮箱地址",
    "'%1' is not a phone number": "“%1”不是有效的电话号码",
    "a contact needs a name": "联系人须填写姓名",
    "the account manager must be a user with that role": "客户经理须为具有该角色的用户",
    "'%1' is not a region code: GB/T 2260 codes have six digits, e.g. 460108":
        "“%1”不是地区代码：GB/T 2260 代码为六位数字，例如 460108",
    "%1 is not in the list of regions (GB/T 2260, county level and above); check the code, or import the regions that have it":
        "%1 不在地区列表中（GB/T 2260，县级及以上）；请检查代码，或导入包含它的地区",
    "longer than %1 characters (%2); shorten it": "超过 %1 个字符（%2）；请缩短",
    "is required": "必填", "'%1' is not a number": "“%1”不是数字",
    "'%1' is not an amount: write digits, e.g. 1234.50 or ¥1,234.50": '“%1”不是金额：请写数字，例如 1234.50 或 ¥1,234.50',
    "'%1' is not a number: write digits, e.g. 1234.5 or 1,234.5": '“%1”不是数字：请写数字，例如 1234.5 或 1,234.5',
    '%1 is too large: at most %2 digits before the decimal point': '%1 过大：小数点前最多 %2 位',
    '%1 has more decimals than allowed here: at most two decimals (to the fen)': '%1 的小数位过多：金额最多两位小数（到分）',
    '%1 has more decimals than allowed here: at most %2 decimals': '%1 的小数位过多：此处最多 %2 位小数',
    'is required: an amount of money, e.g. 1234.50': '必填：金额，例如 1234.50',
    "'%1' is not a %2: use YYYY-MM-DD": '“%1”不是有效日期：请按 YYYY-MM-DD 填写',
    "'%1' is not a %2 of the calendar": '“%1”不是日历上存在的日期',
    "'%1' is out of range: dates run from 2000-01-01 to 2099-12-31": '“%1”超出范围：日期须在 2000-01-01 至 2099-12-31 之间',
    'the fapiao number: 8 to 32 digits or letters (a 数电 fapiao has 20 digits)': '发票号码：8 至 32 位数字或字母（数电发票为 20 位数字）',
    "¥%1 is not the tax on ¥%2 at statement %3's rate (%4): expected %5; check the fapiao's 税额": '¥%1 不是 ¥%2 按账单 %3 的税率（%4）计算的税额：应为 %5；请核对发票的税额',
    'the disk is full (%1): nothing was written, the whole change was rolled back. Free some space and try again': '磁盘已满（%1）：未写入任何内容，整个操作已回滚。请释放磁盘空间后重试',
    'feed %1 of this panel has a %2 A breaker; a panel cannot be smaller than its feeds (give at least %3 A, or change the feeds first)': '此配电柜的馈线 %1 的断路器为 %2 A；配电柜不能小于其馈线（至少 %3 A，或先修改馈线）',
    "'%1' is not a port: ports are numbered from 1 (or named, e.g. 12A)": '“%1”不是端口：端口从 1 开始编号（或命名，例如 12A）',
    'a cable joins two ports; both ends are port %1 of the same device': '线缆连接两个端口；两端都是同一设备的端口 %1',
    '%1 is not an Excel workbook (.xlsx) (%2); save it from Excel as .xlsx, or as CSV': '%1 不是 Excel 工作簿（.xlsx）（%2）；请在 Excel 中另存为 .xlsx 或 CSV',
    'cannot read %1: a cell on line %2 is longer than %3 characters': '无法读取 %1：第 %2 行有单元格超过 %3 个字符',
    "must be greater than zero": "必须大于零", "cannot be negative": "不能为负数",
    "a contract needs at least one item": "合同至少需要一个项目",
    "%1 is inactive; reactivate the customer first": "%1 已停用；请先重新启用该客户",
    "a contract has a start and an end date": "合同须有开始和结束日期",
    "the contract ends (%1) before it starts (%2)": "合同结束日期（%1）早于开始日期（%2）",
    "a rack lease names an existing rack": "机柜租赁须指定一个现有机柜",
    "give both the power allowance (kW) and the price per kWh over it, or neither":
        "请同时填写电力额度（kW）和超出部分的每千瓦时价格，或都不填",
    "a GPU item names a GPU model and quantity, or the GPUs themselves": "GPU 项目须指定 GPU 型号和数量，或具体的 GPU",
    "GPUs are counted in whole numbers": "GPU 数量须为整数",
    "hosting names a rack unit range or a device": "托管须指定机柜 U 位范围或设备",
    "bandwidth priced per Mbps names the Mbps": "按 Mbps 计价的带宽须填写 Mbps",
    "ends before the service starts": "早于服务开始日期结束",
    "(choose a customer)": "（请选择客户）", "%1 (not free for the term)": "%1（合同期内不空闲）",
    "%n rack(s) free from %1 to %2": "%1 至 %2 期间空闲机柜 %n 个",
    "Monthly recurring": "月度固定费用", "One-off": "一次性费用", "Whole term (excl. VAT)": "合同期总金额（不含税）",
    "VAT": "增值税", "Total (incl. VAT)": "合同总金额（含税）", "In words": "大写",
    "Usage (GPU-hours, power over the allowance) is billed as used, on top.": "另按实际用量计费（GPU 时、超额电量），不含在上述金额内。",
    "%n item(s) with errors are not counted.": "%n 个有误的项目未计入。",
    "No subsidiary covers the customer's region: no serving team or response time.":
        "没有子公司覆盖该客户所在地区：无服务团队和响应时间。",
    "Served by %1 for the customer's region %2 (%3 h response).": "客户所在地区 %2 由 %1 提供服务（%3 小时响应）。",
    "The signer is the subsidiary operating the site of the racks or GPUs.": "签约方为机柜或 GPU 所在站点的运营子公司。",
    "The items are at sites of several subsidiaries (%1: %2); each signs its own contract.":
        "各项目分属多个子公司的站点（%1：%2）；应由各子公司分别签约。",
    "The items are at %1's sites (%2): %1 signs.": "项目位于 %1 的站点（%2）：应由 %1 签约。",
    "%1 signs: it operates %2.": "由 %1 签约：其运营 %2。",
    "A partial amount is a positive amount in yuan and fen, e.g. 1200.50.": "部分冲减金额须为正数，精确到分，例如 1200.50。",
    "Part of “%1”: %2 + VAT %3": "部分冲减“%1”：%2，增值税 %3", "“%1”: %2 + VAT %3": "“%1”：%2，增值税 %3",
    "Issue a credit note against %1 for %2 (incl. VAT)?": "对 %1 开具红字账单，金额 %2（含税）？",
    "The rest of the line stays billed; nothing is rebilled.": "该行其余金额照常计费，不重新出账。",
    "The lines are reversed in full; they may be rebilled afterwards.": "所选行全额冲销，之后可重新出账。",
    "Waive: never bill these lines again (SLA waiver, bad debt)": "免收：这些行不再计费（SLA 豁免、坏账）",
    "A waiver credits the lines in full: leave the partial amount empty.": "免收按整行冲销：请勿填写部分金额。",
    "The lines are waived: reversed in full and never billed again.": "所选行免收：全额冲销，不再计费。",
    "Confirm credit note": "确认红字账单", "Back": "返回",
    "the current password is wrong": "当前密码不正确", "a password has at least 8 characters": "密码至少 8 个字符",
    "the new password is the same as the current one": "新密码与当前密码相同",
    "Change own password": "修改本人密码", "Change my password": "修改我的密码", "Change my password…": "修改我的密码…",
    "Current password": "当前密码", "New password": "新密码", "New password again": "再次输入新密码",
    "Change password": "修改密码", "the two new passwords differ": "两次输入的新密码不一致",
    "Account": "账户", "Users && settings": "用户与设置", "Log out / switch user…": "注销 / 切换用户…",
    "Your password was changed.": "您的密码已修改。", "Database in use: %1": "当前使用的数据库：%1",
    "(started with another database than the one set below; the setting applies at the next start)":
        "（本次启动使用的数据库与下方设置不同；该设置在下次启动时生效）",
    # --- power ---
    "%1 %2 A: %3 kW now, %4 kW if the other side is lost; limit %5 kW (%6%)":
        "%1 %2 A：当前 %3 kW，另一路失电时 %4 kW；限值 %5 kW（%6%）",
    "%1: %2 kW typical · N redundancy: %3": "%1：典型功耗 %2 kW · N 冗余：%3",
    "%n device(s) not plugged into a PDU: counted on every feed of the rack": "%n 台设备未接入 PDU：按本柜所有回路均摊计算",
    "%n feed(s) over the limit": "%n 路回路超限", "A kW": "A 路 kW", "B kW": "B 路 kW", "Amperage": "电流",
    "Breaker": "断路器", "Feed": "回路", "Feeds": "回路", "Limit kW": "限值 kW", "Load %": "负载率 %",
    "Load kW": "负载 kW", "Max utilisation": "最大利用率", "N redundancy": "N 冗余", "N redundancy: %1": "N 冗余：%1",
    "On failover kW": "切换后 kW", "Outlet": "插座", "Panel": "配电柜", "Panels": "配电柜", "Phase": "相制",
    "Power panels and feeds": "配电柜与回路", "Power panels and feeds…": "配电柜与回路…",
    "Room %1: %2 kW; redundant %3, failing %4, one side only %5, no feeds %6":
        "机房 %1：%2 kW；冗余满足 %3，不满足 %4，仅单路 %5，无回路 %6",
    "Side": "路别", "Sold to": "售予合同", "Supply": "电源", "Voltage": "电压",
    "%1: %2 of %3 kW (%4%)": "%1：%2 / %3 kW（%4%）",
    # --- xconnect ---
    "Cross-connects": "交叉连接", "U%1 is leased to %2: only %2's devices go there": "U%1 已租给 %2：只能放入 %2 的设备",
    "Place a device of %3 at U%1 (%2)…": "在 U%1（%2）放置 %3 的设备…", "All states": "全部状态",
    "Choose a cross-connect first": "请先选择一条交叉连接", "Circuit id": "电路编号", "Customer port": "客户端口",
    "Disconnected is final: order a new cross-connect": "已拆除为终态：如需连接请重新下单",
    "Far end": "对端", "LOA PDF…": "LOA 授权书 PDF…", "LOA/CFA %1": "授权委托书 %1",
    "Medium": "介质", "Meet-me room": "汇聚机房（MMR）", "Moving the cross-connect…": "正在变更交叉连接状态…",
    "Reference, circuit id, customer or carrier": "编号、电路编号、客户或运营商",
    "Work note (ticket, who patched it)": "工作备注（工单号、跳纤人）", "on": "日期",
    "Carrier or cloud": "运营商或云服务商", "Contract (number, item position)": "合同（编号, 项目序号）",
    "Far end *": "对端 *", "Far-end port": "对端端口", "Medium *": "介质 *", "Meet-me room panel/port": "汇聚机房配线架/端口",
    "Order": "下单", "Order a cross-connect": "交叉连接下单", "Order a cross-connect…": "交叉连接下单…",
    "Ordered on *": "下单日期 *", "Other customer": "对端客户", "Patch panel *": "配线架 *", "Port *": "端口 *",
    "Rack *": "机柜 *", "SITE/ROOM/RACK or asset tag": "站点/机房/机柜 或资产标签", "Work note": "工作备注",
    "name the customer's rack": "请填写客户的机柜", "the contract has items 1 to %1": "该合同的项目序号为 1 至 %1",
    "Installation price each": "每条安装费", "Ordered on": "下单日期", "Installed on": "安装日期", "Active from": "开通日期", "Disconnected on": "拆除日期",
    # --- finance ---
    "credit code or name": "信用代码或名称", "bank reference (流水号)": "银行流水号", "Bank transfer": "银行转账",
    "Cash": "现金", "Cheque": "支票", "Bank draft": "汇票", "Keep as credit (do not allocate)": "暂不核销（计入预收余额）",
    "Record a bank receipt": "登记银行收款", "Date": "日期", "Reference": "流水号", "Method": "付款方式",
    "&Record receipt": "登记收款(&R)", "all": "全部", "Allocate the selected payment": "核销所选收款",
    "&Allocate": "核销(&A)", "Reverse the selected payment": "冲回所选收款", "Re&verse": "冲回(&V)",
    "Payment": "收款", "Payer": "付款户名", "Reverses": "冲回/冲销", "Allocated": "已核销", "Unallocated": "未核销",
    "Recorded by": "登记人", "Select a payment in the list first.": "请先在列表中选择一笔收款。",
    "Say why the payment is reversed.": "请填写冲回原因。", "Reverse payment": "冲回收款",
    "Reverse payment %1 by a counter-entry? Its statements are open again.":
        "以反向分录冲回收款 %1？其核销的对账单将重新变为未收。",
    "Payment %1 reversed.": "收款 %1 已冲回。", "Customer balance": "客户余额", "&Show": "查询(&S)",
    "Applied": "已抵扣", "Refunded": "已退还", "Balance": "余额",
    "Billed (statements less credit notes)": "应收（对账单减红字）", "Received (receipts less reversals)": "已收（收款减冲回）",
    "Deposits and prepayments applied": "押金及预付款抵扣", "Balance owed": "欠款余额", "Open statements": "未结清对账单",
    "Credit balance (unallocated)": "预收余额（未核销）", "optional": "选填", "Receive": "收取", "R&eceive": "收取(&E)",
    "Apply to a statement": "抵扣对账单", "App&ly": "抵扣(&L)", "Refund": "退还", "Refu&nd": "退还(&N)",
    "20 digits": "20 位数字", "without tax": "不含税", "(the customer's profile)": "（按客户开票信息）",
    "Record a fapiao for a statement": "登记对账单的发票", "&Add fapiao": "登记发票(&A)",
    "the fapiao it reverses": "被冲红的原发票号码", "the credit note's": "按红字账单",
    "Record a red-letter fapiao for a credit note": "登记红字账单的红字发票", "Original fapiao": "原发票号码",
    "Record red-le&tter": "登记红字发票(&T)", "Statement fapiao status": "对账单开票状态", "Aging": "账龄",
    "As of": "截至", "R&efresh": "刷新(&E)", "&Payments": "收款(&P)", "Customer &balance": "客户余额(&B)",
    "&Deposits": "押金/预付款(&D)", "&Fapiao": "发票(&F)", "A&ging": "账龄(&G)", "&Statements": "对账单(&S)",
    "&Receivables": "应收账款(&R)", "Overdue": "逾期金额", "Decision": "处理决定", "&Suspend…": "暂停服务(&S)…",
    "&Keep serving…": "继续服务(&K)…", "Overdue more than %1 days: suspension proposals": "逾期超过 %1 天：建议暂停服务",
    "%1 customer(s), ¥%2": "%1 个客户，¥%2", "suspend": "暂停服务", "keep serving": "继续服务",
    "Select a customer in the list first.": "请先在列表中选择一个客户。", "Decision on %1": "对 %1 的处理决定",
    "Why? (recorded in the audit trail)": "原因（记入审计日志）：", "Name on the fapiao": "名称（发票抬头）",
    "Taxpayer ID": "纳税人识别号", "Address and phone": "地址、电话", "Bank and account": "开户行及账号",
    "Fapiao type": "发票类型", "E-mail for delivery": "收票邮箱", "Save &invoicing profile": "保存开票信息(&I)",
    "Invoicing profile": "开票信息", "Invoicing profile not saved": "开票信息未保存",
    "Fapiao: %1 (¥%2 of ¥%3)": "开票：%1（已开 ¥%2，应开 ¥%3）",
    "Amount received": "已收取", "Statement no.": "对账单号",
    "Aging report": "账龄报表", "E&xport aging (PDF or XLSX)…": "导出账龄表（PDF 或 XLSX）(&X)…",
    "Monthly receivables summary": "应收账款月度汇总", "Monthly &summary (PDF or XLSX)…": "月度汇总（PDF 或 XLSX）(&S)…",
    "Save as": "另存为", "Wrote %1": "已写入 %1",
    "Feed %1 (%2) carries %3 kW, over %4% of its %5 A breaker (%6 kW)":
        "回路 %1（%2）负载 %3 kW，超过其 %5 A 断路器的 %4%（%6 kW）",
    "With %1 lost, feed %2 would carry %3 kW, over its limit of %4 kW": "%1失电时，回路 %2 将承载 %3 kW，超过限值 %4 kW",
    "With %1 lost, %2 kW of devices plugged into it only would go dark": "%1失电时，仅接该路的设备 %2 kW 将断电",
    # --- console ---
    "%1 (full depth)": "%1（全深）", "%1, %2 face%3": "%1，%2面%3", ", full depth": "，全深",
    "Owner: %1": "所有者：%1", "Typical power: %1 W": "典型功率：%1 W", "via %1": "经由 %1",
    "%1 / %2 kW": "%1 / %2 kW", "%1% of %2U": "%2U 的 %1%", "Devices: %1": "设备：%1", "Leased to %1": "租给 %1",
    "Units: %1 of %2 used (%3%)": "U 位：已用 %1 / %2（%3%）", "%1 serves %2": "%1 服务 %2",
    "History": "历史", "Lifecycle (%1)": "生命周期（%1）", "History: %1": "历史：%1",
    "%1 of %2 events, newest first": "%1 / 共 %2 条事件，最新在前", "Changes": "变更",
    "Event detail…": "事件详情…", "No audit events for this record.": "该记录没有审计事件。", "Older events": "更早的事件",
    "%1 contains (empty: no filter):": "%1包含（留空表示不筛选）：", "%1: all": "%1：全部",
    "CSV (*.csv)": "CSV (*.csv)", "Clear filters": "清除筛选", "Copy": "复制", "Export selection": "导出所选",
    "Export selection…": "导出所选…", "Filter by %1": "按%1筛选", "Filter by “%1”…": "按“%1”筛选…", "Filter": "筛选",
    "Filtered by %1": "筛选条件：%1", "History…": "历史…",
    "No records match these filters. Clear or change them to see more.": "没有符合这些筛选条件的记录。清除或修改筛选条件以查看更多。",
    "Nothing here yet.": "这里还没有记录。",
    # --- sec ---
    "Unlock login…": "解除登录锁定…", "Unlock %1": "解除 %1 的锁定", "Select one user first.": "请先选择一个用户。",
    "Lifts the lock of the selected login after repeated failed attempts; the reason goes into the audit trail.":
        "解除所选账号因多次登录失败而产生的锁定；原因将记入审计日志。",
    "%1 is locked until %2 after %3 failed attempts.": "%1 因 %3 次登录失败被锁定至 %2。",
    "%1 has %2 failed attempts in a row.": "%1 已连续 %2 次登录失败。", "%1 is not locked.": "%1 未被锁定。",
    "Locked until": "锁定至", "Failed logins": "失败次数",
    # --- importer ---
    "Import cancelled; nothing was imported.": "导入已取消，未导入任何内容。",
})


def _more_translations() -> None:
    """Each concern may keep its own table in scripts/translations_zh/<concern>.py (a dict ZH there):
    new pages add a file instead of growing this one, and parallel work does not collide."""
    import importlib.util
    for path in sorted((ROOT / "scripts" / "translations_zh").glob("*.py")):
        spec = importlib.util.spec_from_file_location(f"translations_zh_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        ZH.update(module.ZH)


_more_translations()


def _literal(node) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def extract_file(path: Path) -> list[tuple[str, str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module_ctx = None
    helper_ctx = None        # a module's `def _tr(text): return QCoreApplication.translate("CTX", text)`
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "TR_CONTEXT" for t in node.targets):
            module_ctx = _literal(node.value)
        if isinstance(node, ast.FunctionDef) and node.name == "_tr" and isinstance(node.body[-1], ast.Return) \
                and isinstance(node.body[-1].value, ast.Call) and node.body[-1].value.args:
            helper_ctx = _literal(node.body[-1].value.args[0])
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
                elif isinstance(f, ast.Name) and f.id == "_tr" and args and _literal(args[0]) is not None \
                        and helper_ctx:
                    out.append((helper_ctx, _literal(args[0]), child.lineno))
            walk(child, cls)
    walk(tree, None)
    return out


def data_messages() -> list[tuple[str, str]]:
    import models.choices as choices
    from app.read import queries
    from ui.kit.formfields import FORMS
    from ui.shell.i18n import KIND_LABELS
    from ui.shell.mainwindow import PAGES
    out = []
    for obj in choices.choice_sets():
        out += [(f"choices/{obj.__name__}", en) for _v, en, _zh in obj.labels()]
    from app.domain.auth import PERMISSION_LABELS
    out += [("permissions", label) for label in PERMISSION_LABELS.values()]
    from ui.pages.contracts.panel import MOVES
    out += [("ContractPanel", label) for _k, label, *_r in MOVES]
    for spec in queries.SPECS.values():
        out.append(("columns", spec.title))
        out += [("columns", c.label) for c in spec.columns]
    out += [("forms", f.label) for fields in FORMS.values() for f in fields]
    out += [("kinds", label) for label in KIND_LABELS.values()]
    out += [("MainWindow", label) for _p, label, _k in PAGES]
    # audit action and object names: app.audit.query holds them in both languages (no Qt messages)
    # the services' sentences: every template of the catalogue (app/domain/messages.py), by id in the console
    from app.domain.messages import CATALOGUE
    out += [("messages", e.template) for e in CATALOGUE.values()]
    return out


# PySide's self.tr() looks up the runtime class's name: subclasses need their parents' strings.
# Found from the class definitions under ui/ (e.g. RackElevationView -> RackPanel).
def subclass_contexts() -> dict[str, list[str]]:
    bases: dict[str, list[str]] = {}
    for path in sorted((ROOT / "ui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases[node.name] = [b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases]
    subs: dict[str, list[str]] = {}

    def ancestors(name, seen=()):
        for b in bases.get(name, []):
            if b in bases and b not in seen:
                yield b
                yield from ancestors(b, seen + (b,))
    for name in bases:
        for anc in ancestors(name):
            subs.setdefault(anc, []).append(name)
    return subs


# The same English word means different things per context (choice labels come from their ChoiceSet).
ZH_CONTEXT = {
    # --- console --- the audit dialogs' period (elsewhere "From"/"To" are a GPU's old and new state)
    ("AuditFilterDialog", "From"): "起始日期", ("AuditFilterDialog", "To"): "截止日期",
    ("AuditFilterBar", "From"): "起始日期", ("AuditFilterBar", "To"): "截止日期",
    ("audit", "%1 %2"): "%1%2",      # an action's name: verb and object (开具 + 账单)
    ("audit", "Move"): "移动", ("audit", "Run"): "运行", ("audit", "Create"): "新建", ("audit", "Approve"): "审批",
    ("audit", "Activate"): "生效", ("audit", "End"): "结束", ("audit", "Import"): "导入", ("audit", "Export"): "导出",
    ("audit", "Issue"): "开具", ("audit", "Renew"): "续签", ("audit", "Retire"): "退役", ("audit", "Cancel"): "取消",
    ("audit", "Resume"): "恢复", ("audit", "Expire"): "到期", ("audit", "Log in"): "登录", ("audit", "GPU"): "GPU",
    ("MainWindow", "Power"): "配电",  # --- power --- the racks page's power-chain tab
    ("PowerView", "Type"): "类型",
    ("XconnectsPage", "Reference"): "编号",  # a cross-connect's reference (elsewhere a bank receipt's 流水号)
}


def choice_translations() -> dict[tuple[str, str], str]:
    """The Chinese of every choice label, from the ChoiceSet itself (models/choices.py): the one
    source the PDFs read too, so screen and paper say the same word."""
    import models.choices as choices
    return {(f"choices/{obj.__name__}", en): zh for obj in choices.choice_sets() for _v, en, zh in obj.labels()}


def main() -> int:
    messages: dict[str, dict[str, list[str]]] = {}

    def add(ctx, src, where=None):
        locs = messages.setdefault(ctx, {}).setdefault(src, [])
        if where:
            locs.append(where)
    subclasses = subclass_contexts()
    for path in sorted((ROOT / "ui").rglob("*.py")):
        for ctx, src, line in extract_file(path):
            rel = f"../../{path.relative_to(ROOT).as_posix()}"
            add(ctx, src, (rel, line))
            for sub in subclasses.get(ctx, []):
                add(sub, src, (rel, line))
    for ctx, src in data_messages():
        add(ctx, src)
    missing = []
    by_choice = choice_translations()
    lines = ['<?xml version="1.0" encoding="utf-8"?>', "<!DOCTYPE TS>", '<TS version="2.1" language="zh_CN">']
    for ctx in sorted(messages):
        lines += ["<context>", f"    <name>{escape(ctx)}</name>"]
        for src in sorted(messages[ctx]):
            numerus = "%n" in src
            lines.append('    <message numerus="yes">' if numerus else "    <message>")
            for rel, line in messages[ctx][src][:1]:
                lines.append(f'        <location filename="{rel}" line="{line}"/>')
            lines.append(f"        <source>{escape(src)}</source>")
            zh = by_choice.get((ctx, src)) if ctx.startswith("choices/") else (ZH_CONTEXT.get((ctx, src)) or ZH.get(src) or ZH.get(src.strip()))
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
