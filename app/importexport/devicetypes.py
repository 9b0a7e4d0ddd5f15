"""Device types from NetBox's devicetype-library YAML (a file or a folder of them).

Power follows NetBox's meaning of power ports (docs/import.md): allocated draw is the
typical draw, redundant supplies are not summed, and power distribution (a type with
outlets: PDU, UPS, …) and passive parts carry no load of their own. What looks wrong is
written to `power_flag` so that a person corrects it (the library's DGX A100 says 1071 W
per supply while its own comment says 6.5 kW). A folder imports every valid file and lists
the refused ones.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Callable

import yaml

from app.domain import messages as M
from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import DomainError, ValidationError
from app.domain.runs import logged_run
from app.importexport.schema import ImportFailed, RowError
from app.services.devicetypes import write_device_types
from app.store.db import Database
from models import GpuModel
from models.choices import DeviceRole

YAML_SUFFIXES = (".yaml", ".yml")
SLUG_RE = re.compile(r"^[-a-z0-9_]+$")
GPU_BAY_RE = re.compile(r"^\s*GPU[\s_-]*\d+\s*$", re.IGNORECASE)
# "6.5kW", "6,5 kW", "3000 W", "3000W" – a figure followed by a power unit.
# Not inside a name or a link ("5520-12MW-36W", "800%2065W"): links are removed first.
POWER_RE = re.compile(r"(?<![\w.,%/-])(\d+(?:[.,]\d+)?)\s*(kW|KW|kw|W)(?![A-Za-z0-9])")
WEIGHT_TO_KG = {"kg": Decimal(1), "g": Decimal("0.001"), "lb": Decimal("0.45359237"), "oz": Decimal("0.028349523125")}


class SafeLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """The C parser (several times faster than the pure-Python one), safe constructors only,
    and a cache of plain-scalar tags: the library repeats the same few hundred values
    ("1000base-t", "true", "PSU1") hundreds of thousands of times."""

    _tags: dict[tuple, str] = {}

    def resolve(self, kind, value, implicit):
        if kind is not yaml.ScalarNode or len(value) > 64:  # short values repeat; keep the cache small
            return super().resolve(kind, value, implicit)
        key = (value, implicit)
        tag = self._tags.get(key)
        if tag is None:
            tag = super().resolve(kind, value, implicit)
            if len(self._tags) < 100_000:
                self._tags[key] = tag
        return tag


MAX_FILE_BYTES = 1_000_000   # the library's largest file is 12 kB
MAX_ALIASES = 16             # the library uses none

# Plausibility bounds (watts per rack unit) and how far a comment may exceed the ports' sum.
MAX_W_PER_U = 3000
MAX_PORT_W = 100_000         # a figure above this is a typo (or an attack), never a power supply
MIN_W_PER_U_SERVER = 20
COMMENT_FACTOR = Decimal("1.5")

# Values the file does not carry, so an update never overwrites them.
DEVICE_TYPE_FIELDS = ("manufacturer", "model", "slug", "part_number", "u_height", "is_full_depth", "airflow",
                      "weight_kg", "max_power_w", "typical_power_w", "gpu_slots", "comments", "power_flag")


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


def _count_aliases(root: yaml.Node) -> int:
    """How many times a list or mapping node is reached again (a YAML alias, or a cycle).

    PyYAML shares an aliased node instead of copying it, so parsing a "billion laughs" file
    is cheap; constructing or walking it is what would blow up. Each node is visited once.
    """
    seen: set[int] = set()
    repeats = 0
    stack = [root]
    while stack and repeats <= MAX_ALIASES:
        node = stack.pop()
        if isinstance(node, yaml.ScalarNode):
            continue
        if id(node) in seen:
            repeats += 1
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                stack.append(k)
                stack.append(v)
        else:
            stack.extend(node.value)
    return repeats


# Long lists the import only counts: they are not built as Python objects (most of a
# file's nodes are its interfaces and ports, and building them was most of the parse time).
COUNTED_ONLY = frozenset({"interfaces", "front-ports", "rear-ports", "console-ports", "console-server-ports",
                          "power-outlets", "device-bays", "inventory-items"})


def load_yaml(text: str) -> tuple[Any, dict[str, int]]:
    """One YAML document, parsed once by the C parser, and the line of each top-level key.

    Refuses files too large or with too many aliases. Lists named in COUNTED_ONLY come back as
    lists of None of the right length.
    """
    if len(text) > MAX_FILE_BYTES:
        raise DeviceTypeFileError([(1, "yaml", f"the file is larger than {MAX_FILE_BYTES // 1000} kB; "
                                               "a device type is a few kB")])
    loader = SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, {}
        if "&" in text and _count_aliases(node) > MAX_ALIASES:
            raise DeviceTypeFileError([(1, "yaml", f"more than {MAX_ALIASES} YAML aliases; device-type files "
                                                   "need none (a file built to expand in memory is refused)")])
        if not isinstance(node, yaml.MappingNode) or any(
                isinstance(k, yaml.ScalarNode) and k.tag == "tag:yaml.org,2002:merge" for k, _v in node.value):
            return loader.construct_document(node), {}
        data, lines = {}, {}
        for k, v in node.value:
            key = loader.construct_object(k, deep=True)
            if isinstance(k, yaml.ScalarNode):
                lines[str(key)] = k.start_mark.line + 1
            if key in COUNTED_ONLY and isinstance(v, yaml.SequenceNode):
                data[key] = [None] * len(v.value)
            else:
                data[key] = loader.construct_object(v, deep=True)
        return data, lines
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise DeviceTypeFileError([((mark.line + 1) if mark else 1, "yaml", f"not valid YAML: {exc}")]) from None
    except (RecursionError, TypeError) as exc:  # TypeError: an unhashable key such as a list
        raise DeviceTypeFileError([(1, "yaml", f"not a device type: {type(exc).__name__} {exc}")[:200]]) from None
    finally:
        loader.dispose()


def comment_power_w(comments: str | None) -> Decimal | None:
    """The largest power figure stated in the comments, in watts (None when there is none)."""
    if not comments:
        return None
    best = None
    for number, unit in POWER_RE.findall(URL_RE.sub(" ", comments)):
        whole, _sep, frac = number.replace(",", ".").partition(".")
        value = Decimal(whole + frac) if "," in number and len(frac) == 3 else Decimal(number.replace(",", "."))
        if unit.lower() == "kw":
            value *= 1000
        best = value if best is None or value > best else best
    return best


def power_flag(values: dict) -> str | None:
    """Why the power data needs a person's look, or None when it is plausible.

    Only real problems: a file that gives no draw at all is not flagged (half the library
    gives none; such a type counts no load until a person enters it), nor is a PDU, UPS or
    passive part, which carries no load of its own.
    """
    if values.get("role") in DeviceRole.NO_LOAD:
        return None
    max_w, typical_w = values.get("max_power_w"), values.get("typical_power_w")
    height = Decimal(str(values.get("u_height") or 0))
    stated = comment_power_w(values.get("comments"))
    problems = list(values.get("_port_problems") or ())
    draw = max_w if max_w is not None else typical_w
    if draw is None:
        if stated:
            problems.append(f"the file gives no power draw but its comments state {_watts(stated)}; "
                            "enter the maximum and typical draw from the datasheet")
    else:
        if stated is not None and stated > draw * COMMENT_FACTOR:
            problems.append(f"the comments state {_watts(stated)} but the power ports give at most {draw} W; "
                            "check the datasheet")
        if height > 0:
            per_u = Decimal(draw) / height
            if per_u > MAX_W_PER_U:
                problems.append(f"{draw} W in {height}U is {per_u:.0f} W per U, more than {MAX_W_PER_U} W/U "
                                "is implausible")
            elif per_u < MIN_W_PER_U_SERVER and values.get("role") in (DeviceRole.SERVER, DeviceRole.GPU_SERVER):
                problems.append(f"{draw} W in {height}U is {per_u:.0f} W per U, too little for a server")
    if not problems:
        return None
    return "; ".join(problems)[:255]


def _watts(w: Decimal) -> str:
    return f"{w / 1000:g} kW" if w >= 1000 else f"{w:g} W"


def _words(*patterns: str) -> re.Pattern:
    return re.compile("|".join(patterns))


# What a file says it is, read from its model, slug, part number, description and comments.
UPS_RE = _words(r"\bups\b", r"\bups\d", r"-ups", r"smart-ups", r"uninterruptib", r"\busv\b", r"\bonline ups",
                r"double conversion")
BATTERY_RE = _words(r"battery pack", r"battery module", r"battery cabinet", r"\bebm\b", r"battery extension")
BLANK_RE = _words(r"\bblank", r"filler panel", r"\bfiller\b", r"cover plate")
SHELF_RE = _words(r"\bshel(f|ves)\b", r"\btray\b", r"cantilever", r"\bdrawer\b")
PATCH_RE = _words(r"patch[ -]?panel", r"patchpanel", r"fib(er|re) (optic )?panel", r"\bcassette",
                  r"breakout panel", r"keystone", r"\bodf\b", r"distribution frame", r"splice", r"coupler panel",
                  r"adapter panel", r"enclosure panel")
FIREWALL_RE = _words(r"firewall", r"fortigate", r"fortiwifi", r"firepower", r"\basa[ -]?\d", r"\bpa-\d",
                     r"\bsrx ?\d", r"sonicwall", r"watchguard", r"\bngfw\b", r"\butm\b", r"\bfirebox",
                     r"\bxgs ?\d", r"\bxg ?\d{2,}", r"quantum (spark|security)", r"check ?point", r"netgate",
                     r"opnsense", r"pfsense")
STORAGE_RE = _words(r"storage", r"\bnas\b", r"\bsan\b", r"\bjbo[df]\b", r"disk (shelf|array|enclosure)",
                    r"powervault", r"powerstore", r"powerscale", r"isilon", r"equallogic", r"flasharray",
                    r"flashblade", r"\bmsa ?\d", r"eternus", r"tape (library|drive|autoloader)", r"\blto-?\d",
                    r"storeonce", r"\b3par\b", r"primera", r"alletra", r"nimble", r"data ?domain",
                    r"\bfas ?\d{3,}", r"\baff[ -]?[a-z]?\d{3}", r"drive shelf", r"expansion shelf", r"\bds\d{3,}")
ROUTER_RE = _words(r"router", r"\brouting\b", r"\basr[ -]?\d", r"\bisr[ -]?\d", r"\bmx ?\d{2,}", r"\bptx ?\d",
                   r"\bncs[ -]?\d", r"cloud core", r"\bccr\d", r"edgerouter", r"\bc8[0-9]{3}", r"catalyst 8\d{3}",
                   r"\bacx ?\d", r"\b7750 ", r"netengine", r"\bne\d{2}e", r"\bar\d{3,}", r"\brb\d{4}",
                   r"\bcsr\d", r"\bixr\b", r"\b7[2-6]0\d\b", r"\bcrs-\d", r"\bmcr\d", r"\bsd-wan", r"\bvedge",
                   r"\bedge ?connect")
SWITCH_RE = _words(r"switch", r"\bcatalyst\b", r"nexus", r"\bqfx", r"\bex\d{4}", r"\bdcs-\d", r"\bws-c",
                   r"\bsn\d{4}", r"\bqm\d{4}", r"\bfabric interconnect", r"infiniband", r"\bn\dk-", r"\bn\d{1,2}k\b",
                   r"\bos\d{4}", r"\bm4\d{3}", r"\bgs\d{3}", r"\bmes\d{4}", r"\bce\d{4}", r"\bs\d{4}-",
                   r"\bicx\d", r"\busw-", r"\bcrs\d{3}", r"\bc9\d{3}", r"\bc\d{4}[lx]?-\d", r"\bsg\d{3}",
                   r"\bcbs\d{3}", r"\bx\d{3}-g2", r"\bes-\d", r"\bfs-\d{3}", r"\bqsw", r"\bdm\d{4}", r"\beds-\d",
                   r"\bx\d{3}-\d", r"\d{4}r? zl")
CONSOLE_RE = _words(r"console server", r"portserver", r"terminal server", r"device server", r"\bkvm", r"\bacs ?\d{4}")
GATEWAY_RE = _words(r"gateway", r"dream machine", r"\budm\b", r"\bucg\b", r"\busg\b", r"\bsd-wan")
URL_RE = re.compile(r"\(?https?://[^\s)]*\)?")
GPU_RE = _words(r"\bgpu", r"\bdgx\b", r"\bhgx\b", r"\bdgx-", r"instinct", r"\btesla\b")
SERVER_RE = _words(r"server", r"system x", r"primergy", r"\bx\d{4} m\d", r"poweredge", r"proliant", r"thinksystem",
                   r"thinkserver", r"\bucs[ -]?[bcs]\d",
                   r"superserver", r"\bsys-\d", r"\bas ?-\d", r"\bdl\d{3}", r"\bml\d{3}", r"\bsr\d{3}",
                   r"\bsd\d{3}", r"\bblade\b", r"compute (node|module|sled)", r"\bfusionserver", r"\bhypervisor",
                   r"\bappliance\b", r"\bnuc\b", r"\bmac (mini|pro)\b", r"\bxeon\b", r"\bepyc\b")


FIREWALL_MAKERS = ("check point", "palo alto", "barracuda", "deciso", "sophos", "watchguard", "sonicwall",
                   "netgate")


def guess_role(data: dict, gpu_slots: int = 0) -> str:
    """The role a library file describes (the library has no role field; NetBox leaves it to the user)."""
    text = URL_RE.sub(" ", " ".join(str(data.get(k) or "") for k in ("model", "slug", "part_number", "description",
                                                                  "comments")).lower())
    name = " ".join(str(data.get(k) or "") for k in ("model", "slug", "part_number")).lower()
    if str(data.get("manufacturer") or "").lower() in FIREWALL_MAKERS and not ROUTER_RE.search(name):
        return DeviceRole.FIREWALL
    if gpu_slots:
        return DeviceRole.GPU_SERVER
    if data.get("power-outlets"):  # it hands power on: a PDU, a UPS, a transfer switch, an RPS
        return DeviceRole.UPS if UPS_RE.search(text) else DeviceRole.PDU
    if BATTERY_RE.search(text):
        return DeviceRole.OTHER
    if UPS_RE.search(name) or (UPS_RE.search(text) and not data.get("interfaces")):
        return DeviceRole.UPS
    if BLANK_RE.search(name):
        return DeviceRole.BLANK
    if SHELF_RE.search(name):
        return DeviceRole.SHELF
    passive = not any(data.get(k) for k in ("interfaces", "power-ports", "console-ports", "module-bays"))
    if PATCH_RE.search(text) or (passive and (data.get("front-ports") or data.get("rear-ports"))):
        return DeviceRole.PATCH_PANEL
    for pattern, role in ((FIREWALL_RE, DeviceRole.FIREWALL), (STORAGE_RE, DeviceRole.STORAGE),
                          (ROUTER_RE, DeviceRole.ROUTER), (SWITCH_RE, DeviceRole.SWITCH)):
        if pattern.search(name):
            return role
    if GPU_RE.search(text):
        return DeviceRole.GPU_SERVER
    if CONSOLE_RE.search(text):
        return DeviceRole.OTHER
    if GATEWAY_RE.search(text):
        return DeviceRole.ROUTER
    for pattern, role in ((FIREWALL_RE, DeviceRole.FIREWALL), (STORAGE_RE, DeviceRole.STORAGE),
                          (ROUTER_RE, DeviceRole.ROUTER), (SWITCH_RE, DeviceRole.SWITCH),
                          (SERVER_RE, DeviceRole.SERVER)):
        if pattern.search(text):
            return role
    interfaces = data.get("interfaces") or []
    if len(interfaces) >= 16 and not data.get("module-bays"):
        return DeviceRole.SWITCH
    if BLANK_RE.search(text):
        return DeviceRole.BLANK
    return DeviceRole.OTHER


_guess_role_new = guess_role


def _port_figures(ports: list, key: str, problems: list, line: int) -> list[int]:
    figures = []
    for i, port in enumerate(ports):
        if not isinstance(port, dict) or port.get(key) in (None, ""):
            continue
        value = port[key]
        if isinstance(value, bool) or not isinstance(value, (int, str)) or not str(value).strip().isdigit():
            problems.append((line, f"power-ports[{i}].{key}", f"{value!r} is not a whole number of watts"))
            continue
        value = int(value)
        if value > MAX_PORT_W:
            problems.append((line, f"power-ports[{i}].{key}", f"{value} W is more than any power supply "
                                                              f"({MAX_PORT_W} W at most)"))
            continue
        if value:  # NetBox requires at least 1 W; 0 means "not given"
            figures.append(value)
    return figures


def device_draw(figures: list[int]) -> int | None:
    """A device's draw from its power ports' figures (maximum_draw or allocated_draw).

    NetBox gives each power port (a power supply) its own draw and never sums a device's
    ports. The library writes the device's figure on each redundant supply (an Arista
    7060DX4-32: two PSUs, each 1600 W maximum and 342 W allocated). So supplies that give
    the same, largest figure are taken as redundant A/B pairs: k of them carry the load on
    ceil(k/2) (1 of 2, 3 of 6); a supply with a smaller figure is a spare or an
    alternative input (an RPS, a DC input beside the AC one) and adds nothing.
    """
    if not figures:
        return None
    top = max(figures)
    return top * ((figures.count(top) + 1) // 2)


def _weight_kg(data: dict, line: Callable[[str], int], problems: list[tuple[int, str, str]]) -> Decimal | None:
    """The weight in kg, rounded to 10 g, from `weight` and `weight_unit`."""
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
                problems.append((line("weight"), "weight", M.NOT_A_NUMBER.quoting(data['weight'])))
    return weight_kg


def _power_figures(data: dict, line: Callable[[str], int], problems: list[tuple[int, str, str]]
                   ) -> tuple[int | None, int | None, list[str]]:
    """The device's maximum and typical draw from its power ports, and what is wrong with the ports
    (said by the power flag, not refused)."""
    ports = data.get("power-ports") or []
    if not isinstance(ports, list):
        problems.append((line("power-ports"), "power-ports", "must be a list"))
        ports = []
    max_figures = _port_figures(ports, "maximum_draw", problems, line("power-ports"))
    alloc_figures = _port_figures(ports, "allocated_draw", problems, line("power-ports"))
    port_problems = [f"{p.get('name') or f'port {i + 1}'}: allocated {p['allocated_draw']} W is more than its "
                     f"maximum {p['maximum_draw']} W (NetBox refuses this)"
                     for i, p in enumerate(ports) if isinstance(p, dict)
                     and isinstance(p.get("allocated_draw"), int) and isinstance(p.get("maximum_draw"), int)
                     and not isinstance(p.get("allocated_draw"), bool) and p["allocated_draw"] > p["maximum_draw"] > 0]
    port_problems += [f"{p.get('name') or f'port {i + 1}'}: {key!r} is not a NetBox field (maximum_draw, "
                      f"allocated_draw), so its {p[key]!r} is ignored"
                      for i, p in enumerate(ports) if isinstance(p, dict)
                      for key in p if "draw" in str(key) and key not in ("maximum_draw", "allocated_draw")]
    max_w, typical_w = device_draw(max_figures), device_draw(alloc_figures)
    if max_w is not None and typical_w is not None and typical_w > max_w:
        typical_w = None  # the port problem above says why; the maximum is the safer figure
    return max_w, typical_w, port_problems


def parse_device_type(text: str) -> dict:
    """Values for the device_type entity from one YAML document; raises DeviceTypeFileError."""
    data, lines = load_yaml(text)
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
            problems.append((line("u_height"), "u_height", M.NOT_A_NUMBER.quoting(data['u_height'])))
    full_depth = data.get("is_full_depth", True)
    if not isinstance(full_depth, bool):
        problems.append((line("is_full_depth"), "is_full_depth", "must be true or false"))
    weight_kg = _weight_kg(data, line, problems)
    max_w, typical_w, port_problems = _power_figures(data, line, problems)
    bays = data.get("module-bays") or []
    gpu_slots = sum(1 for b in bays if isinstance(b, dict) and GPU_BAY_RE.match(str(b.get("name") or "")))
    airflow = data.get("airflow") or None
    if airflow and len(str(airflow)) > 16:
        problems.append((line("airflow"), "airflow", f"{airflow!r} is not an airflow direction"))
    for key, limit in (("manufacturer", 64), ("model", 128), ("slug", 128), ("part_number", 64)):
        if data.get(key) and len(str(data[key])) > limit:
            problems.append((line(key), key, f"longer than {limit} characters"))
    if not isinstance(data.get("power-outlets") or [], list):
        problems.append((line("power-outlets"), "power-outlets", "must be a list"))
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
    values["role"] = guess_role(data, gpu_slots)
    if values["role"] in DeviceRole.NO_LOAD or data.get("power-outlets") or data.get("is_powered") is False:
        # NetBox: a port that feeds outlets leaves its draw blank, and the load is the devices
        # downstream; a PDU's figure is its input capacity, not a draw. Passive parts draw nothing.
        values["max_power_w"] = values["typical_power_w"] = None
        port_problems = []
    values["power_flag"] = power_flag(dict(values, _port_problems=port_problems))
    return values


def read_device_type_file(path: str | Path) -> dict:
    path = Path(path)
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:  # before reading it into memory
        raise DeviceTypeFileError([(1, "yaml", f"the file is {size // 1000} kB, larger than "
                                               f"{MAX_FILE_BYTES // 1000} kB; a device type is a few kB")])
    return parse_device_type(path.read_text(encoding="utf-8-sig"))


@dataclass(frozen=True)
class DeviceTypeImport:
    """What a device-type import did: every valid file imported, every refused one listed."""
    file: str
    rows: int                      # files read
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    dry_run: bool = False
    cancelled: bool = False
    notes: tuple[str, ...] = ()    # types whose power needs a person's look
    refused: tuple[RowError, ...] = ()
    changes: frozenset[str] = frozenset()
    kind: str = "device-types"

    @property
    def refused_files(self) -> int:
        return len({e.file for e in self.refused})

    def summary(self) -> str:
        if self.cancelled:
            return f"device-types import of {self.file} cancelled; nothing was imported"
        verb = "would import" if self.dry_run else "imported"
        text = (f"{verb} {self.rows - self.refused_files} of {self.rows} device-type file(s) from {self.file}: "
                f"{self.created} new, {self.updated} updated, {self.unchanged} unchanged, "
                f"{self.refused_files} refused")
        if self.refused:
            text += "\nrefused:\n" + "\n".join(f"  {e}" for e in self.refused)
        if self.notes:
            text += "\nto check by a person:\n" + "\n".join(f"  {n}" for n in self.notes)
        return text


def read_device_type_folder(path: str | Path, *, progress: Callable[[int, int], None] | None = None,
                            cancelled: Callable[[], bool] | None = None
                            ) -> tuple[list[tuple[str, dict]], list[RowError]]:
    """(file name, values) for every good file, and the problems of the others.

    A slug found in two files keeps the first (sorted by path) and refuses the second,
    naming both files.
    """
    base = Path(path)
    files = find_yaml_files(base)
    if not files:
        raise ValidationError({"file": f"{base} holds no .yaml or .yml files"})
    good: list[tuple[str, dict]] = []
    refused: list[RowError] = []
    first_file: dict[str, str] = {}
    for done, f in enumerate(files, start=1):
        if cancelled is not None and cancelled():
            break
        name = f.relative_to(base).as_posix() if base.is_dir() else f.name
        try:
            values = read_device_type_file(f)
        except DeviceTypeFileError as exc:
            refused.extend(RowError(ln, col, reason, name) for ln, col, reason in exc.problems)
        except (OSError, UnicodeDecodeError) as exc:
            refused.append(RowError(1, None, f"cannot read: {exc}", name))
        else:
            other = first_file.setdefault(values["slug"], name)
            if other != name:
                refused.append(RowError(1, "slug", f"slug {values['slug']!r} is also in {other}; "
                                                   f"{name} is refused (each device type once)", name))
            else:
                good.append((name, values))
        if progress is not None:
            progress(done, len(files))
    return good, refused


@logged_run("device-type import",
            start=lambda db, actor, path, **kw: dict(file=Path(path).name, dry_run=kw.get("dry_run", False)),
            end=lambda r: dict(files=r.rows, created=r.created, updated=r.updated, unchanged=r.unchanged,
                               refused=len(r.refused), dry_run=r.dry_run))
def import_device_types(db: Database, actor: Actor, path: str | Path, *, dry_run: bool = False, strict: bool = False,
                        progress: Callable[[int, int], None] | None = None,
                        cancelled: Callable[[], bool] | None = None) -> DeviceTypeImport:
    """Import a YAML file or a folder of them.

    Every valid file is imported and every refused one is listed with its reason (a file
    the parser rejects, a slug used twice, a change the installed devices cannot take).
    With `strict`, one refusal refuses everything (ImportFailed, nothing written).
    """
    require(actor, "import")
    require(actor, "manage_dcim")
    path = Path(path)
    total = len(find_yaml_files(path))

    def reading(done: int, _n: int) -> None:  # reading is the first half of the work
        if progress is not None:
            progress(done, 2 * total)

    good, refused = read_device_type_folder(path, progress=reading, cancelled=cancelled)
    if cancelled is not None and cancelled():
        return DeviceTypeImport(path.name, total, dry_run=dry_run, cancelled=True)
    if strict and refused:
        raise ImportFailed("device-types", path, refused)

    def report(done: int) -> None:
        if progress is not None:
            progress(total + done * total // max(len(good), 1), 2 * total)

    written = write_device_types(db, actor, good, {e.file for e in refused}, path.name, total, dry_run=dry_run,
                                 strict=strict, progress=report, cancelled=cancelled)
    if written.cancelled:
        return DeviceTypeImport(path.name, total, dry_run=dry_run, cancelled=True)
    refused.extend(RowError(1, field, reason, name) for name, field, reason in written.refused)
    refused.sort(key=lambda e: (e.file or "", e.line))
    if written.rolled_back:  # strict, and a file was refused while writing: nothing was written
        raise ImportFailed("device-types", path, refused)
    refused_files = {e.file for e in refused}
    notes = [f"{name} ({values['slug']}): {values['power_flag']}" for name, values in good
             if values.get("power_flag") and name not in refused_files]
    c = written.counts
    return DeviceTypeImport(path.name, total, c["created"], c["updated"], c["unchanged"], dry_run,
                            False, tuple(notes), tuple(refused), written.changes)


def gpu_model_name(session, gpu_model_id: int | None) -> str | None:
    if not gpu_model_id:
        return None
    m = session.get(GpuModel, gpu_model_id)
    return m.name if m else None


def describe(values: dict) -> dict[str, Any]:
    """Plain summary for a preview table."""
    return {k: values.get(k) for k in DEVICE_TYPE_FIELDS}
