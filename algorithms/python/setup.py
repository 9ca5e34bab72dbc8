"""Installs the ordo Python package (from the repository's root, on Debian 12):

    /usr/bin/python3 -m venv --system-site-packages build/venv &&
        build/venv/bin/pip install --no-build-isolation ./algorithms/python

Debian's Python refuses pip installs into itself (PEP 668, "externally-managed
environment"), so the package goes into a virtual environment; --system-site-packages
lets it use Debian's NumPy, SciPy and NetworkX (nothing is fetched), and
--no-build-isolation lets the build use Debian's setuptools and NumPy headers.

The C extension is built by ordo's own CMake build (the same sources, flags and
libraries as the binaries), in a folder under this one's build directory; nothing is
fetched. Needs cmake, a C compiler, libzstd-dev, libnuma-dev (optional) and Debian's
python3-dev, python3-numpy and python3-setuptools (.ci/install-deps installs them).
ORDO_CMAKE_ARGS adds configure options (e.g. -DORDO_NATIVE=OFF for a wheel that runs on
other CPUs).
"""
import os
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
# ordo's source tree: two folders up, or ORDO_SOURCE_DIR (a copy of this folder elsewhere)
ROOT = os.environ.get("ORDO_SOURCE_DIR") or os.path.dirname(os.path.dirname(HERE))
# in the repository, what the build makes goes under its build/ folder, not beside the
# sources (setuptools' default: algorithms/python/build and ordo.egg-info)
OUT = os.path.join(ROOT, "build", "python-pip") if not os.environ.get("ORDO_SOURCE_DIR") \
    else None
if OUT:
    os.makedirs(OUT, exist_ok=True)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = os.path.abspath(os.path.join(self.build_temp, "ordo-cmake"))
        os.makedirs(build, exist_ok=True)
        configure = ["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                     "-DORDO_BUILD_TESTS=OFF", "-DORDO_PYTHON=ON",
                     "-DPython3_EXECUTABLE=" + sys.executable]
        configure += shlex.split(os.environ.get("ORDO_CMAKE_ARGS", ""))
        subprocess.check_call(configure)
        subprocess.check_call(["cmake", "--build", build, "--target", "ordo_python",
                               "-j", str(os.cpu_count() or 2)])
        built = os.path.join(build, "python", "ordo")
        so = [f for f in os.listdir(built) if f.startswith("_core") and f.endswith(".so")]
        if not so:
            raise RuntimeError("the CMake build made no ordo/_core*.so in %s" % built)
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(built, so[0]), target)


setup(
    name="ordo",
    version="0.1.0",
    description="Priority-scheduled graph analytics (SSSP, BFS, A*, MST, k-core) with "
                "pluggable concurrent schedulers",
    packages=["ordo"],
    package_dir={"ordo": os.path.join(HERE, "ordo")},
    ext_modules=[Extension("ordo._core", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": os.path.join(OUT, "build")},
             "egg_info": {"egg_base": OUT}} if OUT else {},
    install_requires=["numpy"],
    python_requires=">=3.9",
)
