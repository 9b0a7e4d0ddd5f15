"""The operations desk, second round (issue 24): the queue read a page at a time, who raised a
ticket, a ticket for a power feed."""
ZH = {
    " · the first %1 by SLA due": " · 按 SLA 到期显示前 %1 张",
    "Contact": "联系人",
    "(choose who raised it)": "（请选择报障人）",
    "(no contacts)": "（无联系人）",
    "choose which of the customer's contacts raised it": "请选择是客户的哪位联系人报的障",
    "%1 has no phone number on file": "%1 没有登记电话号码",
    "%1 has no e-mail address on file": "%1 没有登记电子邮件地址",
    "Open a ticket for this feed…": "为此馈线开工单…",
    "Choose a feed first": "请先选择一条馈线",
    "Plan maintenance": "计划维护",
    "Plan maintenance…": "计划维护…",
    "e.g. UPS-A battery replacement": "例如：UPS-A 电池更换",
    "Emergency (cannot wait for the notice period)": "紧急维护（不能等待通知期）",
    "Why it cannot wait": "不能等待的原因",
    "Object": "对象",
    "the UPS's name, e.g. UPS-A": "UPS 名称，例如 UPS-A",
    "choose what is worked on from the list": "请从列表中选择维护对象",
}
