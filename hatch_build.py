"""The compiled build: the engine's hot modules compiled to C with mypyc, as a hatchling hook.

Where it sits: beside `pyproject.toml`, which declares it as the wheel's `custom` build hook,
off unless `HATCH_BUILD_HOOK_ENABLE_CUSTOM=true` is set when the wheel is built; then hatchling
installs the hook's dependencies into the build environment (mypy and setuptools, and numpy
and lark, whose types mypyc checks the compiled modules against) and calls `initialize`
before writing the wheel. The wheel keeps every `.py` file (the pure package, the same
source) and adds an extension module beside each compiled one, which Python imports in its
place, plus the shared library `tarot__mypyc`. It needs a C compiler. The pure-Python
package stays the default (the README's "Speed" says why: the build's time).

Why not the `hatch-mypyc` plugin: it names each module by its path in the project
(`interpreter.engine.state`), while the package installs as `tarot` from the folder
`interpreter/` (the `sources` mapping); compiled under the wrong name, the modules do not load.
Here mypyc reads the folder through a `tarot` link in a temporary directory.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: the modules compiled (under `interpreter/`), the hot path of a hand and of the play-outs.
#: Left pure: `ruleset.py` and `engine/seat_view.py` (frozen dataclasses with
#: `cached_property` and attributes set from outside, which compiled classes cannot hold),
#: `cards.py` (`Pack` subclasses `list`), and everything that loads, checks or reports.
COMPILED = (
    "engine/*.py",
    "engine/phases/*.py",
    "expressions/*.py",
    "compile/contexts.py",
    "core/actions.py",
    "core/rule_index.py",
    "players/heuristic_agent.py",
    "players/judging.py",
    "players/playouts.py",
    "players/random_agent.py",
    "players/sampling.py",
    "players/search_agent.py",
)
LEFT_PURE = ("engine/seat_view.py",)
GROUP = "tarot"  # the shared library is `tarot__mypyc`

SETUP = """\
from setuptools import setup
from mypyc.build import mypycify

setup(
    name="tarot-compiled",
    ext_modules=mypycify({args!r}, opt_level="3", group_name={group!r}),
)
"""


def compiled_sources(package: Path) -> list[str]:
    """The compiled modules' paths, relative to the package folder."""
    found = {
        path.relative_to(package).as_posix()
        for pattern in COMPILED
        for path in package.glob(pattern)
    }
    return sorted(found - set(LEFT_PURE))


def c_compiler() -> str | None:
    """The C compiler setuptools will call (`CC`, else the one Python was built with)."""
    command = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(command.split()[0])


class CustomBuildHook(BuildHookInterface):
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        if c_compiler() is None:
            raise RuntimeError(
                "the compiled build (HATCH_BUILD_HOOK_ENABLE_CUSTOM) needs a C compiler (gcc or"
                " clang, or one named by CC) and none was found; install one, or build without"
                " that variable for the pure-Python package"
            )
        self.work = Path(tempfile.mkdtemp(prefix="tarot-mypyc-"))
        (self.work / "tarot").symlink_to(Path(self.root, "interpreter").resolve())
        sources = [f"tarot/{name}" for name in compiled_sources(self.work / "tarot")]
        # of the runtime dependencies, only numpy's and lark's types are read (pyproject.toml
        # installs them in the build environment); the others' are not needed
        args = ["--ignore-missing-imports", *sources]
        (self.work / "setup.py").write_text(SETUP.format(args=args, group=GROUP))
        lib = self.work / "lib"
        command = [sys.executable, "setup.py", "build_ext", "--build-lib", str(lib)]
        command += ["--build-temp", str(self.work / "tmp")]
        done = subprocess.run(command, cwd=self.work, capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"mypyc failed:\n{done.stdout}\n{done.stderr}")
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        for built in lib.rglob(f"*{suffix}"):
            build_data["force_include"][str(built)] = built.relative_to(lib).as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
