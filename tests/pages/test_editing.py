"""Editing and deleting over HTTP: PATCH/DELETE of forms and redirects (only the fields sent, validated
as on create, scopes, 404 foreign) and DELETE of media (the row, then the file once no row of any
account names the content; 409 while a page uses the image)."""

from __future__ import annotations

from tests.pages.conftest import make_list, new_page
from tests.pages.test_media import media_dir, png
from tests.pages.test_site import FORM


async def test_a_form_is_edited_field_by_field(pages, account, make_account, service, servers):
    form = (await pages.post("/v1/formularios", headers=account.headers,
                             json={**FORM, "RedirectUrl": "https://example.com/thanks"})).json()["Formulario"]
    path = f"/v1/formularios/{form['Id']}"
    renamed = await pages.patch(path, headers=account.headers, json={"Name": "Leads", "Consent": None})
    assert renamed.status_code == 200, renamed.text
    edited = renamed.json()["Formulario"]
    assert edited["Name"] == "Leads" and edited["Consent"] is None
    assert edited["Fields"] == form["Fields"] and edited["Destination"] == form["Destination"]
    assert edited["RedirectUrl"] == "https://example.com/thanks" and edited["SuccessMessage"] == "Thanks!"
    assert (await pages.get(path, headers=account.headers)).json()["Formulario"] == edited

    await make_list(servers("crm").url, service, account.tenant_id, "leads")  # checked at save
    moved = (await pages.patch(path, headers=account.headers,
                               json={"Destination": {"CrmList": "leads"}})).json()["Formulario"]
    assert moved["Destination"] == {"CrmList": "leads"} and moved["RedirectUrl"] == "https://example.com/thanks"
    cleared = (await pages.patch(path, headers=account.headers, json={"RedirectUrl": None})).json()["Formulario"]
    assert cleared["RedirectUrl"] is None and cleared["Destination"] == {"CrmList": "leads"}

    for bad in ({"Fields": []}, {"Name": ""}, {"RedirectUrl": "javascript:alert(1)"}, {"Unknown": 1},
                {"Fields": [{"Name": "a", "Label": "A", "Type": "text"}, {"Name": "a", "Label": "B", "Type": "text"}]}):
        answer = await pages.patch(path, headers=account.headers, json=bad)
        assert answer.status_code == 400, (bad, answer.text)
    assert (await pages.get(path, headers=account.headers)).json()["Formulario"] == cleared

    other = await make_account(scopes=("forms:read", "forms:write"))
    assert (await pages.patch(path, headers=other.headers, json={"Name": "x"})).status_code == 404
    assert (await pages.delete(path, headers=other.headers)).status_code == 404
    reader = await make_account(scopes=("forms:read",))
    assert (await pages.patch(path, headers=reader.headers, json={"Name": "x"})).status_code == 403
    pages_only = await make_account(scopes=("pages:write",))
    assert (await pages.delete(path, headers=pages_only.headers)).status_code == 403
    assert (await pages.delete(path, headers=account.headers)).status_code == 204
    assert (await pages.patch(path, headers=account.headers, json={"Name": "x"})).status_code == 404


async def test_a_redirect_is_edited_and_keeps_its_clicks(pages, account, make_account, service):
    made = (await pages.post("/v1/redirects", headers=account.headers,
                             json={"Domain": "edit.example.com", "Slug": "a", "Target": "https://example.com/a"}))
    redirect = made.json()["Redirect"]
    other = (await pages.post("/v1/redirects", headers=account.headers,
                              json={"Domain": "edit.example.com", "Slug": "b", "Target": "https://example.com/b"}))
    assert other.status_code == 201
    await pages.post("/internal/v1/redirects/cliques", headers=service,
                     json={"Deltas": [{"RedirectId": redirect["Id"], "Count": 3}]})
    path = f"/v1/redirects/{redirect['Id']}"
    changed = await pages.patch(path, headers=account.headers, json={"Target": "https://example.com/new",
                                                                     "StatusCode": 301})
    assert changed.status_code == 200, changed.text
    body = changed.json()["Redirect"]
    assert body["Target"] == "https://example.com/new" and body["StatusCode"] == 301
    assert body["Slug"] == "a" and body["Domain"] == "edit.example.com" and body["Clicks"] == 3

    clash = await pages.patch(path, headers=account.headers, json={"Slug": "b"})
    assert clash.status_code == 409
    for bad in ({"Target": "ftp://example.com"}, {"StatusCode": 200}, {"Slug": "Not A Slug"}, {"Domain": "x"}):
        assert (await pages.patch(path, headers=account.headers, json=bad)).status_code == 400, bad
    assert (await pages.get(path, headers=account.headers)).json()["Redirect"] == body
    renamed = await pages.patch(path, headers=account.headers, json={"Slug": "c"})
    assert renamed.status_code == 200 and renamed.json()["Redirect"]["Slug"] == "c"

    stranger = await make_account(scopes=("pages:read", "pages:write"))
    assert (await pages.patch(path, headers=stranger.headers, json={"Slug": "d"})).status_code == 404
    assert (await pages.delete(path, headers=stranger.headers)).status_code == 404
    reader = await make_account(scopes=("pages:read",))
    assert (await pages.patch(path, headers=reader.headers, json={"Slug": "d"})).status_code == 403
    assert (await pages.delete(path, headers=reader.headers)).status_code == 403
    assert (await pages.delete(path, headers=account.headers)).status_code == 204
    assert (await pages.get(path, headers=account.headers)).status_code == 404


async def test_deleting_media_removes_the_file_once_no_row_names_it(pages, account, make_account):
    image = png(201)
    upload = {"arquivo": ("a.png", image, "image/png")}
    mine = (await pages.post("/v1/midias", headers=account.headers, files=upload)).json()["Midia"]
    other = await make_account(scopes=("pages:read", "pages:write"))
    theirs = (await pages.post("/v1/midias", headers=other.headers, files=upload)).json()["Midia"]
    assert mine["Sha256"] == theirs["Sha256"] and mine["Id"] != theirs["Id"]
    stored = media_dir() / mine["Sha256"]
    assert stored.exists()

    assert (await pages.delete(f"/v1/midias/{mine['Id']}", headers=other.headers)).status_code == 404
    reader = await make_account(scopes=("pages:read",))
    assert (await pages.delete(f"/v1/midias/{mine['Id']}", headers=reader.headers)).status_code == 403

    assert (await pages.delete(f"/v1/midias/{mine['Id']}", headers=account.headers)).status_code == 204
    assert (await pages.get(mine["Url"])).status_code == 404
    assert stored.exists()  # the other account's row still names it
    assert (await pages.get(theirs["Url"])).content == image
    assert (await pages.delete(f"/v1/midias/{mine['Id']}", headers=account.headers)).status_code == 404

    assert (await pages.delete(f"/v1/midias/{theirs['Id']}", headers=other.headers)).status_code == 204
    assert not stored.exists()
    again = await pages.post("/v1/midias", headers=account.headers, files=upload)
    assert again.status_code == 201 and stored.read_bytes() == image


async def test_an_image_a_page_uses_is_not_deleted(pages, account):
    media = (await pages.post("/v1/midias", headers=account.headers,
                              files={"arquivo": ("b.png", png(202), "image/png")})).json()["Midia"]
    page = await new_page(pages, account.headers, slug="with-image",
                          Blocks=[{"Type": "image", "MediaId": media["Id"], "Alt": "logo"}])
    in_use = await pages.delete(f"/v1/midias/{media['Id']}", headers=account.headers)
    assert in_use.status_code == 409 and in_use.json()["Error"]["Code"] == "Conflict"
    assert (media_dir() / media["Sha256"]).exists()
    await pages.patch(f"/v1/paginas/{page['Id']}", headers=account.headers,
                      json={"Blocks": [{"Type": "text", "Text": "no image"}]})
    assert (await pages.delete(f"/v1/midias/{media['Id']}", headers=account.headers)).status_code == 204
    assert not (media_dir() / media["Sha256"]).exists()
