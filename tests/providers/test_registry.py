"""Which provider a message goes to, and secrets at rest."""

from __future__ import annotations

import pytest
from tortoise import connections

from app.platform.domain.service import add_sender_domain
from kit.sealing import PLATFORM, SealError
from kit.settings import ConfigError, load_settings
from models.platform.domain import DKIM_KEY, SenderDomain
from models.platform.provider_config import PROVIDER_SECRETS, set_provider_config, tenant_provider
from providers.errors import ProviderConfigError
from providers.registry import discover
from tasks.providers import ProviderSet


def test_every_provider_is_registered_under_its_key():
    found = discover()
    assert {"sink", "smtp"} <= set(found["email"]) and {"sink", "twilio"} <= set(found["sms"])
    assert {"sink", "fcm", "apns", "webpush"} <= set(found["push"]) and "whatsapp_cloud" in found["whatsapp"]
    for channel, providers in found.items():
        for key, provider in providers.items():
            assert provider.channel == channel and provider.key == key


async def test_tenant_configuration_wins_test_mode_always_sinks(tenant_pk):
    providers = ProviderSet({"email": "sink", "sms": "twilio", "push": "sink", "whatsapp": "sink"},
                            {"sms": {"account_sid": "AC1", "auth_token": "platform", "from": "+15550000000"}})
    assert providers.for_message("sms", "live").config["auth_token"] == "platform"
    await set_provider_config(tenant_pk, "sms", "twilio", {"from": "+15551111111"}, {"account_sid": "AC2",
                                                                                      "auth_token": "tenant"})
    own = providers.for_message("sms", "live", await tenant_provider(tenant_pk, "sms"))
    assert own.key == "twilio" and own.config["auth_token"] == "tenant"
    assert providers.for_message("sms", "live", await tenant_provider(tenant_pk, "sms")) is own  # reused
    assert providers.for_message("sms", "test", await tenant_provider(tenant_pk, "sms")).key == "sink"
    with pytest.raises(ProviderConfigError):
        ProviderSet({"email": "nope", "sms": "sink", "push": "sink", "whatsapp": "sink"})
    await providers.close()


async def test_push_picks_the_provider_of_the_device_platform(tenant_pk):
    await set_provider_config(tenant_pk, "push", "fcm", {}, {"service_account": "{}"})
    await set_provider_config(tenant_pk, "push", "webpush", {"vapid_subject": "mailto:a@b.example"},
                              {"vapid_private_key": "k"})
    assert (await tenant_provider(tenant_pk, "push", "android")).key == "fcm"
    assert (await tenant_provider(tenant_pk, "push", "ios")).key == "fcm"  # no apns configured: FCM serves iOS
    assert (await tenant_provider(tenant_pk, "push", "web")).key == "webpush"


async def test_secrets_and_dkim_keys_are_encrypted_at_rest(tenant_pk):
    await set_provider_config(tenant_pk, "whatsapp", "whatsapp_cloud", {"phone_number_id": "1"},
                              {"access_token": "EAAG-very-secret"})
    domain = await add_sender_domain(tenant_pk, "sealed.example")
    [row] = await connections.get("platform").execute_query_dict(
        "SELECT secrets, settings::text AS settings FROM provider_configs WHERE tenant_id = $1", [tenant_pk])
    assert "EAAG" not in row["secrets"] and "EAAG" not in row["settings"] and row["secrets"].startswith("v1.")
    stored = await SenderDomain.get(id=domain.id)
    assert b"PRIVATE KEY" not in stored.dkim_private_key.encode()
    assert stored.signing_key().private_key_pem.startswith(b"-----BEGIN RSA PRIVATE KEY-----")
    sealed = PLATFORM.seal_text(PROVIDER_SECRETS, b"x")
    with pytest.raises(SealError):
        PLATFORM.unseal_text(PROVIDER_SECRETS, sealed, secret_key="another-secret-key-of-at-least-32-chars!")
    with pytest.raises(SealError):
        PLATFORM.unseal_text(DKIM_KEY, sealed)  # another purpose cannot open it


def test_provider_settings_are_validated():
    settings = load_settings({"SMS_PROVIDER": "twilio", "SMS_PROVIDER_CONFIG": '{"account_sid": "AC1"}',
                              "DNS_NAMESERVERS": "127.0.0.1:5353, 10.0.0.1", "MAIL_DOMAIN": "Mail.Example."})
    assert settings.provider_configs["sms"] == {"account_sid": "AC1"} and settings.provider_configs["email"] == {}
    assert settings.dns_nameservers == ("127.0.0.1:5353", "10.0.0.1") and settings.mail_domain == "mail.example"
    with pytest.raises(ConfigError, match="EMAIL_PROVIDER_CONFIG"):
        load_settings({"EMAIL_PROVIDER_CONFIG": "[1]"})


def test_a_misconfigured_platform_default_stops_the_start():
    with pytest.raises(ProviderConfigError, match="smtp provider needs a host"):
        ProviderSet({"email": "smtp", "sms": "sink", "push": "sink", "whatsapp": "sink"}, {"email": {}})
