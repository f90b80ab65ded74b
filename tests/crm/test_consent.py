"""Consent (contract F, rule 2): every known channel is listed, opted out or not; ``recebe`` is a
required boolean (absent: 422) and writes or removes the opt-out row."""

from __future__ import annotations

import secrets

from models.crm import OptOut


async def test_consent_lists_every_channel_and_toggles_opt_outs(crm, admin):
    contact = (await crm.post("/v1/contatos", headers=admin.headers,
                              json={"email": f"c-{secrets.token_hex(3)}@example.com"})).json()["contato"]
    path = f"/v1/contatos/{contact['id']}/consentimento"
    start = await crm.get(path, headers=admin.headers)
    assert start.status_code == 200, start.text
    assert [(c["canal"], c["recebe"]) for c in start.json()["canais"]] == [
        ("email", True), ("sms", True), ("push", True), ("whatsapp", True)]

    out = await crm.put(path, headers=admin.headers, json={"recebe": False, "canal": "sms"})
    assert out.status_code == 200, out.text
    state = {c["canal"]: c for c in out.json()["canais"]}
    assert state["sms"]["recebe"] is False and state["sms"]["descadastrado_em"]
    assert state["email"]["recebe"] is True
    assert await OptOut.filter(contact__public_id=contact["id"]).values_list("channel", flat=True) == ["sms"]
    assert (await crm.put(path, headers=admin.headers, json={"recebe": False, "canal": "sms"})).status_code == 200
    assert await OptOut.filter(contact__public_id=contact["id"]).count() == 1

    back = await crm.put(path, headers=admin.headers, json={"recebe": True, "canal": "sms"})
    assert all(c["recebe"] for c in back.json()["canais"])
    assert await OptOut.filter(contact__public_id=contact["id"]).count() == 0

    everything = await crm.put(path, headers=admin.headers, json={"recebe": False})
    assert not any(c["recebe"] for c in everything.json()["canais"])


async def test_recebe_is_required_and_the_contact_must_be_the_accounts(crm, admin, act):
    contact = (await crm.post("/v1/contatos", headers=admin.headers,
                              json={"email": f"r-{secrets.token_hex(3)}@example.com"})).json()["contato"]
    path = f"/v1/contatos/{contact['id']}/consentimento"
    absent = await crm.put(path, headers=admin.headers, json={"canal": "email"})
    assert absent.status_code == 422 and "recebe" in absent.json()["Error"]["Details"]
    assert (await crm.put(path, headers=admin.headers, json={"recebe": "no"})).status_code == 400
    assert (await crm.put(path, headers=admin.headers, json={"recebe": False, "canal": "fax"})).status_code == 400
    outsider = await act("admin")
    assert (await crm.get(path, headers=outsider.headers)).status_code == 404
    assert (await crm.put(path, headers=outsider.headers, json={"recebe": False})).status_code == 404
