"""Every URL a tenant gives goes through kit.egress: Web Push subscription endpoints (against
the webhooks' unsafe-target corpus), the hosts of a tenant's own provider configuration; no
proxy from the environment, no redirects, a capped answer, the vetted address pinned; and what
a remote server answered never becomes a reason the tenant reads."""

from __future__ import annotations

import asyncio
import json
import socket
from types import SimpleNamespace

import pytest

from kit import egress
from kit.egress import PROVIDERS, WEBHOOKS
from models.platform.message import Message
from models.platform.provider_config import ResolvedConfig, set_provider_config
from models.platform.tenant import Tenant
from providers.errors import PermanentProviderError, ProviderConfigError
from providers.fcm import FcmProvider
from providers.smtp import SmtpProvider
from providers.twilio import TwilioProvider
from providers.webpush import WebPushProvider, generate_vapid_keys
from providers.whatsapp_cloud import WhatsappCloudProvider
from tasks.platform.delivery import deliver
from tasks.providers import ProviderSet
from tests.fixtures.providers import outgoing
from tests.fixtures.provider_servers import Answer, HttpRecorder
from tests.providers.test_push_and_whatsapp import PUSH, fcm_config, subscription
from tests.providers.test_twilio import SID, TOKEN
from tests.platform.test_webhook_safety import UNSAFE, _local_name

SECRET = "INTERNAL-SECRET-7f3a"
# The webhooks' corpus, and each of its http:// URLs again as https:// (Web Push is https only, so
# the https spelling is what reaches the address checks).
PUSH_CORPUS = sorted(set(UNSAFE) | {"https://" + url[len("http://"):] for url in UNSAFE if url.startswith("http://")})


def webpush(loopback: bool = False) -> WebPushProvider:
    private, _ = generate_vapid_keys()
    provider = WebPushProvider({"vapid_private_key": private, "vapid_subject": "mailto:ops@example.com"})
    provider.egress = PROVIDERS.with_loopback(loopback)
    return provider


def endpoint_token(endpoint: str) -> str:
    """A valid PushSubscription (real keys) whose endpoint is ``endpoint``."""
    token = json.loads(subscription(SimpleNamespace(url="https://push.example"))[0])
    return json.dumps({**token, "endpoint": endpoint})


def tenant_configured(provider, loopback: bool = False):
    provider.tenant_configured = True
    provider.egress = PROVIDERS.with_loopback(loopback)
    return provider


# --- Web Push subscription endpoints ----------------------------------------------------------------

@pytest.mark.parametrize("endpoint", PUSH_CORPUS)
async def test_unsafe_subscription_endpoints_are_refused_before_connecting(endpoint):
    provider = webpush()
    try:
        # Permanent and about the endpoint: a connection tried would have been a transient error.
        with pytest.raises(PermanentProviderError, match="subscription endpoint"):
            await provider.send(outgoing("push", endpoint_token(endpoint), PUSH))
    finally:
        await provider.close()


async def test_a_subscription_whose_name_resolves_to_a_local_address_is_refused_at_connect_time():
    provider = webpush()
    try:
        with pytest.raises(PermanentProviderError, match="resolves to"):
            await provider.send(outgoing("push", endpoint_token(f"https://{_local_name()}/push/1"), PUSH))
    finally:
        await provider.close()


async def test_subscription_endpoints_are_https_on_port_443():
    provider = webpush()
    try:
        for endpoint, problem in (("http://push.example.com/s/1", "https://"),
                                  ("https://push.example.com:8443/s/1", "port 443")):
            with pytest.raises(PermanentProviderError, match=problem):
                await provider.send(outgoing("push", endpoint_token(endpoint), PUSH))
    finally:
        await provider.close()


async def test_the_development_switch_opens_loopback_and_nothing_else(http_server):
    http_server.default = lambda request: Answer(201, b"")
    provider = webpush(loopback=True)
    try:
        assert await provider.send(outgoing("push", subscription(http_server)[0], PUSH))
        for endpoint in ("https://10.0.0.1/s", "https://169.254.169.254/s", "https://[fd00::1]/s",
                         "https://2130706433/s", "http://[::ffff:127.0.0.1]:8080/s"):
            with pytest.raises(PermanentProviderError, match="subscription endpoint"):
                await provider.send(outgoing("push", endpoint_token(endpoint), PUSH))
    finally:
        await provider.close()
    assert len(http_server.requests) == 1


async def test_redirects_are_not_followed(http_server):
    elsewhere = HttpRecorder()
    http_server.default = lambda request: Answer(307, b"", {"Location": f"{elsewhere.url}/push/sub-1"})
    provider = webpush(loopback=True)
    try:
        with pytest.raises(PermanentProviderError, match="HTTP 307"):
            await provider.send(outgoing("push", subscription(http_server)[0], PUSH))
        async with egress.client(PROVIDERS.with_loopback(True)) as client:  # even when a caller asks
            assert (await client.post(f"{http_server.url}/x", follow_redirects=True)).status_code == 307
    finally:
        await provider.close()
        elsewhere.close()
    assert len(http_server.requests) == 2 and elsewhere.requests == []


async def test_the_answer_is_capped_and_never_decompressed(http_server):
    provider = webpush(loopback=True)
    http_server.then(Answer(201, b"x" * (egress.DEFAULT_MAX_REPLY_BYTES + 1)),
                     Answer(201, b"\x1f\x8b" + b"\0" * 64, {"Content-Encoding": "gzip"}))
    try:
        with pytest.raises(PermanentProviderError, match="larger than"):
            await provider.send(outgoing("push", subscription(http_server)[0], PUSH))
        with pytest.raises(PermanentProviderError, match="compressed"):
            await provider.send(outgoing("push", subscription(http_server)[0], PUSH))
    finally:
        await provider.close()
    assert all(request.headers["accept-encoding"] == "identity" for request in http_server.requests)


async def test_proxies_from_the_environment_are_ignored(http_server, monkeypatch):
    proxy = HttpRecorder()
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.setenv(name, proxy.url)
    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    http_server.default = lambda request: Answer(201, {"sid": "SM1", "status": "queued"})
    push, sms = webpush(loopback=True), tenant_configured(
        TwilioProvider({"account_sid": SID, "auth_token": TOKEN, "base_url": http_server.url, "from": "+15550001111"}),
        loopback=True)
    try:
        await push.send(outgoing("push", subscription(http_server)[0], PUSH))
        await sms.send(outgoing("sms", "+14155550123", {"Body": "x"}))
    finally:
        await push.close()
        await sms.close()
        proxy.close()
    assert proxy.requests == [] and len(http_server.requests) == 2


# --- a tenant's provider configuration --------------------------------------------------------------

async def test_a_tenants_base_url_goes_through_the_egress(http_server, service_key):
    http_server.default = lambda request: Answer(201, {"sid": "SM1", "status": "queued"})
    config = {"account_sid": SID, "auth_token": TOKEN, "base_url": http_server.url, "from": "+15550001111"}
    strict = tenant_configured(TwilioProvider(config))
    metadata = tenant_configured(WhatsappCloudProvider({"phone_number_id": "1", "access_token": "t",
                                                        "base_url": "https://169.254.169.254"}))
    fcm = tenant_configured(FcmProvider({**fcm_config(http_server, service_key),
                                         "base_url": "https://fcm.googleapis.com"}))
    fcm.account["token_uri"] = fcm.token_uri = "https://[fd00:ec2::254]/token"
    try:
        with pytest.raises(ProviderConfigError, match="https://"):
            await strict.send(outgoing("sms", "+14155550123", {"Body": "x"}))
        with pytest.raises(ProviderConfigError, match="link-local"):
            await metadata.send(outgoing("whatsapp", "+14155550123", {"Body": "x"}))
        with pytest.raises(ProviderConfigError, match="unique-local"):
            await fcm.send(outgoing("push", "token", PUSH))
    finally:
        for provider in (strict, metadata, fcm):
            await provider.close()
    assert http_server.requests == []


async def test_the_operators_own_configuration_is_trusted(http_server):
    http_server.default = lambda request: Answer(201, {"sid": "SM1", "status": "queued"})
    sms = TwilioProvider({"account_sid": SID, "auth_token": TOKEN, "base_url": http_server.url, "from": "+1555"})
    try:
        await sms.send(outgoing("sms", "+14155550123", {"Body": "x"}))
    finally:
        await sms.close()
    assert len(http_server.requests) == 1


async def test_a_tenants_smtp_host_is_vetted_and_ca_file_refused():
    for config, problem in (({"host": "127.0.0.1", "port": 25}, "loopback"),
                            ({"host": "10.1.2.3", "port": 587}, "private"),
                            ({"host": "smtp.example.com", "port": 6379}, "port"),
                            ({"host": "smtp.example.com", "ca_file": "/etc/hostname"}, "ca_file")):
        provider = tenant_configured(SmtpProvider({"security": "none", **config}))
        with pytest.raises(ProviderConfigError, match=problem):
            await provider.pool._client()
        await provider.close()


async def test_a_tenant_configuration_never_shares_the_operators_instance():
    config = {"account_sid": SID, "auth_token": TOKEN, "from": "+15550001111"}
    providers = ProviderSet({"email": "sink", "sms": "twilio", "push": "sink", "whatsapp": "sink"},
                            {"sms": config}, allow_loopback=True)
    try:
        platform = providers.for_message("sms", "live")
        tenant = providers.for_message("sms", "live", ResolvedConfig("sms", "twilio", dict(config)))
        assert platform is not tenant
        assert not platform.tenant_configured and tenant.tenant_configured
        assert tenant.egress == PROVIDERS.with_loopback(True)
    finally:
        await providers.close()


# --- what the remote server said stays out of reasons --------------------------------------------------

async def test_remote_answers_never_reach_a_failure_reason(make_account, http_server):
    body = {"code": 21211, "message": SECRET, "error": {"code": 132001, "message": SECRET}}
    http_server.default = lambda request: Answer(400, body)
    account = await make_account(scopes=("sms:send",))
    tenant = await Tenant.get(public_id=account.tenant_id)
    await set_provider_config(tenant.id, "sms", "twilio", {"base_url": http_server.url, "from": "+15550001111"},
                              {"account_sid": SID, "auth_token": TOKEN})
    message = await Message.create(tenant=tenant, channel="sms", mode="live", recipient="+14155550123",
                                   recipient_role="to", content={"Body": "x"})
    assert await deliver(message.id) == "failed"
    await message.refresh_from_db()
    assert "21211" in message.failure_reason and SECRET not in message.failure_reason

    push = webpush(loopback=True)
    whatsapp = WhatsappCloudProvider({"phone_number_id": "1", "access_token": "t", "base_url": http_server.url})
    try:
        for provider, channel, recipient in ((push, "push", subscription(http_server)[0]),
                                             (whatsapp, "whatsapp", "+14155550123")):
            with pytest.raises(PermanentProviderError) as refused:
                await provider.send(outgoing(channel, recipient, PUSH))
            assert SECRET not in str(refused.value) and "HTTP 400" in str(refused.value)
    finally:
        await push.close()
        await whatsapp.close()


async def test_only_a_status_word_of_the_answer_reaches_the_timeline(http_server):
    http_server.then(Answer(201, {"sid": "SM1", "status": f"queued {SECRET}"}), Answer(201, {"sid": "SM2",
                                                                                            "status": "queued"}))
    sms = TwilioProvider({"account_sid": SID, "auth_token": TOKEN, "base_url": http_server.url, "from": "+1555"})
    try:
        odd, plain = [await sms.send(outgoing("sms", "+14155550123", {"Body": "x"})) for _ in range(2)]
    finally:
        await sms.close()
    assert odd.detail["TwilioStatus"] is None and plain.detail["TwilioStatus"] == "queued"


# --- the egress itself ------------------------------------------------------------------------------

async def test_the_address_checked_is_the_address_connected(http_server, monkeypatch):
    """DNS rebinding: the name is resolved once per connection and that vetted answer is used; a
    second lookup (which would now answer the metadata address) never happens."""
    loop = asyncio.get_running_loop()
    port = int(http_server.url.rsplit(":", 1)[1])
    lookups = []

    async def rebinding_resolver(host, port, *args, **kwargs):
        lookups.append(host)
        address = "127.0.0.1" if len(lookups) == 1 else "169.254.169.254"
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]

    monkeypatch.setattr(loop, "getaddrinfo", rebinding_resolver)
    async with egress.client(WEBHOOKS.with_loopback(True), keepalive=False) as client:
        response = await client.post(f"http://rebind.example:{port}/x", content=b"{}")
    assert response.status_code == 200 and lookups == ["rebind.example"]
    assert http_server.requests[0].headers["host"] == f"rebind.example:{port}"
    async with egress.client(WEBHOOKS.with_loopback(True), keepalive=False) as client:
        with pytest.raises(egress.UnsafeTarget, match="169.254.169.254"):
            await client.post(f"http://rebind.example:{port}/x", content=b"{}")
    assert len(http_server.requests) == 1


@pytest.fixture(scope="module")
def service_key():
    from cryptography.hazmat.primitives.asymmetric import rsa

    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


async def test_http2_goes_through_the_egress_too(h2_server):
    from cryptography.hazmat.primitives.asymmetric import ec

    from tests.providers.test_apns import TOKEN, apns

    h2_server.default = lambda request: Answer(200, b"", {"apns-id": request.headers["apns-id"]})
    provider = tenant_configured(apns(h2_server, ec.generate_private_key(ec.SECP256R1())), loopback=True)
    try:
        await provider.send(outgoing("push", TOKEN, PUSH))
        await provider.send(outgoing("push", TOKEN, PUSH))
        assert isinstance(provider.http._transport, egress.EgressTransport)
    finally:
        await provider.close()
    assert [request.protocol for request in h2_server.requests] == ["HTTP/2", "HTTP/2"]
