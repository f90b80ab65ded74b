"""/v1/templates with an API key (real platform server, real database): create, read, page, change,
delete; the new scopes templates:read and templates:write, held by no key made without them; test keys
read but never write (templates serve live sends); another
account's template answering 404 like a missing one; bounded bodies."""

from __future__ import annotations

from app.platform.api_key.service import create_key
from models.platform.api_key import KeyKind
from models.platform.scopes import SCOPES
from models.platform.template import Template
from tests.fixtures.harness import post_declaring

READ_WRITE = ("templates:read", "templates:write")
EMAIL = {"Slug": "order-shipped", "Channel": "email", "Name": "Shipping notice", "Subject": "Order {{ order }}",
         "Text": "Hello {{ name }}, order {{ order }} is on its way.", "Html": "<p>Hello {{ name }}</p>"}


async def test_create_read_change_and_delete(platform, make_account):
    account = await make_account(scopes=READ_WRITE, kind=KeyKind.LIVE)
    made = await platform.post("/v1/templates", json=EMAIL, headers=account.headers)
    assert made.status_code == 201, made.text
    template = made.json()["Template"]
    assert template["TemplateId"].startswith("tpl_") and template["Variables"] == ["name", "order"]
    assert made.json()["RequestId"] == made.headers["X-Request-Id"]
    path = f"/v1/templates/{template['TemplateId']}"

    again = await platform.post("/v1/templates", json=EMAIL, headers=account.headers)
    assert again.status_code == 409 and again.json()["Error"]["Code"] == "Conflict", again.text

    read = await platform.get(path, headers=account.headers)
    assert read.status_code == 200 and read.json()["Template"] == template

    changed = await platform.patch(path, json={"Subject": "Shipped: {{ order }}", "Html": None},
                                   headers=account.headers)
    assert changed.status_code == 200, changed.text
    now = changed.json()["Template"]
    assert now["TemplateId"] == template["TemplateId"] and now["Subject"] == "Shipped: {{ order }}"
    assert now["Html"] is None and now["Text"] == EMAIL["Text"] and now["Slug"] == "order-shipped"

    # The channel's rules and the sandbox hold on a change as on a create.
    broken = await platform.patch(path, json={"Text": "Hi {{ name "}, headers=account.headers)
    assert broken.status_code == 422 and "Text" in broken.json()["Error"]["Details"], broken.text
    emptied = await platform.patch(path, json={"Text": None}, headers=account.headers)
    assert emptied.status_code == 422, emptied.text
    nothing = await platform.patch(path, json={}, headers=account.headers)
    assert nothing.status_code == 422
    slug = await platform.patch(path, json={"Slug": "other"}, headers=account.headers)
    assert slug.status_code == 400 and "Slug" in slug.json()["Error"]["Message"]

    assert (await platform.delete(path, headers=account.headers)).status_code == 204
    assert (await platform.get(path, headers=account.headers)).status_code == 404
    assert (await platform.delete(path, headers=account.headers)).status_code == 404
    assert (await platform.patch(path, json={"Name": "x"}, headers=account.headers)).status_code == 404


async def test_the_list_pages_by_cursor_and_the_dashboard_sees_the_same_templates(platform, make_account):
    account = await make_account(scopes=READ_WRITE, kind=KeyKind.LIVE)
    made = set()
    for index in range(5):
        answer = await platform.post("/v1/templates", json={"Slug": f"sms-{index}", "Channel": "sms",
                                                            "Text": f"Code {{{{ code }}}} ({index})"},
                                     headers=account.headers)
        assert answer.status_code == 201, answer.text
        made.add(answer.json()["Template"]["TemplateId"])
    seen, cursor = [], None
    while True:
        answer = await platform.get("/v1/templates", params={"limit": 2, **({"cursor": cursor} if cursor else {})},
                                    headers=account.headers)
        assert answer.status_code == 200, answer.text
        page = answer.json()
        assert len(page["Templates"]) <= 2
        seen += [row["TemplateId"] for row in page["Templates"]]
        if not page["HasMore"]:
            assert page["NextCursor"] is None
            break
        cursor = page["NextCursor"]
    assert sorted(seen) == sorted(made)
    assert (await platform.get("/v1/templates", params={"limit": 101}, headers=account.headers)).status_code == 422
    rows = await Template.filter(public_id__in=list(made)).prefetch_related("tenant")
    assert {row.tenant.public_id for row in rows} == {account.tenant_id}


async def test_another_account_sees_404_and_its_cursor_is_refused(platform, make_account):
    owner = await make_account(scopes=READ_WRITE, kind=KeyKind.LIVE)
    stranger = await make_account(scopes=READ_WRITE, kind=KeyKind.LIVE)
    ids = []
    for slug in ("a", "b"):
        answer = await platform.post("/v1/templates", json={**EMAIL, "Slug": slug}, headers=owner.headers)
        ids.append(answer.json()["Template"]["TemplateId"])
    for template_id in ids:
        path = f"/v1/templates/{template_id}"
        for method, body in (("GET", None), ("PATCH", {"Name": "mine"}), ("DELETE", None)):
            answer = await platform.request(method, path, json=body, headers=stranger.headers)
            assert answer.status_code == 404 and answer.json()["Error"]["Code"] == "NotFound", (method, answer.text)
    listed = await platform.get("/v1/templates", headers=stranger.headers)
    assert listed.status_code == 200 and listed.json()["Templates"] == []
    # The same slug is free in another account.
    assert (await platform.post("/v1/templates", json={**EMAIL, "Slug": "a"}, headers=stranger.headers)).status_code == 201
    cursor = (await platform.get("/v1/templates", params={"limit": 1}, headers=owner.headers)).json()["NextCursor"]
    assert cursor
    foreign = await platform.get("/v1/templates", params={"cursor": cursor}, headers=stranger.headers)
    assert foreign.status_code == 400, foreign.text
    assert await Template.filter(public_id__in=ids).count() == 2  # nothing the stranger did touched them


async def test_the_scopes_are_new_and_required(platform, make_account):
    # A key holding every other scope of the catalog (as every key made before these existed does).
    older = await make_account(scopes=tuple(scope for scope in SCOPES if not scope.startswith("templates:")))
    for method, path, body in (("GET", "/v1/templates", None), ("POST", "/v1/templates", EMAIL),
                               ("GET", "/v1/templates/tpl_0123456789abcdef", None)):
        answer = await platform.request(method, path, json=body, headers=older.headers)
        assert answer.status_code == 403 and answer.json()["Error"]["Code"] == "InsufficientScope", answer.text
    reader = await make_account(scopes=("templates:read",))
    assert (await platform.get("/v1/templates", headers=reader.headers)).status_code == 200
    refused = await platform.post("/v1/templates", json=EMAIL, headers=reader.headers)
    assert refused.status_code == 403 and refused.json()["Error"]["Details"] == {"RequiredScope": "templates:write"}
    assert {"templates:read", "templates:write"} <= set(SCOPES)


async def test_a_test_key_reads_the_templates_and_never_writes_them(platform, make_account):
    live = await make_account(scopes=READ_WRITE, kind=KeyKind.LIVE)
    template = (await platform.post("/v1/templates", json=EMAIL, headers=live.headers)).json()["Template"]
    _, test_key = await create_key(live.tenant_id, "test", list(READ_WRITE), KeyKind.TEST)
    test_headers = {"Authorization": f"Bearer {test_key}"}
    path = f"/v1/templates/{template['TemplateId']}"
    assert (await platform.get(path, headers=test_headers)).json()["Template"] == template
    assert [row["TemplateId"] for row in (await platform.get("/v1/templates", headers=test_headers)).json()["Templates"]] \
        == [template["TemplateId"]]
    for method, where, body in (("POST", "/v1/templates", {**EMAIL, "Slug": "from-test"}), ("PATCH", path, {"Name": "x"}),
                                ("DELETE", path, None)):
        answer = await platform.request(method, where, json=body, headers=test_headers)
        assert answer.status_code == 403 and answer.json()["Error"]["Code"] == "PermissionDenied", answer.text
    assert (await platform.get(path, headers=live.headers)).json()["Template"] == template


async def test_bodies_are_strict_and_bounded(platform, make_account):
    account = await make_account(scopes=READ_WRITE, kind=KeyKind.LIVE)
    unknown = await platform.post("/v1/templates", json={**EMAIL, "Colour": "red"}, headers=account.headers)
    assert unknown.status_code == 400 and "Colour" in unknown.json()["Error"]["Message"]
    huge = await platform.post("/v1/templates", json={**EMAIL, "Html": "x" * 1_000_001}, headers=account.headers)
    assert huge.status_code == 400 and "Html" in huge.json()["Error"]["Details"], huge.text[:300]
    # Refused on the declared length (a client still uploading 3 MiB may find the connection reset first).
    status, _ = await post_declaring(str(platform.base_url), "/v1/templates", 3 * 1024 * 1024, account.headers)
    assert status == 413
