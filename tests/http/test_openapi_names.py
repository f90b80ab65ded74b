"""How the OpenAPI documents name their operations: one-line summaries from the handlers' docstrings,
tags by noun with the public API first, unique schema titles (app/http/openapi_names.py)."""

from __future__ import annotations

import inspect

import pytest

from app.http.openapi import describe, described_routes
from tests.http.test_openapi import NAMES, apps, operations  # noqa: F401 - apps is the module's fixture


@pytest.mark.parametrize("system", NAMES)
def test_every_operation_has_a_one_line_summary_and_a_description(apps, system):
    for method, path, operation in operations(describe(apps[system])):
        summary = operation["summary"]
        assert summary and "\n" not in summary and len(summary) <= 120, (method, path, summary)
        assert operation["description"], (method, path)


def test_the_public_api_and_meta_handlers_say_what_they_do(apps):
    """The summaries people read first come from the handlers' own docstrings, not their names."""
    for system in NAMES:
        for method, path, route in described_routes(apps[system]):
            public = system in ("platform", "mail") and path.startswith("/v1/")  # the two key-gated APIs
            if public or path in ("/", "/healthz", "/readyz", "/version", "/metrics", "/openapi.json", "/docs"):
                assert inspect.getdoc(route.handler), (system, method, path)
    send = describe(apps["platform"])["paths"]["/v1/emails/send"]["post"]
    assert send["summary"] == ("Send one e-mail: accepted (202) and queued; its MessageId follows it through "
                               "/v1/emails and the webhooks")
    assert send["description"].startswith(send["summary"])


def test_summary_is_the_first_sentence_on_one_line():
    from app.http.openapi_names import summary_of

    assert summary_of("Cancel a scheduled e-mail. It will\nnever be sent.\n\nMore.") == "Cancel a scheduled e-mail"
    assert summary_of("One e-mail, by its id\n(msg_...) from the store.") == (
        "One e-mail, by its id (msg_...) from the store")
    long = summary_of("word " * 60)
    assert len(long) <= 120 and long.endswith("\u2026") and "\n" not in long


@pytest.mark.parametrize("system", NAMES)
def test_operations_are_tagged_by_noun_with_the_public_api_first(apps, system):
    document = describe(apps[system])
    names = [tag["name"] for tag in document["tags"]]
    used = {tag for _, _, operation in operations(document) for tag in operation["tags"]}
    assert set(names) == used and len(names) == len(set(names))
    assert names[-1] == "Meta"
    public = {tag for method, path, operation in operations(document) if path.startswith("/v1/")
              for tag in operation["tags"]}
    families = ["v1" if tag in public else "other" for tag in names]
    assert families == sorted(families, key=lambda family: family != "v1")  # every /v1 noun before the rest


def test_the_platforms_tags_read_as_nouns(apps):
    document = describe(apps["platform"])
    paths = document["paths"]
    assert paths["/v1/emails/send"]["post"]["tags"] == ["Emails"]
    assert paths["/v1/webhooks/{webhook_id}"]["get"]["tags"] == ["Webhooks"]
    assert paths["/api/messages"]["get"]["tags"] == ["Messages (dashboard)"]
    assert paths["/api/admin/blacklist"]["get"]["tags"] == ["Operator: blacklist"]
    assert paths["/healthz"]["get"]["tags"] == ["Meta"]
    names = [tag["name"] for tag in document["tags"]]
    assert names.index("Webhooks") < names.index("Messages (dashboard)") < names.index("Operator: blacklist")
    assert all(tag.get("description") for tag in document["tags"] if tag["name"] in ("Emails", "Meta"))


@pytest.mark.parametrize("system", NAMES)
def test_no_two_component_schemas_share_a_title(apps, system):
    schemas = describe(apps[system])["components"]["schemas"]
    titles = [schema["title"] for schema in schemas.values() if "title" in schema]
    assert len(titles) == len(set(titles)), sorted(title for title in titles if titles.count(title) > 1)
