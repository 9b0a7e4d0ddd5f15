"""A customer's contacts: saved with the customer in one transaction, all of them exported, and the
region picker's full paths."""
from __future__ import annotations

import csv

import pytest
from sqlalchemy import select

from app.read import queries
from app.domain.errors import ValidationError
from app.importexport import run_export, run_import
from app.services.customers import save_customer
from app.domain.validators import make_uscc
from models import AuditEvent, Region
from tests.conftest import table_counts

TWO = [{"name": "张伟", "role": "IT 经理", "phone": "13800138000", "email": "zhang@example.cn"},
       {"name": "王芳", "role": "财务", "phone": "0898-66123456", "email": None}]


def _haikou(db):
    with db.session() as s:
        s.add_all([Region(code="460000", name="海南省", level=1),
                   Region(code="460100", name="海口市", level=2, parent_code="460000"),
                   Region(code="460106", name="龙华区", level=3, parent_code="460100"),
                   Region(code="440000", name="广东省", level=1),
                   Region(code="440300", name="深圳市", level=2, parent_code="440000"),
                   Region(code="440301", name="市辖区", level=3, parent_code="440300"),
                   Region(code="440309", name="龙华区", level=3, parent_code="440300")])
        s.commit()


def test_a_new_customer_and_its_contacts_are_one_save(db, admin):
    _haikou(db)
    cid = save_customer(db, admin, None, {"name": "海口椰风智算", "credit_code": make_uscc("91460100MA5T00001"),
                                          "region_code": "460106"}, TWO)
    assert queries.customer_contacts(db, cid) == TWO
    with db.session() as s:
        actions = [a for (a,) in s.execute(select(AuditEvent.action).where(AuditEvent.object_type == "customer",
                                                                         AuditEvent.object_id == str(cid))
                                           .order_by(AuditEvent.seq))]
    assert actions == ["customer.create", "customer.contacts"]
    # edit: one contact less, one changed; the version is checked
    version = queries.record(db, "customer", cid)["version"]
    save_customer(db, admin, cid, {"address": "海口市龙华区滨海大道 1 号"},
                  [dict(TWO[1], email="wang@example.cn")], version)
    assert queries.customer_contacts(db, cid) == [dict(TWO[1], email="wang@example.cn")]
    assert queries.record(db, "customer", cid)["address"] == "海口市龙华区滨海大道 1 号"


def test_a_bad_contact_refuses_the_whole_save_with_every_field_named(db, admin):
    before = table_counts(db)
    with pytest.raises(ValidationError) as exc:
        save_customer(db, admin, None, {"name": "", "credit_code": make_uscc("91460100MA5T00002")},
                      [{"name": "张伟", "phone": "call me"}, {"name": " ", "email": "x"}])
    assert set(exc.value.errors) == {"name", "contacts[0].phone", "contacts[1].name", "contacts[1].email"}
    assert table_counts(db) == before
    # a good customer with a bad contact: still nothing written
    with pytest.raises(ValidationError) as exc:
        save_customer(db, admin, None, {"name": "海口椰风智算", "credit_code": make_uscc("91460100MA5T00002")},
                      [{"name": "张伟", "phone": "call me"}])
    assert set(exc.value.errors) == {"contacts[0].phone"}
    assert table_counts(db) == before


def test_every_contact_is_exported_and_the_export_imports_unchanged(db, admin, tmp_path):
    cid = save_customer(db, admin, None, {"name": "海口椰风智算", "credit_code": make_uscc("91460100MA5T00003")}, TWO)
    save_customer(db, admin, None, {"name": "没有联系人的客户", "credit_code": make_uscc("91460100MA5T00004")}, [])
    out = tmp_path / "customers.csv"
    run_export(db, admin, "customers", out)
    with open(out, encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["name"], r["contact_name"], r["contact_role"]) for r in rows] == [
        ("海口椰风智算", "张伟", "IT 经理"), ("海口椰风智算", "王芳", "财务"), ("没有联系人的客户", "", "")]
    result = run_import(db, admin, "customers", out)
    assert (result.created, result.updated) == (0, 0)
    assert queries.customer_contacts(db, cid) == TWO


def test_region_choices_show_the_whole_path(db):
    _haikou(db)
    labels = dict(queries.options(db, "region"))
    assert labels["460106"] == "海南省 / 海口市 / 龙华区 460106"
    assert labels["440309"] == "广东省 / 深圳市 / 龙华区 440309"
    assert labels["440301"] == "广东省 / 深圳市 / 市辖区 440301"   # a stored placeholder still shows
    assert labels["460000"] == "海南省 460000"
    assert [c for c, label in labels.items() if "龙华区" in label] == ["440309", "460106"]
