"""The platform's internal send route (POST /internal/v1/tenants/{account}/messages/send): the
composer's body plus Mode, the service credential, the accept path's idempotency."""

from __future__ import annotations

import asyncio
import secrets
import time

from models.platform import Message
from tests.fixtures.identity import service_headers


def body(**extra):
    return {"Channel": "sms", "Recipients": ["+14155550177"], "Text": "Bem-vinda", "Mode": "test", **extra}


async def wait_status(public_id: str, status: str, seconds: float = 30.0) -> Message:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        row = await Message.get(public_id=public_id)
        if row.status == status:
            return row
        await asyncio.sleep(0.1)
    raise AssertionError(f"{public_id} is {row.status}, not {status}")


async def test_a_test_mode_send_is_accepted_once_per_key_and_delivered(platform, make_account, pipeline):
    account = await make_account()
    path = f"/internal/v1/tenants/{account.tenant_id}/messages/send"
    key = f"crm-jrn:ins_{secrets.token_hex(6)}:welcome"
    first = await platform.post(path, headers=service_headers(), json=body(IdempotencyKey=key))
    assert first.status_code == 202, first.text
    answer = first.json()
    assert answer["ReusedIdempotency"] is False and [m["To"] for m in answer["Messages"]] == ["+14155550177"]
    again = await platform.post(path, headers=service_headers(), json=body(IdempotencyKey=key))
    assert again.status_code == 202, again.text
    assert again.json()["ReusedIdempotency"] is True
    assert again.json()["Messages"][0]["MessageId"] == answer["Messages"][0]["MessageId"]
    row = await wait_status(answer["Messages"][0]["MessageId"], "sent")
    assert row.mode == "test" and row.channel == "sms"
    assert await Message.filter(idempotency_key=key).count() == 1

    live = await platform.post(path, headers=service_headers(), json=body(Mode="live"))
    assert live.status_code == 202, live.text
    assert (await Message.get(public_id=live.json()["Messages"][0]["MessageId"])).mode == "live"


async def test_the_route_needs_the_credential_a_known_account_and_a_valid_body(platform, make_account):
    account = await make_account()
    path = f"/internal/v1/tenants/{account.tenant_id}/messages/send"
    assert (await platform.post(path, json=body())).status_code == 401
    assert (await platform.post(path, headers=account.headers, json=body())).status_code == 401
    unknown = await platform.post("/internal/v1/tenants/nobody-here/messages/send", headers=service_headers(),
                                  json=body())
    assert unknown.status_code == 404, unknown.text
    no_mode = {key: value for key, value in body().items() if key != "Mode"}
    assert (await platform.post(path, headers=service_headers(), json=no_mode)).status_code in (400, 422)
    empty = await platform.post(path, headers=service_headers(), json=body(Recipients=[]))
    assert empty.status_code == 422, empty.text
    assert (await platform.post(path, headers=service_headers(), json=body(Mode="demo"))).status_code == 400
