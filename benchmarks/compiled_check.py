"""The compiled build plays like the pure package: records of every built-in ruleset, byte for byte.

Installs the compiled build of this checkout as the README says, in a fresh virtual
environment: `HATCH_BUILD_HOOK_ENABLE_CUSTOM=true pip install .` (`hatch_build.py`, mypyc;
needs a C compiler and the package index, from which pip fills the isolated build
environment), so that the command a user types is the one checked. Then it writes the
records of `records_snapshot.py` (random, heuristic and search players, fixed seeds) with
that build (the environment's Python) and with this checkout's pure package, each in its own
process, and compares the two folders. `--wheel FILE` takes a wheel built before instead,
unpacked into a temporary folder. Exits 1 when the install fails, the records differ or the
build holds nothing compiled, 2 when no C compiler is found.

    python benchmarks/compiled_check.py [--rulesets A,B] [--wheel FILE] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: run in a child process: `tarot` from the folder given first (imported before
#: records_snapshot, whose own path insertion then no longer matters), then the records
WRITE = """\
import sys
sys.path.insert(0, sys.argv[1])
import tarot.engine.state
print(tarot.engine.state.__file__, file=sys.stderr)
sys.path.insert(0, sys.argv[2])
import records_snapshot
from tarot.load.listing import builtin_listings
names = sys.argv[4].split(",") if sys.argv[4] else sorted(builtin_listings())
records_snapshot.write_records(__import__("pathlib").Path(sys.argv[3]), names)
"""


def c_compiler() -> str | None:
    """The C compiler the build would call (`CC`, else the one Python was built with); the
    build hook cannot be imported here (hatchling is only in the build's environment)."""
    command = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(command.split()[0])


def install_compiled(venv: Path) -> tuple[Path, Path] | None:
    """The README's command for the compiled build, run in a fresh virtual environment at
    `venv`: its Python and the folder its `tarot` is installed in, or None if it failed."""
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    environment = dict(os.environ, HATCH_BUILD_HOOK_ENABLE_CUSTOM="true")
    command = [str(python), "-m", "pip", "install", "-q", str(ROOT)]
    print(f"in {venv}: HATCH_BUILD_HOOK_ENABLE_CUSTOM=true pip install {ROOT}", file=sys.stderr)
    if subprocess.run(command, env=environment).returncode:
        return None
    where = [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]
    site = subprocess.run(where, check=True, capture_output=True, text=True).stdout.strip()
    return python, Path(site)


def write_records(
    python: Path, engine: Path, folder: Path, rulesets: str
) -> subprocess.Popen[bytes]:
    """A process of `python` writing the records of `records_snapshot.py`, played by the
    `tarot` found in `engine`."""
    bench = Path(__file__).resolve().parent
    command = [str(python), "-c", WRITE, str(engine), str(bench), str(folder), rulesets]
    return subprocess.Popen(command, cwd=folder.parent, stdout=subprocess.DEVNULL)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulesets", default="", help="comma-separated (default: every one)")
    parser.add_argument("--wheel", type=Path, help="a compiled wheel built before")
    parser.add_argument("--keep", type=Path, help="write the two record folders here")
    args = parser.parse_args()
    if args.wheel is None and c_compiler() is None:
        print(
            "compiled_check: no C compiler found (gcc or clang, or one named by CC): the"
            " compiled build cannot be made here, so it was not checked",
            file=sys.stderr,
        )
        return 2
    with tempfile.TemporaryDirectory(prefix="tarot-compiled-") as temporary:
        work = args.keep or Path(temporary)
        work.mkdir(parents=True, exist_ok=True)
        if args.wheel:
            python, site, built = Path(sys.executable), work / "site", args.wheel.name
            with zipfile.ZipFile(args.wheel) as archive:
                archive.extractall(site)
        else:
            installed = install_compiled(work / "venv")
            if installed is None:
                print("compiled_check: the compiled build did not install", file=sys.stderr)
                return 1
            (python, site), built = installed, "the compiled build"
        compiled = sorted(site.glob("tarot/**/*.so")) + sorted(site.glob("tarot/**/*.pyd"))
        if not compiled:
            print(f"compiled_check: {built} holds no compiled module", file=sys.stderr)
            return 1
        print(f"{built}: {len(compiled)} compiled modules", file=sys.stderr)
        folders = {"compiled": work / "records-compiled", "pure": work / "records-pure"}
        # both at once, one a core
        writers = [
            write_records(python, site, folders["compiled"], args.rulesets),
            write_records(Path(sys.executable), ROOT, folders["pure"], args.rulesets),
        ]
        if any([writer.wait() for writer in writers]):  # a list: wait for both
            print("compiled_check: writing the records failed (see above)", file=sys.stderr)
            return 1
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from records_snapshot import differences

        found = differences(folders["compiled"], folders["pure"])
        for line in found:
            print(line)
        count = len(list(folders["pure"].iterdir()))
        print(f"compiled against pure: {len(found)} difference(s) in {count} records")
        return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
