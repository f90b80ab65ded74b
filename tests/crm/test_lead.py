"""Leads from the runtime (POST /internal/v1/tenants/{tenant}/leads): the contact upserted by its
natural identity, one event per submission id, 422 without an identifier, the service credential."""

from __future__ import annotations

import secrets

from models.crm import Contact, ContactEvent
from tests.crm.conftest import service
from tests.fixtures.access import new_tenant_id


def lead(**fields):
    return {"source": "form", "submission_id": secrets.token_hex(6), "form_id": "frm_1", "page_id": "pg_1",
            "email": None, "phone": None, "name": None, "external_id": None, "attributes": {},
            "consent": None, "occurred_at": "2026-11-01T09:00:00Z", **fields}


async def test_a_lead_upserts_the_contact_and_records_one_event_per_submission(crm):
    tenant = new_tenant_id()
    base, headers = service(tenant)
    email = f"lead-{secrets.token_hex(3)}@example.com"
    body = lead(email=email, name="Ana", attributes={"plano": "pro"})
    first = await crm.post(f"{base}/leads", headers=headers, json=body)
    assert first.status_code == 200, first.text
    answer = first.json()
    assert answer["created"] is True and answer["duplicate"] is False and answer["contact_id"].startswith("ctt_")

    again = await crm.post(f"{base}/leads", headers=headers, json=body)
    assert again.status_code == 200, again.text
    assert again.json()["contact_id"] == answer["contact_id"]
    assert again.json()["duplicate"] is True and again.json()["created"] is False

    other = await crm.post(f"{base}/leads", headers=headers,
                           json=lead(source="lead", email=email.upper(), phone="+5511999990000"))
    assert other.status_code == 200, other.text
    assert other.json() == {**other.json(), "contact_id": answer["contact_id"], "created": False, "duplicate": False}

    contact = await Contact.get(public_id=answer["contact_id"])
    assert contact.tenant == tenant and contact.pii()["name"] == "Ana" and contact.attributes == {"plano": "pro"}
    assert contact.pii()["phone"] == "+5511999990000"
    events = await ContactEvent.filter(contact_id=contact.id).order_by("id")
    assert [(e.name, e.source) for e in events] == [("form_submission", "form"), ("lead", "lead")]
    assert events[0].properties["form_id"] == "frm_1" and events[0].occurred_at.isoformat().startswith("2026-11-01T09")


async def test_a_lead_without_identifier_is_422_and_needs_the_service_credential(crm):
    base, headers = service(new_tenant_id())
    missing = await crm.post(f"{base}/leads", headers=headers, json=lead(name="Nobody"))
    assert missing.status_code == 422, missing.text
    assert (await crm.post(f"{base}/leads", headers=headers, json=lead(email="not-an-email"))).status_code == 422
    both_bad = await crm.post(f"{base}/leads", headers=headers, json=lead(email="nope", phone="12"))
    assert both_bad.status_code == 422 and set(both_bad.json()["Error"]["Details"]) == {"email", "phone"}
    typo = await crm.post(f"{base}/leads", headers=headers,
                          json=lead(email=f"ok-{secrets.token_hex(3)}@example.com", phone="(11) 9999"))
    assert typo.status_code == 200 and typo.json()["created"] is True, typo.text
    contact = await Contact.get(public_id=typo.json()["contact_id"])
    assert contact.phone_sealed is None
    event = await ContactEvent.get(contact_id=contact.id)
    assert event.properties["invalid_fields"] == "phone"
    assert (await crm.post(f"{base}/leads", headers=headers, json=lead(email="a@example.com",
                                                                       source="x"))).status_code == 400
    assert (await crm.post(f"{base}/leads", json=lead(email="a@example.com"))).status_code == 401


async def test_the_consent_wording_is_kept_with_the_answer_and_only_with_one(crm):
    tenant = new_tenant_id()
    base, headers = service(tenant)
    wording = "Aceito receber ofertas por e-mail e WhatsApp."
    for consent, expected in ((True, wording), (False, wording), (None, None)):
        answer = await crm.post(f"{base}/leads", headers=headers, json=lead(
            email=f"w-{secrets.token_hex(3)}@example.com", consent=consent, consent_text=wording))
        assert answer.status_code == 200, answer.text
        contact = await Contact.get(public_id=answer.json()["contact_id"])
        [event] = await ContactEvent.filter(contact_id=contact.id)
        assert event.properties.get("consent") is consent and event.properties.get("consent_text") == expected
    too_long = await crm.post(f"{base}/leads", headers=headers, json=lead(email="x@example.com", consent=True,
                                                                          consent_text="x" * 1001))
    assert too_long.status_code == 400 and "consent_text" in too_long.text


async def test_consent_false_opts_the_contact_out(crm, admin):
    base, headers = service(admin.tenant)
    answer = (await crm.post(f"{base}/leads", headers=headers,
                             json=lead(source="lead", phone=f"+55119{secrets.randbelow(10**8):08d}",
                                       consent=False))).json()
    consent = await crm.get(f"/v1/contatos/{answer['contact_id']}/consentimento", headers=admin.headers)
    assert not any(channel["recebe"] for channel in consent.json()["canais"])


async def test_a_leads_list_slug_makes_the_contact_a_member_and_a_missing_list_keeps_the_lead(crm):
    from models.crm import ContactList, ListMember

    tenant, other = new_tenant_id(), new_tenant_id()
    base, headers = service(tenant)
    made = await crm.post(f"{base}/listas", headers=headers, json={"nome": "Newsletter", "slug": "newsletter"})
    assert made.status_code == 201, made.text
    the_list = made.json()["lista"]
    found = await crm.get(f"{base}/listas", headers=headers, params={"slug": "newsletter"})
    assert [item["id"] for item in found.json()["listas"]] == [the_list["id"]]
    assert (await crm.get(f"{base}/listas", headers=headers, params={"slug": "nope"})).json()["listas"] == []
    # Another account's list is not found from here, and a lead naming it joins nothing.
    foreign, _ = service(other)
    assert (await crm.post(f"{foreign}/listas", headers=headers, json={"nome": "VIP", "slug": "vip"})).status_code == 201
    assert (await crm.get(f"{base}/listas", headers=headers, params={"slug": "vip"})).json()["listas"] == []
    crossed = await crm.post(f"{base}/leads", headers=headers,
                             json=lead(email=f"vip-{secrets.token_hex(3)}@example.com", list_slug="vip"))
    assert crossed.json()["list_id"] is None and crossed.json()["list_error"]

    body = lead(email=f"list-{secrets.token_hex(3)}@example.com", list_slug="newsletter")
    first = (await crm.post(f"{base}/leads", headers=headers, json=body)).json()
    assert (first["list_id"], first["list_error"]) == (the_list["id"], None)
    contact = await Contact.get(public_id=first["contact_id"])
    row = await ContactList.get(public_id=the_list["id"])
    assert await ListMember.filter(list_id=row.id, contact_id=contact.id).count() == 1
    again = (await crm.post(f"{base}/leads", headers=headers, json=body)).json()
    assert again["duplicate"] is True and again["list_id"] == the_list["id"]
    assert await ListMember.filter(list_id=row.id, contact_id=contact.id).count() == 1

    stray = lead(email=f"stray-{secrets.token_hex(3)}@example.com", list_slug="gone")
    missed = await crm.post(f"{base}/leads", headers=headers, json=stray)
    assert missed.status_code == 200, missed.text
    assert missed.json()["list_id"] is None and missed.json()["list_error"] == "the account has no list 'gone'"
    [event] = await ContactEvent.filter(dedupe_key=f"form:{stray['submission_id']}", tenant=tenant)
    assert event.properties["list_missing"] == "gone"
    assert (await crm.post(f"{base}/leads", headers=headers, json=stray)).json()["list_error"] == missed.json()["list_error"]

    assert (await crm.post(f"{base}/leads", headers=headers, json=lead(email="a@example.com", list_slug="Bad Slug"))
            ).status_code == 400
