"""Regressions of what Schemathesis found (tests/http/test_fuzz.py): each was a 5xx.

- a path id the columns cannot hold (longer than 40 characters, or not an id at all) reached the
  database and failed there: 500 on the platform, 503 on the identity authorization routes; the
  router now refuses it with 404 (app/http/openapi.py PATH_TYPES, registered in factory.py);
- a NUL character (``\\u0000``, or ``%00`` in a query) reached PostgreSQL, whose text and jsonb cannot
  hold it: 500 (503 on identity authorization); it is now 400 ValidationError (a query, a platform
  body) / InvalidInput (an identity body);
- a push token of 513 to 4096 characters passed validation and overflowed the recipient column
  (512): 500; the body's limit is now the column's (400);
- a passkey challenge id longer than any (40) failed the lookup: 500; it is now the contract's
  400 DesafioExpirado, as for any unknown challenge.
"""

from __future__ import annotations


import httpx
import pytest

from tests.fixtures.identity import service_headers

LONG = "msg_" + "a" * 40


@pytest.mark.parametrize("path", [f"/v1/emails/{LONG}", f"/v1/events/{LONG}", f"/v1/webhooks/{LONG}/deliveries",
                                  "/v1/emails/%C3%A7H%C3%B2", "/v1/webhooks/whk_1%0A"])
async def test_platform_ids_that_cannot_exist_are_404(servers, make_account, path):
    account = await make_account(scopes=("email:read", "webhooks:manage"))
    answer = httpx.get(servers("platform").url + path, headers=account.headers, timeout=10)
    assert answer.status_code == 404, answer.text
    assert answer.json()["Error"]["Code"] == "NotFound"


def test_twilio_callback_for_an_impossible_tenant_is_404(servers):
    answer = httpx.post(servers("platform").url + f"/callbacks/twilio/t_{'0' * 60}", data={"MessageSid": "SM1"},
                        timeout=10)
    assert answer.status_code == 404, answer.text


@pytest.mark.parametrize("path", [f"/v1/clients/cli_{'x' * 120}", f"/v1/tenants/acc_1/acessos/usr_1/{'p' * 80}"])
def test_identity_ids_that_cannot_exist_are_404(servers, path):
    method = "DELETE" if "acessos" in path else "GET"
    answer = httpx.request(method, servers("identity").url + path, headers=service_headers(), timeout=10)
    assert answer.status_code == 404, answer.text


async def test_a_nul_character_in_a_platform_body_is_400(servers, make_account):
    account = await make_account(scopes=("push:send",))
    body = '{"DeviceTokens": ["abc"], "Notification": {"Title": "t", "Body": "b"}, "Data": {"\\u0000": "x"}}'
    answer = httpx.post(servers("platform").url + "/v1/push/send", content=body, timeout=10,
                        headers={**account.headers, "Content-Type": "application/json"})
    assert answer.status_code == 400, answer.text
    assert answer.json()["Error"]["Details"] == {"body": "holds a NUL character"}
    text = '{"DeviceTokens": ["abc"], "Notification": {"Title": "t", "Body": "b"}, "Data": {"k": "\\\\u0000"}}'
    kept = httpx.post(servers("platform").url + "/v1/push/send", content=text, timeout=10,
                      headers={**account.headers, "Content-Type": "application/json"})
    assert kept.status_code != 400 or "NUL" not in kept.text  # an escaped backslash before u0000 is text


def test_a_nul_character_in_an_identity_body_is_400(servers):
    answer = httpx.post(servers("identity").url + "/v1/passkeys/login", timeout=10,
                        content='{"credential": {}, "challenge_id": "a\\u0000b"}',
                        headers={"Content-Type": "application/json"})
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"]["code"] == "InvalidInput"


def test_a_nul_character_in_a_query_parameter_is_400(servers):
    answer = httpx.get(servers("identity").url + "/v1/tenants/acc_1/acessos?user_id=a%00b", headers=service_headers(),
                       timeout=10)
    assert answer.status_code == 400, answer.text  # was 503: the lookup failed in PostgreSQL
    assert answer.json()["error"]["details"] == {"query": "holds a NUL character"}


async def test_a_push_token_longer_than_a_recipient_is_400(servers, make_account):
    account = await make_account(scopes=("push:send",))
    body = {"DeviceTokens": ["t" * 513], "Notification": {"Title": "t", "Body": "b"}}
    answer = httpx.post(servers("platform").url + "/v1/push/send", json=body, headers=account.headers, timeout=10)
    assert answer.status_code == 400, answer.text  # was 500: the messages.recipient column holds 512
    assert answer.json()["Error"]["Details"] == {"DeviceTokens.0": "string should have at most 512 characters"}
    fits = {"DeviceTokens": ["t" * 512], "Notification": {"Title": "t", "Body": "b"}}
    assert httpx.post(servers("platform").url + "/v1/push/send", json=fits, headers=account.headers,
                      timeout=10).status_code == 202


def test_a_passkey_challenge_id_longer_than_any_is_an_expired_challenge(servers):
    answer = httpx.post(servers("identity").url + "/v1/passkeys/login", timeout=10,
                        json={"credential": {}, "challenge_id": "0" * 99})
    assert answer.status_code == 400, answer.text  # was 500: the lookup failed on the 40-character column
    assert answer.json()["error"]["code"] == "DesafioExpirado"


# --- the identity server's OAuth endpoints (tests/http/test_fuzz.py::test_identity_oauth) ----------
# A sign-in form's signed request blob or second-step ticket that is not ASCII reached the signature
# check (hmac.compare_digest compares ASCII only): 500. It is now what any altered blob is: the
# "expired or not valid" page (400), and for a JSON second step 400 InvalidInput.

def test_a_non_ascii_authorize_request_blob_is_the_invalid_form_page(servers):
    answer = httpx.post(servers("identity").url + "/authorize", timeout=10,
                        data={"request": "%\u0090.{\u001e\U0001c9c3", "ticket": "\u0086", "credential": ""})
    assert answer.status_code == 400, answer.text
    assert answer.headers["content-type"].startswith("text/html") and "expired or is not valid" in answer.text


def test_a_non_ascii_second_step_ticket_is_400(servers):
    answer = httpx.post(servers("identity").url + "/v1/2fa/check", json={"ticket": "é.é", "code": "123456"},
                        timeout=10)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"]["code"] == "InvalidInput"
