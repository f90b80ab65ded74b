"""Tortoise models, one package per system; each system is its own Tortoise app and connection.

:func:`tortoise_config` builds the configuration for the systems a process needs: an HTTP
process of one system opens only that system's connection, so systems fail independently.
"""

from __future__ import annotations

from typing import Iterable

from kit.settings import Settings
from kit.systems import DATA_SYSTEMS


def tortoise_config(settings: Settings, systems: Iterable[str] | None = None, *, pool_max: int | None = None) -> dict:
    pool_max = min(pool_max, settings.database_pool_max) if pool_max else settings.database_pool_max
    names = list(systems) if systems is not None else [system.name for system in DATA_SYSTEMS]
    connections = {}
    apps = {}
    for name in names:
        connections[name] = {
            "engine": "tortoise.backends.asyncpg",
            "credentials": _credentials(settings.database_url_for(name), pool_max),
        }
        apps[name] = {
            "models": [f"models.{name}"],
            "default_connection": name,
            "migrations": f"models.{name}.migrations",
        }
    return {"connections": connections, "apps": apps, "use_tz": True, "timezone": "UTC"}


async def keep_session(connection) -> None:
    """The pool's reset of a connection given back: asyncpg has already rolled back a transaction
    left open and dropped listeners; its reset query (``SELECT pg_advisory_unlock_all(); CLOSE ALL;
    UNLISTEN *; RESET ALL``, a round trip on every release, one per query outside a transaction) is
    left out, since no Herald process leaves session state behind: advisory locks are
    transaction-scoped (``pg_advisory_xact_lock``), settings are ``SET LOCAL``, and nothing
    LISTENs, opens a cursor WITH HOLD or makes a temporary table on a pooled connection."""


def _credentials(url: str, pool_max: int) -> dict:
    from tortoise.backends.base.config_generator import expand_db_url

    credentials = expand_db_url(url)["credentials"]
    credentials.setdefault("minsize", 1)
    credentials["maxsize"] = pool_max
    credentials["reset"] = keep_session  # for every pool: HTTP, workers, the consumer, the scheduler
    return credentials


# Systems not built yet have no models; their (empty) app is still configured on purpose.
import warnings as _warnings

_warnings.filterwarnings("ignore", message=r'Module "models\.\w+" has no models', category=RuntimeWarning)
