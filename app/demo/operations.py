"""Demo: the operations desk (issue 24): an on-call rota for every site (this week and the next), a
credit rule on every active contract, and a week of tickets: yesterday's 03:00 P1 on a leased GPU
server (acknowledged late, on site, down hours recorded, resolved; its breach proposes a credit),
a P2 waiting for the vendor, remote hands, an inbound shipment, a P3 and a P2 still open."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from models import Contract, ContractItem, GpuAsset, GpuLease, Rack, Room, Site, SpaceLease, User
from models.choices import ContractStatus, TicketObjectType

from app.domain.actor import Actor
from app.domain.clock import local_midnight
from app.services.users import login
from app.store.db import Database

UTC = dt.timezone.utc
PASSWORD = "demo1234"


def _leased_server(db: Database) -> int | None:
    """A GPU server whose GPUs are leased by the month (the demo's 03:00 P1 is about it)."""
    with db.session() as s:
        return s.execute(select(GpuAsset.device_id).join(GpuLease, GpuLease.gpu_id == GpuAsset.id)
                         .join(ContractItem, ContractItem.id == GpuLease.contract_item_id)
                         .where(GpuLease.end.is_(None), ContractItem.price_unit == "month",
                                GpuAsset.device_id.is_not(None))
                         .order_by(ContractItem.id, GpuAsset.device_id)).scalars().first()


def load_demo_operations(db: Database, admin: Actor, today: dt.date) -> int:
    """Returns the number of tickets made."""
    from app.services.operations import credits as CR
    from app.services.operations import oncall as OC
    from app.services.operations import sla as SV
    from app.services.operations import tickets as TK

    with db.session() as s:
        users = dict(s.execute(select(User.login, User.id)).all())
        sites = list(s.execute(select(Site.id).order_by(Site.id)).scalars())
        contracts = list(s.execute(select(Contract.id).where(Contract.status == ContractStatus.ACTIVE)
                                   .order_by(Contract.id)).scalars())
    if "wanglei" not in users or "liuyang" not in users:
        return 0
    op = login(db, "wanglei", PASSWORD)
    for week in (today, today + dt.timedelta(days=7)):
        for i, site in enumerate(sites):
            a, b = ("wanglei", "liuyang") if (i + week.isocalendar()[1]) % 2 == 0 else ("liuyang", "wanglei")
            OC.set_shift(db, admin, week=week, site_id=site, primary_id=users[a], secondary_id=users[b],
                         manager_id=users["admin"], phone="0591-8888 7" + f"{i:03d}",
                         handover_note="A/B 列 PDU 告警已处理，B-07 风扇待换" if i == 0 else None)
    for cid in contracts:
        CR.set_credit_rule(db, admin, cid, breach_percent="5", monthly_cap_percent="10", promised_availability="99.9")
    now = dt.datetime.now(UTC)
    midnight = local_midnight(today)

    def at(days_ago: int, hh: int, mm: int = 0) -> dt.datetime:
        return min((midnight - dt.timedelta(days=days_ago) + dt.timedelta(hours=hh, minutes=mm)).astimezone(UTC),
                   now - dt.timedelta(minutes=1))

    made = 0
    server = _leased_server(db)
    if server is not None:
        pre = TK.prefill_for(db, TicketObjectType.DEVICE, server, at=at(1, 3))
        t = TK.open_ticket(db, op, title="GPU 服务器宕机，客户训练任务中断", priority="P1", channel="phone",
                           customer_id=pre.customer_id, contract_id=pre.contract_id, site_id=pre.site_id,
                           objects=[(TicketObjectType.DEVICE, server)],
                           description="客户值班电话：整机无响应，BMC 可登录，GPU 5 报 XID 79（掉卡）", at=at(1, 3))
        TK.acknowledge(db, op, t.id, at=at(1, 3, 22))
        TK.move_ticket(db, op, t.id, "on_site", at=at(1, 3, 48))
        TK.add_note(db, op, t.id, "已到场，确认 GPU 5 掉卡，申请备件", at=at(1, 3, 55))
        TK.move_ticket(db, op, t.id, "in_progress", at=at(1, 4, 10))
        TK.move_ticket(db, op, t.id, "resolved", note="更换 GPU 5，DCGM 诊断 level 3 通过，已通知客户恢复业务",
                       at=at(1, 6, 30))
        TK.record_ticket_downtime(db, op, t.id, start=at(1, 3), end=at(1, 6, 30), reason="GPU 掉卡，整机停机",
                                  at=at(1, 6, 31))
        made += 1
    cust = _first_customer(db)
    site = _site_of_customer(db, cust)
    t = TK.open_ticket(db, op, title="NVLink 带宽下降，训练速度慢 30%", priority="P2", channel="email",
                       customer_id=cust, site_id=site, at=at(3, 10))
    TK.acknowledge(db, op, t.id, at=at(3, 10, 12))
    TK.move_ticket(db, op, t.id, "in_progress", at=at(3, 10, 40))
    TK.move_ticket(db, op, t.id, "waiting_vendor", note="已提交厂商工单，等待 NVSwitch 固件", at=at(3, 12))
    made += 1
    t = TK.open_ticket(db, op, title="请重启 A05 机柜 U20 服务器", kind="remote_hands", task="reboot",
                       urgency="standard", priority="P4", channel="phone", customer_id=cust, site_id=site,
                       at=at(5, 14))
    TK.acknowledge(db, op, t.id, at=at(5, 14, 30))
    TK.move_ticket(db, op, t.id, "resolved", note="已按客户要求断电重启，系统正常", at=at(5, 15))
    TK.move_ticket(db, op, t.id, "closed", at=at(4, 9))
    made += 1
    t = TK.open_ticket(db, op, title="到货签收：2 台 8 卡服务器", kind="shipment", priority="P4",
                       carrier="顺丰速运", tracking_no="SF1234567890123", received_by="王磊", stored_where="库房 2 号货架",
                       customer_id=cust, site_id=site, at=at(2, 9, 30))
    TK.acknowledge(db, op, t.id, at=at(2, 9, 40))
    TK.move_ticket(db, op, t.id, "resolved", note="已签收，外箱完好，存放库房 2 号货架", at=at(2, 10))
    made += 1
    t = TK.open_ticket(db, op, title="机柜门锁损坏", priority="P3", channel="in_person", customer_id=cust, site_id=site,
                       at=now - dt.timedelta(hours=2))
    made += 1
    t = TK.open_ticket(db, op, title="交换机端口丢包", priority="P2", channel="phone", customer_id=cust, site_id=site,
                       at=now - dt.timedelta(minutes=50))
    TK.acknowledge(db, op, t.id, at=now - dt.timedelta(minutes=35))
    TK.move_ticket(db, op, t.id, "in_progress", at=now - dt.timedelta(minutes=20))
    made += 1
    SV.check_sla(db, op, now=now)
    return made


def _site_of_customer(db: Database, customer_id: int | None) -> int | None:
    """The site of the customer's first leased rack: where its tickets are worked."""
    if customer_id is None:
        return None
    with db.session() as s:
        return s.execute(select(Room.site_id).join(Rack, Rack.room_id == Room.id)
                         .join(SpaceLease, SpaceLease.rack_id == Rack.id)
                         .where(SpaceLease.customer_id == customer_id)
                         .order_by(SpaceLease.id)).scalars().first()


def _first_customer(db: Database) -> int | None:
    with db.session() as s:
        return s.execute(select(Contract.customer_id).where(Contract.status == ContractStatus.ACTIVE)
                         .order_by(Contract.id)).scalars().first()

