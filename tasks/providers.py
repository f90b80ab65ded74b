"""Which provider delivers a message, per worker process.

Plug-ins are discovered once at worker boot (a broken or duplicate plug-in stops the worker).
A message goes to its tenant's own provider configuration when the tenant has one
(models/platform/provider_config.py), else to the platform default (``<CHANNEL>_PROVIDER`` with
``<CHANNEL>_PROVIDER_CONFIG``). Instances are made on first use and kept per (channel, key,
configuration), so connections are reused; the least recently used are closed beyond
MAX_INSTANCES. Test-mode messages always go to the channel's sink, whatever is configured.

An instance made from a tenant's configuration is marked ``tenant_configured``: its hosts and
URLs then go through the egress policy (kit.egress), like the URLs that come with a message.
The development switch that opens loopback (WEBHOOKS_ALLOW_LOOPBACK) is handed to every instance.

Push devices: which provider delivers a device is chosen by its platform (ios, android, web);
a web device registered with an FCM registration token rather than a PushSubscription JSON is
delivered by FCM, like an Android one (:func:`push_route`).
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict

from kit import egress
from models.platform.provider_config import ResolvedConfig
from providers.base import Provider
from providers.errors import ProviderConfigError
from providers.registry import discover
from providers.webpush import is_subscription

SINK = "sink"
MAX_INSTANCES = 256


def push_route(platform: str | None, token: str) -> str | None:
    """The platform whose providers deliver to this device token (see PUSH_PREFERENCE in
    models/platform/provider_config.py): a web device's PushSubscription goes to Web Push, a web
    device's plain (FCM registration) token to FCM, as an Android device's does."""
    if platform == "web" and not is_subscription(token):
        return "android"
    if platform is None and is_subscription(token):
        return "web"
    return platform


class ProviderSet:
    def __init__(self, defaults: dict[str, str], default_configs: dict[str, dict] | None = None, *,
                 allow_loopback: bool = False):
        self.available = discover()
        self.egress = egress.PROVIDERS.with_loopback(allow_loopback)
        self.defaults = defaults
        self.default_configs = default_configs or {}
        for channel, key in defaults.items():
            if key not in self.available[channel]:
                raise ProviderConfigError(
                    f"{channel.upper()}_PROVIDER={key!r} is not an installed {channel} provider "
                    f"(installed: {', '.join(self.available[channel]) or 'none'})")
        self._instances: OrderedDict[tuple[str, str, str, bool], Provider] = OrderedDict()
        self._retired: list[Provider] = []
        # A platform default that cannot be built (a missing host, an unreadable key) stops the start.
        for channel in defaults:
            self.for_message(channel, "live")

    def for_message(self, channel: str, mode: str, tenant_config: ResolvedConfig | None = None) -> Provider:
        tenant = False
        if mode == "test":
            key, config = SINK, {}
        elif tenant_config is not None:
            tenant = True
            key, config = tenant_config.key, tenant_config.config
            if key not in self.available[channel]:
                raise ProviderConfigError(f"the account's {channel} provider {key!r} is not installed")
        else:
            key, config = self.defaults[channel], self.default_configs.get(channel, {})
        fingerprint = hashlib.sha256(json.dumps(config, sort_keys=True, default=str).encode()).hexdigest()
        # A tenant's configuration equal to the platform's is still a tenant's: never the same instance.
        slot = (channel, key, fingerprint, tenant)
        instance = self._instances.get(slot)
        if instance is None:
            instance = self.available[channel][key](config)
            instance.tenant_configured = tenant
            instance.egress = self.egress
            self._instances[slot] = instance
            if len(self._instances) > MAX_INSTANCES:
                self._retired.append(self._instances.popitem(last=False)[1])
        else:
            self._instances.move_to_end(slot)
        return instance

    async def close_retired(self) -> None:
        while self._retired:
            await self._retired.pop().close()

    async def close(self) -> None:
        await self.close_retired()
        for instance in self._instances.values():
            await instance.close()
        self._instances.clear()
