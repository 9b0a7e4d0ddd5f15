"""Which subsidiary signs (the site of the contracted space or GPUs) and who serves (the coverage
of the customer's region): the rule, and the demo data following it."""
from __future__ import annotations

from sqlalchemy import select

from app.services.contracts import get_contract
from app.services.contracts.signing import serving_team, signer_for_items
from models import Contract, Customer, Rack, Room, Site, Subsidiary


def test_every_demo_contract_is_signed_by_the_subsidiary_operating_its_sites(demo_db):
    with demo_db.session() as s:
        ids = s.execute(select(Contract.id).order_by(Contract.number)).scalars().all()
    assert len(ids) == 25  # 22, and the shared rack and cage of app/demo/space.py
    wrong = []
    for cid in ids:
        info = get_contract(demo_db, cid)
        proposal = signer_for_items(demo_db, info.items)
        assert proposal.subsidiaries, info.number          # every demo contract has space or GPUs
        if proposal.spans_several or proposal.proposed != info.subsidiary_id:
            wrong.append(info.number)
    assert wrong == []


def test_each_demo_subsidiary_has_its_own_local_phone(demo_db):
    with demo_db.session() as s:
        phones = dict(s.execute(select(Subsidiary.code, Subsidiary.phone)).all())
    assert len(set(phones.values())) == len(phones) == 6
    assert phones["BJ"].startswith("010-") and phones["SZ"].startswith("0755-") and phones["FZ"].startswith("0591-")


def test_items_at_two_subsidiaries_sites_are_flagged_and_the_serving_team_follows_the_region(demo_db):
    with demo_db.session() as s:
        racks = {code: s.execute(select(Rack.id).join(Room, Room.id == Rack.room_id).join(Site, Site.id == Room.site_id)
                                 .where(Site.code == code).order_by(Rack.id)).scalars().first()
                 for code in ("FZ-MW1", "GZ-HP1")}
        subs = dict(s.execute(select(Subsidiary.code, Subsidiary.id)).all())
        haikou = s.execute(select(Customer.id).where(Customer.name == "海口美兰数智科技有限公司")).scalar_one()

    class Item:
        def __init__(self, rack_id):
            self.kind, self.rack_id, self.device_id, self.gpu_ids, self.gpu_model_id = "rack", rack_id, None, (), None
    one = signer_for_items(demo_db, [Item(racks["GZ-HP1"])])
    assert one.proposed == subs["GZ"] and not one.spans_several and one.sites == ("GZ-HP1",)
    both = signer_for_items(demo_db, [Item(racks["FZ-MW1"]), Item(racks["GZ-HP1"])])
    assert both.spans_several and [i for i, _n in both.subsidiaries] == [subs["FZ"], subs["GZ"]]
    # Haikou's 美兰区 is covered by Fuzhou remotely at 8 h (its own district) before Guangzhou's city-wide 12 h
    team = serving_team(demo_db, haikou)
    assert (team.subsidiary_id, team.response_hours) == (subs["FZ"], 8) and "美兰区" in team.region_name
