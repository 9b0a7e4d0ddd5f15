"""NetBox's rules: a site's slug, one device type per manufacturer and model

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-01

- `site.slug` (optional, unique): NetBox's slug of a site, kept beside our code when a NetBox
  file gives both a facility (our code) and a slug, so that later files naming the site by its
  slug (`site.slug`) find it; the NetBox export writes it.
- `uq_device_type_manufacturer_model`: NetBox forbids two device types with the same
  manufacturer and model (netbox/dcim/models/devices.py, `dcim_devicetype_unique_manufacturer_model`);
  a device row naming the model would be ambiguous. A database that already holds such a pair is
  refused with the pairs named: rename one model (e.g. "MX304 (base)") and upgrade again.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0027'
down_revision: Union[str, Sequence[str], None] = '0026'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    bind = op.get_bind()
    pairs = bind.execute(sa.text(
        "SELECT manufacturer, model, COUNT(*) FROM device_type GROUP BY manufacturer, model HAVING COUNT(*) > 1"
        " ORDER BY manufacturer, model")).all()
    if pairs:
        named = "; ".join(f"{m} {model} ({n} types)" for m, model, n in pairs)
        raise RuntimeError("several device types share a manufacturer and model, which NetBox forbids: "
                           f"{named}. Rename all but one model in the console, then run db upgrade again")
    with op.batch_alter_table("site") as batch:
        batch.add_column(sa.Column("slug", sa.String(length=100), nullable=True))
        batch.create_unique_constraint(op.f("uq_site_slug"), ["slug"])
    with op.batch_alter_table("device_type") as batch:
        batch.create_unique_constraint(op.f("uq_device_type_manufacturer_model"), ["manufacturer", "model"])


def downgrade() -> None:
    with op.batch_alter_table("device_type") as batch:
        batch.drop_constraint(op.f("uq_device_type_manufacturer_model"), type_="unique")
    with op.batch_alter_table("site") as batch:
        batch.drop_constraint(op.f("uq_site_slug"), type_="unique")
        batch.drop_column("slug")
