"""Registering and managing endpoints through /v1/webhooks (real server, real HTTP)."""

from models.platform.api_key import KeyKind
from models.platform.webhook import WebhookEndpoint
from tests.fixtures.webhooks import register


async def test_register_shows_the_secret_once_and_seals_it(platform, sender):
    created = await register(platform, sender, "https://hooks.example.com/a", Description="billing",
                             EventTypes=["email.sent", "email.failed", "email.sent"])
    assert created["Id"].startswith("whk_") and created["Secret"].startswith("whsec_")
    assert created["EventTypes"] == ["email.sent", "email.failed"] and created["Enabled"] is True
    assert created["Mode"] == "test" and created["Health"]["Breaker"] == "closed"
    shown = (await platform.get(f"/v1/webhooks/{created['Id']}", headers=sender.headers)).json()["Webhook"]
    assert "Secret" not in shown and shown["Description"] == "billing"
    row = await WebhookEndpoint.get(public_id=created["Id"])
    assert created["Secret"] not in row.secret_sealed  # encrypted at rest
    assert row.signing_secrets(row.created_at) == [created["Secret"]]


async def test_all_events_by_default_and_unknown_types_refused(platform, sender):
    assert (await register(platform, sender, "https://hooks.example.com/b"))["EventTypes"] == ["*"]
    response = await platform.post("/v1/webhooks", json={"Url": "https://hooks.example.com/c",
                                                         "EventTypes": ["email.sent", "email.teleported"]},
                                   headers=sender.headers)
    assert response.status_code == 400
    assert "email.teleported" in response.json()["Error"]["Details"]["EventTypes"]
    response = await platform.post("/v1/webhooks", json={"Url": "https://hooks.example.com/c", "Colour": "red"},
                                   headers=sender.headers)
    assert response.status_code == 400 and "'Colour'" in response.json()["Error"]["Message"]


async def test_update_list_and_delete(platform, sender):
    created = await register(platform, sender, "https://hooks.example.com/d")
    path = f"/v1/webhooks/{created['Id']}"
    empty = await platform.patch(path, json={}, headers=sender.headers)
    assert empty.status_code == 422
    changed = await platform.patch(path, json={"Enabled": False, "EventTypes": ["sms.sent"],
                                               "Url": "https://hooks.example.com/e"}, headers=sender.headers)
    assert changed.status_code == 200, changed.text
    webhook = changed.json()["Webhook"]
    assert webhook["Enabled"] is False and webhook["DisabledReason"] == "disabled through the API"
    assert webhook["EventTypes"] == ["sms.sent"] and webhook["Url"] == "https://hooks.example.com/e"
    unsafe = await platform.patch(path, json={"Url": "http://169.254.169.254/"}, headers=sender.headers)
    assert unsafe.status_code == 422
    enabled = (await platform.patch(path, json={"Enabled": True}, headers=sender.headers)).json()["Webhook"]
    assert enabled["Enabled"] is True and enabled["DisabledReason"] is None

    ids = {created["Id"]}
    for index in range(3):
        ids.add((await register(platform, sender, f"https://hooks.example.com/p{index}"))["Id"])
    seen, cursor = [], None
    while True:
        response = await platform.get("/v1/webhooks", params={"limit": 2, **({"cursor": cursor} if cursor else {})},
                                      headers=sender.headers)
        assert response.status_code == 200
        page = response.json()
        seen += [item["Id"] for item in page["Webhooks"]]
        if not page["HasMore"]:
            break
        cursor = page["NextCursor"]
    assert ids <= set(seen) and len(seen) == len(set(seen))

    assert (await platform.delete(path, headers=sender.headers)).status_code == 204
    assert (await platform.get(path, headers=sender.headers)).status_code == 404
    assert (await platform.delete(path, headers=sender.headers)).status_code == 404


async def test_another_tenant_or_mode_sees_404_and_the_scope_is_required(platform, sender, make_account):
    created = await register(platform, sender, "https://hooks.example.com/f")
    path = f"/v1/webhooks/{created['Id']}"
    stranger = await make_account(scopes=("webhooks:manage",), kind=KeyKind.TEST)
    for method in ("GET", "DELETE"):
        response = await platform.request(method, path, headers=stranger.headers)
        assert response.status_code == 404 and response.json()["Error"]["Code"] == "NotFound"
    assert (await platform.patch(path, json={"Enabled": False}, headers=stranger.headers)).status_code == 404
    assert (await platform.post(path + "/test", headers=stranger.headers)).status_code == 404
    assert created["Id"] not in str((await platform.get("/v1/webhooks", headers=stranger.headers)).json())

    no_scope = await make_account(scopes=("email:send", "email:read"))
    response = await platform.get("/v1/webhooks", headers=no_scope.headers)
    assert response.status_code == 403 and response.json()["Error"]["Details"] == {"RequiredScope": "webhooks:manage"}


async def test_a_foreign_cursor_is_refused(platform, sender, make_account):
    for index in range(2):
        await register(platform, sender, f"https://hooks.example.com/g{index}")
    cursor = (await platform.get("/v1/webhooks", params={"limit": 1}, headers=sender.headers)).json()["NextCursor"]
    other = await make_account(scopes=("webhooks:manage",), kind=KeyKind.TEST)
    response = await platform.get("/v1/webhooks", params={"cursor": cursor}, headers=other.headers)
    assert response.status_code == 400
    assert (await platform.get("/v1/webhooks", params={"since": "x"}, headers=sender.headers)).status_code == 422


async def test_events_emitted_outside_a_transition_reach_subscribed_endpoints(platform, sender, receiver):
    """Provider receipts (Twilio status callbacks) produce their events through emit()."""
    from tortoise.transactions import in_transaction

    from models.platform.events import emit
    from models.platform.tenant import Tenant
    from models.platform.webhook import WebhookDelivery

    await register(platform, sender, receiver.url, EventTypes=["sms.delivered"])
    tenant = await Tenant.get(public_id=sender.tenant_id)
    async with in_transaction("platform") as conn:
        produced = await emit(conn, tenant_pk=tenant.id, mode="test", event_type="sms.delivered",
                              data={"MessageId": "msg_x"})
        ignored = await emit(conn, tenant_pk=tenant.id, mode="test", event_type="sms.failed",
                             data={"MessageId": "msg_x"})
    assert produced is not None and len(produced["delivery_ids"]) == 1
    assert ignored is None  # nobody subscribes to sms.failed: no event row, no delivery
    assert await WebhookDelivery.filter(public_id=produced["delivery_ids"][0]).exists()
