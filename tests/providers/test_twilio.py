"""Twilio: the Messages API against a local HTTP server; segments; the signed status callback."""

from __future__ import annotations

import base64
import secrets
from urllib.parse import parse_qs

import pytest

from app.platform.receipt.service import twilio_signature
from models.platform.message import Message, MessageEvent
from models.platform.provider_config import set_provider_config
from models.platform.tenant import Tenant
from providers.errors import PermanentProviderError, ProviderConfigError, TransientProviderError
from providers.sms_segments import segments
from providers.twilio import TwilioProvider
from tasks.platform.delivery import deliver
from tests.fixtures.providers import outgoing
from tests.fixtures.provider_servers import Answer

SID, TOKEN = "AC" + "1" * 32, "auth-token-" + "x" * 21


def twilio_answers(request):
    return Answer(201, {"sid": "SM" + secrets.token_hex(16), "status": "queued"})


def provider(server, **extra) -> TwilioProvider:
    return TwilioProvider({"account_sid": SID, "auth_token": TOKEN, "base_url": server.url, "from": "+15550001111",
                           **extra})


def test_segments():
    assert segments("a" * 160) == ("GSM-7", 1)
    assert segments("a" * 161) == ("GSM-7", 2)
    assert segments("a" * 306) == ("GSM-7", 2) and segments("a" * 307) == ("GSM-7", 3)
    assert segments("€" * 80) == ("GSM-7", 1) and segments("€" * 81) == ("GSM-7", 2)  # extension: 2 septets
    assert segments("ç" * 70) == ("UCS-2", 1) and segments("ç" * 71) == ("UCS-2", 2)
    assert segments("😀" * 35) == ("UCS-2", 1) and segments("😀" * 36) == ("UCS-2", 2)  # surrogate pairs
    assert segments("") == ("GSM-7", 1)


async def test_send_posts_the_form_with_basic_auth(http_server):
    http_server.default = twilio_answers
    sms = provider(http_server, status_callback_url="https://api.example/callbacks/twilio")
    try:
        receipt = await sms.send(outgoing("sms", "+14155550123", {"Body": "Olá " * 50}))
        await sms.send(outgoing("sms", "+14155550123", {"Body": "hi"}, sender="+15559990000"))
    finally:
        await sms.close()
    first, second = http_server.requests
    assert first.method == "POST" and first.path == f"/2010-04-01/Accounts/{SID}/Messages.json"
    assert first.headers["authorization"] == "Basic " + base64.b64encode(f"{SID}:{TOKEN}".encode()).decode()
    form = parse_qs(first.body.decode())
    assert form["To"] == ["+14155550123"] and form["From"] == ["+15550001111"] and form["Body"] == ["Olá " * 50]
    assert form["StatusCallback"] == ["https://api.example/callbacks/twilio/acc_test"]
    assert parse_qs(second.body.decode())["From"] == ["+15559990000"]
    assert receipt.provider_message_id.startswith("SM")
    assert receipt.detail["Segments"] == 3 and receipt.detail["Encoding"] == "UCS-2"


async def test_429_and_5xx_are_retried_4xx_is_permanent(http_server):
    http_server.default = twilio_answers
    http_server.then(Answer(429, {"code": 20429}, {"Retry-After": "7"}), Answer(503, {}),
                     Answer(400, {"code": 21211, "message": "invalid To"}), Answer(401, {"code": 20003}))
    sms = provider(http_server)
    try:
        with pytest.raises(TransientProviderError) as throttled:
            await sms.send(outgoing("sms", "+14155550123", {"Body": "x"}))
        assert throttled.value.retry_after == 7
        with pytest.raises(TransientProviderError):
            await sms.send(outgoing("sms", "+14155550123", {"Body": "x"}))
        with pytest.raises(PermanentProviderError, match="21211"):
            await sms.send(outgoing("sms", "+1", {"Body": "x"}))
        with pytest.raises(ProviderConfigError):
            await sms.send(outgoing("sms", "+14155550123", {"Body": "x"}))
        assert (await sms.send(outgoing("sms", "+14155550123", {"Body": "x"}))).provider_message_id
    finally:
        await sms.close()
    assert len(http_server.requests) == 5


async def test_delivery_records_segments_and_the_callback_records_delivery(make_account, http_server, platform,
                                                                          services):
    http_server.default = twilio_answers
    account = await make_account(scopes=("sms:send",))
    tenant = await Tenant.get(public_id=account.tenant_id)
    await set_provider_config(tenant.id, "sms", "twilio", {"base_url": http_server.url, "from": "+15550001111"},
                              {"account_sid": SID, "auth_token": TOKEN})
    message = await Message.create(tenant=tenant, channel="sms", mode="live", recipient="+14155550123",
                                   recipient_role="to", content={"Body": "b" * 200})
    assert await deliver(message.id) == "sent"
    await message.refresh_from_db()
    assert message.provider == "twilio" and message.provider_message_id.startswith("SM")
    sent = await MessageEvent.get(message_id=message.id, type="sent")
    assert sent.detail["Segments"] == 2 and sent.detail["Encoding"] == "GSM-7"
    assert parse_qs(http_server.requests[0].body.decode())["Body"] == ["b" * 200]

    path = f"/callbacks/twilio/{account.tenant_id}"
    params = {"MessageSid": message.provider_message_id, "MessageStatus": "delivered", "AccountSid": SID,
              "To": "+14155550123"}
    url = services.env["PLATFORM_URL"] + path
    forged = await platform.post(path, data=params, headers={"X-Twilio-Signature": "bm9wZQ=="})
    assert forged.status_code == 403
    await message.refresh_from_db()
    assert message.status == "sent"
    good = await platform.post(path, data=params, headers={"X-Twilio-Signature": twilio_signature(TOKEN, url, params)})
    assert good.status_code == 204
    await message.refresh_from_db()
    assert message.status == "delivered"
    event = await MessageEvent.get(message_id=message.id, type="delivered")
    assert event.detail["ProviderStatus"] == "delivered"
