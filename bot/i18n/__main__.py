"""``python -m bot.i18n extract|update|compile|check``: the catalogs' build steps.

- ``extract``: write ``bot/locale/messages.pot`` (and each game package's own template,
  ``bot/render/games/<game>/locale/messages.pot``) from the code.
- ``update``: ``extract``, then merge it into every language's ``.po`` (new strings empty).
- ``compile``: the ``.mo`` files (the bot also compiles a stale one on first use).
- ``check``: list what keeps the catalogs from being complete; exit 1 if anything.
"""

from __future__ import annotations

import sys

from bot.i18n import catalogs


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "extract":
        for path in catalogs.write_template():
            print(path)
    elif command == "update":
        for path in catalogs.update():
            print(path)
    elif command == "compile":
        for path in catalogs.compile_all():
            print(path)
    elif command == "check":
        found = catalogs.problems()
        for line in found:
            print(line)
        print(f"{len(found)} problem(s)")
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
