"""Where the browser tests find Chromium: Debian's package (``.ci/run`` installs it and names it
in ``TROIKA_CHROMIUM``); Playwright's own browser download cannot work on these machines."""

from __future__ import annotations

import os
import shutil
from pathlib import Path


def chromium() -> str | None:
    found = os.environ.get("TROIKA_CHROMIUM") or shutil.which("chromium")
    if found and Path(found).exists():
        return found
    return None
