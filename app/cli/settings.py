"""`idc-console settings show` · `idc-console settings set KEY on|off [--reason …]` (administrators)."""
from __future__ import annotations


def register(sub) -> None:
    st = sub.add_parser("settings", help="installation settings kept in the database (e.g. four-eyes approval)")
    sts = st.add_subparsers(dest="settings_command", required=True)
    sts.add_parser("show", help="every setting and its value").set_defaults(handler=settings_show)
    s = sts.add_parser("set", help="change a setting (administrators; audited)")
    s.add_argument("key", help="e.g. contract_four_eyes")
    s.add_argument("value", help="on or off; a number for a numeric setting (e.g. power_breaker_limit_pct, "
                                 "overdue_suspension_days)")
    s.add_argument("--reason", help="why, for the audit trail")
    s.set_defaults(handler=settings_set)


def settings_show(ctx, args) -> int:
    from app.services.settings import SETTINGS, get_setting, setting_text

    ctx.open_upgraded()
    for key, spec in SETTINGS.items():
        print(f"{key}\t{setting_text(get_setting(ctx.db, key))}\t{spec.description}")
    return 0


def settings_set(ctx, args) -> int:
    from app.services.settings import change_setting, parse_value, setting_text

    actor = ctx.actor()
    value = change_setting(ctx.db, actor, args.key, parse_value(args.key, args.value), reason=args.reason)
    print(f"{args.key} = {setting_text(value)}")
    return 0
