"""Chinese for the h-gpu3 branch (issue 25): an offered node whose power chain is under maintenance
with reduced redundancy (a dual-fed rack losing one side)."""

ZH = {
    "%1 (reduced power redundancy: %2)": "%1（供电冗余降低：%2）",
    "Offered nodes marked \u201creduced power redundancy\u201d stay up on one power side while a maintenance window works on the other.":
        "标注\u201c供电冗余降低\u201d的节点在维护窗口施工期间仅由单路供电运行。",
}
