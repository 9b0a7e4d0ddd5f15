"""The health-event catalogue (resources/gpu/health_catalogue.json): NVIDIA XID codes with their
published meaning and NVIDIA's resolution bucket, Ascend fault codes with their MindCluster handling
level, each mapped to what the console does (an action). Pure: no database, no Qt."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

CATALOGUE = Path(__file__).resolve().parents[2] / "resources" / "gpu" / "health_catalogue.json"

NONE, RESTART_APP, RESET_GPU, DRAIN, SERVICE = "none", "restart_app", "reset_gpu", "drain", "service"
ACTIONS = (NONE, RESTART_APP, RESET_GPU, DRAIN, SERVICE)
# An event with one of these moves its node to triage (and opens an incident when the desk exists).
TRIAGE_ACTIONS = frozenset({DRAIN, SERVICE})
ACTION_LABELS = {  # (en, zh)
    NONE: ("logged only", "仅记录"), RESTART_APP: ("restart the job", "重启作业"),
    RESET_GPU: ("reset the GPU when idle", "空闲时复位 GPU"), DRAIN: ("drain the node", "排空节点"),
    SERVICE: ("hardware service", "硬件维修"),
}


@dataclass(frozen=True)
class Fault:
    vendor: str  # nvidia | ascend
    code: str
    meaning: str
    action: str
    level: str  # NVIDIA's resolution bucket, or MindCluster's handling level
    known: bool = True

    @property
    def moves_to_triage(self) -> bool:
        return self.action in TRIAGE_ACTIONS


@lru_cache(maxsize=1)
def _catalogue() -> dict:
    return json.loads(CATALOGUE.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _index() -> dict[tuple[str, str], Fault]:
    cat = _catalogue()
    out: dict[tuple[str, str], Fault] = {}
    for c in cat["nvidia"]["codes"]:
        out[("nvidia", c["code"])] = Fault("nvidia", c["code"], f"{c['mnemonic']}: {c['meaning']}", c["action"],
                                           c["bucket"])
    levels = cat["ascend"]["levels"]
    for c in cat["ascend"]["codes"]:
        lv = levels[c["level"]]
        out[("ascend", c["code"].upper())] = Fault("ascend", c["code"].upper(), f"{c['level']}: {lv['meaning']}",
                                                   lv["action"], c["level"])
    return out


def normalise_code(vendor: str, code: str) -> str:
    code = str(code).strip()
    if vendor == "nvidia":
        low = code.lower()
        for prefix in ("xid", "xid ", "xid-", "xid_"):
            if low.startswith(prefix):
                code = code[len(prefix):].strip(" -_")
                break
        return str(int(code)) if code.isdigit() else code
    if vendor == "ascend":
        code = code.upper()
        return code[2:] if code.startswith("0X") else code
    return code


def classify(vendor: str, code: str) -> Fault:
    """The catalogue's entry; an unknown code is logged only (action none) and says it is unknown."""
    code = normalise_code(vendor, code)
    hit = _index().get((vendor, code))
    if hit:
        return hit
    what = "XID" if vendor == "nvidia" else "Ascend fault code"
    return Fault(vendor, code, f"{what} {code} is not in the console's catalogue", NONE, "", known=False)


def catalogue(vendor: str | None = None) -> list[Fault]:
    return [f for (v, _c), f in _index().items() if vendor in (None, v)]


def sources() -> dict[str, str]:
    cat = _catalogue()
    return {"nvidia": cat["nvidia"]["source"], "ascend": cat["ascend"]["source"]}
