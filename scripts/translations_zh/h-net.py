"""Chinese for the read replica's status-bar lines (issue 26)."""
ZH = {
    "Read replica unavailable: reading from the primary": "只读副本不可用：改从主库读取",
    "Read replica %1 s behind": "只读副本落后 %1 秒",
}
