"""Web push set-up over HTTP: the site configuration (the account's VAPID pair made once, even by
concurrent first calls, its private key sealed), the snippet's site key that registers devices
of its own account only, and the device listing. The snippet and the service worker also run in
Node here (its fetch reaching the running platform, the browser APIs stubbed); the proof in a real
browser (headless Chromium: the snippet registering the worker and the subscription, a push
delivered with ServiceWorker.deliverPushMessage shown as a notification) is
tests/platform/test_push_browser.py."""

from __future__ import annotations

import asyncio
import base64
import json
import re
import secrets
import shutil
import subprocess

import httpx
import pytest

from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import new_account, signed_in_member

P256DH = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
AUTH = "tBHItJI5svbpez7KI4CCXg"


def subscription(endpoint: str = "https://fcm.googleapis.com/fcm/send/abc") -> dict:
    return {"endpoint": endpoint, "keys": {"p256dh": P256DH, "auth": AUTH}}


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def site_key_of(snippet: str) -> str:
    return re.search(r'siteKey: "(wpk_[^"]+)"', snippet).group(1)


async def owner_and_account(dashboard, identity, tag: str):
    owner = await signed_in_member(identity, dashboard, tag)
    account = await new_account(dashboard, owner, f"Push {tag}")
    return account, {**owner.auth, "X-Service-Tenant": account["Id"]}


async def test_site_config_makes_one_sealed_pair_even_under_concurrent_first_calls(dashboard, identity, servers):
    from kit.sealing import PLATFORM
    from models.platform.provider_config import PROVIDER_SECRETS, ProviderConfig
    from models.platform.tenant import Tenant

    account, headers = await owner_and_account(dashboard, identity, "pushcfg")
    answers = await asyncio.gather(*(dashboard.get("/api/push/site-config", headers=headers) for _ in range(8)))
    assert all(answer.status_code == 200 for answer in answers), [answer.text for answer in answers]
    configs = [answer.json() for answer in answers]
    assert len({config["PublicKey"] for config in configs}) == 1
    config = configs[0]
    assert set(config) == {"PublicKey", "ApiBase", "Manifest", "ServiceWorker", "Snippet", "RequestId"}
    public = unb64(config["PublicKey"])
    assert len(public) == 65 and public[0] == 4
    assert config["ApiBase"] == servers("platform").url.rstrip("/")
    assert config["Manifest"]["start_url"] == "/" and config["Manifest"]["name"] == "Push pushcfg"
    assert "showNotification" in config["ServiceWorker"]
    assert config["PublicKey"] in config["Snippet"] and "/herald-sw.js" in config["Snippet"]

    tenant = await Tenant.get(public_id=account["Id"])
    rows = await ProviderConfig.filter(tenant_id=tenant.id, channel="push", key="webpush")
    assert len(rows) == 1
    private = PLATFORM.unseal_json(PROVIDER_SECRETS, rows[0].secrets)["vapid_private_key"]
    assert private not in rows[0].secrets and "vapid_private_key" not in json.dumps(rows[0].settings)
    assert rows[0].settings["vapid_subject"].startswith(("mailto:", "https://"))
    again = await dashboard.get("/api/push/site-config", headers=headers)
    assert again.json()["PublicKey"] == config["PublicKey"] and again.json()["Snippet"] == config["Snippet"]


async def test_the_site_key_registers_devices_of_its_account_only(dashboard, identity):
    account, headers = await owner_and_account(dashboard, identity, "pushreg")
    other, other_headers = await owner_and_account(dashboard, identity, "pushreg2")
    key = site_key_of((await dashboard.get("/api/push/site-config", headers=headers)).json()["Snippet"])
    other_key = site_key_of((await dashboard.get("/api/push/site-config", headers=other_headers)).json()["Snippet"])

    registered = await dashboard.post("/push/web/subscriptions", content=json.dumps(
        {"SiteKey": key, "Subscription": subscription()}), headers={"Content-Type": "text/plain;charset=UTF-8",
                                                                    "Origin": "https://shop.example"})
    assert registered.status_code == 200, registered.text
    assert registered.headers["Access-Control-Allow-Origin"] == "*"
    device = registered.json()["Device"]
    assert device["Platform"] == "web" and json.loads(device["Token"])["endpoint"].startswith("https://fcm")
    twice = await dashboard.post("/push/web/subscriptions", json={"SiteKey": key, "Subscription": subscription()})
    assert twice.json()["Device"]["DeviceId"] == device["DeviceId"]  # an upsert on (account, token)

    listed = await dashboard.get("/api/push/devices", headers=headers)
    assert [row["DeviceId"] for row in listed.json()["Devices"]] == [device["DeviceId"]]
    assert (await dashboard.get("/api/push/devices", headers=other_headers)).json()["Devices"] == []

    forged = key.split(".")[0].replace(account["Id"], other["Id"]) + "." + key.split(".")[1]
    for credential in (forged, other_key[:-1] + "0" if other_key[-1] != "0" else other_key[:-1] + "1", "pk_live_x", ""):
        refused = await dashboard.post("/push/web/subscriptions",
                                       json={"SiteKey": credential, "Subscription": subscription("https://x.example/1")})
        assert refused.status_code == 403, (credential, refused.text)
        assert refused.headers["Access-Control-Allow-Origin"] == "*"
    bad = await dashboard.post("/push/web/subscriptions",
                               json={"SiteKey": key, "Subscription": {"endpoint": "http://insecure.example"}})
    assert bad.status_code == 400 and "Token" in bad.json()["Error"]["Details"]
    unknown = await dashboard.post("/push/web/subscriptions", json={"SiteKey": key, "Subscription": {}, "Extra": 1})
    assert unknown.status_code == 400


async def test_devices_page_and_stay_in_the_account(dashboard, identity):
    _, headers = await owner_and_account(dashboard, identity, "pushpage")
    key = site_key_of((await dashboard.get("/api/push/site-config", headers=headers)).json()["Snippet"])
    for index in range(3):
        answer = await dashboard.post("/push/web/subscriptions", json={
            "SiteKey": key, "Subscription": subscription(f"https://fcm.googleapis.com/fcm/send/{index}")})
        assert answer.status_code == 200, answer.text
    first = await dashboard.get("/api/push/devices", params={"limit": 2}, headers=headers)
    assert len(first.json()["Devices"]) == 2 and first.json()["HasMore"] is True
    rest = await dashboard.get("/api/push/devices", params={"limit": 2, "cursor": first.json()["NextCursor"]},
                               headers=headers)
    assert len(rest.json()["Devices"]) == 1 and rest.json()["HasMore"] is False
    for params in ({"limit": 0}, {"limit": 201}, {"cursor": -1}, {"tenant": "acc_x"}):
        assert (await dashboard.get("/api/push/devices", params=params, headers=headers)).status_code == 422


NODE_SNIPPET = r"""
// node -e: process.argv is [node, ...the arguments]
const snippet = process.argv[1].replace(/^<script>/, '').replace(/<\/script>$/, '');
const registered = [];
global.window = global;
global.atob = (text) => Buffer.from(text, 'base64').toString('binary');
global.navigator = {serviceWorker: {
  register: (url) => { registered.push(url); return Promise.resolve({}); },
  ready: Promise.resolve({pushManager: {getSubscription: () => Promise.resolve(null),
    subscribe: (options) => Promise.resolve({toJSON: () => ({endpoint: 'https://fcm.googleapis.com/fcm/send/node',
      keys: {p256dh: process.argv[2], auth: process.argv[3]}}), options})}})}};
eval(snippet);
window.Herald.subscribe().then((answer) => {
  console.log(JSON.stringify({registered, device: answer.Device}));
}).catch((error) => { console.error(String(error)); process.exit(1); });
"""

NODE_WORKER = r"""
const shown = [];
const listeners = {};
global.self = {addEventListener: (type, fn) => { listeners[type] = fn; },
               registration: {showNotification: (title, options) => { shown.push({title, options}); return Promise.resolve(); }},
               clients: {openWindow: () => Promise.resolve()}};
eval(process.argv[1]);
const payload = JSON.parse(process.argv[2]);
let waited = null;
listeners.push({data: {json: () => payload, text: () => JSON.stringify(payload)}, waitUntil: (p) => { waited = p; }});
waited.then(() => console.log(JSON.stringify(shown)));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed")
async def test_the_snippet_and_the_service_worker_run(dashboard, identity):
    _, headers = await owner_and_account(dashboard, identity, "pushnode")
    config = (await dashboard.get("/api/push/site-config", headers=headers)).json()
    ran = await asyncio.to_thread(subprocess.run, ["node", "-e", NODE_SNIPPET, config["Snippet"], P256DH, AUTH],
                                  capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    result = json.loads(ran.stdout)
    assert result["registered"] == ["/herald-sw.js"]
    assert json.loads(result["device"]["Token"])["endpoint"] == "https://fcm.googleapis.com/fcm/send/node"
    devices = (await dashboard.get("/api/push/devices", headers=headers)).json()["Devices"]
    assert [device["DeviceId"] for device in devices] == [result["device"]["DeviceId"]]

    payload = {"title": "Order shipped", "body": "Your order is on its way", "data": {"url": "https://shop.example"},
               "messageId": "msg_123"}
    shown = await asyncio.to_thread(subprocess.run, ["node", "-e", NODE_WORKER, config["ServiceWorker"],
                                                     json.dumps(payload)], capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    [notification] = json.loads(shown.stdout)
    assert notification["title"] == "Order shipped"
    assert notification["options"]["body"] == "Your order is on its way"
    assert notification["options"]["data"]["url"] == "https://shop.example"



def from_address(base_url: str, address: str) -> httpx.AsyncClient:
    """A client whose connections come from ``address`` (any 127/8 address is this machine's)."""
    return httpx.AsyncClient(base_url=base_url, timeout=30,
                             transport=httpx.AsyncHTTPTransport(local_address=address))


async def spend(redis_url: str, bucket: str, count: int) -> None:
    """Put ``count`` hits in a limiter bucket's current window (and the next one, should the window
    turn while the test runs), as that many earlier requests would have: the windows are Redis's
    fixed minutes (app/http/ratelimit.py), so a burst of hundreds of requests could straddle two."""
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(redis_url)
    try:
        index = int((await client.time())[0]) // 60
        for window in (index, index + 1):
            await client.set(f"herald:rl:push-site:{bucket}:{window}", count, ex=180)
    finally:
        await client.aclose()


async def test_registrations_are_rate_limited_per_address_and_per_site_key(dashboard, identity, servers, services):
    from app.platform.push_setup.api import ADDRESS_LIMIT, SITE_KEY_LIMIT

    _, headers = await owner_and_account(dashboard, identity, "pushrate")
    _, other_headers = await owner_and_account(dashboard, identity, "pushrate2")
    key = site_key_of((await dashboard.get("/api/push/site-config", headers=headers)).json()["Snippet"])
    other_key = site_key_of((await dashboard.get("/api/push/site-config", headers=other_headers)).json()["Snippet"])
    base, redis_url = servers("platform").url, services.env["REDIS_URL"]
    subnet = f"127.{secrets.randbelow(200) + 20}.{secrets.randbelow(250) + 1}"  # this run's own addresses

    def refused_as_throttled(answer: httpx.Response, limit: int) -> None:
        assert answer.status_code == 429, answer.text
        assert answer.json()["Error"]["Code"] == "Throttling"
        assert 1 <= int(answer.headers["Retry-After"]) <= 60
        assert answer.headers["X-RateLimit-Limit"] == str(limit) and answer.headers["X-RateLimit-Remaining"] == "0"
        assert answer.headers["Access-Control-Allow-Origin"] == "*"

    # Per address: the last requests of the window are answered (a registration, a body that fails
    # validation: both count), the next one is 429 before its body is even read; others pass.
    await spend(redis_url, f"ip:{subnet}.1", ADDRESS_LIMIT - 2)
    async with from_address(base, f"{subnet}.1") as client:
        first = await client.post("/push/web/subscriptions", json={"SiteKey": key, "Subscription": subscription()})
        assert first.status_code == 200, first.text
        invalid = await client.post("/push/web/subscriptions", json={"SiteKey": key, "Subscription": {}})
        assert invalid.status_code == 400, invalid.text
        refused_as_throttled(await client.post("/push/web/subscriptions", content=b"not even json"), ADDRESS_LIMIT)
    async with from_address(base, f"{subnet}.2") as client:
        fine = await client.post("/push/web/subscriptions", json={"SiteKey": other_key, "Subscription": subscription()})
        assert fine.status_code == 200, fine.text

    # Per site key, whatever the address: with all but one of the window's requests spent, the last
    # one passes, the next is 429 from any address; another account's key is not held back.
    await spend(redis_url, f"key:{key}", SITE_KEY_LIMIT - 1)
    async with from_address(base, f"{subnet}.3") as client:
        last = await client.post("/push/web/subscriptions", json={"SiteKey": key, "Subscription": subscription()})
        assert last.status_code == 200, last.text
    async with from_address(base, f"{subnet}.4") as client:
        refused_as_throttled(await client.post("/push/web/subscriptions",
                                               json={"SiteKey": key, "Subscription": subscription()}), SITE_KEY_LIMIT)
        fine = await client.post("/push/web/subscriptions", json={"SiteKey": other_key, "Subscription": subscription()})
        assert fine.status_code == 200, fine.text


async def test_site_config_in_a_support_session_writes_nothing(dashboard, identity):
    """Inside a read-only support session the GET makes no key pair: PublicKey null and a snippet
    that says web push is not set up; a pair the account made is read as usual."""
    from models.platform.provider_config import ProviderConfig
    from models.platform.tenant import Tenant
    from tests.fixtures.dashboard import signed_in_staff

    account, headers = await owner_and_account(dashboard, identity, "pushsupport")
    staff = await signed_in_staff(identity, dashboard, "pushstaff")
    entered = await dashboard.post(f"/api/admin/tenants/{account['Id']}/enter", headers=staff.auth,
                                   json={"Reason": "push ticket"})
    assert entered.status_code == 201, entered.text
    tenant = await Tenant.get(public_id=account["Id"])

    inside = await dashboard.get("/api/push/site-config", headers=staff.auth)
    assert inside.status_code == 200, inside.text
    config = inside.json()
    assert config["PublicKey"] is None and "not set up" in config["Snippet"] and "wpk_" not in config["Snippet"]
    assert set(config) == {"PublicKey", "ApiBase", "Manifest", "ServiceWorker", "Snippet", "RequestId"}
    assert await ProviderConfig.filter(tenant_id=tenant.id, channel="push", key="webpush").count() == 0

    made = await dashboard.get("/api/push/site-config", headers=headers)  # the account's own member: made
    assert made.status_code == 200 and made.json()["PublicKey"]
    again = await dashboard.get("/api/push/site-config", headers=staff.auth)
    assert again.json()["PublicKey"] == made.json()["PublicKey"] and again.json()["Snippet"] == made.json()["Snippet"]
    assert await ProviderConfig.filter(tenant_id=tenant.id, channel="push", key="webpush").count() == 1
    assert (await dashboard.post("/api/admin/impersonation/end", headers=staff.auth)).status_code == 200
