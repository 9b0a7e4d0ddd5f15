"""Checks that what the program keeps beside its rows (derived columns and tables) is what the rows say."""
from __future__ import annotations

from sqlalchemy import func, select

from models import DeviceGpuCount, GpuAsset


def gpu_counts_are_the_gpus(db) -> None:
    """device_gpu_count holds, per server and model, exactly how many GPUs gpu_asset places there."""
    with db.session() as s:
        counted = {(d, m): n for d, m, n in s.execute(
            select(GpuAsset.device_id, GpuAsset.gpu_model_id, func.count()).where(GpuAsset.device_id.is_not(None))
            .group_by(GpuAsset.device_id, GpuAsset.gpu_model_id))}
        kept = {(d, m): n for d, m, n in s.execute(
            select(DeviceGpuCount.device_id, DeviceGpuCount.gpu_model_id, DeviceGpuCount.n))}
    assert kept == counted
