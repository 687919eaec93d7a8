"""uv.lock is what every install uses (make install, the Dockerfile): it must agree with pyproject.toml, and
make must accept every Python that pyproject.toml accepts."""

from __future__ import annotations

import os
import re
import subprocess
import tomllib

import pytest

from tests.import_graph import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
LOCK = tomllib.loads((ROOT / "uv.lock").read_text())
UV = ROOT / ".venv-uv" / "bin" / "uv"


def test_the_lock_holds_every_dependency_of_pyproject_from_pypi_only():
    root = next(p for p in LOCK["package"] if p["name"] == PYPROJECT["project"]["name"])
    locked = {d["name"] for d in root["dependencies"]} | {d["name"] for d in root["optional-dependencies"]["dev"]}
    wanted = PYPROJECT["project"]["dependencies"] + PYPROJECT["project"]["optional-dependencies"]["dev"]
    names = {re.match(r"[A-Za-z0-9_.-]+", spec).group(0).lower().replace("_", "-") for spec in wanted}
    assert names <= locked
    sources = {p["source"].get("registry") for p in LOCK["package"] if p["name"] != root["name"]}
    assert sources == {"https://pypi.org/simple"}, "a lock that names a local index installs nowhere else"


def test_the_lock_and_make_accept_the_pythons_pyproject_accepts():
    assert LOCK["requires-python"] == PYPROJECT["project"]["requires-python"] == ">=3.11"
    assert "(3, 11)" in (ROOT / "Makefile").read_text()


def test_uv_finds_the_lock_up_to_date():
    if not UV.exists():
        if os.environ.get("CI"):
            pytest.fail("CI needs .venv-uv/bin/uv: make install bootstraps it", pytrace=False)
        pytest.skip("make install has not bootstrapped uv into .venv-uv yet")
    checked = subprocess.run([str(UV), "lock", "--check", "--offline"], cwd=ROOT, capture_output=True, text=True,
                             check=False)
    assert checked.returncode == 0, checked.stderr
