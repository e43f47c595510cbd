"""One bot process per database: an exclusive ``flock`` on ``<database>.lock``, held for the
process's life.

Two bot processes on one database load the same tables and then fail each other's every move
with ``StaleWrite``; the second must refuse to start instead. ``flock`` is released by the
kernel when the process dies, however it dies, so a crash never leaves a stale lock behind (the
file itself stays; only the lock on it counts). Terminal tables (``python -m bot local``) and
``python -m bot backup`` do not take it: they may run beside the bot by design.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType

from bot.storage.startup import StartupError, unwritable

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows has no flock; the lock is then advisory only
    fcntl = None  # type: ignore[assignment]


def lock_path(database: Path) -> Path:
    return database.with_name(database.name + ".lock")


class InstanceLock:
    """``acquire()`` or ``StartupError`` naming the holder's pid; ``release()`` when done."""

    def __init__(self, database: Path | str) -> None:
        self.database = Path(database)
        self.path = lock_path(self.database)
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> InstanceLock:
        if self._fd is not None or fcntl is None:
            return self
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:  # a read-only folder or mount: one line, not a traceback
            raise unwritable(self.path, error) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise StartupError(
                f"{self.database} is in use by another bot process (pid {holder}, lock "
                f"{self.path}): stop that process first, or set DATABASE_PATH to another file."
            ) from None
        except BaseException:
            os.close(fd)
            raise
        # The holder's pid, for the refusal above (informative only: the flock is the lock).
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd
        return self

    def release(self) -> None:
        """Let the next process in. The file is kept: deleting it would let a process that
        opened the old file and one that creates a new one both believe they hold the lock."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        os.ftruncate(fd, 0)
        os.close(fd)  # closing the descriptor drops the flock

    def __enter__(self) -> InstanceLock:
        return self.acquire()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.release()
