"""Nothing in the repository names a path outside it.

The rules contract the engine was written from lives outside the repository; the repository's
own copy of the rules is ``docs/rules/``. A clone must make sense on its own, so no text file may
point at the machine it was written on.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Built from pieces so that this file does not name them itself.
FORBIDDEN = ("/" + "work/", "shared" + "/rules", "shared" + "/seeds")

# Walked only when git cannot list the files (an exported tree): never project files.
_SKIPPED_DIRS = {".git", "data", "__pycache__", ".pytest_cache", ".ruff_cache", ".hypothesis"}


def repository_files(root: Path) -> list[Path]:
    """Tracked files plus new files git would track (not ignored), relative to ``root``."""
    try:
        listing = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=root,
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        found = []
        for folder, dirs, files in os.walk(root):
            dirs[:] = [
                d
                for d in dirs
                if d not in _SKIPPED_DIRS and not d.startswith(".venv") and ".egg-info" not in d
            ]
            found += [Path(folder, f).relative_to(root) for f in files]
        return sorted(found)
    return sorted(Path(name) for name in listing.decode().split("\0") if name)


def outside_paths(root: Path, files: list[Path]) -> list[str]:
    """``file:line: text`` for every line of a text file that names a forbidden path."""
    hits = []
    for relative in files:
        path = root / relative
        if not path.is_file():  # deleted in the working tree but still in the index
            continue
        data = path.read_bytes()
        if b"\0" in data:  # binary
            continue
        for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            if any(word in line for word in FORBIDDEN):
                hits.append(f"{relative}:{number}: {line.strip()}")
    return hits


def test_no_file_names_a_path_outside_the_repository() -> None:
    files = repository_files(ROOT)
    assert Path("engine/__init__.py") in files  # the listing really covers the repository
    assert outside_paths(ROOT, files) == []


def test_the_check_finds_outside_paths(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("see ../" + "shared" + "/rules/troika.md\nfine\n")
    (tmp_path / "b.py").write_text('RULES = "/' + 'work/x"\n')
    (tmp_path / "c.bin").write_bytes(b"\0/" + b"work/")
    files = [Path("a.md"), Path("b.py"), Path("c.bin")]
    assert outside_paths(tmp_path, files) == [
        "a.md:1: see ../" + "shared" + "/rules/troika.md",
        'b.py:1: RULES = "/' + 'work/x"',
    ]
