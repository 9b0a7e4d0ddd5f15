"""Chinese of the message catalogue's sentences that are new or changed (app/domain/messages.py)."""
ZH = {
    "%1 has more decimals than allowed here: no decimals": "%1 的小数位过多：此处只能填写整数",
    "'%1' is not a %2: use YYYY-MM-DD (as text)": "“%1”不是有效日期：请按 YYYY-MM-DD 填写（文本）",
    "a rack lease names an existing rack or a cage": "机柜租赁须指定已有的机柜或笼位",
    "a unit range runs from U1 upwards and ends at or after its start": "U 位范围从 U1 起，结束 U 位不得小于起始 U 位",
    "the rack has %1U": "该机柜只有 %1U",
    "there is no tax rate for %1 valid in %2; the rates on record start in %3 and no screen adds one "
    "(they come with the database's upgrades): use a date from %3 on, or have the rate added to the "
    "database's tax_rate table":
        "%2 没有适用于 %1 的税率；已登记的税率自 %3 起生效，界面上无法添加税率（税率随数据库升级提供）："
        "请使用 %3 及以后的日期，或请人在数据库的 tax_rate 表中添加该税率",
    "there is no tax rate for %1 valid in %2, nor any rate for %1 on record; no screen adds one (they come "
    "with the database's upgrades): run db upgrade, or have the rate added to the database's tax_rate table":
        "%2 没有适用于 %1 的税率，也没有登记任何 %1 税率；界面上无法添加税率（税率随数据库升级提供）："
        "请运行 db upgrade，或请人在数据库的 tax_rate 表中添加该税率",
}
