"""Per-tenant provider configuration: which plug-in delivers a tenant's messages, with what settings.

A row names a channel and a provider key (the entry-point name, ``herald.providers.<channel>``);
``settings`` holds what is not secret (host, port, sender number), ``secrets`` what is (passwords,
API tokens, private keys), sealed with a key derived from SECRET_KEY (:mod:`kit.sealing`). A tenant without a row for
a channel uses the platform default from the environment: ``<CHANNEL>_PROVIDER`` and
``<CHANNEL>_PROVIDER_CONFIG`` (a JSON object of settings and secrets together).

Which row delivers a message: for push, the provider that matches the device's platform
(``ios`` -> apns, then fcm; ``android`` -> fcm; ``web`` -> webpush) among the tenant's rows;
for the other channels the tenant's most recently updated row.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tortoise import fields
from tortoise.models import Model

from kit.sealing import PLATFORM
from kit.settings import Settings

PROVIDER_SECRETS = "platform:provider-secrets"

PUSH_PREFERENCE = {"ios": ("apns", "fcm"), "android": ("fcm",), "web": ("webpush",)}


class ProviderConfig(Model):
    id = fields.BigIntField(primary_key=True)
    tenant = fields.ForeignKeyField("platform.Tenant", related_name="provider_configs", on_delete=fields.CASCADE)
    channel = fields.CharField(max_length=10)
    key = fields.CharField(max_length=64)
    settings: dict = fields.JSONField(default=dict)
    secrets = fields.TextField(null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "provider_configs"
        app = "platform"
        unique_together = (("tenant", "channel", "key"),)

    def resolved(self) -> "ResolvedConfig":
        return ResolvedConfig(self.channel, self.key, {**(self.settings or {}),
                                                       **PLATFORM.unseal_json(PROVIDER_SECRETS, self.secrets)})


@dataclass(frozen=True)
class ResolvedConfig:
    """A provider key and its full configuration (secrets opened), as a provider instance gets it."""

    channel: str
    key: str
    config: dict[str, Any] = field(default_factory=dict)


async def set_provider_config(tenant_pk: int, channel: str, key: str, settings: dict[str, Any] | None = None,
                              secrets: dict[str, Any] | None = None) -> ProviderConfig:
    """Create or replace the tenant's configuration of one provider."""
    sealed = PLATFORM.seal_json(PROVIDER_SECRETS, secrets) if secrets else None
    row, created = await ProviderConfig.get_or_create(tenant_id=tenant_pk, channel=channel, key=key,
                                                      defaults={"settings": settings or {}, "secrets": sealed})
    if not created:
        row.settings = settings or {}
        row.secrets = sealed
        await row.save()
    return row


async def tenant_provider(tenant_pk: int, channel: str, platform: str | None = None) -> ResolvedConfig | None:
    """The tenant's own provider for a message, or None (then the platform default applies)."""
    rows = await ProviderConfig.filter(tenant_id=tenant_pk, channel=channel).order_by("-updated_at", "-id")
    if not rows:
        return None
    if channel == "push" and platform in PUSH_PREFERENCE:
        by_key = {row.key: row for row in rows}
        for key in PUSH_PREFERENCE[platform]:
            if key in by_key:
                return by_key[key].resolved()
    return rows[0].resolved()


async def relay_config(tenant_pk: int, relay: str, settings: Settings, using_db=None) -> dict[str, Any]:
    """An account's configuration of the e-mail relay ``relay`` (what its event callbacks and the SNS
    confirmation are checked with): its own row, else the platform's default when the platform sends
    e-mail through that relay (EMAIL_PROVIDER, EMAIL_PROVIDER_CONFIG); {} when neither."""
    row = await ProviderConfig.get_or_none(tenant_id=tenant_pk, channel="email", key=relay, using_db=using_db)
    if row is not None:
        return row.resolved().config
    if settings.providers.get("email") == relay:
        return dict(settings.provider_configs.get("email", {}))
    return {}
