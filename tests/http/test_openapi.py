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

from app.http.openapi import describe, described_routes
from kit.systems import SYSTEMS

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
        if getattr(route.ctx, "openapi", True) is False:  # the console's pages (test below)
            continue
        path = "/" + PARAM.sub(r"{\1}", route.path).rstrip("/") if route.path else "/"
        table |= {(method, path) for method in route.methods if method not in ("HEAD", "OPTIONS")}
    return table


@pytest.mark.parametrize("system", NAMES)
def test_document_is_valid_and_describes_exactly_the_route_table(apps, system):
    document = describe(apps[system], internal=True)
    validate(document)  # OpenAPI 3.1, refs resolved
    described = {(method.upper(), path) for path, item in document["paths"].items() for method in item}
    assert described == route_table(apps[system])
    public = describe(apps[system])
    validate(public)
    assert {(method.upper(), path) for path, item in public["paths"].items() for method in item} == {
        (method, path) for method, path in described if not path.startswith("/internal/")}
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
    assert set(identity["components"]["securitySchemes"]) == {"session", "service", "accessToken"}
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


def operations(document: dict):
    for path, item in document["paths"].items():
        for method, operation in item.items():
            yield method.upper(), path, operation


def headers_of(operation: dict) -> dict[str, dict]:
    return {parameter["name"]: parameter for parameter in operation.get("parameters", ()) if parameter["in"] == "header"}


@pytest.mark.parametrize("system", NAMES)
def test_every_success_answer_has_an_example_that_validates(apps, system):
    from jsonschema import Draft202012Validator

    document = describe(apps[system])
    checked = 0
    for method, path, operation in operations(document):
        for status, answer in operation["responses"].items():
            if not status.startswith("2"):
                continue
            for media, described in answer.get("content", {}).items():
                assert "example" in described, (method, path, status, media)
                errors = [error.message for error in Draft202012Validator(
                    {**described["schema"], "components": document["components"]}).iter_errors(described["example"])]
                assert not errors, (method, path, status, media, errors[:3])
                checked += 1
    # The mail API is the smallest API; the console's document holds its meta routes only.
    assert checked >= {"mail": 20, "console": 8}.get(system, 25)


def test_the_main_routes_examples_read_like_real_answers(apps):
    sent = describe(apps["platform"])["paths"]["/v1/emails/send"]["post"]["responses"]["202"]
    example = sent["content"]["application/json"]["example"]
    assert example["MessageId"].startswith("msg_") and example["RequestId"].startswith("req_")
    assert example["Status"] == "queued" and example["ReusedIdempotency"] is False
    token = describe(apps["identity"])["paths"]["/token"]["post"]["responses"]["200"]["content"]["application/json"]
    assert token["example"]["token_type"] == "Bearer" and token["example"]["access_token"].startswith("eyJ")


def test_tenant_header_is_derived_from_the_gates_declarations(apps):
    platform = describe(apps["platform"])
    declared = 0
    for method, path, operation in operations(platform):
        route = next(route for m, p, route in described_routes(apps["platform"]) if (m, p) == (method, path))
        tenant = headers_of(operation).get("X-Service-Tenant")
        if getattr(route.ctx, "tenant", None) == "header":
            assert tenant is not None and tenant["required"] is False, (method, path)  # else the first account
            declared += 1
        else:
            assert tenant is None, (method, path)
    assert declared >= 5
    for system in ("crm", "runtime"):
        for method, path, operation in operations(describe(apps[system])):
            tenant = headers_of(operation).get("X-Service-Tenant")
            session = any("session" in entry for entry in operation.get("security", ()))
            if path.startswith("/v1/") and session:
                assert tenant is not None and tenant["required"] is True, (system, method, path)
            else:
                assert tenant is None, (system, method, path)
    pages = describe(apps["pages"])["paths"]["/v1/paginas"]["get"]
    assert headers_of(pages)["X-Service-Tenant"]["required"] is False  # with a session; a key names its account
    assert {"session": []} in pages["security"] and {"apiKey": ["pages:read"]} in pages["security"]
    assert all("X-Service-Tenant" not in headers_of(operation) for _, _, operation in operations(
        describe(apps["identity"])))


def test_idempotency_key_is_declared_where_the_code_honours_it(apps):
    """On /v1 sends (the handler reads it) and on exactly the dashboard writes whose answers the
    /api gate keeps for replay (app/platform/gate/api.py: keeps_answers, asked here)."""
    from types import SimpleNamespace

    from app.platform.gate.api import SAFE_METHODS, is_dashboard, keeps_answers

    platform = describe(apps["platform"], internal=True)
    for path in ("/v1/emails/send", "/v1/emails/batch", "/v1/sms/send", "/v1/push/send", "/v1/whatsapp/send",
                 "/api/messages/send"):
        assert "Idempotency-Key" in headers_of(platform["paths"][path]["post"]), path
    replayed = 0
    for method, path, route in described_routes(apps["platform"]):
        operation = platform["paths"][path][method.lower()]
        if not is_dashboard(path) or path == "/api/messages/send":
            expected = path == "/api/messages/send" or (path.startswith("/v1/") and path.endswith(("/send", "/batch")))
        else:
            real = re.sub(r"\{[^}]+\}", "x", path)
            expected = method not in SAFE_METHODS and keeps_answers(SimpleNamespace(route=route, path=real))
            replayed += expected
        assert ("Idempotency-Key" in headers_of(operation)) == expected, (method, path)
    assert replayed >= 10
    for system in ("identity", "crm", "pages", "runtime"):
        assert all("Idempotency-Key" not in headers_of(operation)
                   for _, _, operation in operations(describe(apps[system])))


def test_stream_takes_last_event_id_and_answers_carry_their_headers(apps):
    runtime = describe(apps["runtime"])
    stream = runtime["paths"]["/v1/analytics/live/stream"]["get"]
    assert headers_of(stream)["Last-Event-ID"]["required"] is False
    assert sum("Last-Event-ID" in headers_of(operation) for _, _, operation in operations(runtime)) == 1
    platform = describe(apps["platform"])
    for document in (platform, runtime, describe(apps["identity"])):
        for method, path, operation in operations(document):
            for status, answer in operation["responses"].items():
                assert "X-Request-Id" in answer["headers"], (method, path, status)
                if status in ("429", "503"):
                    assert "Retry-After" in answer["headers"], (method, path, status)
                if status == "429":
                    assert {"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"} <= set(answer["headers"])
    send = platform["paths"]["/v1/emails/send"]["post"]["responses"]
    assert {"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"} <= set(send["202"]["headers"])
    assert set(platform["components"]["headers"]) == {"X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining",
                                                      "X-RateLimit-Reset", "Retry-After"}


def test_multipart_bodies_are_described(apps):
    from sanic import Blueprint, Sanic
    from sanic.response import empty

    from app.http.openapi import BINARY, fields

    upload = describe(apps["pages"])["paths"]["/v1/midias"]["post"]["requestBody"]
    assert upload == {"required": True, "content": {"multipart/form-data": {"schema": {
        "type": "object", "required": ["arquivo"],
        "properties": {"arquivo": {**BINARY, "description": "The image: PNG, JPEG, GIF or WebP, at most 5 MiB."}}}}}}
    bp = Blueprint("tiny")

    @bp.post("/notes", ctx_multipart=fields(file=BINARY, caption={"type": "string"}))
    async def notes(request):
        return empty()

    tiny = Sanic("openapi_multipart_test")
    tiny.blueprint(bp)
    tiny.router.finalize()
    from app.http.openapi import _Components, _request_body  # the generator's own step, on a route of this app

    route = next(route for route in tiny.router.routes if route.path == "notes")
    body = _request_body(_Components(), route.ctx)
    assert body == {"required": False, "content": {"multipart/form-data": {"schema": {
        "type": "object", "properties": {"file": BINARY, "caption": {"type": "string"}}}}}}
    Sanic._app_registry.pop("openapi_multipart_test", None)


def test_oauth_endpoints_are_described_with_their_content_types(apps):
    identity = describe(apps["identity"])
    paths = identity["paths"]
    assert set(paths["/token"]["post"]["requestBody"]["content"]) == {"application/x-www-form-urlencoded"}
    assert paths["/token"]["post"]["responses"]["400"]["content"]["application/json"]["schema"]["required"] == [
        "error"]
    assert set(paths["/authorize"]["get"]["responses"]["200"]["content"]) == {"text/html"}
    assert "Location" in paths["/authorize"]["get"]["responses"]["303"]["headers"]
    assert set(paths["/authorize"]["post"]["requestBody"]["content"]) == {"application/x-www-form-urlencoded"}
    assert paths["/userinfo"]["get"]["security"] == [{"accessToken": []}]
    assert {"session": []} in paths["/logout"]["get"]["security"] and {} in paths["/logout"]["get"]["security"]
    for path in ("/.well-known/openid-configuration", "/.well-known/jwks.json"):
        assert "application/json" in paths[path]["get"]["responses"]["200"]["content"]


async def test_real_oauth_answers_match_their_descriptions(servers):
    from tests.http.test_fuzz import access_token

    url = servers("identity").url
    document = httpx.get(url + "/openapi.json", timeout=10).json()
    async with httpx.AsyncClient(base_url=url, timeout=20) as http:
        token = await access_token(http)
        bearer = {"Authorization": f"Bearer {token}"}
        calls = [("/.well-known/openid-configuration", "get", await http.get("/.well-known/openid-configuration")),
                 ("/.well-known/jwks.json", "get", await http.get("/.well-known/jwks.json")),
                 ("/userinfo", "get", await http.get("/userinfo", headers=bearer)),
                 ("/userinfo", "post", await http.post("/userinfo", headers=bearer)),
                 ("/token", "post", await http.post("/token", data={"grant_type": "password"})),
                 ("/logout", "get", await http.get("/logout", headers=bearer)),
                 ("/userinfo", "get", await http.get("/userinfo", headers=bearer))]
    assert [answer.status_code for _, _, answer in calls] == [200, 200, 200, 200, 401, 200, 401]
    for path, method, answer in calls:
        check_answer(document, path, method, answer)


@pytest.mark.parametrize("system", NAMES)
def test_internal_routes_are_only_in_the_internal_document(servers, system):
    from tests.fixtures.identity import service_headers

    url = servers(system).url
    public = httpx.get(url + "/openapi.json", timeout=10).json()
    assert not [path for path in public["paths"] if path.startswith("/internal")]
    assert httpx.get(url + "/internal/openapi.json", timeout=10).status_code == 401
    internal = httpx.get(url + "/internal/openapi.json", headers=service_headers(), timeout=10)
    assert internal.status_code == 200, internal.text
    paths = internal.json()["paths"]
    assert "/internal/openapi.json" in paths and set(public["paths"]) < set(paths)
    if system in ("platform", "identity", "crm", "pages", "runtime", "mail"):  # the console calls, is not called
        assert any(path.startswith("/internal/v1/") for path in paths)
