"""Keys checked when saved (app/platform/provider/credentials.py): saving a relay's configuration
asks the relay once, with those credentials, through the egress; each relay here a local server
speaking the call. Refused: 422 naming the field, nothing saved; the relay unreachable or failing:
503 with Retry-After, nothing saved; taken: saved."""

from __future__ import annotations

import base64

import pytest

from tests.fixtures.harness import free_port
from tests.fixtures.provider_servers import Answer

TOPIC = "arn:aws:sns:eu-west-1:123456789012:herald-events"
# relay -> (settings and secrets, the path it is asked, the credential header it is asked with)
RELAYS = {
    "postmark": ({"Settings": {}, "Secrets": {"server_token": "pm-token"}}, "/server",
                 ("x-postmark-server-token", "pm-token")),
    "mailgun": ({"Settings": {"domain": "mg.shop.example"}, "Secrets": {"api_key": "key-0042"}},
                "/v3/domains/mg.shop.example",
                ("authorization", "Basic " + base64.b64encode(b"api:key-0042").decode())),
    "sendgrid": ({"Settings": {}, "Secrets": {"api_key": "SG.key"}}, "/v3/scopes", ("authorization", "Bearer SG.key")),
    "resend": ({"Settings": {}, "Secrets": {"api_key": "re_key"}}, "/domains", ("authorization", "Bearer re_key")),
    "ses": ({"Settings": {"region": "eu-west-1", "access_key_id": "AKIDEXAMPLE", "sns_topic_arn": TOPIC},
             "Secrets": {"secret_access_key": "wJalrXUtnFEMI"}}, "/v2/email/account", None),
}
# relay -> (its refusal, the field named)
REFUSALS = {
    "postmark": (Answer(401, {"ErrorCode": 10, "Message": "Bad or missing Server API token."}), "Secrets.server_token"),
    "mailgun": (Answer(404, {"message": "Domain not found"}), "Settings.domain"),
    "sendgrid": (Answer(401, {"errors": [{"message": "authorization required"}]}), "Secrets.api_key"),
    "resend": (Answer(401, {"statusCode": 401, "name": "validation_error", "message": "API key is invalid"}),
               "Secrets.api_key"),
    "ses": (Answer(403, {"message": "The security token included in the request is invalid."},
                   {"x-amzn-ErrorType": "UnrecognizedClientException:"}), "Settings.access_key_id"),
}


def body_for(relay: str, base_url: str) -> dict:
    body = RELAYS[relay][0]
    return {"Settings": {**body["Settings"], "base_url": base_url}, "Secrets": body["Secrets"]}


@pytest.mark.parametrize("relay", sorted(RELAYS))
async def test_a_relays_keys_are_checked_once_when_saved(relay, make_account, platform, http_server):
    account = await make_account(scopes=("providers:manage",))
    path = f"/v1/providers/email/{relay}"
    _body, asked_path, credential = RELAYS[relay]
    refusal, field = REFUSALS[relay]

    http_server.then(refusal)
    refused = await platform.put(path, json=body_for(relay, http_server.url), headers=account.headers)
    assert refused.status_code == 422, refused.text
    assert field in refused.json()["Error"]["Details"], refused.text
    assert (await platform.get(path, headers=account.headers)).status_code == 404  # nothing saved

    http_server.then(Answer(503, {"message": "down"}))
    unavailable = await platform.put(path, json=body_for(relay, http_server.url), headers=account.headers)
    assert unavailable.status_code == 503 and unavailable.headers["retry-after"] == "30", unavailable.text
    closed = await platform.put(path, json=body_for(relay, f"http://127.0.0.1:{free_port()}"), headers=account.headers)
    assert closed.status_code == 503, closed.text
    assert (await platform.get(path, headers=account.headers)).status_code == 404

    http_server.then(Answer(200, {"data": []}))
    saved = await platform.put(path, json=body_for(relay, http_server.url), headers=account.headers)
    assert saved.status_code == 201, saved.text
    asked = http_server.requests
    assert len(asked) == 3 and all(request.method == "GET" and request.path == asked_path for request in asked)
    if credential is not None:
        assert asked[-1].headers[credential[0]] == credential[1]
    else:  # SigV4 for SES, with the account's key id, on SES's scope in its region
        assert asked[-1].headers["authorization"].startswith("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/")
        assert "/eu-west-1/ses/aws4_request" in asked[-1].headers["authorization"]


async def test_a_key_the_relay_knows_but_restricts_is_taken(make_account, platform, http_server):
    """Resend's sending-only keys may not list domains; SES's key may lack GetAccount (it needs only
    SendEmail): both are real keys, so the configuration is saved. Another answer is not the relay's."""
    account = await make_account(scopes=("providers:manage",))
    http_server.then(Answer(401, {"statusCode": 401, "name": "restricted_api_key",
                                  "message": "This API key is restricted to only send emails"}),
                     Answer(403, {"message": "not authorized to perform ses:GetAccount"},
                            {"x-amzn-ErrorType": "AccessDeniedException:"}))
    for relay in ("resend", "ses"):
        answer = await platform.put(f"/v1/providers/email/{relay}", json=body_for(relay, http_server.url),
                                    headers=account.headers)
        assert answer.status_code == 201, (relay, answer.text)
    # Whatever else is not 2xx: the base_url is not the relay's API.
    http_server.then(Answer(404, b"<html>not here</html>"))
    elsewhere = await platform.put("/v1/providers/email/sendgrid", json=body_for("sendgrid", http_server.url),
                                   headers=account.headers)
    assert elsewhere.status_code == 422 and "Settings.base_url" in elsewhere.json()["Error"]["Details"], elsewhere.text


def test_the_default_endpoints_are_the_providers_own():
    from app.platform.provider.credentials import DEFAULT_BASE_URLS
    from providers.registry import discover

    email = discover()["email"]
    configs = {"postmark": {"server_token": "t"}, "mailgun": {"api_key": "k", "domain": "d"},
               "sendgrid": {"api_key": "k"}, "resend": {"api_key": "k"}}
    for relay, url in DEFAULT_BASE_URLS.items():
        assert email[relay](configs[relay]).base_url == url
