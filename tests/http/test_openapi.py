"""Each system's OpenAPI document (app/http/openapi.py): valid OpenAPI 3.1, served by the running
system, the exact image of its route table, with the strict bodies the handlers parse."""

from __future__ import annotations

import importlib
import inspect
import re

import httpx
import pytest
from openapi_spec_validator import validate
from sanic import Sanic

from app.http.openapi import describe
from herald.systems import SYSTEMS

NAMES = [system.name for system in SYSTEMS]
PARAM = re.compile(r"<(\w+)(?::[^>]*)?>")
# Every way a handler reads a strict body: the model it names must be the one the route declares.
PARSES = re.compile(r"\b(?:parse_body|read_body|read_optional_body|optional_body|_body|validate)"
                    r"\(\s*(?:request|raw),\s*(\w+)")


def build(system: str) -> Sanic:
    app = importlib.import_module(f"app.{system}.server").build()
    Sanic._app_registry.pop(app.name, None)  # another test may build the same app
    return app


@pytest.fixture(scope="module")
def apps() -> dict[str, Sanic]:
    return {name: build(name) for name in NAMES}


def route_table(app: Sanic) -> set[tuple[str, str]]:
    """(method, path) of every registered route, written independently of the generator."""
    table = set()
    for route in app.router.routes:
        if ".diagnostics." in route.name:  # test-only routes (HERALD_ENV=test)
            continue
        path = "/" + PARAM.sub(r"{\1}", route.path).rstrip("/") if route.path else "/"
        table |= {(method, path) for method in route.methods if method not in ("HEAD", "OPTIONS")}
    return table


@pytest.mark.parametrize("system", NAMES)
def test_document_is_valid_and_describes_exactly_the_route_table(apps, system):
    document = describe(apps[system])
    validate(document)  # OpenAPI 3.1, refs resolved
    described = {(method.upper(), path) for path, item in document["paths"].items() for method in item}
    assert described == route_table(apps[system])
    assert {"/", "/healthz", "/readyz", "/version", "/metrics", "/openapi.json", "/docs"} <= set(document["paths"])


@pytest.mark.parametrize("system", NAMES)
def test_running_system_serves_its_document_and_reference(servers, system):
    url = servers(system).url
    answer = httpx.get(url + "/openapi.json", timeout=10)
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("application/json")
    validate(answer.json())
    page = httpx.get(url + "/docs", timeout=10)
    assert page.status_code == 200 and "/docs/assets/swagger-ui-bundle.js" in page.text
    bundle = httpx.get(url + "/docs/assets/swagger-ui-bundle.js", timeout=10)
    assert bundle.status_code == 200 and bundle.headers["content-type"].startswith("text/javascript")
    assert httpx.get(url + "/docs/assets/..%2Fopenapi.py", timeout=10).status_code == 404


def test_bodies_are_strict_and_are_the_models_the_handlers_parse(apps):
    checked = 0
    for app in (apps["platform"], apps["identity"]):
        for route in app.router.routes:
            if ".diagnostics." in route.name:
                continue
            declared = getattr(route.ctx, "body", None) or getattr(route.ctx, "optional_body", None)
            parsed = set(PARSES.findall(inspect.getsource(route.handler)))
            parsed.discard("EmailSend") if route.handler.__name__ == "send_email_batch" else None  # each item
            if declared is None:
                assert not parsed or getattr(route.ctx, "form", None), f"{route.name} parses {parsed} undeclared"
                continue
            assert parsed <= {declared.__name__}, f"{route.name} declares {declared.__name__}, parses {parsed}"
            checked += 1
    assert checked >= 30
    email = describe(apps["platform"])["components"]["schemas"]["EmailSend"]
    assert email["additionalProperties"] is False and "Destination" in email["properties"]


def test_security_schemes_name_the_scopes_and_credentials(apps):
    platform = describe(apps["platform"])
    assert {"apiKey", "signature"} <= set(platform["components"]["securitySchemes"])
    assert platform["paths"]["/v1/emails/send"]["post"]["security"] == [{"apiKey": ["email:send"]}]
    assert "401" in platform["paths"]["/v1/emails/send"]["post"]["responses"]
    logs = platform["paths"]["/v1/logs"]["get"]["responses"]
    assert logs["400"]["content"]["application/json"]["schema"]["$ref"].endswith("/LowerError")
    assert logs["401"]["content"]["application/json"]["schema"]["$ref"].endswith("/PascalError")
    identity = describe(apps["identity"])
    assert set(identity["components"]["securitySchemes"]) == {"session", "service"}
    assert identity["paths"]["/v1/auth/sessions"]["get"]["security"] == [{"session": []}]
    assert identity["paths"]["/v1/authz/decide"]["post"]["security"] == [{"service": []}]
    assert "security" not in identity["paths"]["/v1/auth/login"]["post"]
    assert identity["paths"]["/v1/auth/login"]["post"]["responses"]["default"]["content"]["application/json"][
        "schema"]["$ref"].endswith("/LowerError")


def check_answer(document: dict, path: str, method: str, answer: httpx.Response) -> None:
    """An answer against the schema its operation describes for its status."""
    from jsonschema import Draft202012Validator

    described = document["paths"][path][method]["responses"][str(answer.status_code)]
    schema = described["content"]["application/json"]["schema"]
    Draft202012Validator({**schema, "components": document["components"]}).validate(answer.json())


async def test_real_answers_match_their_descriptions(servers, make_account):
    """Success bodies the bounded fuzz rarely reaches (they need valid data), made for real."""
    from models.platform.api_key import KeyKind
    from tests.fixtures.platform import email

    url = servers("platform").url
    document = httpx.get(url + "/openapi.json", timeout=10).json()
    account = await make_account(scopes=("email:send", "email:read", "account:read", "sms:send", "push:devices",
                                         "webhooks:manage"), kind=KeyKind.TEST)
    async with httpx.AsyncClient(base_url=url, headers=account.headers, timeout=20) as http:
        sent = await http.post("/v1/emails/send", json=email())
        assert sent.status_code == 202, sent.text
        calls = [("/v1/emails/send", "post", sent),
                 ("/v1/emails/batch", "post", await http.post("/v1/emails/batch", json={
                     "Messages": [email(), {"Source": "x"}]})),
                 ("/v1/sms/send", "post", await http.post("/v1/sms/send", json={"To": ["+14155550100"], "Body": "x"})),
                 ("/v1/emails", "get", await http.get("/v1/emails")),
                 ("/v1/emails/{message_id}", "get", await http.get(f"/v1/emails/{sent.json()['MessageId']}")),
                 ("/v1/account", "get", await http.get("/v1/account")),
                 ("/v1/account/usage", "get", await http.get("/v1/account/usage")),
                 ("/v1/senders", "get", await http.get("/v1/senders")),
                 ("/v1/push/devices", "post", await http.post("/v1/push/devices", json={"Token": "t" * 64,
                                                                                        "Platform": "ios"})),
                 ("/v1/push/devices", "get", await http.get("/v1/push/devices"))]
        hook = await http.post("/v1/webhooks", json={"Url": "https://hooks.example.com/a", "Description": "d"})
        assert hook.status_code == 201, hook.text
        hook_id = hook.json()["Webhook"]["Id"]
        test_event = await http.post(f"/v1/webhooks/{hook_id}/test")
        deliveries = await http.get(f"/v1/webhooks/{hook_id}/deliveries")
        calls += [("/v1/webhooks", "post", hook), ("/v1/webhooks", "get", await http.get("/v1/webhooks")),
                  ("/v1/webhooks/{webhook_id}", "get", await http.get(f"/v1/webhooks/{hook_id}")),
                  ("/v1/webhooks/{webhook_id}", "patch", await http.patch(f"/v1/webhooks/{hook_id}",
                                                                          json={"Description": "e"})),
                  ("/v1/webhooks/{webhook_id}/rotate-secret", "post",
                   await http.post(f"/v1/webhooks/{hook_id}/rotate-secret")),
                  ("/v1/webhooks/{webhook_id}/test", "post", test_event),
                  ("/v1/webhooks/{webhook_id}/deliveries", "get", deliveries),
                  ("/v1/webhooks/{webhook_id}/deliveries/{delivery_id}", "get",
                   await http.get(f"/v1/webhooks/{hook_id}/deliveries/{test_event.json()['DeliveryId']}")),
                  ("/v1/events", "get", await http.get("/v1/events")),
                  ("/v1/events/{event_id}", "get", await http.get(f"/v1/events/{test_event.json()['EventId']}"))]
    for path, method, answer in calls:
        assert answer.status_code < 300, (path, answer.text)
        check_answer(document, path, method, answer)


async def test_real_identity_answers_match_their_descriptions(servers):
    from tests.fixtures.identity import PASSWORD, unique_email

    url = servers("identity").url
    document = httpx.get(url + "/openapi.json", timeout=10).json()
    address = unique_email("openapi")
    async with httpx.AsyncClient(base_url=url, timeout=20) as http:
        created = await http.post("/v1/users", json={"email": address, "password": PASSWORD, "name": "Open Api"})
        login = await http.post("/v1/auth/login", json={"email": address, "password": PASSWORD})
        http.headers["Authorization"] = f"Bearer {login.json()['token']}"
        calls = [("/v1/users", "post", created), ("/v1/auth/login", "post", login),
                 ("/v1/auth/validate", "get", await http.get("/v1/auth/validate")),
                 ("/v1/auth/sessions", "get", await http.get("/v1/auth/sessions")),
                 ("/v1/users/{user_id}", "get", await http.get(f"/v1/users/{created.json()['user']['id']}")),
                 ("/v1/auth/reauth", "post", await http.post("/v1/auth/reauth", json={"password": PASSWORD}))]
    for path, method, answer in calls:
        assert answer.status_code < 300, (path, answer.text)
        check_answer(document, path, method, answer)
