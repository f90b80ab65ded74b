"""The OpenAPI documents read as a reference (issue 47): every operation of every system's document,
public and internal, is summarised and described from its handler's own docstring (not its name), and
the fields of its bodies are described where their schemas are declared.

Each test lists what is missing, so a failure says which handler or field to document. The console's
pages (HTML for browsers) are the only routes left out of the documents."""

from __future__ import annotations

import inspect

import pytest

from app.http.openapi import described_routes, describe
from tests.http.test_openapi import NAMES, build, operations

# The properties still without a description, per system: the ceiling only comes down (describe a
# field, then lower its system's figure). Every system's document is done, internal routes included:
# every field described (DESCRIBED).
# Measured 2026-11-28 (issue 47): 3958 before the first descriptions, the platform's /v1 487 of them;
# then the platform's /api, callbacks and internal routes 1010, the identity server's 73, the mail's 22,
# the CRM 603, the pages 419 and the runtime 251.
UNDESCRIBED_CEILING = {"platform": 0, "identity": 0, "crm": 0, "pages": 0, "runtime": 0, "console": 0, "mail": 0}


@pytest.fixture(scope="module")
def apps():
    return {name: build(name) for name in NAMES}


def undocumented_operations(app) -> list[str]:
    """(method, path) of every described operation whose handler has no docstring: its summary
    would be its name read as words, its description that summary again."""
    return [f"{method} {path} ({route.handler.__module__}.{route.handler.__name__})"
            for method, path, route in described_routes(app) if not inspect.getdoc(route.handler)]


def undescribed_properties(document: dict, prefix: str = "/") -> set[tuple[str, str]]:
    """(where, property) of every schema property without a description that an operation under
    ``prefix`` reaches: in its parameters, bodies and answers, and in the components they name."""
    found: set[tuple[str, str]] = set()
    seen: set[str] = set()

    def walk(node, where: str) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref", "")
            if ref.startswith("#/components/schemas/") and ref not in seen:
                seen.add(ref)
                name = ref.rsplit("/", 1)[1]
                walk(document["components"]["schemas"][name], name)
            properties = node.get("properties")
            if isinstance(properties, dict):
                found.update((where, name) for name, schema in properties.items()
                             if isinstance(schema, dict) and not schema.get("description"))
            for key, value in node.items():
                if key not in ("example", "examples"):  # values, not schemas
                    walk(value, where)
        elif isinstance(node, list):
            for value in node:
                walk(value, where)

    for path, item in document["paths"].items():
        if path.startswith(prefix):
            for method, operation in item.items():
                walk(operation, f"{method.upper()} {path}")
    return found


@pytest.mark.parametrize("system", NAMES)
def test_only_the_consoles_pages_are_left_out(apps, system):
    """The console's pages are HTML for browsers (docs/console.md), not an API: its document holds its
    meta routes only. Every other route of every system is in its system's document."""
    out = {route.path for route in apps[system].router.routes if getattr(route.ctx, "openapi", True) is False}
    if system != "console":
        assert not out
        return
    assert {"a/<account_id:id>/keys", "sign-in", "me"} <= out
    paths = set(describe(apps[system], internal=True)["paths"])
    assert paths == {"/", "/healthz", "/readyz", "/version", "/metrics", "/openapi.json", "/internal/openapi.json",
                     "/docs", "/docs/assets/{name}"}, paths


@pytest.mark.parametrize("system", NAMES)
def test_every_operation_is_summarised_and_described_by_its_handler(apps, system):
    missing = undocumented_operations(apps[system])
    assert not missing, f"{len(missing)} operations without a docstring:\n" + "\n".join(missing)
    for internal in (False, True):
        for method, path, operation in operations(describe(apps[system], internal=internal)):
            assert operation["summary"] and operation["description"], (method, path)
            # A short first sentence: a summary cut at 120 characters reads as a fragment.
            assert not operation["summary"].endswith("\u2026"), (method, path, operation["summary"])
            # The description is the whole docstring, its first sentence the summary.
            assert " ".join(operation["description"].split()).startswith(operation["summary"].rstrip("\u2026")), (
                method, path)


DESCRIBED = [(system, "/") for system in ("platform", "identity", "crm", "pages", "runtime", "console", "mail")]


@pytest.mark.parametrize(("system", "prefix"), DESCRIBED)
def test_every_field_of_the_finished_documents_is_described(apps, system, prefix):
    """Every system's document (the platform's /v1, what the SDK is generated from, its dashboard's
    /api, the operators', the callbacks; every API's internal routes; the runtime's public posts; the
    meta routes): every field of every body and answer says what it holds."""
    missing = sorted(undescribed_properties(describe(apps[system], internal=True), prefix))
    assert not missing, f"{len(missing)} fields without a description:\n" + "\n".join(map(str, missing))


@pytest.mark.parametrize("system", NAMES)
def test_undescribed_fields_only_decrease(apps, system):
    missing = undescribed_properties(describe(apps[system], internal=True))
    assert len(missing) <= UNDESCRIBED_CEILING[system], sorted(missing)
