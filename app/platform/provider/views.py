"""An account's provider configuration -> the answer: settings in the clear, secrets only as
whether each is set (write-only: their values never leave the database)."""

from __future__ import annotations

from typing import Any

from app.http.openapi import STRING, TIMESTAMP, described, reply_of, shape
from app.platform.provider.catalog import CATALOG, rules_for
from app.platform.provider.service import secret_names
from kit.timestamps import iso
from models.platform.provider_config import ProviderConfig


def provider_view(row: ProviderConfig) -> dict[str, Any]:
    stored = set(secret_names(row))
    rules = rules_for(row.channel, row.key)
    names = sorted(set(rules.secrets) | stored) if rules else sorted(stored)
    return {
        "Channel": row.channel,
        "Key": row.key,
        "Settings": row.settings or {},
        "Secrets": {name: name in stored for name in names},
        # False for a provider another screen manages (web push keys): shown, not set here.
        "Settable": rules is not None,
        "CreatedAt": iso(row.created_at),
        "UpdatedAt": iso(row.updated_at),
    }


def catalog_view() -> list[dict[str, Any]]:
    """What an account may set, per provider: the settings and secrets each takes and which are required."""
    return [{"Channel": channel, "Key": key,
             "Settings": [{"Name": name, "Type": rule.kind, "Required": rule.required,
                           **({"Choices": list(rule.choices)} if rule.choices else {})}
                          for name, rule in rules.settings.items()],
             "Secrets": [{"Name": name, "Required": rule.required} for name, rule in rules.secrets.items()]}
            for (channel, key), rules in CATALOG.items()]


_CHANNEL = described({"enum": ["email", "sms", "push", "whatsapp"]}, "The channel it sends on.")
_KEY = described(STRING, "The provider's key (`smtp`, `twilio`, `webpush` ...).")
PROVIDER_SHAPE = shape(
    Channel=_CHANNEL, Key=_KEY, Settings=described({"type": "object"}, "Its settings, in the clear."),
    Secrets=described({"type": "object", "additionalProperties": {"type": "boolean"}},
                      "Whether each secret is set (write-only: their values are never shown)."),
    Settable=described({"type": "boolean"}, "False for a provider another screen manages (web push keys)."),
    CreatedAt=described(TIMESTAMP, "When it was first set."), UpdatedAt=described(TIMESTAMP, "When it last changed."))
FIELD = {"type": "object", "properties": {
    "Name": described(STRING, "The setting's or secret's name."),
    "Type": described(STRING, "The setting's kind: `string`, `host`, `url`, `port`, `number` or `choice`."),
    "Required": described({"type": "boolean"}, "Whether it must be given."),
    "Choices": described({"type": "array", "items": STRING}, "The values it takes, when they are few.")}}
CATALOG_SHAPE = shape(Channel=described(STRING, "The channel it sends on."), Key=_KEY,
                      Settings=described({"type": "array", "items": FIELD}, "The settings it takes."),
                      Secrets=described({"type": "array", "items": FIELD}, "The secrets it takes."))
PROVIDER = reply_of(Provider=described(PROVIDER_SHAPE, "The provider setting."))
PROVIDERS = reply_of(Providers=described({"type": "array", "items": PROVIDER_SHAPE},
                                         "The account's provider settings."),
                     Catalog=described({"type": "array", "items": CATALOG_SHAPE},
                                       "What an account may set, per provider."))
