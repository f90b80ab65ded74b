"""What ``herald up`` does once on a new ./var/: steps that make a fresh install usable."""

from __future__ import annotations

from herald.settings import Settings


async def first_start(settings: Settings) -> None:
    marker = settings.var_dir / ".bootstrapped"
    if marker.exists():
        return
    marker.write_text("bootstrapped\n")
