"""POST and GET /v1/push/devices."""

from __future__ import annotations

import base64
import json

import pytest

from models.platform.device import Device


async def test_register_upserts_and_always_answers_200(make_account, platform):
    account = await make_account(scopes=("push:devices",))
    body = {"Token": "fcm-token-1", "Platform": "android", "UserRef": "user-9", "Metadata": {"app": "1.2"}}
    first = await platform.post("/v1/push/devices", headers=account.headers, json=body)
    again = await platform.post("/v1/push/devices", headers=account.headers, json={**body, "Platform": "ios"})
    assert first.status_code == again.status_code == 200
    assert first.json()["RequestId"].startswith("req_")
    device = first.json()["Device"]
    assert device["Token"] == "fcm-token-1" and device["Platform"] == "android"
    assert again.json()["Device"]["DeviceId"] == device["DeviceId"] and again.json()["Device"]["Platform"] == "ios"
    assert "UserRef" not in again.json()["Device"] and "Metadata" not in again.json()["Device"]
    assert await Device.filter(token="fcm-token-1").count() == 1


async def test_same_token_on_two_tenants_is_two_devices(make_account, platform):
    one, two = await make_account(scopes=("push:devices",)), await make_account(scopes=("push:devices",))
    for account in (one, two):
        response = await platform.post("/v1/push/devices", headers=account.headers,
                                       json={"Token": "shared-token", "Platform": "ios"})
        assert response.status_code == 200
    listed = (await platform.get("/v1/push/devices", headers=one.headers)).json()["Devices"]
    assert [d["Token"] for d in listed] == ["shared-token"]


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


P256DH = b64url(b"\x04" + bytes(range(64)))  # an uncompressed P-256 point's shape: 0x04, then X and Y
AUTH = b64url(bytes(range(16)))
FCM_WEB_TOKEN = "dK3nR4x9QwE:APA91bH" + "x1Y2z3A4b5C6d7E8f9G0h_I-j" * 6


def subscription(**changes) -> str:
    value = {"endpoint": "https://fcm.googleapis.com/fcm/send/abc123", "expirationTime": None,
             "keys": {"p256dh": P256DH, "auth": AUTH}}
    value.update(changes)
    return json.dumps(value)


async def test_validation(make_account, platform):
    account = await make_account(scopes=("push:devices",))
    for body, field in (({"Token": "t", "Platform": "windows"}, "Platform"), ({"Platform": "ios"}, "Token"),
                        ({"Token": "t", "Platform": "ios", "Extra": 1}, "Extra"),
                        ({"Token": "not a subscription", "Platform": "web"}, "Token")):
        response = await platform.post("/v1/push/devices", headers=account.headers, json=body)
        assert response.status_code == 400, body
        assert field in json.dumps(response.json()["Error"])


@pytest.mark.parametrize("token", [subscription(), FCM_WEB_TOKEN], ids=["PushSubscription", "FCM web token"])
async def test_a_web_device_registers_a_subscription_or_a_plain_fcm_token(make_account, platform, token):
    account = await make_account(scopes=("push:devices",))
    response = await platform.post("/v1/push/devices", headers=account.headers,
                                   json={"Token": token, "Platform": "web"})
    assert response.status_code == 200, response.text
    assert response.json()["Device"]["Token"] == token and response.json()["Device"]["Platform"] == "web"


@pytest.mark.parametrize("token, reason", [
    (subscription(endpoint="http://push.example/abc"), "https"),
    (subscription(endpoint="not a url"), "https"),
    (subscription(keys={"p256dh": "k", "auth": "a"}), "p256dh"),
    (subscription(keys={"p256dh": P256DH, "auth": b64url(b"short")}), "auth"),
    (subscription(keys={"p256dh": b64url(b"\x02" + bytes(32)), "auth": AUTH}), "p256dh"),
    (subscription(keys=None), "keys"),
    ('{"endpoint": "https://push.example/abc", ', "JSON"),
    ('{"a":' + "[" * 1000 + "]" * 1000 + "}", "JSON"),
    ("short:token", "FCM"),
    ("has spaces in it and is long enough to be a token", "FCM"),
], ids=["http endpoint", "no url", "keys not base64 keys", "auth not 16 bytes", "p256dh not a point", "no keys",
        "broken JSON", "deep JSON", "short plain token", "plain token with spaces"])
async def test_each_web_token_form_is_validated(make_account, platform, token, reason):
    account = await make_account(scopes=("push:devices",))
    response = await platform.post("/v1/push/devices", headers=account.headers,
                                   json={"Token": token, "Platform": "web"})
    assert response.status_code == 400, response.text
    error = response.json()["Error"]
    assert error["Code"] == "ValidationError" and reason in error["Details"]["Token"], error
    assert await Device.filter(token=token).count() == 0


async def test_list_pages_with_cursor_and_limit_and_refuses_a_tenant_id(make_account, platform):
    account = await make_account(scopes=("push:devices",))
    for index in range(5):
        await platform.post("/v1/push/devices", headers=account.headers,
                            json={"Token": f"tok-{index}", "Platform": "android"})
    page = (await platform.get("/v1/push/devices?limit=2", headers=account.headers)).json()
    assert [d["Token"] for d in page["Devices"]] == ["tok-0", "tok-1"] and page["HasMore"] is True
    tokens = [d["Token"] for d in page["Devices"]]
    while page["HasMore"]:
        page = (await platform.get(f"/v1/push/devices?limit=2&cursor={page['NextCursor']}",
                                   headers=account.headers)).json()
        tokens += [d["Token"] for d in page["Devices"]]
    # An integer cursor on the last page too (the contract types it so); HasMore said to stop.
    assert tokens == [f"tok-{index}" for index in range(5)] and page["NextCursor"] == 5
    for query in ("limit=0", "limit=201", "cursor=-1", "tenant_id=" + account.tenant_id, "TenantId=x"):
        response = await platform.get(f"/v1/push/devices?{query}", headers=account.headers)
        assert response.status_code == 422, query
    assert (await platform.get("/v1/push/devices?limit=200", headers=account.headers)).status_code == 200


async def test_scope_is_required(make_account, platform):
    account = await make_account(scopes=("push:send",))
    response = await platform.get("/v1/push/devices", headers=account.headers)
    assert response.status_code == 403 and response.json()["Error"]["Code"] == "InsufficientScope"
