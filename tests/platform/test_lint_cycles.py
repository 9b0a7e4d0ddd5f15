"""scripts/lint.py's cycle check: a cycle between modules fails it, an import inside a function counts."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import lint  # noqa: E402  (scripts/ is no package)


def test_components_of_more_than_one_module_are_the_cycles():
    edges = {"a": ["b"], "b": ["c", "a"], "c": [], "d": ["d"], "e": ["f"], "f": ["g"], "g": ["e"]}
    assert lint.strongly_connected(edges) == [["a", "b"], ["e", "f", "g"]]


def test_an_import_inside_a_function_closes_a_cycle(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "low.py").write_text("def f():\n    from pkg import high\n    return high\n")
    (pkg / "high.py").write_text("from pkg import low\n")
    (pkg / "alone.py").write_text("from pkg import low\n")
    assert lint.import_cycles(sys.executable, str(tmp_path), ("pkg",)) == [["pkg.high", "pkg.low"]]
    (pkg / "low.py").write_text("def f():\n    return 1\n")
    assert lint.import_cycles(sys.executable, str(tmp_path), ("pkg",)) == []


def test_importing_a_module_runs_the_packages_above_it(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from pkg import b\n")    # the package's facade
    (pkg / "sub" / "a.py").write_text("X = 1\n")
    (pkg / "b.py").write_text("from pkg.sub.a import X\n")           # runs pkg/sub/__init__ first
    assert lint.import_cycles(sys.executable, str(tmp_path), ("pkg",)) == [["pkg.b", "pkg.sub"]]
