"""Sender domains: `herald domain add|verify|list` against the loopback DNS server, the senders
listing, losing verification, and the 503 when verification cannot be confirmed."""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
from datetime import datetime, timedelta, timezone

import pytest

from app.platform.domain.service import add_sender_domain
from kit.dns import lookup_with
from models.platform.domain import check_domain
from models.platform.domain import DomainCheck, SenderDomain, dns_records
from models.platform.message import Message
from models.platform.outbox import OutboxEntry
from models.platform.tenant import Tenant
from tasks.platform.delivery import deliver
from tests.fixtures.harness import ROOT


def herald(services, dns_server, *args: str, exit_code: int = 0) -> dict:
    result = subprocess.run([sys.executable, "-m", "herald.cli", *args], cwd=ROOT, capture_output=True, text=True,
                            env={**services.env, "PATH": "/usr/bin:/bin", "DNS_NAMESERVERS": dns_server.address},
                            timeout=60)
    assert result.returncode == exit_code, result.stderr
    return json.loads(result.stdout)


def publish(dns_server, records: list[dict]) -> None:
    for record in records:
        dns_server.publish(record["Name"], record["Type"], record["Value"])


@pytest.mark.slow  # the `herald` command as a process
async def test_herald_domain_verify_turns_a_domain_verified(make_account, services, dns_server, platform):
    account = await make_account(scopes=("email:send",))
    name = f"brand{secrets.token_hex(3)}.example"
    added = herald(services, dns_server, "domain", "add", name, "--tenant", account.tenant_id, "--dmarc")["Domain"]
    assert added["Verified"] is False and added["DnsStatus"] == "pending"
    purposes = {record["Purpose"]: record for record in added["Records"]}
    assert set(purposes) == {"spf", "dkim", "dmarc", "return-path"}
    assert purposes["dkim"]["Name"] == f"{added['DkimSelector']}._domainkey.{name}"
    assert purposes["dkim"]["Value"].startswith("v=DKIM1; k=rsa; p=MIIBIjAN")  # RSA-2048 SubjectPublicKeyInfo

    # Nothing published yet: the attempt is recorded, the domain stays pending, the command exits 1.
    first = herald(services, dns_server, "domain", "verify", name, "--tenant", account.tenant_id, exit_code=1)
    assert first["Outcome"] == "failed" and first["Domain"]["Verified"] is False

    publish(dns_server, [purposes["spf"], purposes["dkim"]])
    second = herald(services, dns_server, "domain", "verify", name, "--tenant", account.tenant_id)
    assert second["Outcome"] == "verified" and second["Domain"]["Verified"] is True
    found = {record["Purpose"]: record["Found"] for record in second["Records"]}
    assert found == {"spf": True, "dkim": True, "dmarc": False, "return-path": False}
    listed = herald(services, dns_server, "domain", "list", "--tenant", account.tenant_id)["Domains"]
    assert [(d["Name"], d["Verified"], d["DnsStatus"]) for d in listed] == [(name, True, "ok")]
    domain = await SenderDomain.get(name=name)
    assert await DomainCheck.filter(domain_id=domain.id).count() == 2

    senders = await platform.get("/v1/senders", headers=account.headers)
    assert senders.status_code == 200
    assert senders.json()["Domains"] == [{"Name": name, "Verified": True, "UsableFor": ["emails/send"],
                                          "DnsStatus": "ok"}]
    assert senders.json()["Mailboxes"] == [] and senders.json()["RequestId"].startswith("req_")
    sent = await platform.post("/v1/emails/send", headers=account.headers, json={
        "Source": f"hi@{name}", "Destination": {"ToAddresses": ["a@example.com"]},
        "Message": {"Subject": {"Data": "s"}, "Body": {"Text": {"Data": "t"}}}})
    assert sent.status_code == 202, sent.text


async def test_a_dkim_record_with_another_key_does_not_verify(make_account, dns_server, settings):
    account = await make_account(scopes=("email:send",))
    tenant = await Tenant.get(public_id=account.tenant_id)
    domain = await add_sender_domain(tenant.id, f"other{secrets.token_hex(3)}.example")
    other = await add_sender_domain(tenant.id, f"else{secrets.token_hex(3)}.example")
    spf, dkim = dns_records(domain, settings.mail_domain)[:2]
    dns_server.publish(spf["Name"], "TXT", spf["Value"])
    dns_server.publish(dkim["Name"], "TXT", f"v=DKIM1; k=rsa; p={other.dkim_public_key}")
    check = await check_domain(domain, lookup=lookup_with((dns_server.address,)), mail_domain=settings.mail_domain)
    assert check.outcome == "failed"
    assert [r for r in check.detail["Records"] if r["Purpose"] == "dkim"][0]["Reason"] == \
        "published with another value"


async def test_pending_and_unknown_domains_answer_422(make_account, platform):
    account = await make_account(scopes=("email:send",))
    tenant = await Tenant.get(public_id=account.tenant_id)
    name = f"pending{secrets.token_hex(3)}.example"
    await add_sender_domain(tenant.id, name)
    for source in (f"a@{name}", "a@never-added.example"):
        response = await platform.post("/v1/emails/send", headers=account.headers, json={
            "Source": source, "Destination": {"ToAddresses": ["a@example.com"]},
            "Message": {"Subject": {"Data": "s"}, "Body": {"Text": {"Data": "t"}}}})
        assert response.status_code == 422 and response.json()["Error"]["Code"] == "RemetenteNaoVerificado"
    listing = (await platform.get("/v1/senders", headers=account.headers)).json()["Domains"]
    assert listing == [{"Name": name, "Verified": False, "UsableFor": [], "DnsStatus": "pending"}]


async def test_a_domain_that_loses_verification_fails_its_queued_messages(make_account, dns_server, settings):
    account = await make_account(scopes=("email:send",))
    tenant = await Tenant.get(public_id=account.tenant_id)
    domain = await add_sender_domain(tenant.id, f"lose{secrets.token_hex(3)}.example")
    records = dns_records(domain, settings.mail_domain)
    publish(dns_server, records)
    assert (await check_domain(domain, lookup=lookup_with((dns_server.address,)),
                               mail_domain=settings.mail_domain)).outcome == "verified"
    # A queued message from the domain (no outbox row of its own: only the re-check hands it on).
    message = await Message.create(tenant=tenant, channel="email", mode="live", recipient="x@example.com",
                                   recipient_role="to", sender=f"News <news@{domain.name}>", subject="s",
                                   content={"Text": "t"})
    dns_server.remove(records[1]["Name"], "TXT")  # the DKIM record is withdrawn
    check = await check_domain(domain, lookup=lookup_with((dns_server.address,)), mail_domain=settings.mail_domain)
    assert check.outcome == "failed" and check.detail["LostVerification"] is True
    assert check.detail["QueuedMessagesRechecked"] == 1
    assert await OutboxEntry.filter(actor="email.deliver", args=[message.id]).exists()
    await deliver(message.id)  # whoever runs it (this call or the test pipeline's worker), it fails
    await message.refresh_from_db()
    assert message.status == "failed" and message.failure_reason.startswith("DomainNotVerified")
    assert message.provider is None
    await domain.refresh_from_db()
    assert domain.verified_at is None and domain.dns_status == "pending"


async def test_unreachable_dns_keeps_the_domain_then_answers_503_past_its_validity(make_account, dns_server,
                                                                                   settings, platform):
    account = await make_account(scopes=("email:send",))
    tenant = await Tenant.get(public_id=account.tenant_id)
    domain = await add_sender_domain(tenant.id, f"flaky{secrets.token_hex(3)}.example")
    publish(dns_server, dns_records(domain, settings.mail_domain))
    await check_domain(domain, lookup=lookup_with((dns_server.address,)), mail_domain=settings.mail_domain)
    body = {"Source": f"a@{domain.name}", "Destination": {"ToAddresses": ["a@example.com"]},
            "Message": {"Subject": {"Data": "s"}, "Body": {"Text": {"Data": "t"}}}}
    dns_server.failing = True
    try:
        check = await check_domain(domain, lookup=lookup_with((dns_server.address,)), mail_domain=settings.mail_domain)
    finally:
        dns_server.failing = False
    assert check.outcome == "unreachable"
    await domain.refresh_from_db()
    assert domain.verified and domain.unreachable_since is not None
    # Within its validity the domain still sends.
    assert (await platform.post("/v1/emails/send", headers=account.headers, json=body)).status_code == 202
    # Past it (last conclusive check 73 h ago), verification cannot be confirmed: 503, nothing sent.
    await SenderDomain.filter(id=domain.id).update(checked_at=datetime.now(timezone.utc) - timedelta(hours=73))
    before = await Message.filter(tenant_id=tenant.id).count()
    response = await platform.post("/v1/emails/send", headers=account.headers, json=body)
    assert response.status_code == 503
    assert response.json()["Error"]["Code"] == "VerificacaoIndisponivel"
    assert int(response.headers["retry-after"]) > 0
    batch = await platform.post("/v1/emails/batch", headers=account.headers, json={"Messages": [body]})
    assert batch.json()["Results"][0]["Error"]["Code"] == "VerificacaoIndisponivel"
    assert await Message.filter(tenant_id=tenant.id).count() == before
    senders = (await platform.get("/v1/senders", headers=account.headers)).json()["Domains"]
    assert senders[0]["Verified"] is True and senders[0]["UsableFor"] == []
    # DNS answers again: confirmed, sending resumes.
    await check_domain(domain, lookup=lookup_with((dns_server.address,)), mail_domain=settings.mail_domain)
    assert (await platform.post("/v1/emails/send", headers=account.headers, json=body)).status_code == 202


async def test_the_recheck_job_enqueues_due_domains_once(make_account, dns_server, settings):
    from schedules.platform.domains import enqueue_due_checks

    account = await make_account(scopes=("email:send",))
    tenant = await Tenant.get(public_id=account.tenant_id)
    domain = await add_sender_domain(tenant.id, f"due{secrets.token_hex(3)}.example")
    publish(dns_server, dns_records(domain, settings.mail_domain))
    await check_domain(domain, lookup=lookup_with((dns_server.address,)), mail_domain=settings.mail_domain)
    await DomainCheck.filter(domain_id=domain.id).update(created_at=datetime.now(timezone.utc) - timedelta(hours=7))
    await enqueue_due_checks()
    await enqueue_due_checks()
    assert await OutboxEntry.filter(actor="domains.verify", args=[domain.id]).count() == 1


async def test_a_test_key_sees_the_sandbox_domain(sender, platform):
    response = await platform.get("/v1/senders", headers=sender.headers)
    assert response.json()["Domains"][0] == {"Name": "sandbox.herald.test", "Verified": True,
                                             "UsableFor": ["emails/send"], "DnsStatus": "ok"}


async def test_old_domain_checks_are_pruned_but_the_latest_kept(make_account):
    from datetime import datetime, timedelta, timezone

    from models.platform.domain import DomainCheck, SenderDomain
    from schedules.housekeeping import prune_domain_checks
    from tests.fixtures.platform import verify_domain

    account = await make_account()
    await verify_domain(account.tenant_id, "pruned.example")
    domain = await SenderDomain.get(name="pruned.example", tenant__public_id=account.tenant_id)
    old = datetime.now(timezone.utc) - timedelta(days=40)
    checks = [await DomainCheck.create(domain=domain, outcome="verified", detail={}) for _ in range(3)]
    await DomainCheck.filter(id__in=[c.id for c in checks]).update(created_at=old)
    await prune_domain_checks(None)
    assert [c.id for c in await DomainCheck.filter(domain=domain)] == [checks[-1].id]


async def test_expired_dashboard_idempotency_records_are_pruned():
    from datetime import datetime, timedelta, timezone

    from models.platform.api_idempotency import ApiIdempotencyRecord
    from schedules.housekeeping import prune_idempotency

    now = datetime.now(timezone.utc)
    stale, live = [await ApiIdempotencyRecord.create(caller="usr_prune", key=f"k{i}", method="POST", path="/api/x",
                                                     body_hash="0" * 64, expires_at=at)
                   for i, at in enumerate((now - timedelta(hours=2), now + timedelta(hours=20)))]
    await prune_idempotency(None)
    assert [r.id for r in await ApiIdempotencyRecord.filter(caller="usr_prune")] == [live.id]
