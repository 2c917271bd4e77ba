"""setup.py: builds silk_occ._engine, a CPython extension of the occupancy
engine, from the engine's own C sources in the silk-occ tree (occupancy/,
and the few common/ files it uses), so that the module and `silk-occ calc`
are one engine.  The tables are compiled in, as the program's are: the CSV
files of arch-tables/ become occupancy/builtin_tables.c by the same awk
command Makefile.am runs (arch-tables/embed.awk), written into the build
folder, never into the source tree.

The tree is the folder above this one, or $SILK_OCC_SOURCE (make check
builds from a copy of python/ when the source tree is read-only, as in
make distcheck).  The engine needs libcsv (Debian: libcsv-dev) and awk.
"""
import os
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.environ.get("SILK_OCC_SOURCE") or os.path.join(HERE, os.pardir))

ENGINE = ["calc.c", "search.c", "advice.c", "policy.c", "waves.c", "cluster.c", "figures.c",
          "usage.c", "arch_load.c", "arch_lookup.c", "table_load.c", "amd_calc.c",
          "amd_advice.c", "amd_load.c", "amd_lookup.c"]
COMMON = ["edit_distance.c", "read_file.c", "escape.c", "format_bytes.c"]
# (C array name, CSV file): Makefile.am's occupancy/builtin_tables.c rule.
TABLES = [("silk_builtin_compute_capabilities_csv", "compute-capabilities.csv"),
          ("silk_builtin_products_csv", "products.csv"),
          ("silk_builtin_amd_targets_csv", "amd-targets.csv"),
          ("silk_builtin_amd_products_csv", "amd-products.csv")]


def source_tree():
    """The silk-occ tree, or a clear stop saying what is missing."""
    header = os.path.join(ROOT, "occupancy", "occupancy.h")
    if not os.path.isfile(header):
        sys.exit("silk_occ: the engine's sources are not at %s (no occupancy/occupancy.h); "
                 "build from python/ inside a silk-occ tree, or set SILK_OCC_SOURCE to one" % ROOT)
    return ROOT


def version(root):
    """configure.ac's AC_INIT version: the module is that silk-occ."""
    with open(os.path.join(root, "configure.ac"), encoding="utf-8") as f:
        m = re.search(r"AC_INIT\(\[silk-occ\],\s*\[([^\]]+)\]", f.read())
    if not m:
        sys.exit("silk_occ: no version in %s" % os.path.join(root, "configure.ac"))
    return m.group(1)


class BuildEngine(build_ext):
    """Writes builtin_tables.c with awk before compiling."""

    def run(self):
        root = source_tree()
        awk = shutil.which("awk")
        if not awk:
            sys.exit("silk_occ: awk is needed to compile the tables in (arch-tables/embed.awk)")
        out = os.path.join(os.path.abspath(self.build_temp), "builtin_tables.c")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out + ".tmp", "w", encoding="utf-8") as f:
            for name, csv in TABLES:
                # A list of arguments: no shell sees a path.
                subprocess.run([awk, "-v", "name=" + name, "-f",
                                os.path.join(root, "arch-tables", "embed.awk"),
                                os.path.join(root, "arch-tables", csv)], stdout=f, check=True)
        os.replace(out + ".tmp", out)
        # The engine's files are added here, not in setup(): setuptools
        # refuses absolute paths there, and they lie outside python/.
        engine = [os.path.join(root, "occupancy", f) for f in ENGINE]
        engine += [os.path.join(root, "common", f) for f in COMMON]
        for ext in self.extensions:
            ext.sources += [f for f in engine + [out] if f not in ext.sources]
        super().run()


def engine_extension():
    root = source_tree()
    return Extension(
        "silk_occ._engine", sources=[os.path.join("silk_occ", "_engine.c")],
        include_dirs=[os.path.join(root, "occupancy"), os.path.join(root, "common")],
        define_macros=[("_POSIX_C_SOURCE", "200809L"), ("SILK_OCC_VERSION", '"%s"' % version(root))],
        # Hidden: the module exports PyInit__engine alone, so that the engine's
        # names cannot meet an installed libsilk-occ's in one process.
        extra_compile_args=["-std=c11", "-O2", "-Wall", "-Wextra", "-fvisibility=hidden"],
        libraries=["csv"])


setup(version=version(source_tree()), ext_modules=[engine_extension()],
      cmdclass={"build_ext": BuildEngine})
