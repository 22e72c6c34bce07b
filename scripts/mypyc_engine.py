"""Compile the engine's rules with mypyc, in place: an experiment for issue 24.

    .venv/bin/python scripts/mypyc_engine.py            # build (about 2 minutes on 2 cores)
    .venv/bin/python scripts/mypyc_engine.py --clean    # back to the interpreted engine

mypyc (shipped in the pinned ``mypy``) turns the same typed source into C
extensions, one ``.so`` beside each ``.py`` plus one shared library,
``engine__mypyc*.so``, at the repository root; Python imports a ``.so`` in
preference to its ``.py``. The source stays pure Python and the interpreted
engine is what runs wherever no build exists. Build output is git-ignored.

A build is only right for the source it was made from: after any change to a
compiled module, build again or ``--clean`` (a stale ``.so`` runs the old code).
Compiled: the two games' packages and the shared modules they import. Not
compiled: the bots, arena, records, registry and command line (they call into
the compiled rules; ``tests/engine`` monkeypatches some of them).
"""
from __future__ import annotations

import argparse
import pathlib
import shutil
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = {"ace": ["engine/ace"], "rhombus": ["engine/rhombus"]}
SHARED = ["engine/shuffle.py", "engine/errors.py"]
GROUP = "engine"  # the shared library's name: engine__mypyc*.so


def sources(only: str | None) -> list[str]:
    dirs = PACKAGES[only] if only else [d for ds in PACKAGES.values() for d in ds]
    files = [str(p.relative_to(ROOT)) for d in dirs for p in sorted((ROOT / d).glob("*.py"))]
    return files + SHARED


def clean() -> int:
    built = {*ROOT.glob("engine/**/*.so"), *ROOT.glob("*__mypyc*.so")}
    for path in built:
        path.unlink()
    shutil.rmtree(ROOT / "build", ignore_errors=True)
    return len(built)


def build(only: str | None, opt_level: str) -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    modules = mypycify(sources(only), opt_level=opt_level, group_name=GROUP, target_dir="build/mypyc")
    setup(name="aceweb-engine-mypyc", ext_modules=modules,
          script_args=["-q", "build_ext", "--inplace", "--build-temp", "build/mypyc/temp",
                       "--build-lib", "build/mypyc/lib"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--clean", action="store_true", help="remove every .so the build made")
    parser.add_argument("--only", choices=sorted(PACKAGES), help="compile one game's package (and the shared modules)")
    parser.add_argument("--opt-level", default="3", help="C optimisation level (mypycify's opt_level)")
    args = parser.parse_args()
    import os
    os.chdir(ROOT)
    removed = clean()
    if args.clean:
        print(f"removed {removed} compiled modules")
        return
    wall, cpu = time.perf_counter(), time.process_time()
    build(args.only, args.opt_level)
    import resource
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"built {len(list(ROOT.glob('engine/**/*.so')))} modules in {time.perf_counter() - wall:.1f} s wall, "
          f"{time.process_time() - cpu + children.ru_utime + children.ru_stime:.1f} s CPU", file=sys.stderr)


if __name__ == "__main__":
    main()
