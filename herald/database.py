"""Creating each system's database and applying the committed Tortoise migrations."""

from __future__ import annotations

from typing import Iterable
from urllib.parse import urlsplit

import asyncpg
from tortoise.context import TortoiseContext
from tortoise.migrations.api import migrate as tortoise_migrate

from kit.settings import Settings, replace_database
from kit.systems import DATA_SYSTEMS
from models import tortoise_config


async def create_databases(settings: Settings, systems: Iterable[str] | None = None) -> list[str]:
    """Create the missing databases; returns the names it created."""
    created = []
    for name in systems or [system.name for system in DATA_SYSTEMS]:
        url = settings.database_url_for(name)
        database = urlsplit(url).path.lstrip("/")
        connection = await asyncpg.connect(replace_database(url, "postgres"))
        try:
            exists = await connection.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", database)
            if not exists:
                # Identifiers cannot be parameters; the name comes from our own settings, quoted.
                await connection.execute(f'CREATE DATABASE "{database}"')
                created.append(database)
        finally:
            await connection.close()
    return created


async def drop_databases(settings: Settings, systems: Iterable[str] | None = None) -> None:
    for name in systems or [system.name for system in DATA_SYSTEMS]:
        url = settings.database_url_for(name)
        database = urlsplit(url).path.lstrip("/")
        connection = await asyncpg.connect(replace_database(url, "postgres"))
        try:
            await connection.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        finally:
            await connection.close()


async def migrate(settings: Settings, systems: Iterable[str] | None = None, *, report=None) -> None:
    """Apply every committed migration of the given systems (all by default)."""
    names = list(systems) if systems is not None else [system.name for system in DATA_SYSTEMS]
    await create_databases(settings, names)
    # A context of its own: migrating never disturbs an ORM the calling process already uses.
    async with TortoiseContext():
        await tortoise_migrate(config=tortoise_config(settings, names, pool_max=2), progress=report)
