"""A form's Destination is checked at save against the systems that own what it names (issue 47):
``CrmList`` must be a list of the account in the CRM (another account's is refused like a missing
one; the CRM down does not block the save), ``NotifyEmail`` a verified address of a member of the
account (refused otherwise, 503 rather than a yes when the platform cannot say)."""

from __future__ import annotations

import httpx
import pytest

from tests.fixtures.platform import account_person
from tests.pages.conftest import ALL_SCOPES, make_list
from tests.pages.test_site import FORM


@pytest.fixture(scope="module")
def crm_url(servers) -> str:
    return servers("crm").url


async def test_crm_list_must_be_one_of_the_accounts_lists(pages, account, make_account, service, crm_url):
    other = await make_account(scopes=ALL_SCOPES)
    await make_list(crm_url, service, account.tenant_id, "newsletter")
    await make_list(crm_url, service, other.tenant_id, "vip")

    made = await pages.post("/v1/formularios", headers=account.headers,
                            json={**FORM, "Destination": {"CrmList": "newsletter"}})
    assert made.status_code == 201, made.text
    assert made.json()["Formulario"]["Destination"] == {"CrmList": "newsletter"}
    path = f"/v1/formularios/{made.json()['Formulario']['Id']}"

    for slug in ("nope", "vip"):  # missing, and another account's: the same refusal
        refused = await pages.post("/v1/formularios", headers=account.headers,
                                   json={**FORM, "Destination": {"CrmList": slug}})
        assert refused.status_code == 422, refused.text
        error = refused.json()["Error"]
        assert error["Code"] == "ValidationError" and set(error["Details"]) == {"Destination.CrmList"}
        patched = await pages.patch(path, headers=account.headers, json={"Destination": {"CrmList": slug}})
        assert patched.status_code == 422, patched.text
    assert (await pages.get(path, headers=account.headers)).json()["Formulario"]["Destination"] == {
        "CrmList": "newsletter"}
    # Not a slug the CRM could hold: the body itself is malformed.
    assert (await pages.post("/v1/formularios", headers=account.headers,
                             json={**FORM, "Destination": {"CrmList": "News Letter"}})).status_code == 400


async def test_notify_email_must_be_a_verified_address_of_a_member(pages, account, make_account, http):
    member = await account_person(http, account.tenant_id, "notify-member")
    unverified = await account_person(http, account.tenant_id, "notify-unverified", verified=False)
    stranger = await account_person(http, (await make_account()).tenant_id, "notify-stranger")

    for address in ("sales@example.com", unverified.email, stranger.email):
        refused = await pages.post("/v1/formularios", headers=account.headers,
                                   json={**FORM, "Destination": {"NotifyEmail": address}})
        assert refused.status_code == 422, (address, refused.text)
        error = refused.json()["Error"]
        assert error["Code"] == "ValidationError" and set(error["Details"]) == {"Destination.NotifyEmail"}

    made = await pages.post("/v1/formularios", headers=account.headers,
                            json={**FORM, "Destination": {"NotifyEmail": member.email.upper()}})
    assert made.status_code == 201, made.text
    path = f"/v1/formularios/{made.json()['Formulario']['Id']}"
    patched = await pages.patch(path, headers=account.headers, json={"Destination": {"NotifyEmail": stranger.email}})
    assert patched.status_code == 422
    kept = (await pages.get(path, headers=account.headers)).json()["Formulario"]["Destination"]
    assert kept == {"NotifyEmail": member.email.upper()}
    # A PATCH that leaves Destination alone asks nobody and keeps it.
    assert (await pages.patch(path, headers=account.headers, json={"Name": "Renamed"})).status_code == 200


async def test_a_list_is_taken_while_the_crm_is_down_an_address_never_unchecked(start_server, make_account,
                                                                                   closed_url, http):
    account = await make_account(scopes=ALL_SCOPES)
    member = await account_person(http, account.tenant_id, "notify-outage")
    # A platform whose identity server is away (it cannot say who holds an address), and a pages
    # server that reaches it and no CRM.
    platform = start_server("platform", IDENTITY_INTERNAL_URL=closed_url)
    lonely = start_server("pages", PLATFORM_INTERNAL_URL=platform.url, CRM_INTERNAL_URL=closed_url)
    async with httpx.AsyncClient(base_url=lonely.url, timeout=20) as pages:
        taken = await pages.post("/v1/formularios", headers=account.headers,
                                 json={**FORM, "Destination": {"CrmList": "checked-later"}})
        assert taken.status_code == 201, taken.text
        unchecked = await pages.post("/v1/formularios", headers=account.headers,
                                     json={**FORM, "Destination": {"NotifyEmail": member.email}})
        assert unchecked.status_code == 503, unchecked.text
        assert unchecked.headers["retry-after"]
