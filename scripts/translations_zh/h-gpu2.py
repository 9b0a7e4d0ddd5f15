"""Chinese for the h-gpu2 branch (issue 25 leftovers): holds shown in the topology, the node list and
the utilisation chart, and why an available node is not offered."""

ZH = {
    "Held %1 until %2": "预留单 %1，至 %2",
    "not offered: GPUs %1": "不可提供：GPU %1",
    "Held %1: %2 × %3 · %4, until %5": "预留单 %1：%2 × %3 · %4，至 %5",
    "Hold / not offered": "预留 / 不可提供",
    "held by a capacity hold": "已被容量预留",
    "(dashed outline: maintenance; red corner: not offered for its GPUs' states)":
        "（虚线边框：维护中；红色角标：因 GPU 状态不可提供）",
    "GPUs %1": "GPU %1",
    "Held → %1": "已预留至 %1",
}
