"""Every picture keeps its pixels: seeded samples of each drawing function
(``picture_samples.py``) decoded from their PNG bytes and hashed, against the hashes kept in
``picture_pixels.json``. The PNG bytes may change (how they are encoded); what a player sees
may not. A change meant to alter pixels updates the reference (run this file as a script) and
says so, with before/after screenshots."""

from __future__ import annotations

import hashlib
import io
import json
import sys
from pathlib import Path

import pytest
from PIL import Image

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(1, str(Path(__file__).parents[3]))  # the repository, when run as a script
from picture_samples import drawing, samples  # noqa: E402

REFERENCE = Path(__file__).with_name("picture_pixels.json")


def pixels(png: bytes) -> str:
    """The hash of what the picture shows: its size and every pixel's colour (whatever the
    palette's order or the PNG's encoding)."""
    image = Image.open(io.BytesIO(png))
    rgb = image.convert("RGB")
    return hashlib.sha256(repr(rgb.size).encode() + rgb.tobytes()).hexdigest()


def hashes() -> dict[str, str]:
    return {name: pixels(drawing(draw)(**kwargs)) for name, draw, kwargs in samples()}


@pytest.fixture(scope="module")
def drawn() -> dict[str, str]:
    return hashes()


def test_the_samples_are_all_in_the_reference(drawn: dict[str, str]) -> None:
    assert sorted(drawn) == sorted(json.loads(REFERENCE.read_text()))


@pytest.mark.parametrize("name", [name for name, _, _ in samples()])
def test_a_picture_keeps_its_pixels(name: str, drawn: dict[str, str]) -> None:
    assert drawn[name] == json.loads(REFERENCE.read_text()).get(name)


if __name__ == "__main__":  # write the reference again (after a change meant to alter pixels)
    REFERENCE.write_text(json.dumps(hashes(), indent=1, sort_keys=True) + "\n")
