"""Which provider delivers a message, per worker process.

Plug-ins are discovered once at worker boot (a broken or duplicate plug-in stops the worker);
instances are made on first use and kept, so connections are reused. Test-mode messages always
go to the channel's sink, whatever is configured.
"""

from __future__ import annotations

from providers.base import Provider
from providers.errors import ProviderConfigError
from providers.registry import discover

SINK = "sink"


class ProviderSet:
    def __init__(self, defaults: dict[str, str]):
        self.available = discover()
        self.defaults = defaults
        for channel, key in defaults.items():
            if key not in self.available[channel]:
                raise ProviderConfigError(
                    f"{channel.upper()}_PROVIDER={key!r} is not an installed {channel} provider "
                    f"(installed: {', '.join(self.available[channel]) or 'none'})")
        self._instances: dict[tuple[str, str], Provider] = {}

    def for_message(self, channel: str, mode: str) -> Provider:
        key = SINK if mode == "test" else self.defaults[channel]
        instance = self._instances.get((channel, key))
        if instance is None:
            instance = self.available[channel][key]()
            self._instances[(channel, key)] = instance
        return instance

    async def close(self) -> None:
        for instance in self._instances.values():
            await instance.close()
