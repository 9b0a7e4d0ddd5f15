"""The README's worked session, pasted as written, run on 2027-03-15 (with faketime when it is there).

Each line of the block runs in bash as typed; NUMBER and SEQ:HASH, which the README says the
earlier lines print, are taken from their output.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FAKE_TODAY = "2027-03-15"


def readme_session() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    after = text[text.index("A worked session on the demo data"):]
    block = after[after.index("```sh\n") + len("```sh\n"):]
    return [line for line in block[:block.index("```")].splitlines() if line.strip()]


@pytest.mark.slow
def test_readme_worked_session(tmp_path):
    lines = readme_session()
    assert any("--period last" in ln for ln in lines)
    bindir = Path(sys.executable).parent
    assert (bindir / "idc-console").exists() or (bindir / "idc-console.exe").exists()
    env = {k: v for k, v in os.environ.items() if not k.startswith("IDC_")}
    env.update(PATH=f"{bindir}{os.pathsep}{env.get('PATH', '')}", IDC_CONSOLE_HOME=str(tmp_path / "home"),
               FAKETIME_DONT_FAKE_MONOTONIC="1")
    faketime = shutil.which("faketime")
    prefix = [faketime, "-f", f"@{FAKE_TODAY} 10:00:00"] if faketime else []   # else today: it works any day
    number = checkpoint = None
    outputs = []
    for line in lines:
        if line.startswith("export "):
            key, value = line.split(None, 1)[1].split("#")[0].strip().split("=", 1)
            env[key] = value
            continue
        code, sep, comment = line.partition("#")
        if "NUMBER" in code:
            assert number, "the README uses NUMBER before a line printed one"
            code = code.replace("NUMBER", number)
        if "SEQ:HASH" in code:
            assert checkpoint, "the README uses SEQ:HASH before a line printed one"
            code = code.replace("SEQ:HASH", checkpoint)
        line = code + sep + comment
        r = subprocess.run(prefix + ["bash", "-c", line], cwd=tmp_path, env=env, capture_output=True, text=True)
        assert r.returncode == 0, f"{line}\n{r.stdout}\n{r.stderr}"
        assert "Traceback" not in r.stderr
        outputs.append(r.stdout)
        found = re.search(r"\b[A-Z]{2}-\d{6}-\d{6}\b", r.stdout)
        number = number or (found.group(0) if found else None)
        found = re.search(r"checkpoint (\d+:[0-9a-f]{64})", r.stdout)
        checkpoint = found.group(1) if found else checkpoint
    if faketime:
        assert any("billing 2027-02:" in out for out in outputs)
        assert number and number[3:9] == "202702"
        assert any(f"{FAKE_TODAY[:8]}01 – 2027-03-31" in out for out in outputs)   # report audit: this month
    assert (tmp_path / "statement.pdf").stat().st_size > 0 and (tmp_path / "audit.pdf").stat().st_size > 0
    assert outputs[-1].startswith("OK ") and f"checkpoint {checkpoint} is part of this chain" in outputs[-1]
    # --db everywhere: nothing in the data directory but the audit head `audit verify` remembers and the
    # program's log (each bulk run, the upgrade among them, logs its start and end)
    home = tmp_path / "home"
    assert {p.relative_to(home).parts[0] for p in home.rglob("*")} <= {"audit-heads", "logs"}
