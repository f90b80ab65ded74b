"""Pages over HTTP: create from typed blocks, read, partial update, publish with versions, unpublish,
restore; scopes per route; another account's page is a 404 like a missing one."""

from __future__ import annotations

from tests.pages.conftest import new_page


async def test_a_page_is_created_from_blocks_and_read_back(pages, account):
    page = await new_page(pages, account.headers, Seo={"Title": "BF", "Description": "Deals", "NoIndex": False})
    assert page["Id"].startswith("pag_") and page["Status"] == "rascunho" and page["PublishedVersion"] is None
    assert page["Blocks"][0] == {"Type": "heading", "Text": "Up to 50% off", "Level": 1}
    assert page["Seo"]["Title"] == "BF"

    read = await pages.get(f"/v1/paginas/{page['Id']}", headers=account.headers)
    assert read.status_code == 200 and read.json()["Pagina"] == page
    listed = await pages.get("/v1/paginas", headers=account.headers)
    assert [item["Id"] for item in listed.json()["Paginas"]] == [page["Id"]]


async def test_blocks_slug_and_title_are_validated(pages, account):
    base = {"Title": "T", "Slug": "ok"}
    for body, field in [({**base, "Slug": "Not A Slug"}, "Slug"), ({**base, "Title": "   "}, "Title"),
                        ({**base, "Blocks": [{"Type": "marquee"}]}, "Blocks.0"),
                        ({**base, "Blocks": [{"Type": "image"}]}, "Blocks.0.image.MediaId"),
                        ({**base, "Blocks": [{"Type": "embed", "Url": "http://insecure.example"}]},
                         "Blocks.0.embed.Url"),
                        ({**base, "Colour": "red"}, "Colour")]:
        answer = await pages.post("/v1/paginas", headers=account.headers, json=body)
        assert answer.status_code == 400, (body, answer.text)
        assert field in answer.json()["Error"]["Details"], answer.json()
    missing_form = await pages.post("/v1/paginas", headers=account.headers,
                                    json={**base, "Blocks": [{"Type": "form", "FormId": "frm_nope"}]})
    assert missing_form.status_code == 422 and "frm_nope" in missing_form.json()["Error"]["Details"]


async def test_patch_touches_only_what_is_sent_and_validates_like_create(pages, account):
    page = await new_page(pages, account.headers)
    patched = await pages.patch(f"/v1/paginas/{page['Id']}", headers=account.headers, json={"Title": "Cyber Monday"})
    assert patched.status_code == 200
    body = patched.json()["Pagina"]
    assert body["Title"] == "Cyber Monday" and body["Slug"] == page["Slug"] and body["Blocks"] == page["Blocks"]
    for bad in ({"Slug": "UPPER"}, {"Title": ""}, {"Slug": "r"}):
        answer = await pages.patch(f"/v1/paginas/{page['Id']}", headers=account.headers, json=bad)
        assert answer.status_code == 400, answer.text
    other = await new_page(pages, account.headers, slug="other")
    clash = await pages.patch(f"/v1/paginas/{other['Id']}", headers=account.headers, json={"Slug": page["Slug"]})
    assert clash.status_code == 409 and clash.json()["Error"]["Code"] == "Conflict"
    dup = await pages.post("/v1/paginas", headers=account.headers, json={"Title": "x", "Slug": page["Slug"]})
    assert dup.status_code == 409


async def test_publish_keeps_every_version_to_roll_back_to(pages, account):
    page = await new_page(pages, account.headers)
    first = await pages.post(f"/v1/paginas/{page['Id']}/publicar", headers=account.headers)
    assert first.status_code == 200, first.text
    assert first.json()["Versao"]["Number"] == 1 and first.json()["Pagina"]["Status"] == "publicado"
    await pages.patch(f"/v1/paginas/{page['Id']}", headers=account.headers,
                      json={"Blocks": [{"Type": "text", "Text": "Second edition"}]})
    second = await pages.post(f"/v1/paginas/{page['Id']}/publicar", headers=account.headers)
    assert second.json()["Pagina"]["PublishedVersion"] == 2

    versions = (await pages.get(f"/v1/paginas/{page['Id']}/versoes", headers=account.headers)).json()["Versoes"]
    assert [(v["Number"], v["Live"]) for v in versions] == [(2, True), (1, False)]
    assert versions[1]["Blocks"] == page["Blocks"]

    restored = await pages.post(f"/v1/paginas/{page['Id']}/versoes/1/restaurar", headers=account.headers)
    assert restored.status_code == 200 and restored.json()["Pagina"]["Blocks"] == page["Blocks"]
    assert restored.json()["Pagina"]["PublishedVersion"] == 2  # restoring edits the draft only
    assert (await pages.post(f"/v1/paginas/{page['Id']}/versoes/9/restaurar",
                             headers=account.headers)).status_code == 404

    off = await pages.post(f"/v1/paginas/{page['Id']}/despublicar", headers=account.headers)
    assert off.json()["Pagina"]["Status"] == "rascunho" and off.json()["Pagina"]["PublishedVersion"] is None
    versions = (await pages.get(f"/v1/paginas/{page['Id']}/versoes", headers=account.headers)).json()["Versoes"]
    assert len(versions) == 2 and not any(v["Live"] for v in versions)


async def test_each_route_needs_its_scope(pages, make_account):
    writer = await make_account(scopes=("pages:read", "pages:write"))
    page = await new_page(pages, writer.headers)
    refused = await pages.post(f"/v1/paginas/{page['Id']}/publicar", headers=writer.headers)
    assert refused.status_code == 403 and refused.json()["Error"]["Code"] == "InsufficientScope"
    assert "pages:publish" in refused.json()["Error"]["Message"]

    reader = await make_account(scopes=("pages:read",))
    created = await pages.post("/v1/paginas", headers=reader.headers, json={"Title": "x", "Slug": "x"})
    assert created.status_code == 403
    mailer = await make_account(scopes=("email:send",))
    assert (await pages.get("/v1/paginas", headers=mailer.headers)).status_code == 403


async def test_credentials_are_required_and_checked(pages):
    assert (await pages.get("/v1/paginas")).status_code == 401
    forged = {"Authorization": "Bearer sk_live_" + "0" * 48}
    assert (await pages.get("/v1/paginas", headers=forged)).json()["Error"]["Code"] == "AuthorizationError"
    assert (await pages.get("/v1/paginas", headers={"X-Api-Key": "sk_live_" + "0" * 48})).status_code == 401


async def test_another_accounts_page_is_the_same_404_as_a_missing_one(pages, account, make_account):
    page = await new_page(pages, account.headers)
    other = await make_account(scopes=("pages:read", "pages:write", "pages:publish"))
    foreign = await pages.get(f"/v1/paginas/{page['Id']}", headers=other.headers)
    missing = await pages.get("/v1/paginas/pag_000000000000000000000000", headers=other.headers)
    assert foreign.status_code == missing.status_code == 404
    assert foreign.json()["Error"]["Message"] == missing.json()["Error"]["Message"]
    assert (await pages.post(f"/v1/paginas/{page['Id']}/publicar", headers=other.headers)).status_code == 404
    assert (await pages.get("/v1/paginas", headers=other.headers)).json()["Paginas"] == []
