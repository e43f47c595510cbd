"""The bot's counters, for ``/metrics`` (Prometheus text format; served by ``bot.app.health``).

The table service and the publisher count here as things happen (a counter's ``inc`` is a few
hundred nanoseconds: nothing beside a database commit); what is a state rather than an event
(tables open, shards ready, the publisher's backlog) is read when scraped, by the collector
``bot.app.health`` adds. No Discord and no web server here: the service and the terminal table
import it.

The counters are the process's, never reset: a test reads them before and after.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.registry import Collector

#: Every metric's prefix: the bot's short name, as in its component ids (``tt:``).
NAMESPACE = "tt"

#: Moves committed, by who made them (``ActionSource``: player, ai, timeout).
ACTIONS = Counter(
    "actions",
    "Moves committed to the database, by who made them.",
    ["source"],
    namespace=NAMESPACE,
    registry=None,
)
#: A player's move, from the service receiving it to its commit (waiting for the table's lock,
#: the rules, the group commit): what the player waits for before his click is answered.
ACTION_LATENCY = Histogram(
    "action_latency_seconds",
    "A player's move from the service receiving it to its commit.",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
    namespace=NAMESPACE,
    registry=None,
)
#: Tables opened (lobbies), by game.
TABLES_OPENED = Counter(
    "tables_opened",
    "Tables opened (lobbies), by game.",
    ["game"],
    namespace=NAMESPACE,
    registry=None,
)
#: Writes the database refused or failed, by the error's type (a conflict with another
#: process, a full disk, a lost connection...).
DATABASE_ERRORS = Counter(
    "database_errors",
    "Database writes that failed, by error type.",
    ["error"],
    namespace=NAMESPACE,
    registry=None,
)
#: Requests the table publisher made to Discord on its own (edits, posts, pings, deletes).
PUBLISHER_REQUESTS = Counter(
    "publisher_requests",
    "Requests the table publisher made to Discord (table edits, posts, pings, deletes).",
    namespace=NAMESPACE,
    registry=None,
)

EVENT_METRICS: tuple[Collector, ...] = (
    ACTIONS,
    ACTION_LATENCY,
    TABLES_OPENED,
    DATABASE_ERRORS,
    PUBLISHER_REQUESTS,
)


def registry(*live: Collector) -> CollectorRegistry:
    """A registry of every counter above plus ``live`` (collectors read when scraped)."""
    made = CollectorRegistry(auto_describe=True)
    for collector in (*EVENT_METRICS, *live):
        made.register(collector)
    return made


#: ``ACTIONS``' child per source: ``labels()`` costs a lock and a lookup on every move.
_ACTIONS_BY_SOURCE: dict[str, Counter] = {}


def count_action(source: str) -> None:
    """One move committed (``source``: an ``ActionSource`` value)."""
    child = _ACTIONS_BY_SOURCE.get(source)
    if child is None:
        child = _ACTIONS_BY_SOURCE[source] = ACTIONS.labels(source=source)
    child.inc()


#: DB-API error classes, the same on SQLite and PostgreSQL: the label of a database error (psycopg
#: raises subclasses such as UniqueViolation, an IntegrityError).
_DBAPI_ERRORS = (
    "IntegrityError", "OperationalError", "ProgrammingError", "DataError", "InternalError",
    "NotSupportedError", "InterfaceError", "DatabaseError",
)  # fmt: skip


def count_database_error(error: BaseException) -> None:
    names = [cls.__name__ for cls in type(error).__mro__]
    label = next((n for n in _DBAPI_ERRORS if n in names), type(error).__name__)
    DATABASE_ERRORS.labels(error=label).inc()
