"""The compiled build plays like the pure package: records of every built-in ruleset, byte for byte.

Builds the compiled wheel of this checkout (`hatch_build.py`, mypyc; needs a C compiler and
the build's dependencies from the package index, or `--wheel` for one built before), unpacks
it into a temporary folder, and writes the records of `records_snapshot.py` (random,
heuristic and search players, fixed seeds) with that build and with this checkout's pure
package, each in its own process; then compares the two folders. Exits 1 when they differ or
the wheel holds nothing compiled, 2 when no C compiler is found.

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


def build_wheel(into: Path) -> Path:
    """The compiled wheel of this checkout, built into `into`."""
    environment = dict(os.environ, HATCH_BUILD_HOOK_ENABLE_CUSTOM="true")
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(into)]
    subprocess.run([*command, str(ROOT)], check=True, env=environment)
    return next(into.glob("*.whl"))


def write_records(engine: Path, folder: Path, rulesets: str) -> subprocess.Popen[bytes]:
    """A process writing the records of `records_snapshot.py`, played by the `tarot` found
    in `engine`."""
    bench = Path(__file__).resolve().parent
    command = [sys.executable, "-c", WRITE, str(engine), str(bench), str(folder), rulesets]
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
        wheel = args.wheel or build_wheel(work / "wheel")
        site = work / "site"
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(site)
        compiled = sorted(site.glob("tarot/**/*.so")) + sorted(site.glob("tarot/**/*.pyd"))
        if not compiled:
            print(f"compiled_check: {wheel.name} holds no compiled module", file=sys.stderr)
            return 1
        print(f"{wheel.name}: {len(compiled)} compiled modules", file=sys.stderr)
        folders = {"compiled": work / "records-compiled", "pure": work / "records-pure"}
        # both at once, one a core
        writers = [
            write_records(engine, folders[kind], args.rulesets)
            for kind, engine in (("compiled", site), ("pure", ROOT))
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
