"""Provider plug-ins, found through entry points (``herald.providers.<channel>``).

The entry-point name is the provider's stable key, stored in the database. A plug-in that
fails to load, or two with the same key, stop the start with one clear line.
"""

from __future__ import annotations

from importlib.metadata import entry_points

from providers.base import Provider
from providers.errors import ProviderLoadError

CHANNELS = ("email", "sms", "push", "whatsapp")


def discover() -> dict[str, dict[str, type[Provider]]]:
    found: dict[str, dict[str, type[Provider]]] = {channel: {} for channel in CHANNELS}
    for channel in CHANNELS:
        group = f"herald.providers.{channel}"
        for entry in entry_points(group=group):
            if entry.name in found[channel]:
                raise ProviderLoadError(f"two {channel} providers share the key {entry.name!r} ({group})")
            try:
                provider = entry.load()
            except Exception as exc:  # noqa: BLE001 - any import failure stops the start
                raise ProviderLoadError(f"{channel} provider {entry.name!r} ({entry.value}) failed to load: "
                                        f"{exc!r}") from exc
            if not (isinstance(provider, type) and issubclass(provider, Provider) and provider.channel == channel):
                raise ProviderLoadError(f"{entry.value} is not a {channel} provider")
            found[channel][entry.name] = provider
    return found
