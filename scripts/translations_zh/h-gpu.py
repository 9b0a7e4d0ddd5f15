"""Chinese for the h-gpu branch (issue 25): the capacity search's refusal as catalogue messages
(app/domain/messages.py capacity.*), the parts it is built of, and the capacity dialog's progress."""

ZH = {
    "%1 × %2%3%4 %5 cannot be offered: at most %6 GPUs are free%7%4, %8 short%9%10%11":
        "%1 × %2%3%4（%5）无法满足：最多 %6 张 GPU 空闲%7%4，缺 %8 张%9%10%11",
    "8-GPU training": "8 卡训练机型",
    " in one fabric": "，同一网络（Fabric）内",
    " in one scale-up domain": "，同一 Scale-up 域内",
    " in one site": "，同一机房内",
    " in %1": "，%1",
    "from %1 to %2": "%1 至 %2",
    "from %1, open-ended": "自 %1 起，不定期",
    "; no node of that model is free anywhere in the window": "；该时段内任何地方都没有该型号的空闲节点",
    "; nearest free capacity: %1": "；最近的空闲资源：%1",
    "%1 × %2 in %3 (%4)": "%3（%4）%1 × %2",
    "%1 × %2 in %3 (%4, no fabric)": "%3（%4，无高速网络）%1 × %2",
    "; held: %1": "；已预留：%1",
    "%1 × %2 in %3 (hold %4 until %5)": "%3 的 %1 × %2（预留单 %4，至 %5）",
    "; under maintenance: %1": "；维护中：%1",
    "%1 × %2 (%3)": "%1 × %2（%3）",
    "%1, %2": "%1、%2",
    # the capacity dialog's writes on the background runner
    "Holding %1 GPUs on %2 nodes…": "正在预留 %2 台节点上的 %1 张 GPU…",
    "Making the quote of hold %1…": "正在生成预留 %1 的报价单…",
    "Making the draft contract from quote %1…": "正在由报价单 %1 生成草稿合同…",
}
