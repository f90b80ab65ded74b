"""Sending domains through the mail API, served by the platform's one domain service: add (every
record to publish), verify (422 naming what is missing, 503 with Retry-After when DNS does not
answer, the attempt recorded either way), remove; the first account to verify a name owns it."""

from __future__ import annotations

import secrets

from models.platform.domain import DomainCheck, SenderDomain
from tests.mail.conftest import publish, sign_up, verified_domain


async def test_add_lists_every_record_then_verify_turns_it_verified(mail, core, dns_server):
    person = await sign_up(core)
    name = f"brand{secrets.token_hex(4)}.example"
    added = await mail.post("/v1/domains", headers=person.headers, json={"name": name, "dmarc": True})
    assert added.status_code == 201, added.text
    assert added.headers["X-Request-Id"].startswith("req_") and added.json()["RequestId"].startswith("req_")
    domain = added.json()["domain"]
    assert domain["name"] == name and domain["verified"] is False and domain["dns_status"] == "pending"
    records = {record["purpose"]: record for record in domain["records"]}
    assert set(records) == {"spf", "dkim", "return-path", "dmarc"}
    assert records["dkim"]["value"].startswith("v=DKIM1; k=rsa; p=MIIBIjAN")
    assert records["spf"]["required"] and records["dkim"]["required"] and not records["dmarc"]["required"]

    # Nothing published: 422 naming both required records; the attempt is recorded.
    missing = await mail.post(f"/v1/domains/{name}/verify", headers=person.headers)
    assert missing.status_code == 422, missing.text
    assert set(missing.json()) == {"error", "message"} and missing.json()["error"] == "DomainNotVerified"
    assert records["dkim"]["name"] in missing.json()["message"] and "(spf" in missing.json()["message"]
    row = await SenderDomain.get(name=name)
    assert await DomainCheck.filter(domain_id=row.id, outcome="failed").count() == 1

    # Only SPF published: the DKIM record is still named, SPF no longer.
    publish(dns_server, [records["spf"]])
    still = await mail.post(f"/v1/domains/{name}/verify", headers=person.headers)
    assert still.status_code == 422 and "(dkim" in still.json()["message"] and "(spf" not in still.json()["message"]

    publish(dns_server, [records["dkim"]])
    verified = await mail.post(f"/v1/domains/{name}/verify", headers=person.headers)
    assert verified.status_code == 200, verified.text
    assert verified.json()["domain"]["verified"] is True and verified.json()["domain"]["status"] == "verified"
    assert verified.json()["domain"]["last_check"]["outcome"] == "verified"
    listed = await mail.get("/v1/domains", headers=person.headers)
    assert [(d["name"], d["dns_status"]) for d in listed.json()["domains"]] == [(name, "ok")]
    # Adding it again changes nothing: 200 with the same domain.
    again = await mail.post("/v1/domains", headers=person.headers, json={"name": name})
    assert again.status_code == 200 and again.json()["domain"]["verified"] is True

    # The platform's own listing sees it, usable for /v1/emails/send.
    senders = await core.get("/v1/senders", headers=person.headers)
    assert senders.json()["Domains"] == [{"Name": name, "Verified": True, "UsableFor": ["emails/send"],
                                          "DnsStatus": "ok"}]

    removed = await mail.delete(f"/v1/domains/{name}", headers=person.headers)
    assert removed.status_code == 204
    assert (await mail.get(f"/v1/domains/{name}", headers=person.headers)).status_code == 404
    assert not await SenderDomain.filter(name=name).exists()


async def test_dns_unreachable_is_503_with_retry_after_and_recorded(mail, core, dns_server):
    person = await sign_up(core)
    name = f"flaky{secrets.token_hex(4)}.example"
    assert (await mail.post("/v1/domains", headers=person.headers, json={"name": name})).status_code == 201
    dns_server.failing = True
    try:
        answer = await mail.post(f"/v1/domains/{name}/verify", headers=person.headers)
    finally:
        dns_server.failing = False
    assert answer.status_code == 503, answer.text
    assert answer.json() == {"error": "VerificacaoIndisponivel", "message": answer.json()["message"]}
    assert int(answer.headers["Retry-After"]) > 0
    row = await SenderDomain.get(name=name)
    assert await DomainCheck.filter(domain_id=row.id, outcome="unreachable").count() == 1
    assert row.unreachable_since is not None and row.verified_at is None


async def test_the_first_account_to_verify_owns_the_domain(mail, core, dns_server):
    first, second = await sign_up(core), await sign_up(core)
    name = f"shared{secrets.token_hex(4)}.example"
    # An unverified add blocks nobody: both add it.
    assert (await mail.post("/v1/domains", headers=second.headers, json={"name": name})).status_code == 201
    await verified_domain(mail, dns_server, first.headers, name)
    # The second account's records are published too, but the name is the first's now.
    second_domain = (await mail.get(f"/v1/domains/{name}", headers=second.headers)).json()["domain"]
    publish(dns_server, second_domain["records"])
    refused = await mail.post(f"/v1/domains/{name}/verify", headers=second.headers)
    assert refused.status_code == 409 and refused.json()["error"] == "Conflict", refused.text
    assert (await mail.post("/v1/domains", headers=await _third(core), json={"name": name})).status_code == 409
    assert not (await SenderDomain.get(tenant__public_id=second.tenant_id, name=name)).verified


async def _third(core) -> dict:
    return (await sign_up(core)).headers


async def test_another_accounts_domain_is_404_like_a_missing_one(mail, core, dns_server):
    owner, stranger = await sign_up(core), await sign_up(core)
    name = await verified_domain(mail, dns_server, owner.headers)
    for method, path in (("GET", f"/v1/domains/{name}"), ("POST", f"/v1/domains/{name}/verify"),
                         ("DELETE", f"/v1/domains/{name}"), ("GET", "/v1/domains/nowhere.example")):
        answer = await mail.request(method, path, headers=stranger.headers)
        assert answer.status_code == 404, (method, path, answer.text)
        assert answer.json() == {"error": "NotFound", "message": answer.json()["message"]}
    assert (await mail.get(f"/v1/domains/{name}", headers=owner.headers)).status_code == 200


async def test_the_console_adds_and_verifies_on_the_dashboard(core, dns_server):
    """/api/domains under X-Service-Tenant: the same service, in the platform's envelope."""
    person = await sign_up(core)
    name = f"console{secrets.token_hex(4)}.example"
    added = await core.post("/api/domains", headers=person.session, json={"Name": name})
    assert added.status_code == 201, added.text
    records = added.json()["Domain"]["Records"]
    missing = await core.post(f"/api/domains/{name}/verify", headers=person.session)
    assert missing.status_code == 422 and missing.json()["Error"]["Code"] == "DomainNotVerified"
    assert set(missing.json()["Error"]["Details"]) == {"spf", "dkim"}
    for record in records:
        dns_server.publish(record["Name"], record["Type"], record["Value"])
    verified = await core.post(f"/api/domains/{name}/verify", headers=person.session)
    assert verified.status_code == 200 and verified.json()["Domain"]["Verified"] is True, verified.text
    listed = await core.get("/api/domains", headers=person.session)
    assert [d["Name"] for d in listed.json()["Domains"]] == [name]
    stranger = await sign_up(core)
    assert (await core.get(f"/api/domains/{name}", headers=stranger.session)).status_code == 404
    elsewhere = {**stranger.session, "X-Service-Tenant": person.tenant_id}
    assert (await core.get("/api/domains", headers=elsewhere)).status_code == 404
    assert (await core.delete(f"/api/domains/{name}", headers=person.session)).status_code == 204


async def test_a_watching_page_asks_dns_at_most_once_per_interval(core, dns_server):
    """``verify?watch=1``: 200 with the domain as it stands, whatever DNS said; the first watcher in an
    interval has DNS asked (its check recorded), the others read that check."""
    person = await sign_up(core)
    name = f"watch{secrets.token_hex(4)}.example"
    added = await core.post("/api/domains", headers=person.session, json={"Name": name})
    assert added.status_code == 201, added.text
    first = await core.post(f"/api/domains/{name}/verify", headers=person.session, params={"watch": "1"})
    assert first.status_code == 200 and first.json()["Domain"]["Verified"] is False, first.text
    checked_at = first.json()["Domain"]["CheckedAt"]
    assert checked_at is not None
    for record in added.json()["Domain"]["Records"]:
        dns_server.publish(record["Name"], record["Type"], record["Value"])
    # Within the interval: no new DNS question, so the published records are not seen yet.
    second = await core.post(f"/api/domains/{name}/verify", headers=person.session, params={"watch": "1"})
    assert second.status_code == 200, second.text
    assert second.json()["Domain"]["Verified"] is False and second.json()["Domain"]["CheckedAt"] == checked_at
    # Without watch, the button's check asks DNS at once.
    verified = await core.post(f"/api/domains/{name}/verify", headers=person.session)
    assert verified.status_code == 200 and verified.json()["Domain"]["Verified"] is True, verified.text
