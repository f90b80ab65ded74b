"""POST and GET /v1/push/devices."""

from __future__ import annotations

import json

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


async def test_validation(make_account, platform):
    account = await make_account(scopes=("push:devices",))
    for body, field in (({"Token": "t", "Platform": "windows"}, "Platform"), ({"Platform": "ios"}, "Token"),
                        ({"Token": "t", "Platform": "ios", "Extra": 1}, "Extra"),
                        ({"Token": "not-a-subscription", "Platform": "web"}, "Token")):
        response = await platform.post("/v1/push/devices", headers=account.headers, json=body)
        assert response.status_code == 400, body
        assert field in json.dumps(response.json()["Error"])
    web = json.dumps({"endpoint": "https://push.example/abc", "keys": {"p256dh": "k", "auth": "a"}})
    assert (await platform.post("/v1/push/devices", headers=account.headers,
                                json={"Token": web, "Platform": "web"})).status_code == 200


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
    assert tokens == [f"tok-{index}" for index in range(5)] and page["NextCursor"] is None
    for query in ("limit=0", "limit=201", "cursor=-1", "tenant_id=" + account.tenant_id, "TenantId=x"):
        response = await platform.get(f"/v1/push/devices?{query}", headers=account.headers)
        assert response.status_code == 422, query
    assert (await platform.get("/v1/push/devices?limit=200", headers=account.headers)).status_code == 200


async def test_scope_is_required(make_account, platform):
    account = await make_account(scopes=("push:send",))
    response = await platform.get("/v1/push/devices", headers=account.headers)
    assert response.status_code == 403 and response.json()["Error"]["Code"] == "InsufficientScope"
