"""DATABASE_URL: which URLs mean PostgreSQL, and how one is shown (never with its password)."""

from __future__ import annotations

from urllib.parse import urlsplit

SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: object) -> bool:
    """A ``postgresql://`` (or ``postgres://``) URL, as DATABASE_URL holds."""
    return isinstance(target, str) and target.startswith(SCHEMES)


def redact(url: str) -> str:
    """``url`` for messages and logs: scheme, user, host, port and database, no password
    (nor query parameters, which may hold one)."""
    if not is_postgres_url(url):
        scheme = url.split(":", 1)[0][:20] if ":" in url else "no scheme"
        return f"<a {scheme} value, not a postgresql:// URL>"
    try:
        parts = urlsplit(url)
        user = f"{parts.username}@" if parts.username else ""
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
    except ValueError:  # a port that is not a number, a bracket left open...
        return "postgresql://<unparsable URL>"
    return f"postgresql://{user}{host}{port}{parts.path}"
