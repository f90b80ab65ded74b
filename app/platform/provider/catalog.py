"""What an account may set for each provider it configures itself, field by field.

The providers (providers/*.py, plug-ins the HTTP side never imports) read a configuration dict; this
is the part of it a tenant may write through the API: every field named, typed and bounded, the
secrets apart (sealed at rest, never shown again). What is left out is left out on purpose:

- ``ca_file`` (a path on the worker's disk) is the operator's alone; the workers refuse it from a
  tenant anyway (docs/providers.md, "What a tenant can point Herald at");
- ``sink`` writes files on the server: a development provider, not an account's;
- ``webpush`` holds the account's VAPID key pair, which the web push set-up makes and owns
  (app/platform/push_setup/): listed here, but neither set nor removed.

Hosts and URLs are checked by the egress policy (kit/egress.py) when set, without DNS (a literal
address that is not public, a local-only name, a port outside the allowed ones: 422), and again at
every connection by the worker, which resolves the name and refuses it when any address is not public.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FieldRule:
    """One field: ``kind`` is string, host, url, port, number or choice (``choices``); strings are at
    most ``max_length`` characters, numbers within ``low``..``high``."""

    kind: str = "string"
    required: bool = False
    max_length: int = 256
    low: float = 0
    high: float = 0
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Rules:
    settings: dict[str, FieldRule]
    secrets: dict[str, FieldRule]


TIMEOUT = FieldRule("number", low=1, high=30)  # the workers cap a tenant's at 30 s too
BASE_URL = FieldRule("url", max_length=2048)
SECRET = FieldRule(required=True, max_length=4096)
KEY_TEXT = FieldRule(required=True, max_length=16384)  # a PEM key, a service account's JSON

CATALOG: dict[tuple[str, str], Rules] = {
    ("email", "smtp"): Rules(
        settings={"host": FieldRule("host", required=True, max_length=253), "port": FieldRule("port"),
                  "security": FieldRule("choice", choices=("starttls", "tls", "none")),
                  "username": FieldRule(max_length=320), "local_hostname": FieldRule(max_length=253),
                  "timeout": TIMEOUT, "pool_size": FieldRule("number", low=1, high=8),
                  "max_idle": FieldRule("number", low=0, high=300)},
        secrets={"password": FieldRule(max_length=1024)}),
    ("email", "ses"): Rules(
        settings={"region": FieldRule(required=True, max_length=32),
                  "access_key_id": FieldRule(required=True, max_length=128),
                  "configuration_set": FieldRule(max_length=64), "sns_topic_arn": FieldRule(max_length=256),
                  "base_url": BASE_URL, "sns_base_url": BASE_URL, "timeout": TIMEOUT},
        secrets={"secret_access_key": SECRET, "session_token": FieldRule(max_length=4096)}),
    ("email", "postmark"): Rules(
        settings={"message_stream": FieldRule(max_length=64), "webhook_username": FieldRule(max_length=64),
                  "webhook_sources": FieldRule(max_length=1024), "base_url": BASE_URL, "timeout": TIMEOUT},
        secrets={"server_token": SECRET, "webhook_password": FieldRule(max_length=256)}),
    ("email", "mailgun"): Rules(
        settings={"domain": FieldRule("host", required=True, max_length=253), "base_url": BASE_URL,
                  "timeout": TIMEOUT},
        secrets={"api_key": SECRET, "webhook_signing_key": FieldRule(max_length=256)}),
    ("sms", "twilio"): Rules(
        settings={"account_sid": FieldRule(required=True, max_length=64), "from": FieldRule(max_length=32),
                  "messaging_service_sid": FieldRule(max_length=64), "base_url": BASE_URL, "timeout": TIMEOUT},
        secrets={"auth_token": SECRET}),
    ("push", "fcm"): Rules(
        settings={"base_url": BASE_URL, "timeout": TIMEOUT},
        secrets={"service_account": KEY_TEXT}),
    ("push", "apns"): Rules(
        settings={"team_id": FieldRule(required=True, max_length=32), "key_id": FieldRule(required=True, max_length=32),
                  "topic": FieldRule(required=True, max_length=255),
                  "environment": FieldRule("choice", choices=("production", "sandbox")),
                  "base_url": BASE_URL, "timeout": TIMEOUT},
        secrets={"private_key": KEY_TEXT}),
    ("whatsapp", "whatsapp_cloud"): Rules(
        settings={"phone_number_id": FieldRule(required=True, max_length=64),
                  "business_account_id": FieldRule(max_length=64), "api_version": FieldRule(max_length=16),
                  "base_url": BASE_URL, "timeout": TIMEOUT},
        secrets={"access_token": SECRET}),
    # E-mail relays (docs/relays.md); their event callbacks check their signatures with these (app/platform/relay_event/).
    ("email", "sendgrid"): Rules(
        settings={"base_url": BASE_URL, "timeout": TIMEOUT},
        secrets={"api_key": SECRET, "verification_key": FieldRule(max_length=1024)}),
    ("email", "resend"): Rules(
        settings={"base_url": BASE_URL, "timeout": TIMEOUT},
        secrets={"api_key": SECRET, "webhook_secret": FieldRule(max_length=256)}),
}

# Listed with the account's providers, but managed elsewhere (see the module's docstring).
MANAGED_ELSEWHERE = {("push", "webpush"): "the web push set-up (GET /api/push/site-config) makes and keeps its keys"}


def rules_for(channel: str, key: str) -> Rules | None:
    return CATALOG.get((channel, key))
