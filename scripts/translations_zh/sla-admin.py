"""Chinese of the SLA targets and calendars dialog (ui/pages/operations/slaadmin.py) and its service's
refusals (app/domain/messages.py, the sla.* entries)."""
ZH = {
    "SLA targets…": "SLA 目标…",
    "Targets per priority and the calendars' business hours (Ctrl+Shift+L)": "各优先级的目标与日历的工作时间（Ctrl+Shift+L）",
    "SLA targets and calendars": "SLA 目标与日历",
    "Targets": "目标",
    "Calendars": "日历",
    "Save": "保存",
    "Service level: %1": "服务等级：%1",
    "Contract %1 (%2)": "合同 %1（%2）",
    "Priority": "优先级",
    "Calendar": "日历",
    "Acknowledge (min)": "响应（分钟）",
    "On site (min)": "到场（分钟）",
    "Resolve (min)": "解决（分钟）",
    "The default of every contract in a region with this coverage level.": "覆盖等级为此等级的区域内所有合同的默认目标。",
    "This contract's own targets override its service level's; a priority left empty keeps following the level.":
        "本合同自己的目标优先于其服务等级的目标；留空的优先级仍沿用服务等级的目标。",
    "Mode": "模式",
    "Business hours": "工作时间",
    "Follows China's public holidays and make-up working days (调休)": "遵循中国法定节假日和调休上班日",
    "a whole number of minutes above 0 (at most a year)": "须为大于 0 的整数分钟（最多一年）",
    "targets belong to a service level or to one contract, not both": "目标属于一个服务等级或一份合同，不能同时属于两者",
    "%1 is not a service level: one of %2": "%1 不是服务等级：须为以下之一：%2",
    "%1 is not a priority: P1 to P4": "%1 不是优先级：须为 P1 至 P4",
    "%1: the time to resolve is at least the time to acknowledge": "%1：解决时限不得短于响应时限",
    "a calendar is one of %1": "日历模式须为以下之一：%1",
    "business hours: %1": "工作时间：%1",
    "business hours name at least one weekday, e.g. 'mon 09:00-18:00; tue 09:00-18:00'":
        "工作时间须至少包含一个工作日，例如 'mon 09:00-18:00; tue 09:00-18:00'",
}
