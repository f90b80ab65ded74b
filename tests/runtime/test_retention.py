"""The CRM's retention reaching the runtime: ``POST /internal/v1/tenants/{tenant}/retention/erasures``
(service credential) anonymizes the account's form submissions and leads tied to the contacts, by
the contact id the CRM recorded or by the e-mail or phone typed, and those older than the account's
policy, and nothing else."""

from __future__ import annotations

import secrets
from datetime import datetime, timezone

from tortoise.transactions import in_transaction

from app.runtime.form.service import store
from models.runtime.lead import Submission
from tests.fixtures.access import new_tenant_id
from tests.fixtures.identity import service_headers

PERSON = {"email": "ana@example.com", "phone": None, "name": "Ana", "external_id": None,
          "attributes": {"empresa": "ACME"}, "consent": True, "consent_text": "Aceito receber e-mails"}


async def seed(tenant: str, source: str = "form", contact_id: str | None = None, **values) -> Submission:
    """A submission written as the runtime writes one (its row and its forwarding job)."""
    async with in_transaction("runtime") as conn:
        row = await store(conn, tenant=tenant, source=source, values={**PERSON, **values}, form_id="frm_1",
                          page="/oferta")
    if contact_id:
        await Submission.filter(id=row.id).update(contact_id=contact_id)
    return row


def erasure(tenant: str) -> str:
    return f"/internal/v1/tenants/{tenant}/retention/erasures"


async def test_an_erasure_anonymizes_the_contacts_submissions_and_leads_only(runtime):
    tenant, other = new_tenant_id(), new_tenant_id()
    tag = secrets.token_hex(3)
    email = f"ana-{tag}@example.com"
    by_email = await seed(tenant, email=f"  {email.upper()} ")
    by_phone = await seed(tenant, source="lead", email=None, phone="+55 (11) 99999-9999")
    by_contact = await seed(tenant, email=f"changed-{tag}@example.com", contact_id=f"ctt_{tag}")
    stranger = await seed(tenant, email=f"bia-{tag}@example.com", phone="+5511888888888", name="Bia")
    elsewhere = await seed(other, email=email)

    body = {"contacts": [{"id": f"ctt_{tag}", "email": email, "phone": "+5511999999999"}]}
    answer = await runtime.post(erasure(tenant), headers=service_headers(), json=body)
    assert answer.status_code == 200, answer.text
    assert (answer.json()["submissions"], answer.json()["leads"]) == (2, 1)

    for row in (by_email, by_phone, by_contact):
        fresh = await Submission.get(id=row.id)
        assert fresh.anonymized_at is not None
        assert fresh.values() == {"email": None, "phone": None, "name": None, "external_id": None,
                                  "attributes": {}, "consent": True, "consent_text": "Aceito receber e-mails"}
    for row in (stranger, elsewhere):
        fresh = await Submission.get(id=row.id)
        assert fresh.anonymized_at is None and fresh.values()["email"] == row.values()["email"]
    assert (await Submission.get(id=stranger.id)).values()["name"] == "Bia"

    again = await runtime.post(erasure(tenant), headers=service_headers(), json=body)
    assert (again.json()["submissions"], again.json()["leads"]) == (0, 0)


async def test_an_erasure_needs_the_service_credential_and_a_strict_body(runtime):
    tenant = new_tenant_id()
    row = await seed(tenant, email="x@example.com")
    body = {"contacts": [{"id": "ctt_1", "email": "x@example.com", "phone": None}]}
    refused = await runtime.post(erasure(tenant), json=body)
    assert refused.status_code == 401, refused.text
    assert refused.json()["Error"]["Code"] == "AuthorizationError"
    wrong = await runtime.post(erasure(tenant), json=body, headers={"Authorization": "Bearer " + "x" * 40})
    assert wrong.status_code == 401
    for bad in ({"contacts": []}, {"contacts": [{"id": "ctt_1", "mail": "x@example.com"}]}, {}):
        answer = await runtime.post(erasure(tenant), headers=service_headers(), json=bad)
        assert answer.status_code == 400, answer.text
        assert answer.json()["Error"]["Code"] == "ValidationError"
    malformed = await runtime.post(erasure("not a tenant!"), headers=service_headers(), json=body)
    assert malformed.status_code == 404
    assert (await Submission.get(id=row.id)).anonymized_at is None


async def test_submissions_older_than_the_policy_are_erased_even_when_no_contact_is_named(runtime):
    tenant = new_tenant_id()
    aged = await seed(tenant, email="never-a-contact@example.com")  # the CRM refused it, say
    recent = await seed(tenant, email="recent@example.com")
    await Submission.filter(id=aged.id).update(created_at=datetime(2024, 1, 1, tzinfo=timezone.utc))

    answer = await runtime.post(erasure(tenant), headers=service_headers(), json={"older_than_days": 30})
    assert answer.status_code == 200, answer.text
    assert (answer.json()["submissions"], answer.json()["leads"]) == (1, 0)
    assert (await Submission.get(id=aged.id)).values()["email"] is None
    assert (await Submission.get(id=recent.id)).anonymized_at is None
    for bad in (0, 36501, "30", None):
        refused = await runtime.post(erasure(tenant), headers=service_headers(), json={"older_than_days": bad})
        assert refused.status_code == 400, refused.text
