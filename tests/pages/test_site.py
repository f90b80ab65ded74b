"""Brand, forms and redirects over HTTP, and the internal routes the runtime reads them through."""

from __future__ import annotations

from tests.pages.conftest import new_page

FORM = {"Name": "Newsletter",
        "Fields": [{"Name": "email", "Label": "E-mail", "Type": "email", "Required": True},
                   {"Name": "plan", "Label": "Plan", "Type": "select", "Options": ["basic", "pro"]}],
        "Consent": {"Text": "I agree to receive e-mails.", "Required": True},
        "SuccessMessage": "Thanks!"}


async def test_brand_is_set_as_four_fields_and_an_empty_one_deletes_it(pages, account):
    empty = await pages.get("/v1/configuracoes/marca", headers=account.headers)
    assert empty.status_code == 200
    assert empty.json()["Marca"] == {"LogoUrl": None, "PrimaryColor": None, "SecondaryColor": None, "Font": None}
    body = {"LogoUrl": "https://cdn.example.com/logo.png", "PrimaryColor": "#FF0000", "SecondaryColor": "#00ff00",
            "Font": "Inter"}
    put = await pages.put("/v1/configuracoes/marca", headers=account.headers, json=body)
    assert put.status_code == 200 and put.json()["Marca"]["PrimaryColor"] == "#ff0000"
    cleared = await pages.put("/v1/configuracoes/marca", headers=account.headers, json={**body, "LogoUrl": ""})
    assert cleared.json()["Marca"]["LogoUrl"] is None and cleared.json()["Marca"]["Font"] == "Inter"
    read = await pages.get("/v1/configuracoes/marca", headers=account.headers)
    assert read.json()["Marca"] == cleared.json()["Marca"]
    partial = await pages.put("/v1/configuracoes/marca", headers=account.headers, json={"Font": "Inter"})
    assert partial.status_code == 400 and "LogoUrl" in partial.json()["Error"]["Details"]
    bad = await pages.put("/v1/configuracoes/marca", headers=account.headers, json={**body, "PrimaryColor": "red"})
    assert bad.status_code == 400


async def test_forms_are_made_read_and_read_by_the_runtime_with_their_account(pages, account, make_account, service):
    made = await pages.post("/v1/formularios", headers=account.headers, json=FORM)
    assert made.status_code == 201, made.text
    form = made.json()["Formulario"]
    assert form["Id"].startswith("frm_") and form["Fields"][0]["Type"] == "email" and form["Consent"]["Required"]
    assert (await pages.get(f"/v1/formularios/{form['Id']}", headers=account.headers)).json()["Formulario"] == form
    listed = await pages.get("/v1/formularios", headers=account.headers)
    assert [item["Id"] for item in listed.json()["Formularios"]] == [form["Id"]]

    internal = await pages.get(f"/internal/v1/formularios/{form['Id']}", headers=service)
    assert internal.status_code == 200 and internal.json()["Formulario"]["TenantId"] == account.tenant_id
    assert (await pages.get(f"/internal/v1/formularios/{form['Id']}", headers=account.headers)).status_code == 401

    other = await make_account(scopes=("forms:read",))
    assert (await pages.get(f"/v1/formularios/{form['Id']}", headers=other.headers)).status_code == 404
    invalid = await pages.post("/v1/formularios", headers=account.headers,
                               json={**FORM, "Fields": [{"Name": "x", "Label": "X", "Type": "select"}]})
    assert invalid.status_code == 400
    reader = await make_account(scopes=("forms:read",))
    assert (await pages.post("/v1/formularios", headers=reader.headers, json=FORM)).status_code == 403

    with_form = await new_page(pages, account.headers, slug="signup",
                               Blocks=[{"Type": "form", "FormId": form["Id"]}])
    assert with_form["Blocks"] == [{"Type": "form", "FormId": form["Id"]}]


async def test_redirects_and_their_clicks(pages, account, service):
    made = await pages.post("/v1/redirects", headers=account.headers,
                            json={"Domain": "go.example.com", "Slug": "bf", "Target": "https://shop.example.com/bf"})
    assert made.status_code == 201, made.text
    redirect = made.json()["Redirect"]
    assert redirect["StatusCode"] == 302 and redirect["Clicks"] == 0
    assert (await pages.get(f"/v1/redirects/{redirect['Id']}", headers=account.headers)).json()["Redirect"] == redirect
    dup = await pages.post("/v1/redirects", headers=account.headers,
                           json={"Domain": "go.example.com", "Slug": "bf", "Target": "https://x.example.com"})
    assert dup.status_code == 409

    # Not resolvable until the account verifies go.example.com (a host serves only its verifier's redirects).
    unresolved = await pages.get("/internal/v1/redirects", headers=service,
                                 params={"dominio": "go.example.com", "slug": "bf"})
    assert unresolved.status_code == 404

    flushed = await pages.post("/internal/v1/redirects/cliques", headers=service,
                               json={"Deltas": [{"RedirectId": redirect["Id"], "Count": 3},
                                                {"RedirectId": redirect["Id"], "Count": 4},
                                                {"RedirectId": "rdr_unknown", "Count": 1}]})
    assert flushed.status_code == 200 and flushed.json()["Counted"] == 1
    clicks = await pages.get(f"/v1/redirects/{redirect['Id']}/cliques", headers=account.headers)
    assert clicks.json()["Clicks"] == 7 and clicks.json()["LastClickAt"]


async def test_a_form_in_use_is_not_deleted_and_pages_and_redirects_are(pages, account):
    form = (await pages.post("/v1/formularios", headers=account.headers, json=FORM)).json()["Formulario"]
    page = await new_page(pages, account.headers, slug="uses-form", Blocks=[{"Type": "form", "FormId": form["Id"]}])
    in_use = await pages.delete(f"/v1/formularios/{form['Id']}", headers=account.headers)
    assert in_use.status_code == 409

    await pages.post(f"/v1/paginas/{page['Id']}/publicar", headers=account.headers)
    assert (await pages.delete(f"/v1/paginas/{page['Id']}", headers=account.headers)).status_code == 409
    await pages.post(f"/v1/paginas/{page['Id']}/despublicar", headers=account.headers)
    assert (await pages.delete(f"/v1/paginas/{page['Id']}", headers=account.headers)).status_code == 204
    assert (await pages.get(f"/v1/paginas/{page['Id']}", headers=account.headers)).status_code == 404

    assert (await pages.delete(f"/v1/formularios/{form['Id']}", headers=account.headers)).status_code == 204
    assert (await pages.get(f"/v1/formularios/{form['Id']}", headers=account.headers)).status_code == 404

    made = await pages.post("/v1/redirects", headers=account.headers,
                            json={"Domain": "go.example.com", "Slug": "gone", "Target": "https://x.example.com"})
    redirect_id = made.json()["Redirect"]["Id"]
    assert (await pages.delete(f"/v1/redirects/{redirect_id}", headers=account.headers)).status_code == 204
    assert (await pages.get(f"/v1/redirects/{redirect_id}", headers=account.headers)).status_code == 404
