"""An account's provider configuration -> the answer: settings in the clear, secrets only as
whether each is set (write-only: their values never leave the database)."""

from __future__ import annotations

from typing import Any

from app.http.openapi import STRING, TIMESTAMP, reply_of, shape
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


PROVIDER_SHAPE = shape(Channel={"enum": ["email", "sms", "push", "whatsapp"]}, Key=STRING,
                       Settings={"type": "object"}, Secrets={"type": "object", "additionalProperties": {"type": "boolean"}},
                       Settable={"type": "boolean"}, CreatedAt=TIMESTAMP, UpdatedAt=TIMESTAMP)
FIELD = {"type": "object", "properties": {"Name": STRING, "Type": STRING, "Required": {"type": "boolean"},
                                          "Choices": {"type": "array", "items": STRING}}}
CATALOG_SHAPE = shape(Channel=STRING, Key=STRING, Settings={"type": "array", "items": FIELD},
                      Secrets={"type": "array", "items": FIELD})
PROVIDER = reply_of(Provider=PROVIDER_SHAPE)
PROVIDERS = reply_of(Providers={"type": "array", "items": PROVIDER_SHAPE},
                     Catalog={"type": "array", "items": CATALOG_SHAPE})
