"""The install: everything under ``mindgames``, nothing at the top level of site-packages.

python-sat installs a ``models.py`` script into the same ``bin`` directory as the
``mindgames`` console script, and other distributions ship packages called
``models`` or ``solver``: a wheel built from this repository must therefore hold
``mindgames.models`` and ``mindgames.solver`` only, and run from a fresh
environment where ``bin/models.py`` sits beside the console script.

The wheel is built and installed without the network (``--no-index``, no build
isolation); the fresh environment sees the test environment's third-party packages
through a path entry (not its ``.pth`` files, so not this checkout's editable install).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

pytest.importorskip("setuptools", minversion="77")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    build = tmp_path_factory.mktemp("build")  # a copy: the build writes build/ and *.egg-info
    shutil.copytree(
        REPO, build / "src", ignore=shutil.ignore_patterns(".venv", ".git", "__pycache__", "build")
    )
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-index", "--no-build-isolation",
         "--wheel-dir", str(out), str(build / "src")],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    (found,) = out.glob("mindgames-*.whl")
    return found


def test_the_wheel_holds_one_top_level_package(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/")[0] for name in names if not name.split("/")[0].endswith((".dist-info", ".data"))}
    assert top == {"mindgames"}
    assert "mindgames/models/sudoku/rules.py" in names and "mindgames/solver/sat.py" in names
    assert "mindgames/service/static/index.html" in names


@pytest.fixture(scope="module")
def fresh_env(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    env = tmp_path_factory.mktemp("env") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    python = env / "bin" / "python"
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True, capture_output=True, text=True,
        ).stdout.strip()
    )  # fmt: skip
    # The third-party packages of this environment, as a plain path entry at the end.
    (site / "third_party.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", "--no-index",
         str(wheel)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    # python-sat's scripts, models.py among them, sit beside the console script.
    shutil.copy(Path(sysconfig.get_paths()["scripts"]) / "models.py", env / "bin" / "models.py")
    return env


def run_in(env: Path, *argv: str, cwd: Path) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(list(argv), cwd=cwd, env=clean, capture_output=True, text=True, timeout=300)


def test_the_installed_library_imports_under_its_own_namespace(fresh_env: Path, tmp_path: Path) -> None:
    python = str(fresh_env / "bin" / "python")
    shown = run_in(
        fresh_env,
        python,
        "-c",
        "import mindgames.models, mindgames.solver; print(mindgames.models.__file__)",
        cwd=tmp_path,
    )
    assert shown.returncode == 0, shown.stderr
    assert str(fresh_env) in shown.stdout  # the installed copy, not this checkout
    for generic in ("models", "solver"):
        missing = run_in(fresh_env, python, "-c", f"import {generic}.registry", cwd=tmp_path)
        assert missing.returncode != 0 and "ModuleNotFoundError" in missing.stderr


def test_the_console_script_solves_beside_python_sat_scripts(fresh_env: Path, tmp_path: Path) -> None:
    assert (fresh_env / "bin" / "models.py").exists()
    solved = run_in(fresh_env, str(fresh_env / "bin" / "mindgames"), "sudoku", "solve",
                    str(REPO / "data" / "sudoku" / "seed.txt"), "--json", cwd=tmp_path)  # fmt: skip
    assert solved.returncode == 0, solved.stderr
    import json

    assert [json.loads(line)["status"] for line in solved.stdout.splitlines()] == ["solved", "solved"]
