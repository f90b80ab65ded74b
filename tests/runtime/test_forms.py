"""Forms and leads over real HTTP: a page's form (the account and form from the page, never the
body), its honeypot, validation and per-address limit; the cross-origin form route with its CORS
preflight checked against the account's verified domains; the API-key routes (``forms:write``, the
account from the key); and the whole way to the CRM: the runtime's outbox, its relay, the
``runtime_leads.forward`` actor and the CRM's internal leads route making a contact."""

from __future__ import annotations

import asyncio
import time

import pytest

from models.runtime.lead import Submission
from tests.fixtures.harness import Process
from tests.runtime.conftest import new_form, publish


@pytest.fixture(autouse=True)
async def fresh_address_limit(redis):
    """Every test posts from 127.0.0.1: start each with the per-address window empty."""
    async for key in redis.scan_iter(match="herald:rl:forms:addr:*"):
        await redis.delete(key)


async def form_page(pages, site, consent: bool = True) -> tuple[dict, dict]:
    form = await new_form(pages, site, consent=consent)
    page = await publish(pages, site, "signup", [{"Type": "heading", "Text": "Join"},
                                                 {"Type": "form", "FormId": form["Id"]}])
    return form, page


async def rows(tenant: str) -> list[Submission]:
    return await Submission.filter(tenant=tenant).order_by("id")


async def test_a_page_form_is_rendered_and_its_submission_is_stored_for_the_pages_account(pages, web, site):
    form, page = await form_page(pages, site)
    shown = await web.get("/signup", headers={"Host": site.host})
    assert shown.status_code == 200
    assert f'<input type="hidden" name="_form" value="{form["Id"]}">' in shown.text
    assert 'name="website_url"' in shown.text and 'name="email"' in shown.text and "I agree to be contacted." in shown.text

    sent = await web.post("/signup", headers={"Host": site.host},
                          data={"_form": form["Id"], "email": "Ana@Example.com", "name": "Ana", "plan": "pro",
                                "_consent": "true", "website_url": ""})
    assert sent.status_code == 200, sent.text
    assert "Thanks, we will write soon." in sent.text
    stored = await rows(site.tenant)
    assert len(stored) == 1
    row = stored[0]
    assert (row.source, row.form_id, row.page_id, row.page) == ("form", form["Id"], page["Id"], "/signup")
    assert row.values() == {"email": "ana@example.com", "phone": None, "name": "Ana", "external_id": None,
                            "attributes": {"plan": "pro"}, "consent": True,
                            "consent_text": "I agree to be contacted."}
    assert "ana@example.com" not in row.data  # sealed at rest

    # JSON from a script on the page: 201 with the submission.
    as_json = await web.post("/signup", headers={"Host": site.host},
                             json={"Fields": {"email": "bob@example.com"}, "Consent": True})
    assert as_json.status_code == 201, as_json.text
    assert as_json.json()["Submission"]["Status"] == "pending"
    assert len(await rows(site.tenant)) == 2


async def test_bots_invalid_values_and_one_address_flooding_are_refused(pages, web, site):
    form, _ = await form_page(pages, site)
    bot = await web.post("/signup", headers={"Host": site.host},
                         data={"email": "bot@example.com", "_consent": "true", "website_url": "http://spam"})
    assert bot.status_code == 200 and "Thanks" in bot.text
    assert await rows(site.tenant) == []

    missing = await web.post("/signup", headers={"Host": site.host}, data={"name": "No mail", "_consent": "true"})
    assert missing.status_code == 400 and "email is required" in missing.text
    wrong = await web.post("/signup", headers={"Host": site.host},
                           json={"Fields": {"email": "not-mail", "plan": "gold", "extra": "x"}, "Consent": False})
    assert wrong.status_code == 400
    details = wrong.json()["Error"]["Details"]
    assert set(details) == {"email", "plan", "extra", "Consent"}
    assert await rows(site.tenant) == []
    assert (await web.post("/nothing-here", headers={"Host": site.host}, data={"email": "a@b.co"})).status_code == 404

    statuses = []  # every attempt counts, the two refused above too: 10 per address per 10 minutes
    for index in range(9):
        answer = await web.post("/signup", headers={"Host": site.host},
                                json={"Fields": {"email": f"p{index}@example.com"}, "Consent": True})
        statuses.append(answer.status_code)
    assert statuses == [201] * 8 + [429]
    assert int(answer.headers["retry-after"]) > 0
    assert len(await rows(site.tenant)) == 8


async def test_the_cross_origin_form_route_admits_only_the_accounts_verified_domains(pages, web, site):
    form, _ = await form_page(pages, site)
    origin = f"https://{site.host}"
    preflight = await web.options(f"/f/{form['Id']}", headers={"Origin": origin,
                                                               "Access-Control-Request-Method": "POST"})
    assert preflight.status_code == 204, preflight.text
    assert preflight.headers["access-control-allow-origin"] == origin
    assert preflight.headers["access-control-max-age"] == "3600"
    assert "POST" in preflight.headers["access-control-allow-methods"]

    for other in ("https://evil.example.net", "null", ""):
        refused = await web.options(f"/f/{form['Id']}", headers={"Origin": other} if other else {})
        assert refused.status_code == 403, other
        assert "access-control-allow-origin" not in refused.headers
    assert (await web.post(f"/f/{form['Id']}", headers={"Origin": "https://evil.example.net"},
                           json={"Fields": {"email": "x@example.com"}, "Consent": True})).status_code == 403

    sent = await web.post(f"/f/{form['Id']}", headers={"Origin": origin, "Referer": f"{origin}/contact?x=1"},
                          json={"Fields": {"email": "carla@example.com"}, "Consent": True})
    assert sent.status_code == 201, sent.text
    assert sent.headers["access-control-allow-origin"] == origin
    [row] = await rows(site.tenant)
    assert row.form_id == form["Id"] and row.page == "/contact" and row.page_id == ""
    assert (await web.options("/f/frm_unknown", headers={"Origin": origin})).status_code == 404
    assert (await web.options(f"/f/frm_{'ab' * 12}", headers={"Origin": origin})).status_code == 404


async def test_any_verified_domain_of_the_account_is_an_origin_even_without_pages(pages, web, site,
                                                                                   dns_server):
    form, _ = await form_page(pages, site)
    host = f"shop-{site.host}"
    domain = (await pages.post("/v1/dominios", headers=site.headers, json={"Name": host})).json()["Dominio"]
    unverified = await web.options(f"/f/{form['Id']}", headers={"Origin": f"https://{host}"})
    assert unverified.status_code == 403
    dns_server.publish(domain["Record"]["Name"], "TXT", domain["Record"]["Value"])
    assert (await pages.post(f"/v1/dominios/{domain['Id']}/verificar", headers=site.headers)).status_code == 200
    # The runtime keeps a form's answer (its account's domains included) for 30 s (app/runtime/site/cache.py,
    # its windows tested in tests/runtime/test_site.py): another form of the account, not asked yet, shows it.
    other = await new_form(pages, site)
    answer = await web.options(f"/f/{other['Id']}", headers={"Origin": f"https://{host}"})
    assert answer.status_code == 204, answer.text
    assert answer.headers["access-control-allow-origin"] == f"https://{host}"


async def test_keyed_submissions_and_leads_take_the_account_from_the_key(pages, web, site, make_account):
    form, _ = await form_page(pages, site, consent=False)
    key = {"Authorization": f"Bearer {site.key}"}
    made = await web.post(f"/v1/forms/{form['Id']}/submissions", headers=key,
                          json={"Fields": {"email": "dora@example.com", "plan": "basic"}})
    assert made.status_code == 201, made.text
    assert made.json()["Submission"]["FormId"] == form["Id"]
    lead = await web.post("/v1/leads", headers=key, json={"Email": "Eva@Example.com", "Name": "Eva",
                                                          "Attributes": {"origem": "crm-import"}, "Consent": True})
    assert lead.status_code == 201, lead.text
    stored = await rows(site.tenant)
    assert [row.source for row in stored] == ["form", "lead"]
    assert stored[1].values()["email"] == "eva@example.com"

    assert (await web.post("/v1/leads", headers=key, json={"Name": "Nobody"})).status_code == 400
    assert (await web.post("/v1/leads", headers=key, json={"Email": "a@b.co", "TenantId": "acc_x"})).status_code == 400
    assert (await web.post("/v1/leads", json={"Email": "a@b.co"})).status_code == 401

    reader = await make_account(scopes=("forms:read",))
    refused = await web.post("/v1/leads", headers=reader.headers, json={"Email": "a@b.co"})
    assert refused.status_code == 403 and refused.json()["Error"]["Code"] == "InsufficientScope"
    other = await make_account(scopes=("forms:write",))
    foreign = await web.post(f"/v1/forms/{form['Id']}/submissions", headers=other.headers,
                             json={"Fields": {"email": "x@example.com"}})
    assert foreign.status_code == 404
    assert len(await rows(site.tenant)) == 2 and await rows(other.tenant_id) == []


@pytest.fixture(scope="module")
def lead_pipeline(services, site_runtime, servers, tmp_path_factory):
    """The runtime's outbox relay (a scheduler for the runtime only) and a worker on queue ``runtime``."""
    servers("crm")
    log_dir = tmp_path_factory.mktemp("lead-pipeline")
    env = {**services.env, "RELAY_SYSTEMS": "runtime"}
    roles = [Process("worker", ["worker", "--queues", "runtime"], env, log_dir),
             Process("scheduler", ["scheduler"], env, log_dir)]
    yield
    for role in roles:
        role.stop()


async def test_a_submission_becomes_a_crm_contact_through_the_outbox(pages, web, site, lead_pipeline):
    from models.crm.contact import Contact
    from models.crm.event import ContactEvent

    await form_page(pages, site)
    sent = await web.post("/signup", headers={"Host": site.host},
                          json={"Fields": {"email": "fabio@example.com", "name": "Fabio"}, "Consent": True})
    assert sent.status_code == 201, sent.text
    deadline = time.monotonic() + 60
    while True:
        [row] = await rows(site.tenant)
        if row.forwarded_at is not None:
            break
        assert time.monotonic() < deadline, f"not forwarded: attempts {row.attempts}, last error {row.last_error}"
        await asyncio.sleep(0.3)
    assert row.contact_id
    contact = await Contact.get(public_id=row.contact_id)
    assert contact.tenant == site.tenant
    # The CRM's record of the submission keeps the answer and the wording the person was shown.
    [event] = await ContactEvent.filter(contact_id=contact.id, dedupe_key=f"form:{row.public_id}")
    assert (event.properties["consent"], event.properties["consent_text"]) == (True, "I agree to be contacted.")
