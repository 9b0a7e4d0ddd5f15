"""metered electricity is taxed as electricity: a tax_rate category `electricity` at 13 %

Revision ID: 0028
Revises: 0027
Create Date: 2026-12-01

Metered energy (the `power` charge: a rack's kWh beyond its allowance, a kWh-priced item, a
circuit's metered kWh) is resold electricity (转售电), taxed as the sale of electricity at 13 %, not
at the item's category (IDC service, 6 %); billing reads its rate from tax_rate like every other
(app.billing.energy_charge). The category is allowed by the table's check and seeded at 13 % from
the earliest date the existing rates use (2019-04-01 as 0001 seeds them), so every period billable
before has the rate. tax_rate has no service writer and is not audited (app/reconcile.py: rows
written by a migration are "not audited"), so the row gets no audit event.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0028'
down_revision: Union[str, Sequence[str], None] = '0027'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

OLD = ("idc", "telecom", "equipment_lease")
NEW = OLD + ("electricity",)
RATE = "0.1300"
FIRST = "2019-04-01"  # the date 0001 seeds the rates from, when the table is empty


def _check(values) -> str:
    return f"category IN ({', '.join(repr(v) for v in values)})"


def upgrade() -> None:
    import datetime as dt
    from decimal import Decimal

    with op.batch_alter_table("tax_rate", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("ck_tax_rate_category"), type_="check")
        batch_op.create_check_constraint(batch_op.f("ck_tax_rate_category"), _check(NEW))
    bind = op.get_bind()
    first = bind.execute(sa.text("SELECT MIN(valid_from) FROM tax_rate")).scalar()
    if isinstance(first, str):  # SQLite hands a DATE back as text
        first = dt.date.fromisoformat(first[:10])
    first = first or dt.date.fromisoformat(FIRST)
    have = bind.execute(sa.text("SELECT COUNT(*) FROM tax_rate WHERE category = 'electricity'")).scalar()
    if not have:
        tax_rate = sa.table("tax_rate", sa.column("category"), sa.column("rate", sa.Numeric(5, 4)),
                            sa.column("valid_from", sa.Date))
        op.bulk_insert(tax_rate, [dict(category="electricity", rate=Decimal(RATE), valid_from=first)])


def downgrade() -> None:
    op.execute("DELETE FROM tax_rate WHERE category = 'electricity'")
    with op.batch_alter_table("tax_rate", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("ck_tax_rate_category"), type_="check")
        batch_op.create_check_constraint(batch_op.f("ck_tax_rate_category"), _check(OLD))
