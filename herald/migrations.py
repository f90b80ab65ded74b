"""``herald makemigrations SYSTEM`` and ``herald migrate --check``: Tortoise's autodetector, run with
Herald's configuration.

The configuration is exposed as :data:`TORTOISE_ORM` for Tortoise's own CLI as well
(``tortoise -c herald.migrations.TORTOISE_ORM history``). Neither command opens a connection: the
autodetector compares the models with the state the committed migrations build, in memory.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, TextIO

from kit.settings import Settings, get_settings


def __getattr__(name: str):
    if name == "TORTOISE_ORM":
        from models import tortoise_config

        return tortoise_config(get_settings(), pool_max=2)
    raise AttributeError(name)


async def makemigrations(settings: Settings, system: str, *, name: str | None = None, empty: bool = False) -> int:
    from tortoise.cli.cli import run_cli_async

    argv = ["-c", "herald.migrations.TORTOISE_ORM", "makemigrations", system]
    if name:
        argv += ["--name", name]
    if empty:
        argv.append("--empty")
    return await run_cli_async(argv)


@dataclass(frozen=True)
class Difference:
    """What ``makemigrations`` would write for one system: its operations and the file itself."""

    system: str
    operations: list[str]
    migration: str


async def differences(settings: Settings, systems: Iterable[str]) -> list[Difference]:
    """The systems whose models differ from the state their committed migrations build."""
    from tortoise.cli.cli import tortoise_cli_context
    from tortoise.migrations.autodetector import MigrationAutodetector

    from models import tortoise_config

    config = tortoise_config(settings, systems, pool_max=2)
    async with tortoise_cli_context(config) as context:
        writers = await MigrationAutodetector(context.apps, config["apps"]).changes()
    return [Difference(writer.app_label, [operation.describe() for operation in writer.operations],
                       writer.as_string()) for writer in writers]


async def check(settings: Settings, systems: list[str], out: TextIO) -> int:
    """Print what differs; 1 when any system's models and committed migrations differ, else 0."""
    found = await differences(settings, systems)
    for difference in found:
        print(f"{difference.system}: the models differ from the committed migrations "
              f"(`herald makemigrations {difference.system}` writes the migration; commit it):", file=out)
        for operation in difference.operations:
            print(f"  - {operation}", file=out)
        print("  the migration it would write:", file=out)
        for line in difference.migration.rstrip().splitlines():
            print(f"    {line}" if line else "", file=out)
    if found:
        return 1
    print("the models and the committed migrations agree: " + ", ".join(systems), file=out)
    return 0
