"""Files that are not what they claim: refused with a sentence naming the file, never a traceback,
and nothing written. A file that lists nothing does not silently empty what it replaces."""
from __future__ import annotations

import os

import pytest

from app.read import queries
from app.cli.main import main
from app.domain.errors import ValidationError
from app.services import receivables as R
from app.services.customers import save_customer
from app.domain.validators import make_uscc
from tests.conftest import PASSWORD, table_counts as _counts


def table_counts(db):
    """Row counts but the audit trail's (the command line's login is audited)."""
    return {k: v for k, v in _counts(db).items() if k not in ("audit_event", "_head")}

TWO = [{"name": "张伟", "role": "IT 经理", "phone": "13800138000", "email": "zhang@example.cn"},
       {"name": "王芳", "role": "财务", "phone": "0898-66123456", "email": None}]


@pytest.fixture
def cli(db, admin, monkeypatch, capsys):
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", PASSWORD)

    def call(*argv):
        code = main(["--db", db.url, "--user", "admin"] + list(argv))
        out = capsys.readouterr()
        return code, out.out, out.err
    return call


def test_random_bytes_as_a_bank_workbook_are_refused(db, admin, tmp_path, cli):
    path = tmp_path / "receipts.xlsx"
    path.write_bytes(os.urandom(4096))
    before = table_counts(db)
    with pytest.raises(ValidationError, match="receipts.xlsx is not an Excel workbook"):
        R.import_payments(db, admin, path)
    code, _out, err = cli("payments", "import", str(path))
    assert code == 1 and "not an Excel workbook" in err and "Traceback" not in err
    assert table_counts(db) == before


def _customer(db, admin):
    return save_customer(db, admin, None, {"name": "海口椰风智算", "credit_code": make_uscc("91460100MA5T00001")},
                         TWO)


def test_a_huge_cell_in_a_contacts_file_is_refused(db, admin, tmp_path, cli):
    cid = _customer(db, admin)
    path = tmp_path / "contacts.csv"
    path.write_text("name,phone,email,role\n" + "张" * (10 * 1024 * 1024 // 3) + ",13800138000,,\n", encoding="utf-8")
    code, _out, err = cli("customer", "contacts", str(cid), str(path))
    assert code == 1 and "longer than 131,072 characters" in err and "Traceback" not in err
    assert queries.customer_contacts(db, cid) == TWO


def test_a_contacts_file_with_only_its_header_empties_nothing(db, admin, tmp_path, cli):
    cid = _customer(db, admin)
    path = tmp_path / "contacts.csv"
    path.write_text("name,phone,email,role\n", encoding="utf-8")
    before = table_counts(db)
    code, _out, err = cli("customer", "contacts", str(cid), str(path))
    assert code == 1 and "lists no contacts" in err and "--remove-all" in err
    assert queries.customer_contacts(db, cid) == TWO and table_counts(db) == before
    code, out, err = cli("customer", "contacts", str(cid), str(path), "--remove-all")
    assert code == 0, err
    assert queries.customer_contacts(db, cid) == []


def test_a_contacts_file_still_replaces_the_contacts(db, admin, tmp_path, cli):
    cid = _customer(db, admin)
    path = tmp_path / "contacts.csv"
    path.write_text("Name,Phone,Email,Role\n李娜,13900139000,li@example.cn,运维\n", encoding="utf-8-sig")
    code, out, err = cli("customer", "contacts", str(cid), str(path))
    assert code == 0, err
    assert queries.customer_contacts(db, cid) == [{"name": "李娜", "role": "运维", "phone": "13900139000",
                                                   "email": "li@example.cn"}]
