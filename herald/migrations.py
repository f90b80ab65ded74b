"""``herald makemigrations SYSTEM``: Tortoise's autodetector, run with Herald's configuration.

The configuration is exposed as :data:`TORTOISE_ORM` for Tortoise's own CLI as well
(``tortoise -c herald.migrations.TORTOISE_ORM history``).
"""

from __future__ import annotations

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
