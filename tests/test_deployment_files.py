"""The lock files, the Dockerfile and the systemd unit agree with pyproject.toml.

``bash .ci/lock`` writes the locks; a dependency added to pyproject.toml without running it
would leave the Docker image and .ci/run without it: this fails first, naming the package.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)")


def read_lock(name: str) -> dict[str, tuple[str, int]]:
    """Each locked package: (version, how many hashes)."""
    locked: dict[str, tuple[str, int]] = {}
    current = None
    for line in (ROOT / name).read_text().splitlines():
        pin = _PIN.match(line)
        if pin:
            current = canonicalize_name(pin[1])
            assert current not in locked, f"{name}: {current} pinned twice"
            locked[current] = (pin[2], 0)
        elif line.strip().startswith("--hash=sha256:") and current is not None:
            version, hashes = locked[current]
            locked[current] = (version, hashes + 1)
        elif line.strip() and not line.lstrip().startswith("#"):
            assert line.startswith("    "), f"{name}: unexpected line {line!r}"
    return locked


def _missing(requirements: list[str], locked: dict[str, tuple[str, int]]) -> list[str]:
    """The requirements the lock does not pin to a version they accept."""
    wrong = []
    for text in requirements:
        need = Requirement(text)
        pinned = locked.get(canonicalize_name(need.name))
        if pinned is None or not need.specifier.contains(pinned[0], prereleases=True):
            wrong.append(f"{text} (locked: {pinned[0] if pinned else 'nothing'})")
    return wrong


def test_every_locked_file_has_a_hash() -> None:
    for name in ("requirements.lock", "requirements-test.lock"):
        locked = read_lock(name)
        assert len(locked) >= 10
        assert [pkg for pkg, (_, hashes) in locked.items() if hashes == 0] == [], name


def test_the_locks_pin_every_dependency_of_pyproject() -> None:
    runtime = PYPROJECT["project"]["dependencies"]
    tests = PYPROJECT["project"]["optional-dependencies"]["test"]
    hint = "run `bash .ci/lock` and commit the lock files"
    assert _missing(runtime, read_lock("requirements.lock")) == [], hint
    assert _missing(runtime + tests, read_lock("requirements-test.lock")) == [], hint


def test_the_tests_run_on_the_bots_versions() -> None:
    bot, tests = read_lock("requirements.lock"), read_lock("requirements-test.lock")
    assert {pkg: tests.get(pkg, ("absent",))[0] for pkg in bot} == {
        pkg: version for pkg, (version, _) in bot.items()
    }


def test_the_image_installs_the_lock_and_every_package_as_non_root() -> None:
    docker = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim$", docker, re.M)
    assert "pip install --require-hashes --no-deps -r requirements.lock" in docker
    for package in PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]:
        top = package.rstrip("*")
        assert f"COPY {top}/ {top}/" in docker, f"the image lacks the {top} package"
    user = re.findall(r"^USER (\S+)$", docker, re.M)
    assert user and user[-1] not in {"root", "0"}
    assert docker.rstrip().endswith('ENTRYPOINT ["python", "-m", "bot"]')


def test_the_unit_runs_one_shard_range_per_instance() -> None:
    unit = (ROOT / "deploy" / "troika@.service").read_text()
    settings = [line for line in unit.splitlines() if line and not line.startswith("#")]
    assert "Restart=on-failure" in settings and "NoNewPrivileges=yes" in settings
    assert any(s.startswith("EnvironmentFile=/") for s in settings)
    # The instance's range is set on the command line: it wins over any EnvironmentFile.
    (start,) = [s for s in settings if s.startswith("ExecStart=")]
    assert re.fullmatch(r"ExecStart=/usr/bin/env SHARD_IDS=%i \S+/python -m bot", start)
