"""Shared by every document: languages, labels, parties and letterheads, small number formats."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import select

from models import (Contact, Customer, Subsidiary)
from reports import (Party)

from ..errors import NotFound, ValidationError
from ..money import round_fen

FONT_ENV = "IDC_PDF_FONT"
LANGS = ("zh", "en")
ZERO = Decimal(0)
FEN = Decimal("0.01")

# --------------------------------------------------------------------------- labels
# Choice labels (states, kinds, units) come from models.choices, the same words as the screen's;
# the audit trail's object and verb words below are not choices.
AUDIT_OBJECT = {
    "subsidiary": ("子公司", "Subsidiary"), "site": ("数据中心", "Site"), "room": ("机房", "Room"),
    "rack": ("机柜", "Rack"), "device": ("设备", "Device"), "device_type": ("设备型号", "Device type"),
    "gpu": ("GPU", "GPU"), "gpu_model": ("GPU 型号", "GPU model"), "customer": ("客户", "Customer"),
    "contact": ("联系人", "Contact"), "contract": ("合同", "Contract"), "statement": ("对账单", "Statement"),
    "user": ("用户", "User"), "region": ("行政区划", "Region"), "coverage": ("服务覆盖", "Coverage"),
    "reservation": ("U 位预留", "Reservation"), "meter": ("电表读数", "Meter readings"),
    "downtime": ("停机记录", "Downtime"), "billing": ("计费", "Billing"), "audit": ("审计日志", "Audit log"),
    "auth": ("登录", "Sign-in"), "fleet": ("GPU 资产报告", "GPU fleet report"),
    "capacity": ("容量报告", "Capacity report"), "tax_rate": ("税率", "Tax rate"),
    "space": ("租赁空间", "Leased space"), "space_lease": ("租赁空间", "Leased space"), "cage": ("笼位", "Cage"),
}
AUDIT_VERB = {
    "create": ("新建", "created"), "update": ("修改", "changed"), "delete": ("删除", "deleted"),
    "transition": ("状态变更", "state change"), "install": ("安装", "installed"), "uninstall": ("卸下", "removed"),
    "move": ("移动", "moved"), "lease": ("出租", "leased"), "release": ("释放", "released"),
    "cancel": ("取消", "cancelled"), "login": ("登录", "sign-in"), "load": ("导入", "loaded"),
    "import": ("导入", "imported"), "run": ("运行", "run"), "issue": ("开具", "issued"),
    "credit": ("开具红字账单", "credit note"), "fapiao": ("登记发票号", "fapiao recorded"),
    "delete_draft": ("删除草稿", "draft deleted"), "add_lines": ("追加明细", "lines added"),
    "renew": ("续签", "renewed"), "amend": ("变更", "amended"), "supersede": ("被新版本取代", "superseded"),
    "submit": ("提交审批", "submitted"), "approve": ("批准", "approved"), "reject": ("驳回", "rejected"),
    "activate": ("生效", "activated"), "suspend": ("暂停", "suspended"), "resume": ("恢复", "resumed"),
    "expire": ("到期", "expired"), "terminate": ("终止", "terminated"), "record": ("登记", "recorded"),
    "end": ("结束", "ended"), "contacts": ("联系人变更", "contacts changed"), "export": ("导出", "exported"),
    "print": ("打印", "printed"),
}
FLEET_OWNER = ("自有", "Own fleet")


def _l(pair: tuple[str, str], lang: str) -> str:
    return pair[1] if lang == "en" else pair[0]


def _label(table: dict, value: str | None, lang: str) -> str:
    if value is None:
        return ""
    pair = table.get(value)
    return _l(pair, lang) if pair else str(value)


def action_label(action: str, lang: str) -> str:
    """'gpu.transition' → 'GPU 状态变更' / 'GPU state change'; an unknown code is shown as it is."""
    obj, _, verb = action.partition(".")
    if not verb:  # record_export's 'export' and 'print'
        return _label(AUDIT_VERB, obj, lang)
    if verb not in AUDIT_VERB:
        return action
    o = _label(AUDIT_OBJECT, obj, lang)
    v = _label(AUDIT_VERB, verb, lang)
    return f"{o}{v}" if lang == "zh" and not o[-1:].isascii() else f"{o} {v}"


def _check_lang(lang: str | None) -> str | None:
    if lang is not None and lang not in LANGS:
        raise ValidationError({"lang": f"the document language is zh or en, not {lang!r}"})
    return lang


def _fen(d) -> Decimal:
    return round_fen(d or 0)


def _units(value) -> int | Decimal:
    """Rack units as the sheet shows them: 10 not 10.0, 10.5 stays."""
    d = Decimal(value or 0)
    return int(d) if d == d.to_integral_value() else d.quantize(Decimal("0.1"))


def period_label(period: str, lang: str) -> str:
    y, m = period.split("-")
    if lang == "en":
        return dt.date(int(y), int(m), 1).strftime("%B %Y")
    return f"{int(y)}年{int(m)}月"


# --------------------------------------------------------------------------- parties
def _subsidiary_party(sub: Subsidiary, lang: str) -> Party:
    name = (sub.name_en or sub.name) if lang == "en" else sub.name
    return Party(name=name, credit_code=sub.credit_code or "", address=sub.address or "",
                 bank_name=sub.bank_name or "", bank_account=sub.bank_account or "", phone=sub.phone or "")


def _customer_party(s, cust: Customer) -> Party:
    contact = s.execute(select(Contact).where(Contact.customer_id == cust.id).order_by(Contact.id)).scalars().first()
    phone = ""
    if contact is not None and contact.phone:
        phone = f"{contact.phone}（{contact.name}）" if contact.name else contact.phone
    return Party(name=cust.name, credit_code=cust.credit_code or "", address=cust.address or "", phone=phone)


def _letterhead(s, subsidiary_code: str | None, lang: str) -> Party:
    """The issuing subsidiary; for group-wide reports the first one registered (the headquarters)."""
    q = select(Subsidiary)
    q = q.where(Subsidiary.code == subsidiary_code) if subsidiary_code else q.order_by(Subsidiary.id)
    sub = s.execute(q.limit(1)).scalars().first()
    if sub is None:
        if subsidiary_code:
            raise NotFound(f"there is no subsidiary with the code {subsidiary_code}")
        return Party(name="IDC console")
    return _subsidiary_party(sub, lang)
