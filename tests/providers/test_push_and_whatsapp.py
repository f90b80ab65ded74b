"""FCM, Web Push and WhatsApp Cloud against local HTTP servers; dead tokens remove the device."""

from __future__ import annotations

import base64
import json
import os
from urllib.parse import parse_qs

import http_ece
import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from py_vapid import Vapid02

from kit.egress import PROVIDERS
from models.platform.device import Device
from models.platform.message import Message, MessageEvent
from models.platform.provider_config import set_provider_config
from models.platform.tenant import Tenant
from providers.errors import (InvalidDeviceToken, PermanentProviderError, ProviderConfigError,
                              TransientProviderError)
from providers.fcm import SCOPE, FcmProvider
from providers.webpush import WebPushProvider, generate_vapid_keys
from providers.whatsapp_cloud import WhatsappCloudProvider
from tasks.platform.delivery import deliver
from tests.fixtures.providers import outgoing
from tests.fixtures.provider_servers import Answer

PUSH = {"Title": "Hello", "Body": "World", "Data": {"order": 42, "kind": "ship"}}


# --- FCM ------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def service_key():
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def fcm_config(server, key) -> dict:
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    return {"base_url": server.url, "service_account": json.dumps({
        "project_id": "demo-app", "client_email": "herald@demo-app.iam.gserviceaccount.com", "private_key": pem,
        "private_key_id": "kid-1", "token_uri": f"{server.url}/token"})}


def fcm_answers(request):
    if request.path == "/token":
        return Answer(200, {"access_token": "ya29.token", "expires_in": 3599, "token_type": "Bearer"})
    return Answer(200, {"name": "projects/demo-app/messages/0:123"})


def fcm_error(status: int, code: str, text: str = "") -> Answer:
    return Answer(status, {"error": {"code": status, "message": text, "status": "x", "details": [
        {"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": code}]}})


async def test_fcm_signs_a_service_account_jwt_and_caches_the_access_token(http_server, service_key):
    http_server.default = fcm_answers
    fcm = FcmProvider(fcm_config(http_server, service_key))
    try:
        receipt = await fcm.send(outgoing("push", "device-token-1", PUSH))
        await fcm.send(outgoing("push", "device-token-2", PUSH))
    finally:
        await fcm.close()
    token_request, first, second = http_server.requests
    form = parse_qs(token_request.body.decode())
    assert form["grant_type"] == ["urn:ietf:params:oauth:grant-type:jwt-bearer"]
    claims = jwt.decode(form["assertion"][0], service_key.public_key(), algorithms=["RS256"],
                        audience=f"{http_server.url}/token")
    assert claims["iss"] == "herald@demo-app.iam.gserviceaccount.com" and claims["scope"] == SCOPE
    assert claims["exp"] - claims["iat"] == 3600
    assert jwt.get_unverified_header(form["assertion"][0])["kid"] == "kid-1"
    assert first.path == "/v1/projects/demo-app/messages:send"
    assert first.headers["authorization"] == second.headers["authorization"] == "Bearer ya29.token"
    assert first.json() == {"message": {"token": "device-token-1", "notification": {"title": "Hello", "body": "World"},
                                        "data": {"order": "42", "kind": "ship"}}}
    assert receipt.provider_message_id == "projects/demo-app/messages/0:123"


async def test_fcm_errors(http_server, service_key):
    http_server.default = fcm_answers
    fcm = FcmProvider(fcm_config(http_server, service_key))
    http_server.then(Answer(200, {"access_token": "t", "expires_in": 3599}),
                     Answer(429, {"error": {}}, {"Retry-After": "30"}), Answer(500, {"error": {}}),
                     fcm_error(404, "UNREGISTERED"), fcm_error(400, "INVALID_ARGUMENT", "bad payload"))
    try:
        with pytest.raises(TransientProviderError) as throttled:
            await fcm.send(outgoing("push", "t", PUSH))
        assert throttled.value.retry_after == 30
        with pytest.raises(TransientProviderError):
            await fcm.send(outgoing("push", "t", PUSH))
        with pytest.raises(InvalidDeviceToken):
            await fcm.send(outgoing("push", "t", PUSH))
        with pytest.raises(PermanentProviderError):
            await fcm.send(outgoing("push", "t", PUSH))
    finally:
        await fcm.close()
    refused = FcmProvider(fcm_config(http_server, service_key))
    http_server.then(Answer(400, {"error": "invalid_grant"}))
    with pytest.raises(ProviderConfigError):
        await refused.send(outgoing("push", "t", PUSH))
    await refused.close()


async def test_an_unregistered_token_removes_the_device(make_account, http_server, service_key, platform):
    http_server.default = fcm_answers
    account = await make_account(scopes=("push:devices", "push:send"))
    tenant = await Tenant.get(public_id=account.tenant_id)
    config = fcm_config(http_server, service_key)
    await set_provider_config(tenant.id, "push", "fcm", {"base_url": config["base_url"]},
                              {"service_account": config["service_account"]})
    for token in ("alive", "gone"):
        await platform.post("/v1/push/devices", headers=account.headers, json={"Token": token, "Platform": "android"})
    messages = [await Message.create(tenant=tenant, channel="push", mode="live", recipient=token,
                                     recipient_role="device", subject="Hello", content=PUSH)
                for token in ("alive", "gone")]
    assert await deliver(messages[0].id) == "sent"
    http_server.then(fcm_error(404, "UNREGISTERED", "Requested entity was not found."))
    assert await deliver(messages[1].id) == "failed"
    failed = await MessageEvent.get(message_id=messages[1].id, type="failed")
    assert failed.detail["DeviceRemoved"] is True
    assert [d.token for d in await Device.filter(tenant_id=tenant.id)] == ["alive"]


# --- Web Push ---------------------------------------------------------------------------------------

def subscription(server) -> tuple[str, ec.EllipticCurvePrivateKey, bytes]:
    receiver = ec.generate_private_key(ec.SECP256R1())
    auth = os.urandom(16)
    public = receiver.public_key().public_bytes(serialization.Encoding.X962,
                                                serialization.PublicFormat.UncompressedPoint)

    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    token = json.dumps({"endpoint": f"{server.url}/push/sub-1", "keys": {"p256dh": b64(public), "auth": b64(auth)}})
    return token, receiver, auth


def local_webpush(config: dict) -> WebPushProvider:
    """A Web Push provider whose subscription endpoints may be the loopback test servers (the
    development switch the worker gets from WEBHOOKS_ALLOW_LOOPBACK)."""
    provider = WebPushProvider(config)
    provider.egress = PROVIDERS.with_loopback(True)
    return provider


async def test_webpush_encrypts_for_the_subscription_and_signs_vapid(http_server):
    http_server.default = lambda request: Answer(201, b"", {"Location": f"{http_server.url}/m/1"})
    private, public = generate_vapid_keys()
    webpush = local_webpush({"vapid_private_key": private, "vapid_subject": "mailto:ops@example.com"})
    token, receiver, auth = subscription(http_server)
    try:
        receipt = await webpush.send(outgoing("push", token, PUSH))
    finally:
        await webpush.close()
    [request] = http_server.requests
    assert request.path == "/push/sub-1" and request.headers["content-encoding"] == "aes128gcm"
    assert int(request.headers["ttl"]) > 0
    scheme, _, params = request.headers["authorization"].partition(" ")
    parts = dict(part.split("=", 1) for part in params.split(","))
    assert scheme == "vapid" and parts["k"] == public
    assert Vapid02.verify(request.headers["authorization"])
    claims = jwt.decode(parts["t"], options={"verify_signature": False})
    assert claims["aud"] == http_server.url and claims["sub"] == "mailto:ops@example.com"
    payload = json.loads(http_ece.decrypt(request.body, private_key=receiver, auth_secret=auth, version="aes128gcm"))
    assert payload["title"] == "Hello" and payload["body"] == "World" and payload["data"]["order"] == 42
    assert receipt.provider_message_id == f"{http_server.url}/m/1"


async def test_webpush_errors(http_server):
    private, _ = generate_vapid_keys()
    webpush = local_webpush({"vapid_private_key": private, "vapid_subject": "mailto:ops@example.com"})
    token, _, _ = subscription(http_server)
    http_server.then(Answer(429, b"", {"Retry-After": "5"}), Answer(502, b""), Answer(410, b""), Answer(413, b""),
                     Answer(403, b""))
    try:
        for expected in (TransientProviderError, TransientProviderError, InvalidDeviceToken, PermanentProviderError,
                         ProviderConfigError):
            with pytest.raises(expected):
                await webpush.send(outgoing("push", token, PUSH))
        with pytest.raises(PermanentProviderError):
            await webpush.send(outgoing("push", "not json", PUSH))
    finally:
        await webpush.close()
    with pytest.raises(ProviderConfigError):
        WebPushProvider({"vapid_private_key": private})


# --- WhatsApp Cloud -------------------------------------------------------------------------------------

def whatsapp(server) -> WhatsappCloudProvider:
    return WhatsappCloudProvider({"phone_number_id": "1055", "access_token": "EAAG-token", "base_url": server.url})


async def test_whatsapp_text_and_template(http_server):
    http_server.default = lambda request: Answer(200, {"messaging_product": "whatsapp",
                                                       "messages": [{"id": "wamid.ABC"}]})
    provider = whatsapp(http_server)
    try:
        receipt = await provider.send(outgoing("whatsapp", "+5511999990000", {"Body": "Oi!"}))
        await provider.send(outgoing("whatsapp", "+5511999990000", {
            "Template": "order_ready", "Language": "pt_BR", "Variables": {"2": "amanhã", "1": "Ana", "10": "x"},
            "Body": "rendered"}))
    finally:
        await provider.close()
    text, template = http_server.requests
    assert text.path == "/v21.0/1055/messages" and text.headers["authorization"] == "Bearer EAAG-token"
    assert text.json() == {"messaging_product": "whatsapp", "recipient_type": "individual", "to": "5511999990000",
                           "type": "text", "text": {"preview_url": False, "body": "Oi!"}}
    assert template.json()["template"] == {"name": "order_ready", "language": {"code": "pt_BR"}, "components": [
        {"type": "body", "parameters": [{"type": "text", "text": "Ana"}, {"type": "text", "text": "amanhã"},
                                        {"type": "text", "text": "x"}]}]}
    assert receipt.provider_message_id == "wamid.ABC"


async def test_whatsapp_errors(http_server):
    provider = whatsapp(http_server)
    http_server.then(Answer(429, {"error": {"code": 130429}}), Answer(400, {"error": {"code": 130429}}),
                     Answer(503, {}), Answer(400, {"error": {"code": 132001, "message": "template does not exist"}}),
                     Answer(401, {"error": {"code": 190}}))
    try:
        for expected in (TransientProviderError, TransientProviderError, TransientProviderError,
                         PermanentProviderError, ProviderConfigError):
            with pytest.raises(expected):
                await provider.send(outgoing("whatsapp", "+5511999990000", {"Body": "x"}))
    finally:
        await provider.close()
    assert len(http_server.requests) == 5
