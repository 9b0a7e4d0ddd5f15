"""tax codes by kind of line and VAT rate, replacing one classification per kind of charge

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-01

`tax_code` (line_kind, tax_rate) → 商品和服务税收分类编码, 简称, 项目名称 and where the code comes
from. A code carries its own rate on the tax platform, so a GPU line at 13 % and one at 6 % need
different codes; `tax_classification` (0019) had one per kind, and its default for rack, hosting and
GPU lines (3040203050000000000) was found in no public source. The defaults below are a frozen copy
of resources/tax_codes/tax_codes.csv (sources in its README.md); a row of 0019 an administrator had
changed is kept as its kind's 6 % code (every code 0019 seeded was a 6 % service code).
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0026'
down_revision: Union[str, Sequence[str], None] = '0025'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

LINE_KINDS = ("line_kind IN ('rack', 'hosting', 'gpu', 'bandwidth', 'maintenance', 'one_off', 'discount', "
              "'power', 'xconnect', 'electricity')")
ITEM_KINDS = ("item_kind IN ('rack', 'hosting', 'gpu', 'bandwidth', 'maintenance', 'one_off', 'discount', 'power', "
              "'xconnect')")
_SRC = "default of migration 0026_tax_codes; sources: resources/tax_codes/README.md (corroborated, not verified)"
DEFAULTS = (
    ("rack", "0.0600", "3040203000000000000", "信息系统服务", "机柜租赁服务"),
    ("hosting", "0.0600", "3040203000000000000", "信息系统服务", "服务器托管服务"),
    ("gpu", "0.0600", "3040205000000000000", "信息系统增值服务", "算力服务"),
    ("gpu", "0.1300", "3040502019900000000", "经营租赁", "GPU服务器经营租赁"),
    ("bandwidth", "0.0600", "3030200000000000000", "增值电信服务", "带宽服务"),
    ("maintenance", "0.0600", "3040203000000000000", "信息系统服务", "设备运维服务"),
    ("one_off", "0.0600", "3040203000000000000", "信息系统服务", "技术服务"),
    ("power", "0.0600", "3040203000000000000", "信息系统服务", "电力回路服务"),
    ("xconnect", "0.0600", "3040203000000000000", "信息系统服务", "交叉连接服务"),
    ("electricity", "0.1300", "1100101020200000000", "供电", "电费"),
)


def upgrade() -> None:
    import datetime as dt
    from decimal import Decimal

    bind = op.get_bind()
    edited = bind.execute(sa.text("SELECT item_kind, code, short_name, item_name, updated_by FROM tax_classification "
                                  "WHERE updated_by IS NOT NULL AND item_kind <> 'discount'")).all()
    tc = op.create_table(
        "tax_code",
        sa.Column("line_kind", sa.String(length=16), nullable=False),
        sa.Column("tax_rate", sa.Numeric(precision=5, scale=4), nullable=False),
        sa.Column("code", sa.String(length=19), nullable=False),
        sa.Column("short_name", sa.String(length=32), nullable=False),
        sa.Column("item_name", sa.String(length=64), nullable=False),
        sa.Column("source", sa.Text(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("updated_by", sa.String(length=64), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.CheckConstraint(LINE_KINDS, name=op.f("ck_tax_code_line_kind")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tax_code")),
        sa.UniqueConstraint("line_kind", "tax_rate", name="uq_tax_code_kind_rate"),
    )
    now = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)
    rows = {(k, Decimal(r)): {"line_kind": k, "tax_rate": Decimal(r), "code": c, "short_name": s, "item_name": n,
                              "source": _SRC, "updated_at": now, "updated_by": None}
            for k, r, c, s, n in DEFAULTS}
    for kind, code, short, name, by in edited:
        rows[(kind, Decimal("0.0600"))] = {"line_kind": kind, "tax_rate": Decimal("0.0600"), "code": code,
                                           "short_name": short, "item_name": name, "updated_at": now,
                                           "source": f"set by {by} before migration 0026 (one code per kind)",
                                           "updated_by": by}
    op.bulk_insert(tc, list(rows.values()))
    op.drop_table("tax_classification")


def downgrade() -> None:
    import datetime as dt

    tc = op.create_table(
        "tax_classification",
        sa.Column("item_kind", sa.String(length=16), nullable=False),
        sa.Column("code", sa.String(length=19), nullable=False),
        sa.Column("short_name", sa.String(length=32), nullable=False),
        sa.Column("item_name", sa.String(length=64), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("updated_by", sa.String(length=64), nullable=True),
        sa.CheckConstraint(ITEM_KINDS, name=op.f("ck_tax_classification_item_kind")),
        sa.PrimaryKeyConstraint("item_kind", name=op.f("pk_tax_classification")),
    )
    now = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)
    six = op.get_bind().execute(sa.text(
        "SELECT line_kind, code, short_name, item_name, updated_by FROM tax_code "
        "WHERE tax_rate = 0.06 AND line_kind <> 'electricity'")).all()
    op.bulk_insert(tc, [{"item_kind": k, "code": c, "short_name": s, "item_name": n, "updated_at": now,
                         "updated_by": by} for k, c, s, n, by in six])
    op.drop_table("tax_code")
