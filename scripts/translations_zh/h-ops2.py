"""The operations desk, second round (issue 24): the queue read a page at a time."""
ZH = {
    " · the first %1 by SLA due": " · 按 SLA 到期显示前 %1 张",
}
