"""Reference data that the schema ships with: the GPU catalogue, tax rates, the audit head."""
import datetime as dt
from decimal import Decimal

import sqlalchemy as sa
from alembic import op

GPU_CATALOGUE = [
    # name, vendor, memory GB, form factor, interconnect
    ("H100 SXM 80GB", "NVIDIA", 80, "sxm", "NVLink 4 (900 GB/s)"),
    ("H200 141GB", "NVIDIA", 141, "sxm", "NVLink 4 (900 GB/s)"),
    ("A100 80GB", "NVIDIA", 80, "sxm", "NVLink 3 (600 GB/s)"),
    ("A800 80GB", "NVIDIA", 80, "sxm", "NVLink 3 (400 GB/s)"),
    ("H800 80GB", "NVIDIA", 80, "sxm", "NVLink 4 (400 GB/s)"),
    ("B300 288GB", "NVIDIA", 288, "sxm", "NVLink 5 (1.8 TB/s)"),
    ("L40S 48GB", "NVIDIA", 48, "pcie", "PCIe 4.0 x16"),
    ("RTX 4090 24GB", "NVIDIA", 24, "pcie", "PCIe 4.0 x16"),
    ("RTX 5090 32GB", "NVIDIA", 32, "pcie", "PCIe 5.0 x16"),
    ("Ascend 910B 64GB", "Huawei", 64, "oam", "HCCS (392 GB/s)"),
    ("Ascend 920 96GB", "Huawei", 96, "oam", "HCCS"),
]

TAX_RATES = [
    ("idc", Decimal("0.06")),
    ("telecom", Decimal("0.06")),
    ("equipment_lease", Decimal("0.13")),
]


def seed_catalogue() -> None:
    gpu_model = sa.table(
        "gpu_model", sa.column("name"), sa.column("vendor"), sa.column("memory_gb"),
        sa.column("form_factor"), sa.column("interconnect"), sa.column("active"),
        sa.column("version"))
    op.bulk_insert(gpu_model, [
        dict(name=n, vendor=v, memory_gb=m, form_factor=f, interconnect=i, active=True, version=1)
        for n, v, m, f, i in GPU_CATALOGUE])
    tax_rate = sa.table("tax_rate", sa.column("category"), sa.column("rate", sa.Numeric(5, 4)),
                        sa.column("valid_from", sa.Date))
    op.bulk_insert(tax_rate, [dict(category=c, rate=r, valid_from=dt.date(2019, 4, 1)) for c, r in TAX_RATES])
    audit_head = sa.table("audit_head", sa.column("id"), sa.column("seq"), sa.column("hash"))
    op.bulk_insert(audit_head, [dict(id=1, seq=0, hash="0" * 64)])
