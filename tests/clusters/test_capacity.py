"""Capacity search, holds, the price list and quotes (app/services/capacity/), on both backends.

The world: Guangzhou site GZ1 with cluster GZ-H100 (InfiniBand NDR, 8 nodes × 8 H100 = 64 GPUs in
racks A-01…A-02), the site's unassigned cluster (no fabric, 2 nodes × 8 H100) and cluster
GZ-910B (RoCE, 2 nodes × 8 Ascend 910B).
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest
from sqlalchemy import func, select

from app.domain.errors import RuleViolation, ValidationError
from app.services import billing as BS
from app.services import contracts as C
from app.services.capacity import holds as H
from app.services.capacity import prices as P
from app.services.capacity import quotes as Q
from app.services.capacity.search import CapacityRequest, search_capacity
from models import Device, DeviceType, GpuAsset, GpuModel
from models.capacity import CapacityHold
from models.choices import GpuState, HoldStatus, PriceProduct, PriceTerm
from models.cluster import GpuCluster, GpuNode
from tests.billing.test_billing_world import cst, make_world

START, END = dt.date(2026, 10, 1), dt.date(2026, 12, 31)  # three months


def _model(s, name: str, vendor: str = "NVIDIA", form: str = "sxm") -> GpuModel:
    m = s.execute(select(GpuModel).where(GpuModel.name == name)).scalar_one_or_none()
    if m is None:
        m = GpuModel(name=name, vendor=vendor, memory_gb=64, form_factor=form, interconnect="HCCS")
        s.add(m)
        s.flush()
    return m


def add_cluster(s, name: str, fabric: str, model: GpuModel, nodes: int, racks, tag: str) -> int:
    """A cluster of `nodes` 8-GPU servers of `model` (all available) spread over `racks` (ids), at
    the racks' site (test setup: the ORM directly)."""
    from models import Rack, Room

    site_id = s.get(Room, s.get(Rack, racks[0]).room_id).site_id
    c = GpuCluster(name=name, site_id=site_id, fabric=fabric)
    s.add(c)
    dtype = DeviceType(manufacturer="X", model=f"8-GPU {tag}", slug=f"x-8gpu-{tag}", u_height=D(4), gpu_slots=8)
    s.add(dtype)
    s.flush()
    for n in range(nodes):
        rack = racks[n * len(racks) // nodes]
        dev = Device(name=f"{tag}-{n + 1:02d}", device_type_id=dtype.id, rack_id=rack, position=D(1 + (n % 4) * 4), face="front")
        s.add(dev)
        s.flush()
        s.add(GpuNode(device_id=dev.id, cluster_id=c.id, state="available"))
        s.add_all(GpuAsset(serial=f"{tag}-{n + 1:02d}-{g}", gpu_model_id=model.id, device_id=dev.id, slot=g,
                           state=GpuState.AVAILABLE) for g in range(1, 9))
    s.flush()
    return c.id


@pytest.fixture
def fleet(db, admin):
    w = make_world(db, n_gpus=0)
    with db.session() as s:
        h100 = s.get(GpuModel, w.h100_id)
        ascend = _model(s, "Ascend 910B", "Huawei", "oam")
        add_cluster(s, "GZ-H100", "infiniband_ndr", h100, 8, w.rack_ids[:2], "h")
        add_cluster(s, "GZ1 unassigned", "none", h100, 2, w.rack_ids[2:3], "u")
        add_cluster(s, "GZ-910B", "roce", ascend, 2, w.rack_ids[3:4], "a")
        s.commit()
        ascend_id = ascend.id
    # the price list: H100 by the hour, month, year and hybrid; 910B by the month; a rack by the month
    for term, price, extra in ((PriceTerm.HOURLY, "18.50", {}), (PriceTerm.MONTHLY, "9000", {}),
                               (PriceTerm.YEARLY, "96000", {}),
                               (PriceTerm.HYBRID, "6000", {"included_hours": "400", "hourly_rate": "16"})):
        P.set_price(db, admin, gpu_model_id=w.h100_id, term=term, unit_price=price, valid_from=dt.date(2026, 1, 1), **extra)
    P.set_price(db, admin, gpu_model_id=ascend_id, term=PriceTerm.MONTHLY, unit_price="5200", valid_from=dt.date(2026, 1, 1))
    P.set_price(db, admin, product=PriceProduct.RACK, term=PriceTerm.MONTHLY, unit_price="6000",
                valid_from=dt.date(2026, 1, 1))
    return w


def _search(db, count=64, **kw):
    kw.setdefault("models", ("H100 SXM 80GB",))
    kw.setdefault("scope", "fabric")
    return search_capacity(db, CapacityRequest(count=count, start=START, end=END, **kw))


def test_64_h100_in_one_fabric_found_when_free_with_every_term_side_by_side(db, fleet):
    r = _search(db)
    assert r.shortfall is None and len(r.offers) == 1
    o = r.offers[0]
    assert (o.group, o.fabric, o.gpus, len(o.nodes), o.racks) == ("GZ-H100", "infiniband_ndr", 64, 8, 2)
    terms = {t.term: t for t in o.terms}
    # | term    | price               | 1 Oct – 31 Dec 2026 (92 days = 2,208 h), 64 GPUs      | before VAT    |
    # | hourly  | 18.50 / GPU-hour    | 64 × 2,208 × 18.50                                   | 2,614,272.00  |
    # | monthly | 9,000 / GPU-month   | 64 × 9,000 × 3                                       | 1,728,000.00  |
    # | yearly  | 96,000 / GPU-year   | 64 × 96,000 / 12 × 3                                 | 1,536,000.00  |
    # | hybrid  | 6,000 incl. 400 h   | per month 384,000 + (64 × 744 − 25,600) h × 16 …     |               |
    assert terms["hourly"].amount == D("2614272.00")
    assert terms["monthly"].amount == D("1728000.00") and terms["monthly"].vat == D("224640.00")
    assert terms["monthly"].total == D("1952640.00") and terms["monthly"].in_words == "壹佰玖拾伍万贰仟陆佰肆拾元整"
    assert terms["yearly"].amount == D("1536000.00")
    # October (31 d): 384,000 + (47,616 − 25,600) × 16 = 736,256; November (30 d): 384,000 + (46,080 − 25,600) × 16 = 711,680
    assert terms["hybrid"].first_month == D("736256.00")
    assert terms["hybrid"].amount == D("736256.00") + D("711680.00") + D("736256.00")


def test_refused_with_the_shortfall_named_when_a_node_is_in_maintenance(db, fleet):
    with db.session() as s:
        node = s.execute(select(GpuNode).join(Device, Device.id == GpuNode.device_id).where(Device.name == "h-03")).scalar_one()
        node.maintenance = True
        s.commit()
    r = _search(db)
    assert r.offers == ()
    assert "64 × H100 SXM 80GB in one fabric" in r.shortfall
    assert "at most 56 GPUs are free in one fabric, 8 short" in r.shortfall
    assert "nearest free capacity: 56 × H100 SXM 80GB in GZ-H100 (GZ1), 16 × H100 SXM 80GB in GZ1 unassigned (GZ1, no fabric)" in r.shortfall
    # anywhere in the site, 64 are still free (56 + 16)
    assert _search(db, scope="anywhere").offers[0].gpus == 64


def test_a_node_under_a_maintenance_window_of_the_operations_desk_is_not_free(db, fleet, admin):
    """A window on h-03's server (tentative, then confirmed) overlapping the search keeps its 8 GPUs
    out and the shortfall names it; a search after the window, or the window cancelled, finds 64."""
    from app.services.operations import maintenance as M

    with db.session() as s:
        dev = s.execute(select(Device).where(Device.name == "h-03")).scalar_one()
        rack_id = dev.rack_id
    wid = M.plan_maintenance(db, admin, target_kind="device", target=dev.id, planned_start=cst(2026, 12, 10, 9),
                             planned_end=cst(2026, 12, 10, 17), title="h-03 mainboard swap")
    r = _search(db)
    assert r.offers == () and "at most 56 GPUs are free in one fabric, 8 short" in r.shortfall
    assert f"under maintenance: 8 × H100 SXM 80GB ({M.reference(wid)})" in r.shortfall
    after = search_capacity(db, CapacityRequest(count=64, models=("H100 SXM 80GB",), scope="fabric",
                                                start=dt.date(2026, 12, 11), end=dt.date(2027, 3, 10)))
    assert after.offers and after.offers[0].gpus == 64
    M.cancel_maintenance(db, admin, wid, "moved to next quarter")
    assert _search(db).offers[0].gpus == 64
    # a window on a whole rack (A-01: h-01…h-04) overlapping an open-ended search keeps all four out
    M.plan_maintenance(db, admin, target_kind="rack", target=rack_id, planned_start=cst(2027, 1, 5, 9),
                       planned_end=cst(2027, 1, 5, 12), title="rack PDU swap")
    open_ended = search_capacity(db, CapacityRequest(count=40, models=("H100 SXM 80GB",), scope="fabric",
                                                     start=START))
    assert open_ended.offers == () and "at most 32 GPUs are free in one fabric" in open_ended.shortfall


def test_a_hold_hides_its_nodes_and_its_expiry_returns_them(db, fleet, manager, admin):
    offer = _search(db).offers[0]
    now = dt.datetime.now(dt.timezone.utc)
    hold = H.hold_capacity(db, manager, customer_id=fleet.customer_id, subsidiary_id=fleet.subsidiary_id,
                           node_ids=list(offer.node_ids), start=START, end=END, gpu_model_id=offer.model_id, now=now)
    assert hold.status == HoldStatus.ACTIVE and hold.gpus == 64 and hold.expires_at == now + dt.timedelta(days=7)
    second = _search(db)
    assert second.offers == () and "at most 0 GPUs are free in one fabric, 64 short" in second.shortfall
    assert f"held: 64 × H100 SXM 80GB in GZ-H100 (hold {hold.number} until" in second.shortfall
    # a second hold of the same nodes is refused, naming them, and writes nothing
    with pytest.raises(RuleViolation, match="8 of the 8 nodes are no longer free"):
        H.hold_capacity(db, manager, customer_id=fleet.other_customer_id, subsidiary_id=fleet.subsidiary_id,
                        node_ids=list(offer.node_ids), start=START, end=END, now=now)
    # after the expiry every search offers them again, and the sweep records it
    later = hold.expires_at + dt.timedelta(seconds=1)
    assert search_capacity(db, CapacityRequest(count=64, models=("H100 SXM 80GB",), scope="fabric", start=START,
                                               end=END), now=later).offers[0].gpus == 64
    assert H.expire_holds(db, manager, now=hold.expires_at - dt.timedelta(seconds=1)) == []
    assert H.expire_holds(db, manager, now=later) == [hold.number]
    assert H.get_hold(db, hold.id).status == HoldStatus.EXPIRED
    assert _search(db).offers[0].gpus == 64


def test_ascend_and_nvidia_in_one_search(db, fleet):
    r = _search(db, count=16, models=("H100 SXM 80GB", "Ascend 910B"))
    by_model = {o.model: o for o in r.offers}
    assert set(by_model) == {"H100 SXM 80GB", "Ascend 910B"}
    assert (by_model["Ascend 910B"].group, by_model["Ascend 910B"].vendor) == ("GZ-910B", "Huawei")
    assert by_model["Ascend 910B"].terms[0].amount == D("249600.00")  # 16 × 5,200 × 3
    # "any 8-GPU training model" finds both too (SXM and OAM cards)
    assert {o.model for o in search_capacity(db, CapacityRequest(count=16, training8=True, scope="fabric",
                                                                 start=START, end=END)).offers} == set(by_model)


def test_the_quote_equals_the_first_statement_of_its_contract(db, fleet, manager, admin):
    offer = _search(db).offers[0]
    hold = H.hold_capacity(db, manager, customer_id=fleet.customer_id, subsidiary_id=fleet.subsidiary_id,
                           node_ids=list(offer.node_ids), start=START, end=END, gpu_model_id=offer.model_id)
    quote = Q.create_quote(db, manager, hold=hold.number, term=PriceTerm.MONTHLY,
                           add_ons=(Q.AddOn(PriceProduct.RACK, rack_id=fleet.rack_ids[5]),))
    # | line                  | October             | VAT            |
    # | 64 × H100 at 9,000    | 576,000.00          | 13 % 74,880.00 |
    # | rack A-06 at 6,000    |   6,000.00          |  6 %    360.00 |
    # | first month           | 582,000.00 + 75,240.00 = 657,240.00 |
    assert (quote.first_month.term_value, quote.first_month.vat, quote.first_month.total) == (
        D("582000.00"), D("75240.00"), D("657240.00"))
    assert quote.totals.total == D("657240.00") * 3 and quote.valid_until >= dt.date.today()
    contract = Q.accept_quote(db, manager, quote.number)
    gpu_item = next(it for it in contract.items if it.kind == "gpu")
    with db.session() as s:
        serials = set(s.execute(select(GpuAsset.serial).where(GpuAsset.id.in_(gpu_item.gpu_ids))).scalars())
    assert len(serials) == 64 and serials == {f"h-{n:02d}-{g}" for n in range(1, 9) for g in range(1, 9)}
    assert H.get_hold(db, hold.id).status == HoldStatus.CONVERTED
    assert _search(db).offers == ()  # the converted hold keeps the nodes while the contract is drafted
    C.submit_contract(db, manager, contract.id)
    C.approve_contract(db, admin, contract.id)
    C.activate_contract(db, admin, contract.id, at=cst(2026, 10, 1))
    run = BS.run_billing(db, admin, "2026-10", as_of=cst(2026, 11, 2))
    assert [st.total for st in run.statements] == [quote.first_month.total]
    with pytest.raises(RuleViolation, match="accepted"):
        Q.accept_quote(db, manager, quote.number)
    # the trail vouches for every price, hold and quote row as stored
    from app.audit.reconcile import reconcile

    with db.session() as s:
        r = reconcile(s)
    assert r.ok, [d.describe() for d in r.differences[:5]]
    assert {"status", "contract_id"} <= set(r.fields_by_table["capacity_hold"])
    assert {"status", "contract_id"} <= set(r.fields_by_table["quote"]) and "unit_price" in r.fields_by_table["price_list"]


def busy_until_follows_leases(db) -> None:
    """Every GPU's busy_until is what its leases say: the latest end, 9999-12-31 while one is open."""
    from models import GpuLease
    from models.billing import LEASE_OPEN

    with db.session() as s:
        ends: dict[int, dt.datetime] = {}
        for gpu_id, end in s.execute(select(GpuLease.gpu_id, GpuLease.end)):
            ends[gpu_id] = max(ends.get(gpu_id, end or LEASE_OPEN), end or LEASE_OPEN)
        stored = dict(s.execute(select(GpuAsset.id, GpuAsset.busy_until)).all())
    assert stored == {gpu_id: ends.get(gpu_id) for gpu_id in stored}


def test_leases_take_their_nodes_for_their_days_only(db, fleet, manager, admin):
    """64 H100 leased from 1 Oct (the lease opens at activation) are busy over any window they
    overlap; once the contract ends on 30 Nov (lease closed at 1 Dec 00:00), an open-ended search from
    1 Dec finds all 64 and one from 1 Nov finds none; a lease planned for next year leaves this
    year's window free."""
    offer = _search(db).offers[0]
    hold = H.hold_capacity(db, manager, customer_id=fleet.customer_id, subsidiary_id=fleet.subsidiary_id,
                           node_ids=list(offer.node_ids), start=START, end=END, gpu_model_id=offer.model_id)
    quote = Q.create_quote(db, manager, hold=hold.number, term=PriceTerm.MONTHLY)
    contract = Q.accept_quote(db, manager, quote.number)
    C.submit_contract(db, manager, contract.id)
    C.approve_contract(db, admin, contract.id)
    C.activate_contract(db, admin, contract.id, at=cst(2026, 10, 1))
    busy_until_follows_leases(db)

    def free(start, end=None, **kw):
        r = search_capacity(db, CapacityRequest(count=8, models=("H100 SXM 80GB",), scope="fabric",
                                                start=start, end=end, **kw))
        return r.offers[0].free_in_group if r.offers else 0

    assert free(dt.date(2027, 1, 1)) == 0 and free(dt.date(2027, 1, 1), dt.date(2027, 3, 31)) == 0  # open lease
    C.terminate_contract(db, admin, contract.id, "the customer moved out", at=cst(2026, 11, 30, 18))
    busy_until_follows_leases(db)
    assert free(dt.date(2026, 12, 1)) == 64 and free(dt.date(2026, 12, 1), dt.date(2027, 2, 28)) == 64
    assert free(dt.date(2026, 11, 1)) == 0 and free(dt.date(2026, 11, 1), dt.date(2026, 11, 30)) == 0
    # a lease starting after a bounded window leaves the window free (its GPU's busy_until is open)
    from models import GpuLease
    with db.session() as s:
        gpu_id = s.execute(select(GpuAsset.id).where(GpuAsset.serial == "h-01-1")).scalar_one()
        s.add(GpuLease(gpu_id=gpu_id, contract_item_id=contract.items[0].id, start=cst(2027, 6, 1)))
        s.commit()
    busy_until_follows_leases(db)
    assert free(dt.date(2027, 1, 1), dt.date(2027, 5, 31)) == 64
    assert free(dt.date(2027, 1, 1), dt.date(2027, 6, 30)) == 56 and free(dt.date(2027, 1, 1)) == 56


def test_a_draft_short_of_gpus_names_the_shortfall_and_where_capacity_is(db, fleet, manager):
    item = C.ItemSpec(kind="gpu", description="H100 × 96", unit_price=D("9000"), price_unit="month",
                      quantity=D(96), gpu_model_id=fleet.h100_id)
    with pytest.raises(RuleViolation) as exc:
        C.create_contract(db, manager, subsidiary_id=fleet.subsidiary_id, customer_id=fleet.customer_id,
                          start_date=START, end_date=END, items=[item])
    assert "needs 96 × H100 SXM 80GB, but only 80 are available, 16 short" in exc.value.message
    assert "free now: 64 in GZ-H100 (GZ1), 16 in GZ1 unassigned (GZ1)" in exc.value.message


def test_a_price_replaces_the_open_one_and_refusals_change_nothing(db, fleet, admin, manager):
    from app.domain.errors import PermissionDenied

    P.set_price(db, admin, gpu_model_id=fleet.h100_id, term=PriceTerm.MONTHLY, unit_price="8500",
                valid_from=dt.date(2026, 12, 1))
    rows = [p for p in P.list_prices(db) if p.gpu_model_id == fleet.h100_id and p.term == "monthly"]
    assert [(p.unit_price, p.valid_from, p.valid_to) for p in rows] == [
        (D("9000.0000"), dt.date(2026, 1, 1), dt.date(2026, 11, 30)), (D("8500.0000"), dt.date(2026, 12, 1), None)]
    with db.session() as s:
        before = s.execute(select(func.count()).select_from(CapacityHold)).scalar_one()
    with pytest.raises(ValidationError):
        P.set_price(db, admin, gpu_model_id=fleet.h100_id, term=PriceTerm.HYBRID, unit_price="1",
                    valid_from=dt.date(2027, 1, 1))
    with pytest.raises(PermissionDenied):
        P.set_price(db, manager, gpu_model_id=fleet.h100_id, term=PriceTerm.HOURLY, unit_price="1",
                    valid_from=dt.date(2027, 1, 1))
    with db.session() as s:
        assert s.execute(select(func.count()).select_from(CapacityHold)).scalar_one() == before


def test_the_quote_pdf_in_chinese_and_english(db, fleet, manager, tmp_path):
    import os
    import shutil
    import subprocess

    from app.documents.printing import print_document

    offer = _search(db).offers[0]
    hold = H.hold_capacity(db, manager, customer_id=fleet.customer_id, subsidiary_id=fleet.subsidiary_id,
                           node_ids=list(offer.node_ids), start=START, end=END, gpu_model_id=offer.model_id)
    quote = Q.create_quote(db, manager, hold=hold.number, term=PriceTerm.MONTHLY,
                           add_ons=(Q.AddOn(PriceProduct.RACK, rack_id=fleet.rack_ids[5]),))
    texts = {}
    for lang in ("zh", "en"):
        printed = print_document(db, manager, "quote", quote.number, tmp_path / f"quote-{lang}.pdf", language=lang)
        assert printed.what == quote.number and printed.pages >= 1
        if os.environ.get("IDC_KEEP_PDF"):
            shutil.copy(printed.path, os.environ["IDC_KEEP_PDF"] + f"-{lang}.pdf")
        texts[lang] = subprocess.run(["pdftotext", "-layout", str(printed.path), "-"], capture_output=True,
                                     text=True, check=True).stdout
    zh, en = texts["zh"], texts["en"]
    assert "报价单" in zh and quote.number in zh and "1,971,720.00" in zh  # 657,240.00 × 3
    assert "壹佰玖拾柒万壹仟柒佰贰拾元整" in zh and "包年" in zh and "混合计费" in zh
    assert "Quotation" in en and "Valid until" in en and "Yearly" in en and "1,971,720.00" in en


def test_the_command_line_searches_holds_quotes_and_accepts(db, fleet, manager, admin, monkeypatch, capsys, tmp_path):
    from app.cli.main import main
    from tests.conftest import PASSWORD

    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", PASSWORD)
    url = db.engine.url.render_as_string(hide_password=False)

    def cli(*args):
        code = main(["--db", url, "--user", "am", *args])
        return code, capsys.readouterr().out

    with db.session() as s:
        from models import Customer

        credit = s.get(Customer, fleet.customer_id).credit_code
    code, out = cli("capacity", "search", "--model", "H100 SXM 80GB", "--count", "64", "--one-fabric",
                    "--from", "2026-10-01", "--months", "3", "--hold-for", credit)
    assert code == 0 and "offer 1: 64 × H100 SXM 80GB (NVIDIA) in GZ-H100 [infiniband_ndr]" in out
    assert "Monthly" in out and "1,952,640.00" in out and "hold GZ-H" in out
    code, out = cli("capacity", "search", "--model", "H100 SXM 80GB", "--count", "64", "--one-fabric",
                    "--from", "2026-10-01", "--months", "3")
    assert code == 1 and "64 short" in out and "held: 64 × H100 SXM 80GB in GZ-H100" in out
    number = H.list_holds(db)[0].number
    code, out = cli("quote", "create", number, "--rack", str(fleet.rack_ids[5]))
    assert code == 0 and "first month 582,000.00 + VAT 75,240.00 = 657,240.00" in out
    quote = Q.list_quotes(db)[0].number
    code, out = cli("quote", "pdf", quote, "-o", str(tmp_path / "q.pdf"))
    assert code == 0 and (tmp_path / "q.pdf").stat().st_size > 1000
    code, out = cli("quote", "accept", quote)
    assert code == 0 and "draft contract GZ-" in out
    code, out = cli("hold", "list", "--status", "converted")
    assert code == 0 and number in out and "1 hold(s)" in out


def test_the_shortfall_is_a_catalogue_message_read_in_chinese(db, fleet, qtbot):
    """The refusal carries its id (capacity.short) and reads in Chinese part by part: the scope, the
    window, each nearest group, the English unchanged."""
    from PySide6.QtWidgets import QApplication

    from ui.shell.i18n import install_translators
    from ui.shell.messages import translate_message

    r = _search(db, count=128)
    assert r.shortfall.id == "capacity.short"
    assert r.shortfall.startswith("128 × H100 SXM 80GB in one fabric from 2026-10-01 to 2026-12-31 cannot be offered: "
                                  "at most 64 GPUs are free in one fabric, 64 short; nearest free capacity: "
                                  "64 × H100 SXM 80GB in GZ-H100 (GZ1), 16 × H100 SXM 80GB in GZ1 unassigned (GZ1, no fabric)")
    app = QApplication.instance()
    install_translators(app, "zh")
    try:
        zh = translate_message(r.shortfall)
    finally:
        install_translators(app, "en")
    assert zh.startswith("128 × H100 SXM 80GB，同一网络（Fabric）内（2026-10-01 至 2026-12-31）无法满足：最多 64 张 GPU 空闲")
    assert "；最近的空闲资源：GZ-H100（GZ1）64 × H100 SXM 80GB、GZ1 unassigned（GZ1，无高速网络）16 × H100 SXM 80GB" in zh
