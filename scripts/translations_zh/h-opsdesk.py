"""Chinese of the operations desk's refusals: site access and visits, maintenance windows
(app/domain/messages.py, the visit.* and maintenance.* entries)."""
ZH = {
    "the authorisation ends before it starts": "授权的结束日期早于开始日期",
    "cage %1 is not at site %2": "笼位 %1 不在站点 %2",
    "say why the access ends (e.g. the engineer left the company)": "请说明取消授权的原因（例如该工程师已离职）",
    "that access was revoked at %1 already": "该授权已于 %1 取消",
    "name at least one visitor (real name and ID)": "请至少填写一名访客（真实姓名和证件）",
    "visitor %1: the real name as on the ID": "访客 %1：请填写与证件一致的真实姓名",
    "visitor %1: the ID type is one of %2": "访客 %1：证件类型须为以下之一：%2",
    "visitor %1: the ID number": "访客 %1：请填写证件号码",
    "visitor %1: a resident ID number has 18 characters with a valid check digit; check it against the card":
        "访客 %1：居民身份证号码为 18 位且校验位正确，请对照证件核对",
    "visitor %1: at most 32 characters": "访客 %1：证件号码最多 32 个字符",
    "say what the visit is for (e.g. install two servers in rack A05)": "请说明来访事由（例如在 A05 机柜安装两台服务器）",
    "name the cage or the racks to visit": "请指定要进入的笼位或机柜",
    "give when the visit starts (date and time)": "请填写来访开始时间（日期和时间）",
    "the visit ends after it starts": "来访结束时间须晚于开始时间",
    "%1 is another account manager's customer: they request its visits": "%1 是其他客户经理的客户：应由其客户经理申请来访",
    "%1 is not a contact of %2": "%1 不是 %2 的联系人",
    "%1 does not lease cage %2 from %3 to %4: a visit goes only to the customer's own space":
        "%1 在 %3 至 %4 期间未租用笼位 %2：来访只能进入客户自己租用的空间",
    "%1 does not lease rack %2 from %3 to %4: a visit goes only to the customer's own space":
        "%1 在 %3 至 %4 期间未租用机柜 %2：来访只能进入客户自己租用的空间",
    "the racks or cage of one visit are at one site": "一次来访的机柜或笼位须在同一站点",
    "%1 is not authorised for %2 from %3 to %4: an administrator authorises the customer's contacts first "
    "(visit authorise)": "%1 在 %3 至 %4 期间未获准进入 %2：请管理员先为客户联系人授权（visit authorise）",
    "%1 is not authorised for %2 (that cage) from %3 to %4: an administrator authorises the customer's contacts "
    "first (visit authorise)": "%1 在 %3 至 %4 期间未获准进入 %2（该笼位）：请管理员先为客户联系人授权（visit authorise）",
    "visitor %1 is not authorised for %2 on those days: ask for an escort, or have the contact authorised first":
        "访客 %1 在这些日期未获准进入 %2：请申请陪同，或先为该联系人授权",
    "visitor %1 is not an authorised contact of %2: such visitors come escorted (ask for an escort)":
        "访客 %1 不是 %2 的授权联系人：此类访客须有人陪同（请申请陪同）",
    "%1 is %2: it cannot become %3": "%1 当前为“%2”：不能变为“%3”",
    "say why the visit is refused (the customer is told)": "请说明驳回来访的原因（将告知客户）",
    "say why the visit is cancelled": "请说明取消来访的原因",
    "the number of the badge handed over": "请填写发放的门禁卡号",
    "%1 is %2: only an approved visit is let in (an administrator approves it)":
        "%1 当前为“%2”：只有已批准的来访才能入场（由管理员审批）",
    "%1 was checked in at %2 already": "%1 已于 %2 登记入场",
    "%1 is for %2 – %3: %4 cannot be let in at %5": "%1 的来访时段为 %2 – %3：%4 不能在 %5 入场",
    "badge %1 is with %2, still on site: hand over another badge": "门禁卡 %1 在 %2 手中，其仍在场内：请发放另一张门禁卡",
    "%1 was never checked in": "%1 未曾登记入场",
    "%1 was checked out at %2 already": "%1 已于 %2 登记离场",
    "%1 came in at %2: out after that": "%1 于 %2 入场：离场时间须在此之后",
    "the device is not in a rack: name its rack's site work instead": "该设备不在机柜中：请改为对其所在机柜的站点作业",
    "give the start as a date and time (Asia/Shanghai)": "请填写开始的日期和时间（北京时间）",
    "give the end as a date and time (Asia/Shanghai)": "请填写结束的日期和时间（北京时间）",
    "the window ends after it starts": "维护窗口的结束时间须晚于开始时间",
    "what is worked on: %1": "维护对象须为以下之一：%1",
    "name what is worked on": "请指定维护对象",
    "say what the work is (e.g. 'UPS-A battery replacement')": "请说明维护内容（例如“UPS-A 更换电池”）",
    "emergency maintenance says why it cannot wait for the notice period": "紧急维护须说明为何不能等待通知期",
    "a UPS is named within its site: give the site": "UPS 按站点命名：请指定站点",
    "no power panel of that site is behind a UPS named '%1'": "该站点没有配电柜由名为“%1”的 UPS 供电",
    "that device is not a PDU plugged into a feed (`power pdu` attaches it)":
        "该设备不是接入供电回路的 PDU（用 `power pdu` 接入）",
    "%1 is %2: it cannot become %3 (allowed: %4)": "%1 当前为“%2”：不能变为“%3”（可变为：%4）",
    "%1 starts %2, %3 from now; planned maintenance is noticed at least %4 h before it starts (setting %5). "
    "Reschedule it later, or plan it as emergency maintenance with a reason.":
        "%1 于 %2 开始，距现在 %3；计划维护须至少提前 %4 小时通知（设置项 %5）。请改期到更晚的时间，"
        "或作为紧急维护并说明原因。",
    "%1 h": "%1 小时",
    "%1 h after it started": "已开始 %1 小时",
    "%1 is still tentative: confirm it (the customers get notice) first": "%1 仍为待定：请先确认（客户将收到通知）",
    "the work started %1: it ends after that": "维护于 %1 开始：结束时间须在此之后",
    "say why the work is cancelled (the customers were told of it)": "请说明取消维护的原因（客户已收到通知）",
    "say why the work moves": "请说明改期的原因",
    "%1 is %2: only a tentative or confirmed window is rescheduled": "%1 当前为“%2”：只有待定或已确认的维护窗口可以改期",
    "name the window as MW-000123 or its id": "请以 MW-000123 或其编号指定维护窗口",
    "none": "无",
    "tentative": "待定", "confirmed": "已确认", "in progress": "进行中", "completed": "已完成",
    "cancelled": "已取消", "rescheduled": "已改期", "requested": "待审批", "approved": "已批准",
    "rejected": "已驳回", "closed": "已结束",
    "Tentative": "待定", "Confirmed": "已确认", "Completed": "已完成",  # "In progress": ops-a.py
    "Cancelled": "已取消", "Rescheduled": "已改期",
}

# the holiday year (ui/pages/operations/holidays.py, app/services/operations/holidays.py)
ZH.update({
    "%1 is not a holiday-cn year file (JSON with \"year\" and \"days\"): %2":
        "%1 不是 holiday-cn 年度文件（含 “year” 和 “days” 的 JSON）：%2",
    "day %1 of the file: each day has a name, a date (YYYY-MM-DD) of %2 and isOffDay":
        "文件第 %1 天：每一天须有名称、%2 年内的日期（YYYY-MM-DD）和 isOffDay",
    "the file names no days: a year's schedule lists its holidays and make-up days":
        "文件未列出任何日期：年度安排须列出节假日和调休上班日",
    "Add a holiday year": "添加节假日年度",
    "a holiday-cn JSON file, e.g. 2028.json": "holiday-cn JSON 文件，例如 2028.json",
    "Choose…": "选择…",
    "Holiday": "节日",
    "Day": "安排",
    "Add the year": "添加该年度",
    "Public holidays and make-up working days as the State Council publishes them (the format of "
    "resources/holidays_cn). A day already on record is updated.":
        "国务院公布的法定节假日和调休上班日（resources/holidays_cn 的格式）。已登记的日期将被更新。",
    "Holiday year": "节假日年度",
    "JSON (*.json)": "JSON 文件 (*.json)",
    "%1: %2 days off, %3 make-up working days; source %4": "%1 年：放假 %2 天，调休上班 %3 天；来源 %4",
    "Day off": "放假",
    "Working day (调休)": "调休上班",
    "Holiday year…": "节假日年度…",
    "Add a year of China's holidays (Ctrl+Shift+H)": "添加一年的中国节假日（Ctrl+Shift+H）",
})
