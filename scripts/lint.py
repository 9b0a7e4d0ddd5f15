"""The static checks, run by .ci/run before the tests (docs/architecture.md, "Checks"):

    python3 scripts/lint.py

ruff (pyflakes, bugbear, simplify; the ignore list in pyproject.toml says why each is ignored) and
import-linter (the layers: the contracts in pyproject.toml). Both come with the [test] extra.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bootstrap  # noqa: E402  (stdlib only, beside this file)


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
    if failed:
        print(f"lint: {', '.join(failed)} failed", file=sys.stderr)
        return 1
    print("lint: ruff and import-linter passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
