"""Chinese for the h-gpu4 branch (issue 25): an offered node degraded by a maintenance window on its
power chain (its rack's side kept cannot carry the rack's load)."""

ZH = {
    "%1 (degraded power: %2)": "%1（供电能力不足：%2）",
    "Offered nodes marked \u201cdegraded power\u201d are in a rack whose side kept cannot carry the rack's load "
    "while a maintenance window works on the other side: offered last.":
        "标注\u201c供电能力不足\u201d的节点所在机柜在维护窗口施工期间，保留的一路供电无法承载整柜负载：排在最后推荐。",
}
