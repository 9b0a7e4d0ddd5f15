"""The list views' export (ui/kit/listview.py) neutralises formula text as the bulk export does."""
from __future__ import annotations

import csv

import pytest

from app.services.common import create_record
from app.domain.validators import make_uscc

NAME = '=HYPERLINK("http://evil.example/x","点我")'


@pytest.mark.parametrize("suffix", ["csv", "xlsx"])
def test_list_export_neutralises_formula_text(db, admin, tmp_path, suffix):
    from app.read import queries
    from ui.kit.listview import export_rows

    create_record(db, admin, "customer", dict(name=NAME, credit_code=make_uscc("91440106MA59ABCD1")))
    spec = queries.SPECS["customer"]
    keys = [c.key for c in spec.columns]
    path = tmp_path / f"customers.{suffix}"
    assert export_rows(db, spec, str(path), text="", sort=spec.default_sort or keys[0], desc=False,
                       keys=keys, labels=keys) == 1
    if suffix == "csv":
        with open(path, encoding="utf-8-sig", newline="") as f:
            rows = list(csv.reader(f))
        values = rows[1]
    else:
        from openpyxl import load_workbook

        ws = load_workbook(path).worksheets[0]
        values = [c.value for c in ws[2]]
        assert all(c.data_type != "f" for c in ws[2])
    assert "'" + NAME in values and NAME not in values
