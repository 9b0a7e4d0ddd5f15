"""The static checks, run by .ci/run before the tests (docs/architecture.md, "Checks"):

    python3 scripts/lint.py

ruff (pyflakes, bugbear, simplify; the ignore list in pyproject.toml says why each is ignored) and
import-linter (the layers: the contracts in pyproject.toml); both come with the [test] extra. No
product line silences the blind-except rules with a noqa: such a handler logs or re-raises. No
import cycle between product modules, imports inside functions counted (grimp, which import-linter
brings, builds the graph): a cycle is broken by moving the shared piece down, never by importing
inside a function. And no test reaches into a private name (leading underscore) of another module:
tests use the public API.
"""
import ast
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bootstrap  # noqa: E402  (stdlib only, beside this file)


PRODUCT = ("app", "ui", "models", "reports", "launcher")
# a blind or bare except in the product must re-raise or log (ruff's BLE001, E722): never silenced
SILENCED = re.compile(r"#\s*noqa:[^#\n]*\b(BLE001|E722)\b")


def silenced_excepts(root):
    """`file:line` of each product line that silences ruff's blind-except rules with a noqa."""
    found = []
    for package in PRODUCT:
        for folder, _dirs, files in os.walk(os.path.join(root, package)):
            if "migrations" in folder.split(os.sep):
                continue
            for name in files:
                if name.endswith(".py"):
                    path = os.path.join(folder, name)
                    with open(path, encoding="utf-8") as f:
                        for n, line in enumerate(f, 1):
                            if SILENCED.search(line):
                                found.append(f"{os.path.relpath(path, root)}:{n}")
    return found


# Importing a.b.c runs a/__init__.py and a/b/__init__.py first: an edge to a module is also an edge to
# each package above it, unless the importer is inside that package (it is then already being run).
CYCLES_PROGRAM = """
import json, sys
import grimp
graph = grimp.build_graph(*sys.argv[1:], include_external_packages=False)
modules = set(graph.modules)
def packages(m):
    parts = m.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))} & modules
edges = {}
for m in graph.modules:
    out = set()
    for w in graph.find_modules_directly_imported_by(m):
        out.add(w)
        out |= packages(w) - packages(m) - {m}
    edges[m] = sorted(out)
print(json.dumps(edges))
"""


def strongly_connected(edges: dict[str, list[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (each a cycle or knot of cycles),
    Tarjan's algorithm without recursion; each component sorted, the list sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    component.append(m)
                    if m == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def import_cycles(python: str, root: str, packages=PRODUCT) -> list[list[str]]:
    """The import cycles between the modules of `packages` (function-level imports counted)."""
    out = subprocess.run([python, "-c", CYCLES_PROGRAM, *packages], cwd=root, capture_output=True, text=True,
                         check=True)
    return strongly_connected(json.loads(out.stdout))


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_reaches(root):
    """`file:line: name` of each private name of another module a test imports, reads through an
    imported name (`module._x`, `Class._x`) or patches (`setattr(module, "_x", …)`)."""
    found = []
    for folder, _dirs, files in os.walk(os.path.join(root, "tests")):
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read(), path)
            where = os.path.relpath(path, root)
            imported = set()
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom):
                    for alias in node.names:
                        if _private(alias.name):
                            found.append(f"{where}:{node.lineno}: {node.module}.{alias.name}")
                        imported.add(alias.asname or alias.name)
                elif isinstance(node, ast.Import):
                    imported.update((a.asname or a.name).split(".")[0] for a in node.names)
            for node in ast.walk(tree):
                if isinstance(node, ast.Attribute) and _private(node.attr):
                    base = node.value
                    while isinstance(base, ast.Attribute):
                        base = base.value
                    if isinstance(base, ast.Name) and base.id in imported:
                        found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
                elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "setattr"
                      and len(node.args) >= 2 and isinstance(node.args[0], ast.Name) and node.args[0].id in imported
                      and isinstance(node.args[1], ast.Constant) and _private(str(node.args[1].value))):
                    found.append(f"{where}:{node.lineno}: {node.args[0].id}.{node.args[1].value}")
    return found


def main():
    bootstrap.require_python()
    python = bootstrap.ensure_venv(extras=("test",))
    bin_dir = os.path.dirname(python)
    failed = []
    for name, argv in (("ruff", [python, "-m", "ruff", "check", "."]),
                       ("import-linter", [os.path.join(bin_dir, "lint-imports")])):
        print(f"lint: {name}", flush=True)
        if subprocess.run(argv, cwd=bootstrap.ROOT).returncode != 0:
            failed.append(name)
    print("lint: no silenced blind except in the product", flush=True)
    for where in silenced_excepts(bootstrap.ROOT):
        print(f"{where}: a blind or bare except is silenced with noqa: log it or re-raise", file=sys.stderr)
        if "silenced except" not in failed:
            failed.append("silenced except")
    print("lint: no import cycle between product modules", flush=True)
    for component in import_cycles(python, bootstrap.ROOT):
        print(f"import cycle: {' ↔ '.join(component)}: move the shared piece down (docs/architecture.md)",
              file=sys.stderr)
        if "import cycles" not in failed:
            failed.append("import cycles")
    print("lint: no test reaches into a private name of another module", flush=True)
    for where in private_reaches(bootstrap.ROOT):
        print(f"{where}: a private name of another module; test through the public API", file=sys.stderr)
        if "private names" not in failed:
            failed.append("private names")
    if failed:
        print(f"lint: {', '.join(failed)} failed", file=sys.stderr)
        return 1
    print("lint: ruff, import-linter, the except check, the cycle check and the private-name check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
