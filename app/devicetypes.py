"""Device types from NetBox's devicetype-library YAML (a file or a folder of them).

Power is kept as the file gives it; what looks missing or wrong is written to
`power_flag` so that a person corrects it (the library's DGX A100 says 2 × 1071 W while
its own comment says 6.5 kW; its QM9700 gives no draw at all).
"""
from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Callable

import yaml
from sqlalchemy import select

from models import DeviceType, GpuModel
from models.choices import DeviceRole

from .audit import Actor
from .auth import require
from .db import Database
from .errors import DomainError, ValidationError
from .services.common import _spec, create_in, flush_versioned, snapshot
from .uow import UnitOfWork

YAML_SUFFIXES = (".yaml", ".yml")
SLUG_RE = re.compile(r"^[-a-z0-9_]+$")
GPU_BAY_RE = re.compile(r"^\s*GPU[\s_-]*\d+\s*$", re.IGNORECASE)
# "6.5kW", "6,5 kW", "3000 W", "3000W" – a figure followed by a power unit.
POWER_RE = re.compile(r"(\d+(?:[.,]\d+)?)\s*(kW|KW|kw|W)(?![A-Za-z])")
WEIGHT_TO_KG = {"kg": Decimal(1), "g": Decimal("0.001"), "lb": Decimal("0.45359237"), "oz": Decimal("0.028349523125")}

# Plausibility bounds (watts per rack unit) and how far a comment may exceed the ports' sum.
MAX_W_PER_U = 3000
MIN_W_PER_U_SERVER = 20
COMMENT_FACTOR = Decimal("1.5")

# Values the file does not carry, so an update never overwrites them.
DEVICE_TYPE_FIELDS = ("manufacturer", "model", "slug", "part_number", "u_height", "is_full_depth", "airflow",
                      "weight_kg", "max_power_w", "typical_power_w", "gpu_slots", "comments", "power_flag")
POWER_FIELDS = ("max_power_w", "typical_power_w", "power_flag")


class DeviceTypeFileError(Exception):
    """Problems in one file: [(line, field, reason)]."""

    def __init__(self, problems: list[tuple[int, str, str]]):
        super().__init__("; ".join(f"line {ln}, {f}: {r}" for ln, f, r in problems))
        self.problems = problems


def find_yaml_files(path: str | Path) -> list[Path]:
    """The file itself, or every .yaml/.yml under a folder (sorted, recursive)."""
    p = Path(path)
    if p.is_dir():
        return sorted(f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in YAML_SUFFIXES)
    if not p.exists():
        raise DomainError(f"{p} does not exist")
    return [p]


def _key_lines(text: str) -> dict[str, int]:
    """Line number (1-based) of each top-level key, for messages that point into the file."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return {}
    if not isinstance(node, yaml.MappingNode):
        return {}
    return {k.value: k.start_mark.line + 1 for k, _v in node.value if isinstance(k, yaml.ScalarNode)}


def comment_power_w(comments: str | None) -> Decimal | None:
    """The largest power figure stated in the comments, in watts (None when there is none)."""
    if not comments:
        return None
    best = None
    for number, unit in POWER_RE.findall(comments):
        value = Decimal(number.replace(",", "."))
        if unit.lower() == "kw":
            value *= 1000
        best = value if best is None or value > best else best
    return best


def power_flag(values: dict) -> str | None:
    """Why the power data needs a person's look, or None when it is plausible."""
    max_w, typical_w = values.get("max_power_w"), values.get("typical_power_w")
    height = Decimal(str(values.get("u_height") or 0))
    stated = comment_power_w(values.get("comments"))
    problems = []
    if max_w is None and typical_w is None:
        problem = "the file gives no power draw"
        if stated:
            problem += f" (its comments state {_watts(stated)})"
        problems.append(problem + "; enter the maximum and typical draw from the datasheet")
    else:
        ports = max_w if max_w is not None else typical_w
        if stated is not None and stated > ports * COMMENT_FACTOR:
            problems.append(f"the comments state {_watts(stated)} but the power ports add up to {ports} W; "
                            "check the datasheet")
        if height > 0:
            per_u = Decimal(ports) / height
            if per_u > MAX_W_PER_U:
                problems.append(f"{ports} W in {height}U is {per_u:.0f} W per U, more than {MAX_W_PER_U} W/U "
                                "is implausible")
            elif per_u < MIN_W_PER_U_SERVER and values.get("role") in (DeviceRole.SERVER, DeviceRole.GPU_SERVER):
                problems.append(f"{ports} W in {height}U is {per_u:.0f} W per U, too little for a server")
    if not problems:
        return None
    return "; ".join(problems)[:255]


def _watts(w: Decimal) -> str:
    return f"{w / 1000:g} kW" if w >= 1000 else f"{w:g} W"


def _guess_role(data: dict, gpu_slots: int, u_height: Decimal) -> str:
    text = " ".join(str(data.get(k) or "") for k in ("model", "part_number", "comments", "description")).lower()
    if gpu_slots or "gpu" in text or "dgx" in text:
        return DeviceRole.GPU_SERVER
    interfaces = data.get("interfaces") or []
    if "switch" in text or (len(interfaces) >= 16 and 0 < u_height <= 2 and not data.get("module-bays")):
        return DeviceRole.SWITCH
    return DeviceRole.SERVER


def _sum_draw(ports: list, key: str, problems: list, line: int) -> int | None:
    total, seen = 0, False
    for i, port in enumerate(ports):
        if not isinstance(port, dict) or port.get(key) in (None, ""):
            continue
        try:
            value = int(port[key])
        except (TypeError, ValueError):
            problems.append((line, f"power-ports[{i}].{key}", f"{port[key]!r} is not a whole number of watts"))
            continue
        if value < 0:
            problems.append((line, f"power-ports[{i}].{key}", "a draw cannot be negative"))
            continue
        total += value
        seen = True
    return total if seen else None


def parse_device_type(text: str) -> dict:
    """Values for the device_type entity from one YAML document; raises DeviceTypeFileError."""
    lines = _key_lines(text)
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise DeviceTypeFileError([((mark.line + 1) if mark else 1, "yaml", f"not valid YAML: {exc}")]) from None
    if not isinstance(data, dict):
        raise DeviceTypeFileError([(1, "yaml", "a device type file is a mapping of fields")])
    problems: list[tuple[int, str, str]] = []

    def line(key: str) -> int:
        return lines.get(key, 1)

    for key in ("manufacturer", "model", "slug", "u_height", "is_full_depth"):
        if data.get(key) in (None, ""):
            problems.append((1, key, "required by the devicetype-library schema"))
    slug = str(data.get("slug") or "")
    if slug and not SLUG_RE.match(slug):
        problems.append((line("slug"), "slug", f"{slug!r} must be lower-case letters, digits, '-' and '_'"))
    u_height = Decimal(1)
    if data.get("u_height") not in (None, ""):
        try:
            u_height = Decimal(str(data["u_height"]))
            if u_height < 0 or (u_height * 2) % 1 != 0:
                problems.append((line("u_height"), "u_height", "must be 0 or more, in steps of 0.5"))
        except InvalidOperation:
            problems.append((line("u_height"), "u_height", f"{data['u_height']!r} is not a number"))
    full_depth = data.get("is_full_depth", True)
    if not isinstance(full_depth, bool):
        problems.append((line("is_full_depth"), "is_full_depth", "must be true or false"))
    weight_kg = None
    if data.get("weight") not in (None, ""):
        unit = str(data.get("weight_unit") or "kg").lower()
        if unit not in WEIGHT_TO_KG:
            problems.append((line("weight_unit"), "weight_unit", f"unknown unit {unit!r}; use kg, g, lb or oz"))
        else:
            try:
                weight_kg = (Decimal(str(data["weight"])) * WEIGHT_TO_KG[unit]).quantize(
                    Decimal("0.01"), rounding=ROUND_HALF_UP)
            except InvalidOperation:
                problems.append((line("weight"), "weight", f"{data['weight']!r} is not a number"))
    ports = data.get("power-ports") or []
    if not isinstance(ports, list):
        problems.append((line("power-ports"), "power-ports", "must be a list"))
        ports = []
    max_w = _sum_draw(ports, "maximum_draw", problems, line("power-ports"))
    typical_w = _sum_draw(ports, "allocated_draw", problems, line("power-ports"))
    bays = data.get("module-bays") or []
    gpu_slots = sum(1 for b in bays if isinstance(b, dict) and GPU_BAY_RE.match(str(b.get("name") or "")))
    airflow = data.get("airflow") or None
    if airflow and len(str(airflow)) > 16:
        problems.append((line("airflow"), "airflow", f"{airflow!r} is not an airflow direction"))
    for key, limit in (("manufacturer", 64), ("model", 128), ("slug", 128), ("part_number", 64)):
        if data.get(key) and len(str(data[key])) > limit:
            problems.append((line(key), key, f"longer than {limit} characters"))
    if problems:
        raise DeviceTypeFileError(problems)
    comments = data.get("comments")
    comments = str(comments).strip() if comments not in (None, "") else None
    values = {
        "manufacturer": str(data["manufacturer"]).strip(),
        "model": str(data["model"]).strip(),
        "slug": slug,
        "part_number": str(data["part_number"]).strip() if data.get("part_number") not in (None, "") else None,
        "u_height": u_height,
        "is_full_depth": bool(full_depth),
        "airflow": str(airflow) if airflow else None,
        "weight_kg": weight_kg,
        "max_power_w": max_w,
        "typical_power_w": typical_w,
        "gpu_slots": gpu_slots,
        "comments": comments,
    }
    values["role"] = _guess_role(data, gpu_slots, u_height)
    values["power_flag"] = power_flag(values)
    return values


def read_device_type_file(path: str | Path) -> dict:
    return parse_device_type(Path(path).read_text(encoding="utf-8-sig"))


def upsert_device_type(uow: UnitOfWork, values: dict, *, from_library: bool = True,
                       reason: str | None = None) -> str:
    """Create by slug, or update the existing type; returns 'created', 'updated' or 'unchanged'.

    Only the fields given are written. From a library file (`from_library`), a person's
    choices survive a re-import: the role is never overwritten (the file has none), and when
    the file's power is flagged while the stored type carries no flag (someone corrected it
    and cleared the flag), the stored power is kept.
    """
    s = uow.session
    existing = s.execute(select(DeviceType).where(DeviceType.slug == values.get("slug"))).scalar_one_or_none()
    if existing is None:
        create_in(uow, "device_type", values, reason=reason)
        return "created"
    spec = _spec("device_type")
    require(uow.actor, spec.permission)
    values = dict(values)
    if from_library:
        values.pop("role", None)
        if values.get("power_flag") and existing.power_flag is None \
                and (existing.max_power_w is not None or existing.typical_power_w is not None):
            for key in POWER_FIELDS:
                values.pop(key, None)
    merged = {k: getattr(existing, k) for k in snapshot(existing)}
    merged.update(values)
    merged["_id"] = existing.id
    errors = spec.validate(s, merged)
    if errors:
        raise ValidationError(errors)
    before = snapshot(existing)
    changed = False
    for key in values:
        if key.startswith("_") or key in ("id",):
            continue
        if getattr(existing, key) != merged[key]:
            setattr(existing, key, merged[key])
            changed = True
    if not changed:
        return "unchanged"
    flush_versioned(uow, existing, f"device type {existing.slug}")
    after = snapshot(existing)
    keys = [k for k in after if after[k] != before[k] and k not in ("version", "updated_at", "updated_by")]
    uow.audit("device_type.update", "device_type", existing.id, existing.slug,
              before={k: before[k] for k in keys}, after={k: after[k] for k in keys}, reason=reason)
    return "updated"


def import_device_types(db: Database, actor: Actor, path: str | Path, *, dry_run: bool = False,
                        progress: Callable[[int, int], None] | None = None,
                        cancelled: Callable[[], bool] | None = None):
    """Import a YAML file or a folder of them: all or nothing (see importexport.run_import)."""
    from .importexport import run_import

    return run_import(db, actor, "device-types", path, dry_run=dry_run, progress=progress, cancelled=cancelled)


def gpu_model_name(session, gpu_model_id: int | None) -> str | None:
    if not gpu_model_id:
        return None
    m = session.get(GpuModel, gpu_model_id)
    return m.name if m else None


def describe(values: dict) -> dict[str, Any]:
    """Plain summary for a preview table."""
    return {k: values.get(k) for k in DEVICE_TYPE_FIELDS}
