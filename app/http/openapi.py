"""Each system's OpenAPI 3.1 document, generated from its route table: ``GET /openapi.json`` (the
``/internal/*`` routes left out; ``GET /internal/openapi.json``, with the service credential, has
them too), and a browsable reference of it at ``GET /docs`` (Swagger UI, shipped in app/http/static/).

Nothing is written twice. The paths and methods are the routes Sanic registered (HEAD, added to
every GET by the factory, is left out); what a route accepts and answers is read from the
declarations on the route itself, the same ``ctx_`` keywords the gates read:

- ``ctx_scope``     the API-key scope of a platform /v1 route (the gate enforces it);
- ``ctx_query``     the allowed query parameters (app/http/query.py enforces the allowlist);
- ``ctx_envelope``  ``"lower"`` when the route's own 400 and 404 use the lowercase envelope;
- ``ctx_body``      the strict pydantic model of the JSON body (or a :class:`Schema`);
- ``ctx_optional_body`` the same, for a body that may be left empty (its model's defaults);
- ``ctx_form``      a :class:`Schema` of an ``application/x-www-form-urlencoded`` body;
- ``ctx_multipart`` the fields of a ``multipart/form-data`` body (:func:`fields`, e.g.
                    ``fields(arquivo=BINARY)``), with ``ctx_multipart_required=("arquivo",)``;
- ``ctx_auth``      ``"session"``, ``"service"``, ``"session|service"``, ``"accessToken"`` (identity routes),
                    ``"signature"`` (a provider callback); ``ctx_unverified=True`` makes it optional;
- ``ctx_responses`` ``answers({status: pydantic model, dict (a JSON Schema), :class:`Schema`, :data:`NO_CONTENT`,
                    :data:`HTML` or :data:`REDIRECT`})``; a route that declares none answers 200 with a JSON object;
- ``ctx_errors``    error statuses of the route beyond those inferred from the above;
- ``ctx.openapi``   ``False`` leaves the route out (the console's pages: HTML for browsers, not an API).

Every operation also lists the error statuses its declarations imply (400 for a body, 404 for a path parameter,
401/403/429 for the key gate ...) and a ``default`` answer: the system's error envelope, the shape of any error
the code can raise. The request headers the gates read (``X-Service-Tenant``, ``Idempotency-Key``,
``Last-Event-ID``) and the answer headers that matter (``X-Request-Id``, ``X-RateLimit-*``, ``Retry-After``) are
derived from the same declarations (app/http/openapi_headers.py); every success answer carries an example
(app/http/openapi_examples.py). See docs/openapi.md.
"""

from __future__ import annotations

import inspect
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from sanic import Blueprint, HTTPResponse, Request, Sanic
from sanic.response import html, json

from app.http import errors
from app.http.openapi_errors import ENVELOPES, FLAT_ERROR, LOWER_ERROR, PASCAL_ERROR
from app.http.openapi_examples import example_of
from app.http.openapi_headers import HEADERS, KEY_OR_SESSION, answer_headers, header_parameters
from app.http.openapi_names import named, ordered_tags, summary_of, tag_of
from app.http.services import require_service_credential

NO_CONTENT = "no-content"
HTML = "html"
REDIRECT = "redirect"
ANY_KEY = "*"  # the platform gate's "any valid key" (app/platform/gate/v1.py spells the same)

STATIC = Path(__file__).parent / "static" / "swagger-ui"
ASSETS = {"swagger-ui-bundle.js": "text/javascript; charset=utf-8", "swagger-ui.css": "text/css; charset=utf-8",
          "herald-docs.js": "text/javascript; charset=utf-8", "LICENSE": "text/plain; charset=utf-8"}
REF = "#/components/schemas/{model}"
_PARAM = re.compile(r"<(\w+)(?::[^>]*)?>")
_TYPED = re.compile(r"<(\w+):(\w+)>")

# Path-parameter types every system's router knows (app/http/factory.py registers them): ``<name:id>``
# is a public id (``msg_<hex>``, ``usr_<hex>`` ...; the columns hold 40 characters), ``<name:slug>`` a
# tenant or product name (64), ``<name:client>`` an OAuth client id (as the client service allows).
# Anything else cannot name a row, so the router answers 404 before a handler asks the database.
PATH_TYPES = {"id": r"^[A-Za-z0-9_-]{1,40}$", "slug": r"^[A-Za-z0-9_.:-]{1,64}$",
              "client": r"^[A-Za-z0-9_.-]{3,100}$"}

REASONS = {200: "OK", 201: "Created", 202: "Accepted", 204: "No content", 303: "See other", 400: "Bad request",
           401: "Unauthorized", 403: "Forbidden", 404: "Not found", 409: "Conflict", 413: "Payload too large",
           422: "Unprocessable", 429: "Too many requests", 502: "Upstream failure", 503: "Unavailable"}

SECURITY_SCHEMES = {
    "apiKey": {"type": "http", "scheme": "bearer", "bearerFormat": "sk_live_... or sk_test_...",
               "description": "An account's API key: `Authorization: Bearer <key>`. Each /v1 operation names the "
                              "scope it needs (the key's scopes are set when it is made; `*` is any valid key)."},
    "session": {"type": "http", "scheme": "bearer",
                "description": "A person's session: `Authorization: Bearer <token>`. On the identity server the "
                               "token of POST /v1/auth/login; on the platform's /api the Token of POST "
                               "/api/auth/login, or the HttpOnly `herald_session` cookie it sets."},
    "service": {"type": "http", "scheme": "bearer",
                "description": "The service credential shared by Herald's systems: `Authorization: Bearer "
                               "<SERVICE_TOKEN>`; for internal routes."},
    "accessToken": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT",
                    "description": "An OAuth access token of the identity server's /token: `Authorization: Bearer "
                                   "<access_token>`."},
    "signature": {"type": "apiKey", "in": "header", "name": "X-Twilio-Signature",
                  "description": "The provider's request signature over the callback URL and form fields."},
}


class Schema:
    """A JSON Schema as a route declaration (Sanic hashes ``ctx_`` values, so no bare dicts), with
    the example of the answer it describes when the route gives one."""

    _NONE = object()

    def __init__(self, schema: dict[str, Any], media: str | tuple[str, ...] = "application/json", *,
                 example: Any = _NONE) -> None:
        self.schema = schema
        self.media = (media,) if isinstance(media, str) else media
        self.example = example

    @property
    def has_example(self) -> bool:
        return self.example is not Schema._NONE


BINARY = {"type": "string", "format": "binary"}


def fields(**declared: dict[str, Any]) -> Schema:
    """``ctx_multipart=fields(arquivo=BINARY, pasta=STRING)``: a multipart body's parts (hashable, unlike a dict)."""
    return Schema({"type": "object", "properties": declared}, "multipart/form-data")


STRING = {"type": "string"}
NULLABLE_STRING = {"type": ["string", "null"]}
TIMESTAMP = {"type": "string", "format": "date-time"}
REQUEST_ID = {"type": "string", "description": "This request's id (req_...), also in the X-Request-Id header."}


def described(schema: dict[str, Any], description: str) -> dict[str, Any]:
    """A field's schema with what it holds: ``Id=described(STRING, "The webhook's id (wh_...).")``."""
    return {**schema, "description": description}


def shape(*optional: str, **properties: Any) -> dict[str, Any]:
    """A JSON object schema whose properties are all required but ``optional``; a view's shape, by its view."""
    return {"type": "object", "required": [name for name in properties if name not in optional],
            "properties": properties}


def reply_of(**properties: Any) -> dict[str, Any]:
    """The schema of a ``reply()`` body: the view's fields and the ``RequestId`` every answer carries."""
    return shape(**properties, RequestId=REQUEST_ID)


def answers(mapping: dict[int, Any]) -> tuple[tuple[int, Any], ...]:
    """``ctx_responses=answers({202: Accepted, 404: ...})``: a hashable declaration of the answers."""
    return tuple(sorted((status, Schema(answer) if isinstance(answer, dict) else answer)
                        for status, answer in mapping.items()))


def _operation_id(route) -> str:
    return route.name.split(".", 1)[-1].replace(".", "_")  # "<blueprint>_<handler>": unique per app


def _path(route) -> str:
    return "/" + _PARAM.sub(r"{\1}", route.path).rstrip("/") if route.path else "/"


def described_routes(app: Sanic) -> list[tuple[str, str, Any]]:
    """(method, OpenAPI path, route) of every route the document describes: all but HEAD, OPTIONS
    and the test-only diagnostics (registered when HERALD_ENV=test)."""
    seen: dict[tuple[str, str], Any] = {}
    for route in app.router.routes:
        if ".diagnostics." in route.name or getattr(route.ctx, "openapi", True) is False:
            continue
        for method in sorted(route.methods - {"HEAD", "OPTIONS"}):
            seen.setdefault((method, _path(route)), route)
    ordered = sorted(seen.items(), key=lambda item: (item[0][1], item[0][0]))  # by path, then method
    return [(method, path, route) for (method, path), route in ordered]


class _Components:
    def __init__(self) -> None:
        self.schemas: dict[str, Any] = {"PascalError": PASCAL_ERROR, "LowerError": LOWER_ERROR}

    def schema(self, declared: Any, *, mode: str = "validation") -> dict[str, Any]:
        if isinstance(declared, type) and issubclass(declared, BaseModel):
            found = declared.model_json_schema(by_alias=True, ref_template=REF, mode=mode)
            self.schemas.update(found.pop("$defs", {}))
            name = declared.__name__ if mode == "validation" else f"{declared.__name__}Answer"
            if self.schemas.get(name, {**found, "title": name}) != {**found, "title": name}:
                # Two models of one name (the passkey login's StartBody and the re-authentication's):
                # the second is named by its package too, never described by the first's schema.
                name = "".join(part.title() for part in declared.__module__.split(".")[1:-1]) + name
            # The title a reader (or a client generator) sees is the component's own, unique name.
            self.schemas[name] = {**found, "title": name} if "title" in found else found
            return {"$ref": REF.format(model=name)}
        return dict(declared.schema)


def _error(ref: str, status: int) -> dict[str, Any]:
    return {"description": REASONS.get(status, "Error"),
            "content": {"application/json": {"schema": {"$ref": REF.format(model=ref)}}}}


def _media(components: _Components, schema: dict[str, Any], declared: Any = None) -> dict[str, Any]:
    """A media type object with its example: the route's own, else one made from the schema."""
    if isinstance(declared, Schema) and declared.has_example:
        return {"schema": schema, "example": declared.example}
    return {"schema": schema, "example": example_of(schema, components.schemas)}


def _success(components: _Components, status: int, declared: Any) -> dict[str, Any]:
    described: dict[str, Any] = {"description": REASONS.get(status, "Answer")}
    if declared == NO_CONTENT:
        return described
    if declared == REDIRECT:
        described["headers"] = {"Location": {"schema": {"type": "string"}, "description": "Where to go next."}}
        return described
    if declared == HTML:
        described["content"] = {"text/html": {"schema": {"type": "string"},
                                              "example": "<!doctype html><html>...</html>"}}
        return described
    if isinstance(declared, Schema):
        described["content"] = {media: _media(components, dict(declared.schema), declared) for media in declared.media}
        return described
    schema = components.schema(declared, mode="serialization") if declared is not None else {"type": "object"}
    described["content"] = {"application/json": _media(components, schema)}
    return described


def _security(system: str, path: str, ctx) -> list[dict[str, list[str]]] | None:
    scope = getattr(ctx, "scope", None)
    if scope is not None:
        key = [{"apiKey": [] if scope == ANY_KEY else [scope]}]
        return key + ([{"session": []}] if system in KEY_OR_SESSION and path.startswith("/v1/") else [])
    auth = getattr(ctx, "auth", None)
    if auth is None:
        return None
    # ctx_unverified: the credential is read when given, and the route answers without one too.
    return [{name: []} for name in auth.split("|")] + ([{}] if getattr(ctx, "unverified", False) else [])


def _error_statuses(ctx, path: str, has_body: bool, system_error: str) -> set[int]:
    statuses = set(getattr(ctx, "errors", ()))
    if has_body:
        statuses.add(400)
    if "{" in path:
        statuses.add(404)
    if getattr(ctx, "query", ()) and getattr(ctx, "query_unknown", None) != "ignore":
        statuses.add(422)  # a parameter outside the allowlist (app/http/query.py)
        if system_error == "LowerError":
            statuses.add(400)  # the identity server's InvalidInput for a parameter's value
    if getattr(ctx, "envelope", None) == "lower":
        statuses |= {400, 404}  # the route's own answers, in the lowercase envelope
    if getattr(ctx, "scope", None) is not None:
        statuses |= {401, 403, 429}
    auth = getattr(ctx, "auth", None) or ""
    if "session" in auth or "service" in auth:
        statuses.add(401)
    if "signature" in auth:
        statuses.add(403)
    return statuses


def _request_body(components: _Components, ctx) -> dict[str, Any] | None:
    body, form = getattr(ctx, "body", None), getattr(ctx, "form", None)
    optional, multipart = getattr(ctx, "optional_body", None), getattr(ctx, "multipart", None)
    if body is not None or optional is not None:
        # The example is the model's own (``json_schema_extra={"examples": [...]}``) else one made
        # from its schema; tests/http/test_request_examples.py sends every one to the product.
        schema = components.schema(body if optional is None else optional)
        return {"required": optional is None, "content": {
            "application/json": {"schema": schema, "example": example_of(schema, components.schemas)}}}
    if form is not None:
        return {"required": True, "content": {"application/x-www-form-urlencoded": {"schema": dict(form.schema)}}}
    if multipart is not None:
        parts = dict(multipart.schema["properties"]) if isinstance(multipart, Schema) else dict(multipart)
        required = [name for name in getattr(ctx, "multipart_required", ()) if name in parts]
        schema = {"type": "object", "properties": parts, **({"required": required} if required else {})}
        return {"required": bool(required), "content": {"multipart/form-data": {"schema": schema}}}
    return None


def _operation(components: _Components, system: str, method: str, path: str, route,
               system_error: str) -> dict[str, Any]:
    ctx = route.ctx
    doc = inspect.getdoc(route.handler) or ""
    summary = summary_of(doc) or named(route.handler.__name__)
    operation: dict[str, Any] = {
        "operationId": _operation_id(route) + ("" if len(route.methods - {"HEAD", "OPTIONS"}) == 1
                                               else f"_{method.lower()}"),
        "summary": summary,
        # The whole docstring: its first sentence is the summary, the rest says what the summary cannot.
        "description": doc or f"{summary}: `{method} {path}`.",
        "tags": [tag_of(path)],
    }
    types = dict(_TYPED.findall(route.path))
    parameters = [{"name": name, "in": "path", "required": True,
                   "schema": {"type": "string", "minLength": 1} if types.get(name) not in PATH_TYPES
                   else {"type": "string", "pattern": PATH_TYPES[types[name]]}}
                  for name in _PARAM.findall(route.path)]
    parameters += [{"name": name, "in": "query", "required": False, "schema": {"type": "string"}}
                   for name in getattr(ctx, "query", ())]
    parameters += header_parameters(system, method, path, route)
    if parameters:
        operation["parameters"] = parameters
    body = _request_body(components, ctx)
    if body is not None:
        operation["requestBody"] = body
    security = _security(system, path, ctx)
    if security is not None:
        operation["security"] = security
    declared = dict(getattr(ctx, "responses", None) or ((200, None),))
    responses = {str(status): _success(components, status, answer) for status, answer in sorted(declared.items())}
    lower = getattr(ctx, "envelope", None) == "lower"
    for status in sorted(_error_statuses(ctx, path, "requestBody" in operation, system_error)):
        envelope = _error("LowerError" if lower and status in (400, 404) else system_error, status)
        if str(status) not in responses:
            responses[str(status)] = envelope
        elif "application/json" not in responses[str(status)].get("content", {"application/json": None}):
            # The route's own page for that status (HTML) and the gates' envelope (e.g. a query refused).
            responses[str(status)]["content"].update(envelope["content"])
    responses["default"] = {"description": "Any other error, in the system's error envelope",
                            "content": {"application/json": {"schema": {"$ref": REF.format(model=system_error)}}}}
    for status, answer in responses.items():
        answer["headers"] = {**answer_headers(ctx, status), **answer.get("headers", {})}
    operation["responses"] = responses
    return operation


INTERNAL = "/internal/"


def describe(app: Sanic, *, internal: bool = False) -> dict[str, Any]:
    """The OpenAPI 3.1 document of ``app``, from its route table and the routes' declarations: the
    public one leaves the ``/internal/*`` routes out (only Herald's systems call them); the internal
    one (``internal=True``, ``GET /internal/openapi.json``) is the whole route table, what fuzzing reads."""
    system = app.ctx.system
    system_error = ENVELOPES.get(app.config.get("ERROR_ENVELOPE"), "PascalError")
    components = _Components()
    if system_error == "FlatError":
        components.schemas["FlatError"] = FLAT_ERROR
    paths: dict[str, dict[str, Any]] = {}
    for method, path, route in described_routes(app):
        if path.startswith(INTERNAL) and not internal:
            continue
        paths.setdefault(path, {})[method.lower()] = _operation(components, system.name, method, path, route,
                                                                system_error)
    used = {name for item in paths.values() for operation in item.values()
            for entry in operation.get("security", ()) for name in entry}
    headers = {name for item in paths.values() for operation in item.values()
               for answer in operation["responses"].values() for name in answer.get("headers", {})}
    return {
        "openapi": "3.1.0",
        "info": {"title": system.title + (" (internal)" if internal else ""), "version": str(app.ctx.settings.version),
                 "description": f"The HTTP API of Herald's {system.name} system, generated from its route table"
                                + (", with the internal routes." if internal else ".")},
        "servers": [{"url": "/"}],
        "tags": ordered_tags(list(paths)),
        "paths": paths,
        "components": {"schemas": components.schemas,
                       "headers": {name: HEADERS[name] for name in sorted(headers) if name in HEADERS},
                       "securitySchemes": {name: SECURITY_SCHEMES[name] for name in sorted(used)}},
    }


DOCS_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}: API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script><script src="/docs/assets/herald-docs.js"></script>
</body></html>
"""


@lru_cache(maxsize=None)
def _asset(name: str) -> bytes:
    return (STATIC / name).read_bytes()


def openapi_blueprint() -> Blueprint:
    bp = Blueprint("openapi")

    @bp.get("/openapi.json", ctx_responses=answers({200: {"type": "object", "required": ["openapi", "info", "paths"]}}))
    async def openapi_document(request: Request) -> HTTPResponse:
        """This system's OpenAPI 3.1 document."""
        if not hasattr(request.app.ctx, "openapi"):
            request.app.ctx.openapi = describe(request.app)
        return json(request.app.ctx.openapi)

    @bp.get("/internal/openapi.json", ctx_auth="service",
            ctx_responses=answers({200: {"type": "object", "required": ["openapi", "info", "paths"]}}))
    async def internal_openapi_document(request: Request) -> HTTPResponse:
        """This system's whole OpenAPI document, its internal routes too (what the fuzz tests read)."""
        require_service_credential(request)
        if not hasattr(request.app.ctx, "openapi_internal"):
            request.app.ctx.openapi_internal = describe(request.app, internal=True)
        return json(request.app.ctx.openapi_internal)

    @bp.get("/docs", ctx_responses=answers({200: HTML}))
    async def reference(request: Request) -> HTTPResponse:
        """A browsable reference of this system's document (Swagger UI, served from this system)."""
        return html(DOCS_PAGE.format(title=f"Herald {request.app.ctx.system.title}"))

    @bp.get("/docs/assets/<name:str>", ctx_responses=answers({200: Schema({"type": "string"}, tuple(dict.fromkeys(
        media.split(";")[0] for media in ASSETS.values())))}))
    async def asset(request: Request, name: str) -> HTTPResponse:
        """The renderer's files (no CDN at run time)."""
        if name not in ASSETS:
            raise errors.NotFound(f"No asset {name!r}.")
        return HTTPResponse(_asset(name), content_type=ASSETS[name], headers={"Cache-Control": "max-age=3600"})

    return bp
