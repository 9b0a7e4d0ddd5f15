"""Small fixtures built through the services, shared by service tests."""
from __future__ import annotations

from decimal import Decimal

from app.services.common import create_record
from app.services.reference import load_regions
from app.domain.validators import make_uscc


def build_site(db, admin, *, rack_kw=Decimal("10"), racks=2):
    """Regions, a subsidiary, a site, a room and `racks` racks; returns a dict of ids."""
    load_regions(db, admin)
    sub = create_record(db, admin, "subsidiary", dict(code="GZ", name="华锐算力（广州）有限公司",
                                                      credit_code=make_uscc("91440112MA5D2H9P4")))
    site = create_record(db, admin, "site", dict(code="GZ-HP1", name="广州黄埔数据中心", subsidiary_id=sub,
                                                 region_code="440112", latitude="23.167", longitude="113.46"))
    room = create_record(db, admin, "room", dict(site_id=site, name="A 机房"))
    rack_ids = [create_record(db, admin, "rack", dict(room_id=room, name=f"A{i + 1:02d}", power_capacity_kw=rack_kw))
                for i in range(racks)]
    return dict(subsidiary=sub, site=site, room=room, racks=rack_ids)


def build_types(db, admin):
    """A 2U half-depth server, a 4U full-depth GPU server (8 × L40S) and a 1U switch."""
    from sqlalchemy import select

    from models import GpuModel

    with db.session() as s:
        l40s = s.execute(select(GpuModel.id).where(GpuModel.name == "L40S 48GB")).scalar_one()
    return dict(
        server=create_record(db, admin, "device_type", dict(manufacturer="Dell", model="R760", slug="dell-r760",
                                                            u_height=2, is_full_depth=False, typical_power_w=700,
                                                            max_power_w=1400)),
        gpu_server=create_record(db, admin, "device_type", dict(
            manufacturer="Supermicro", model="SYS-421GE-TNRT", slug="sm-421ge", u_height=4, is_full_depth=True,
            typical_power_w=3600, max_power_w=4400, gpu_slots=8, gpu_model_id=l40s, role="gpu_server")),
        switch=create_record(db, admin, "device_type", dict(manufacturer="H3C", model="S6850", slug="h3c-s6850",
                                                            u_height=1, is_full_depth=False, typical_power_w=200)),
        l40s=l40s,
    )


def build_customer(db, admin, name="广州天河视觉智能有限公司", body="91440106MA59ABCD1"):
    return create_record(db, admin, "customer", dict(name=name, credit_code=make_uscc(body), region_code="440106"))


def ensure_admin(db):
    """For property tests that reuse one database across examples: an admin, logged in."""
    from app.services.users import add_user, has_users, login

    if not has_users(db):
        add_user(db, None, "admin", "admin", "correct-horse-1")
    return login(db, "admin", "correct-horse-1")
