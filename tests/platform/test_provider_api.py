"""An account's own providers through /api/providers (real platform, identity, worker and a local SMTP
server): set, read (secrets write-only, sealed at rest), replace, remove; hosts refused by the egress
policy when set; another account's provider a missing one; and a message of the account delivered
through the SMTP server it set."""

from __future__ import annotations

import asyncio
import email
import email.policy
import json
import secrets
import time

import pytest

from app.platform.api_key.service import create_key
from app.platform.domain.service import add_sender_domain
from models.platform.api_key import KeyKind
from models.platform.domain import SenderDomain
from models.platform.provider_config import ProviderConfig, tenant_provider
from models.platform.tenant import Tenant
from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import new_account, signed_in_member
from tests.fixtures.platform import email as email_body
from tests.fixtures.provider_servers import SmtpInbox

SMTP = "/api/providers/email/smtp"


async def owner_of_account(identity, dashboard, tag: str) -> tuple[dict, dict]:
    owner = await signed_in_member(identity, dashboard, tag)
    account = await new_account(dashboard, owner, f"Providers {secrets.token_hex(3)}")
    return account, {**owner.auth, "X-Service-Tenant": account["Id"]}


async def test_set_read_replace_and_remove_with_secrets_write_only(dashboard, identity):
    account, headers = await owner_of_account(identity, dashboard, "prov")
    body = {"Settings": {"host": "smtp.example.com", "port": 587, "username": "herald"},
            "Secrets": {"password": "hunter2-hunter2"}}
    made = await dashboard.put(SMTP, json=body, headers=headers)
    assert made.status_code == 201, made.text
    provider = made.json()["Provider"]
    assert provider["Settings"] == body["Settings"] and provider["Secrets"] == {"password": True}
    assert "hunter2" not in made.text

    row = await ProviderConfig.get(tenant__public_id=account["Id"], channel="email", key="smtp")
    assert "hunter2" not in (row.secrets or "")  # sealed at rest
    resolved = await tenant_provider(row.tenant_id, "email")  # what the worker reads
    assert resolved.config["password"] == "hunter2-hunter2" and resolved.config["host"] == "smtp.example.com"

    read = await dashboard.get(SMTP, headers=headers)
    assert read.status_code == 200 and read.json()["Provider"]["Secrets"] == {"password": True}
    assert "hunter2" not in read.text
    listed = (await dashboard.get("/api/providers", headers=headers)).json()
    assert [(row["Channel"], row["Key"]) for row in listed["Providers"]] == [("email", "smtp")]
    assert ("email", "smtp") in {(row["Channel"], row["Key"]) for row in listed["Catalog"]}
    assert "hunter2" not in str(listed)

    # A new host without the password: the stored one stays. Null removes it.
    kept = await dashboard.put(SMTP, json={"Settings": {"host": "mail.example.org"}}, headers=headers)
    assert kept.status_code == 200 and kept.json()["Provider"]["Secrets"] == {"password": True}
    assert kept.json()["Provider"]["Settings"] == {"host": "mail.example.org"}
    assert (await tenant_provider(row.tenant_id, "email")).config["password"] == "hunter2-hunter2"
    removed = await dashboard.put(SMTP, json={"Settings": {"host": "mail.example.org"}, "Secrets": {"password": None}},
                                  headers=headers)
    assert removed.status_code == 200 and removed.json()["Provider"]["Secrets"] == {"password": False}

    assert (await dashboard.delete(SMTP, headers=headers)).status_code == 204
    assert (await dashboard.get(SMTP, headers=headers)).status_code == 404
    assert (await dashboard.delete(SMTP, headers=headers)).status_code == 404
    assert await tenant_provider(row.tenant_id, "email") is None


@pytest.mark.parametrize("given, field", [
    ({"host": "10.0.0.5"}, "Settings.host"),
    ({"host": "169.254.169.254"}, "Settings.host"),
    ({"host": "relay.internal"}, "Settings.host"),
    ({"host": "smtp.example.com", "port": 6379}, "Settings.port"),
    ({"host": "smtp://smtp.example.com"}, "Settings.host"),
    ({"host": "smtp.example.com", "security": "maybe"}, "Settings.security"),
    ({"host": "smtp.example.com", "ca_file": "/etc/hostname"}, "Settings.ca_file"),
    ({"port": 587}, "Settings.host"),
])
async def test_what_the_egress_or_the_catalog_refuses_is_422_naming_the_field(dashboard, identity, given, field):
    _, headers = await owner_of_account(identity, dashboard, "provbad")
    answer = await dashboard.put(SMTP, json={"Settings": given}, headers=headers)
    assert answer.status_code == 422, answer.text
    assert field in answer.json()["Error"]["Details"], answer.text
    assert (await dashboard.get("/api/providers", headers=headers)).json()["Providers"] == []


async def test_other_channels_urls_secrets_and_unknown_providers(dashboard, identity):
    _, headers = await owner_of_account(identity, dashboard, "provother")
    twilio = "/api/providers/sms/twilio"
    missing = await dashboard.put(twilio, json={"Settings": {"account_sid": "AC123"}}, headers=headers)
    assert missing.status_code == 422 and "Secrets.auth_token" in missing.json()["Error"]["Details"]
    private = await dashboard.put(twilio, json={"Settings": {"account_sid": "AC123", "base_url": "https://10.1.2.3"},
                                                "Secrets": {"auth_token": "t"}}, headers=headers)
    assert private.status_code == 422 and "Settings.base_url" in private.json()["Error"]["Details"]
    plain = await dashboard.put(twilio, json={"Settings": {"account_sid": "AC123", "base_url": "http://api.example.com"},
                                              "Secrets": {"auth_token": "t"}}, headers=headers)
    assert plain.status_code == 422 and "Settings.base_url" in plain.json()["Error"]["Details"]
    good = await dashboard.put(twilio, json={"Settings": {"account_sid": "AC123", "from": "+14155550100"},
                                             "Secrets": {"auth_token": "t0ken"}}, headers=headers)
    assert good.status_code == 201 and good.json()["Provider"]["Secrets"] == {"auth_token": True}
    fcm = await dashboard.put("/api/providers/push/fcm", json={"Secrets": {"service_account": "{\"project_id\": 1}"}},
                              headers=headers)
    assert fcm.status_code == 422 and "Secrets.service_account" in fcm.json()["Error"]["Details"]
    for path in ("/api/providers/email/sink", "/api/providers/push/webpush", "/api/providers/fax/smtp"):
        answer = await dashboard.put(path, json={"Settings": {}}, headers=headers)
        assert answer.status_code == 404, (path, answer.text)
    # Longer than any channel or key a row holds (found by fuzzing: it was a 500).
    assert (await dashboard.get("/api/providers/u0qeUn9s.Oc5LLRGR0VM/smtp", headers=headers)).status_code == 404
    unknown = await dashboard.put(twilio, json={"Settings": {"account_sid": "AC1"}, "Secrets": {"pin": "1"}},
                                  headers=headers)
    assert unknown.status_code == 422 and "Secrets.pin" in unknown.json()["Error"]["Details"]
    extra = await dashboard.put(twilio, json={"Settings": {}, "Colour": "red"}, headers=headers)
    assert extra.status_code == 400 and "Colour" in extra.json()["Error"]["Message"]


async def test_another_accounts_provider_is_a_missing_one(dashboard, identity):
    account, headers = await owner_of_account(identity, dashboard, "provmine")
    other, other_headers = await owner_of_account(identity, dashboard, "provtheirs")
    assert (await dashboard.put(SMTP, json={"Settings": {"host": "smtp.example.com"}}, headers=headers)).status_code == 201
    assert (await dashboard.get(SMTP, headers=other_headers)).status_code == 404
    assert (await dashboard.delete(SMTP, headers=other_headers)).status_code == 404
    assert (await dashboard.get("/api/providers", headers=other_headers)).json()["Providers"] == []
    # Naming the first account while a member only of the second: 404, as for any account not one's own.
    foreign = {**other_headers, "X-Service-Tenant": account["Id"]}
    for method in ("GET", "DELETE"):
        answer = await dashboard.request(method, SMTP, headers=foreign)
        assert answer.status_code == 404, answer.text
    assert (await dashboard.put(SMTP, json={"Settings": {"host": "x.example.com"}}, headers=foreign)).status_code == 404
    assert await ProviderConfig.filter(tenant__public_id=account["Id"]).count() == 1


async def arrived(inbox: SmtpInbox, recipient: str, seconds: float = 45.0) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = [message for message in inbox.messages if recipient in message["to"]]
        if found:
            return found[0]
        await asyncio.sleep(0.1)
    raise AssertionError(f"nothing arrived for {recipient}: {inbox.messages}")


async def test_a_message_goes_out_through_the_smtp_server_the_account_set(dashboard, identity, platform, inbox,
                                                                         pipeline):
    account, headers = await owner_of_account(identity, dashboard, "provsend")
    tenant = await Tenant.get(public_id=account["Id"])
    name = f"prov-{secrets.token_hex(4)}.example.com"
    domain = await add_sender_domain(tenant.id, name)
    await SenderDomain.filter(id=domain.id).update(verified_at=domain.created_at)
    # The test's SMTP server listens on loopback: reachable only because the test configuration opens
    # loopback to the egress (WEBHOOKS_ALLOW_LOOPBACK, on with HERALD_ENV=test), as for every local server.
    made = await dashboard.put(SMTP, json={"Settings": {"host": "127.0.0.1", "port": inbox.port, "security": "none"}},
                               headers=headers)
    assert made.status_code == 201, made.text
    _, key = await create_key(account["Id"], "live", ["email:send", "email:read"], KeyKind.LIVE)
    recipient = f"bob-{secrets.token_hex(3)}@example.net"
    sent = await platform.post("/v1/emails/send", headers={"Authorization": f"Bearer {key}"},
                               json=email_body(to=(recipient,), source=f"Ana <ana@{name}>", subject="Through my SMTP"))
    assert sent.status_code == 202, sent.text

    message = await arrived(inbox, recipient)
    assert message["from"].startswith("bounce-msg_")  # the envelope sender is the VERP return path (docs/bounces.md)
    parsed = email.message_from_bytes(message["data"], policy=email.policy.default)
    assert parsed["Subject"] == "Through my SMTP" and f"d={name}" in parsed["DKIM-Signature"].replace(" ", "")
    assert parsed["From"].addresses[0].addr_spec == f"ana@{name}"


async def test_the_same_through_v1_with_a_live_key_of_the_new_scope(platform, make_account):
    live = await make_account(scopes=("providers:manage",), kind=KeyKind.LIVE)
    path = "/v1/providers/email/smtp"
    made = await platform.put(path, json={"Settings": {"host": "smtp.example.com", "port": 465, "security": "tls"},
                                          "Secrets": {"password": "s3cret-value"}}, headers=live.headers)
    assert made.status_code == 201, made.text
    assert made.json()["Provider"]["Secrets"] == {"password": True} and "s3cret" not in made.text
    read = await platform.get(path, headers=live.headers)
    assert read.status_code == 200 and read.json()["Provider"]["Settings"]["port"] == 465
    refused = await platform.put(path, json={"Settings": {"host": "192.168.1.10"}}, headers=live.headers)
    assert refused.status_code == 422 and "Settings.host" in refused.json()["Error"]["Details"]

    # A test key of the same account reads, never writes: providers deliver live messages only.
    _, test_key = await create_key(live.tenant_id, "test", ["providers:manage"], KeyKind.TEST)
    test_headers = {"Authorization": f"Bearer {test_key}"}
    assert (await platform.get(path, headers=test_headers)).status_code == 200
    for method, body in (("PUT", {"Settings": {"host": "smtp.example.com"}}), ("DELETE", None)):
        answer = await platform.request(method, path, json=body, headers=test_headers)
        assert answer.status_code == 403 and answer.json()["Error"]["Code"] == "PermissionDenied", answer.text

    stranger = await make_account(scopes=("providers:manage",), kind=KeyKind.LIVE)
    assert (await platform.get(path, headers=stranger.headers)).status_code == 404
    assert (await platform.delete(path, headers=stranger.headers)).status_code == 404
    assert (await platform.get("/v1/providers", headers=stranger.headers)).json()["Providers"] == []
    older = await make_account(scopes=("email:send", "email:read", "templates:read", "templates:write"))
    no_scope = await platform.get("/v1/providers", headers=older.headers)
    assert no_scope.status_code == 403 and no_scope.json()["Error"]["Details"] == {"RequiredScope": "providers:manage"}

    assert (await platform.delete(path, headers=live.headers)).status_code == 204
    assert (await platform.get(path, headers=live.headers)).status_code == 404


def test_the_request_log_keeps_no_secret_of_a_provider_body():
    """/v1 requests are logged with their bodies redacted: every value under ``Secrets`` goes, whatever
    the provider names it (``service_account``, ``auth_token``...), the settings stay readable."""
    from models.platform.request_log.body import redact_body

    body = {"Settings": {"host": "smtp.example.com", "username": "herald"},
            "Secrets": {"password": "pw-1", "service_account": "{\"private_key\": \"pk-2\"}", "auth_token": "tk-3",
                        "access_token": "tk-4", "private_key": "pk-5"}}
    kept = redact_body(json.dumps(body).encode(), route="/v1/providers/<channel:slug>/<key:slug>").text
    assert json.loads(kept) == {"Settings": body["Settings"], "Secrets": "[REDACTED]"}
