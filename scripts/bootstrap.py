"""What scripts/start.py and scripts/test.py share: Python check, venv, system packages, install.

Standard library only, and no syntax newer than Python 3.6, so that an old interpreter (macOS's
stock 3.9, an old distribution's 3.8) reaches the version check and its message instead of a
SyntaxError. Every platform decision is a plain function of its inputs (the system name, the
installed packages, root or not, …) so that tests on Linux can simulate Windows and macOS.
"""
import hashlib
import json
import ntpath
import os
import platform
import posixpath
import shutil
import subprocess
import sys

MIN_PYTHON = (3, 11)
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAMP_NAME = "idc-install-stamp.json"

# Debian/Ubuntu packages behind the sonames that Qt 6's xcb platform plugin and the Qt libraries
# we load link directly (readelf -d on PySide6's plugins/platforms/libqxcb.so, libQt6XcbQpa,
# Gui, Core, Widgets, DBus, OpenGL, Pdf, PdfWidgets, Svg, Network). Base-system libraries
# (libc6, libstdc++6, zlib1g, libzstd1, …) are left out. Each entry lists its alternatives,
# newest name first where Debian 13 / Ubuntu 24.04 renamed it for the 64-bit time_t transition.
QT_PACKAGES = (
    ("libgl1",), ("libegl1",), ("libfontconfig1",), ("libfreetype6",), ("libdbus-1-3",),
    ("libglib2.0-0t64", "libglib2.0-0"), ("libgssapi-krb5-2",), ("libbrotli1",),
    ("libx11-6",), ("libx11-xcb1",), ("libxkbcommon0",), ("libxkbcommon-x11-0",),
    ("libxcb1",), ("libxcb-cursor0",), ("libxcb-icccm4",), ("libxcb-image0",), ("libxcb-keysyms1",),
    ("libxcb-randr0",), ("libxcb-render0",), ("libxcb-render-util0",), ("libxcb-shape0",),
    ("libxcb-shm0",), ("libxcb-sync1",), ("libxcb-util1",), ("libxcb-xfixes0",), ("libxcb-xkb1",),
)
# The CJK font of the console's widgets (the PDFs embed the copy in resources/fonts when present).
FONT_PACKAGES = (("fonts-wqy-microhei",),)
# Only the tests need these: pdftotext reads the PDFs back; faketime moves the README session to 2027.
TEST_PACKAGES = (("poppler-utils",), ("faketime",))
VENV_PACKAGE = ("python3-venv",)


# --- saying what it does -----------------------------------------------------------------------
def say(text):
    """One line on what the start is doing now: a first start takes a minute or more, and a
    silent terminal looks hung. stderr, flushed, so that it shows before the step's work."""
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


# --- Python -----------------------------------------------------------------------------------
def python_problem(version_info, system):
    """None when this interpreter will do, else the message saying where to get one."""
    if tuple(version_info[:2]) >= MIN_PYTHON:
        return None
    have = "%d.%d" % tuple(version_info[:2])
    need = "%d.%d" % MIN_PYTHON
    if system == "Windows":
        where = ("install it from https://www.python.org/downloads/windows/ (or: winget install "
                 "Python.Python.3.12), then run:  py -3.12 scripts\\start.py")
    elif system == "Darwin":
        where = ("install it from https://www.python.org/downloads/macos/ (or: brew install "
                 "python@3.12), then run:  python3.12 scripts/start.py")
    else:
        where = ("install your distribution's python3.11 or newer (Debian 12+, Ubuntu 24.04+ "
                 "ship one; else https://www.python.org/downloads/ or pyenv), then run:  "
                 "python3.12 scripts/start.py")
    return "IDC console needs Python %s or newer; this is Python %s.\n%s" % (need, have, where)


def require_python():
    problem = python_problem(sys.version_info, platform.system())
    if problem:
        sys.stderr.write(problem + "\n")
        sys.exit(1)
    say("checking Python: %d.%d.%d will do (%d.%d or newer needed)"
        % (tuple(sys.version_info[:3]) + MIN_PYTHON))


# --- paths ------------------------------------------------------------------------------------
def _path(system):
    return ntpath if system == "Windows" else posixpath


def venv_dir(root, system):
    return _path(system).join(root, ".venv")


def venv_bin(root, system):
    """The venv's folder of programs: Scripts\\ on Windows, bin/ elsewhere."""
    return _path(system).join(venv_dir(root, system), "Scripts" if system == "Windows" else "bin")


def venv_program(root, system, name):
    path = _path(system).join(venv_bin(root, system), name)
    return path + ".exe" if system == "Windows" else path


def venv_python(root, system):
    return venv_program(root, system, "python")


def how_to_run(root, system):
    """What start.py prints so that people can use the command line afterwards."""
    cli = venv_program(root, system, "idc-console")
    if system == "Windows":
        activate = ("%s  (cmd)  or  %s  (PowerShell)"
                    % (ntpath.join(venv_bin(root, system), "activate.bat"),
                       ntpath.join(venv_bin(root, system), "Activate.ps1")))
    else:
        activate = ". %s" % posixpath.join(venv_bin(root, system), "activate")
    return ("The command line is installed in %s:\n"
            "  %s --help\n"
            "or activate the environment once per terminal, then type idc-console:\n"
            "  %s" % (venv_dir(root, system), cli, activate))


# --- Linux system packages --------------------------------------------------------------------
def read_os_release(path="/etc/os-release"):
    info = {}
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                key, sep, value = line.strip().partition("=")
                if sep:
                    info[key] = value.strip().strip('"')
    except OSError:
        pass
    return info


def installed_packages(names):
    """The subset of `names` that dpkg says is installed (one dpkg-query for all of them)."""
    if not names:
        return set()
    r = subprocess.run(["dpkg-query", "-W", "-f=${Package} ${db:Status-Abbrev}\n"] + list(names),
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, universal_newlines=True)
    found = set()
    for line in r.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[1].startswith("ii"):
            found.add(parts[0].split(":")[0])
    return found


def uses_t64_names(os_release):
    """Debian 13 (trixie) and Ubuntu 24.04 renamed libraries for 64-bit time_t (libglib2.0-0t64)."""
    def number(text):
        try:
            return tuple(int(p) for p in text.split(".")[:2])
        except ValueError:
            return ()
    system_id = os_release.get("ID", "")
    version = number(os_release.get("VERSION_ID", ""))
    if system_id == "ubuntu":
        return version >= (24, 4)
    if system_id == "debian":
        if not version:   # testing and unstable carry no VERSION_ID and are past the rename
            return os_release.get("VERSION_CODENAME", "") not in ("buster", "bullseye", "bookworm")
        return version >= (13,)
    ubuntu_base = os_release.get("UBUNTU_CODENAME", "")   # Mint, Pop!_OS, … name their Ubuntu base
    if ubuntu_base:
        return ubuntu_base not in ("bionic", "focal", "jammy", "kinetic", "lunar", "mantic")
    return False


def required_packages(for_tests, need_venv):
    groups = list(QT_PACKAGES) + list(FONT_PACKAGES)
    if for_tests:
        groups += list(TEST_PACKAGES)
    if need_venv:
        groups.append(VENV_PACKAGE)
    return groups


def missing_packages(groups, installed, t64):
    """The package to install for every group none of whose names is installed."""
    missing = []
    for group in groups:
        if any(name in installed for name in group):
            continue
        names = [n for n in group if n.endswith("t64") == t64] or list(group)
        missing.append(names[0])
    return missing


def apt_plan(missing, is_root, has_apt, has_sudo):
    """('none'|'install'|'advise'|'unknown', commands) for the missing packages.

    Nothing missing: nothing at all (no apt-get update). Root: update and install. Not root:
    the command to run (with sudo when there is one); the caller carries on.
    """
    if not missing:
        return "none", []
    if not has_apt:
        return "unknown", []
    install = ["apt-get", "install", "-y", "--no-install-recommends"] + list(missing)
    if is_root:
        return "install", [["apt-get", "update", "-qq"], install]
    prefix = ["sudo"] if has_sudo else []
    return "advise", [prefix + ["apt-get", "update"], prefix + install]


def ensure_linux_packages(for_tests):
    """Install what Qt, the fonts and venv need on Debian/Ubuntu; say what when we may not."""
    if platform.system() != "Linux" or not shutil.which("dpkg-query"):
        return True
    need_venv = not _has_ensurepip()
    groups = required_packages(for_tests, need_venv)
    names = sorted({n for g in groups for n in g})
    say("checking system packages: Qt's libraries, a CJK font%s (%d Debian/Ubuntu packages) …"
        % (", the tests' tools" if for_tests else "", len(groups)))
    missing = missing_packages(groups, installed_packages(names), uses_t64_names(read_os_release()))
    action, commands = apt_plan(missing, os.geteuid() == 0, bool(shutil.which("apt-get")),
                                bool(shutil.which("sudo")))
    if action == "none":
        say("checking system packages: all installed")
        return True
    print("missing Debian/Ubuntu packages: " + " ".join(missing), file=sys.stderr)
    if action == "install":
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        for cmd in commands:
            say("running: " + " ".join(cmd) + (" (the package lists, some seconds) …" if "update" in cmd
                                               else " …"))
            if subprocess.run(cmd, env=env).returncode != 0:
                print("could not install them; install them yourself and run this again", file=sys.stderr)
                return not need_venv
        return True
    print("install them as root, then run this again:\n  " + " && ".join(" ".join(c) for c in commands)
          if commands else "install their equivalents with your package manager", file=sys.stderr)
    return not need_venv   # without venv support nothing below can work


def _has_ensurepip():
    try:
        import ensurepip  # noqa: F401  (Debian's python3 lacks it until python3-venv is installed)
    except ImportError:
        return False
    return True


# --- venv and install -------------------------------------------------------------------------
def install_stamp(pyproject_bytes, extras, version_info):
    """What decides whether pip must run again: pyproject.toml, the extras, the Python version."""
    digest = hashlib.sha256(pyproject_bytes).hexdigest()
    return {"pyproject_sha256": digest, "extras": sorted(extras),
            "python": "%d.%d" % tuple(version_info[:2])}


def stamp_covers(stamp_file_text, wanted):
    """True when the recorded install already holds `wanted` (same pyproject, extras ⊇ wanted)."""
    try:
        have = json.loads(stamp_file_text)
    except (TypeError, ValueError):
        return False
    return (isinstance(have, dict) and have.get("pyproject_sha256") == wanted["pyproject_sha256"]
            and have.get("python") == wanted["python"]
            and set(wanted["extras"]) <= set(have.get("extras") or []))


def pip_target(extras):
    return ".[%s]" % ",".join(extras) if extras else "."


def ensure_venv(extras=()):
    """Create .venv and install the project unless the stamp says it is already there."""
    system = platform.system()
    python = venv_python(ROOT, system)
    if not os.path.exists(python):
        say("creating the Python environment %s (some seconds) …" % venv_dir(ROOT, system))
        r = subprocess.run([sys.executable, "-m", "venv", venv_dir(ROOT, system)])
        if r.returncode != 0 or not os.path.exists(python):
            sys.exit("could not create %s (on Debian/Ubuntu: apt-get install python3-venv)"
                     % venv_dir(ROOT, system))
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        wanted = install_stamp(f.read(), extras, sys.version_info)
    stamp_path = os.path.join(venv_dir(ROOT, system), STAMP_NAME)
    try:
        with open(stamp_path, encoding="utf-8") as f:
            recorded = f.read()
    except OSError:
        recorded = ""
    if stamp_covers(recorded, wanted) and os.path.exists(venv_program(ROOT, system, "idc-console")):
        say("checking the installation: %s is up to date with pyproject.toml" % venv_dir(ROOT, system))
        compile_project(python)
        return python
    say("installing the project into %s (first time or pyproject.toml changed): PySide6, SQLAlchemy, "
        "ReportLab … about 500 MB and a minute or two the first time" % venv_dir(ROOT, system))
    say("  upgrading pip …")
    subprocess.run([python, "-m", "pip", "install", "-q", "--upgrade", "pip"],
                   stdout=subprocess.DEVNULL, cwd=ROOT)
    if run_pip([python, "-m", "pip", "install", "--progress-bar", "off", "-e", pip_target(extras)]) != 0:
        sys.exit("pip could not install the project (see above)")
    try:   # pip does not remove extras installed before: keep counting them
        earlier = json.loads(recorded)
        if earlier.get("pyproject_sha256") == wanted["pyproject_sha256"]:
            wanted["extras"] = sorted(set(wanted["extras"]) | set(earlier.get("extras") or []))
    except (ValueError, AttributeError):
        pass
    with open(stamp_path, "w", encoding="utf-8") as f:
        json.dump(wanted, f)
    compile_project(python)
    return python


PACKAGES = ("app", "ui", "models", "reports", "bench", "launcher")


def compile_project(python):
    """The project's bytecode, as an installed package has it (pip compiles what it installs; this checkout
    is installed editable): the modules the console imports as it starts are then read, not compiled,
    also where PYTHONDONTWRITEBYTECODE keeps Python from caching them (0.05-0.2 s of a page's first show,
    issue 26). Only what changed since is compiled again; a failure here is not one of the program."""
    here = [p for p in PACKAGES if os.path.exists(os.path.join(ROOT, p))]
    try:
        subprocess.run([python, "-m", "compileall", "-q", "-j", "0", *here], cwd=ROOT,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        pass


def pip_step(line):
    """pip's line as one short line of what it is doing now, or None for the lines to leave out."""
    text = line.strip()
    if text.startswith("Collecting "):
        return "  collecting " + text[len("Collecting "):].split(" (from")[0]
    if text.startswith("Processing "):            # a wheel from a local index or folder
        return "  collecting " + text[len("Processing "):].replace("\\", "/").split("/")[-1]
    if text.startswith("Downloading "):
        return "  downloading " + text[len("Downloading "):].split("/")[-1]
    if text.startswith("Obtaining ") or text.startswith("Building editable"):
        return "  building the project itself (editable install) …"
    if text.startswith("Installing collected packages:"):
        names = [n for n in text.split(":", 1)[1].split(",") if n.strip()]
        return "  installing %d packages (unpacking, some seconds) …" % len(names)
    if text.startswith("Successfully installed"):
        return "  installed %d packages" % len(text.split()[2:])
    return None


def run_pip(argv):
    """pip, its output cut to a line per step (collecting, downloading, installing); its errors
    as they are. Returns pip's exit code; on failure the lines left out are shown too."""
    p = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, universal_newlines=True, bufsize=1)
    left_out = []
    for line in p.stdout:
        step = pip_step(line)
        if step is not None:
            say(step)
        else:
            left_out.append(line.rstrip("\n"))
    code = p.wait()
    if code != 0:
        sys.stderr.write("\n".join(left_out[-40:]) + "\n")
    return code


# --- arguments and launching ------------------------------------------------------------------
def global_db_args(argv):
    """The --db option among the arguments meant for idc-console, to prepare that database too."""
    for i, arg in enumerate(argv):
        if arg == "--db" and i + 1 < len(argv):
            return ["--db", argv[i + 1]]
        if arg.startswith("--db="):
            return [arg]
    return []


def run_program(argv, system, env=None):
    """Hand over to a program: exec on POSIX (signals and exit code pass through), a child on Windows."""
    if system == "Windows":
        return subprocess.run(argv, env=env).returncode
    if env is not None:
        os.execve(argv[0], argv, env)
    os.execv(argv[0], argv)
    return 0  # not reached
