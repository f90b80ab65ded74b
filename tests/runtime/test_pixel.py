"""Pixels over HTTP against the running runtime: made, listed, read, changed in part, rotated; only
in the person's account (404 elsewhere) and with the role each route declares (403 below it)."""

from __future__ import annotations

from models.runtime.pixel import open_credential
from tests.fixtures.access import new_tenant_id
from tests.runtime.conftest import make_pixel, new_account


async def test_an_admin_makes_a_pixel_and_a_reader_reads_it(runtime, account):
    pixel = await make_pixel(runtime, account, site="Shop.Example.COM")
    assert pixel["Id"].startswith("pxl_") and pixel["Site"] == "shop.example.com" and pixel["Enabled"] is True
    claims = open_credential(pixel["Credential"])
    assert claims is not None and (claims.pixel_id, claims.tenant, claims.site) == (pixel["Id"], account.tenant,
                                                                                   "shop.example.com")
    assert f"/pixel.js?k={pixel['Credential']}" in pixel["Snippet"]

    listed = await runtime.get("/v1/pixels", headers=account.headers(account.reader))
    assert listed.status_code == 200, listed.text
    assert [item["Id"] for item in listed.json()["Pixels"]] == [pixel["Id"]]
    one = await runtime.get(f"/v1/pixels/{pixel['Id']}", headers=account.headers(account.reader))
    assert one.status_code == 200 and one.json()["Pixel"]["Credential"] == pixel["Credential"]

    refused = await runtime.post("/v1/pixels", headers=account.headers(account.reader),
                                 json={"Name": "x", "Site": "a.example.com"})
    assert refused.status_code == 403 and refused.json()["Error"]["Code"] == "PermissionDenied"


async def test_patch_is_partial_and_a_new_site_or_a_rotation_changes_the_credential(runtime, account):
    pixel = await make_pixel(runtime, account)
    renamed = await runtime.patch(f"/v1/pixels/{pixel['Id']}", headers=account.headers(), json={"Name": "Renamed"})
    assert renamed.status_code == 200, renamed.text
    body = renamed.json()["Pixel"]
    assert (body["Name"], body["Site"], body["Replay"], body["Credential"]) == (
        "Renamed", pixel["Site"], False, pixel["Credential"])

    moved = (await runtime.patch(f"/v1/pixels/{pixel['Id']}", headers=account.headers(),
                                 json={"Site": "other.example.org"})).json()["Pixel"]
    assert moved["Name"] == "Renamed" and moved["KeyVersion"] == pixel["KeyVersion"] + 1
    assert moved["Credential"] != pixel["Credential"]

    rotated = await runtime.post(f"/v1/pixels/{pixel['Id']}/rotate-credential", headers=account.headers())
    assert rotated.status_code == 200 and rotated.json()["Pixel"]["KeyVersion"] == moved["KeyVersion"] + 1

    empty = await runtime.patch(f"/v1/pixels/{pixel['Id']}", headers=account.headers(), json={})
    assert empty.status_code == 422
    null = await runtime.patch(f"/v1/pixels/{pixel['Id']}", headers=account.headers(), json={"Name": None})
    assert null.status_code == 400
    unknown = await runtime.patch(f"/v1/pixels/{pixel['Id']}", headers=account.headers(), json={"Color": "red"})
    assert unknown.status_code == 400 and "Color" in unknown.json()["Error"]["Message"]
    bad_site = await runtime.post("/v1/pixels", headers=account.headers(),
                                  json={"Name": "x", "Site": "https://shop.example.com/"})
    assert bad_site.status_code == 400 and "Site" in bad_site.json()["Error"]["Details"]


async def test_another_accounts_pixel_is_a_404_like_a_missing_one(runtime, account, identity):
    mine = await make_pixel(runtime, account)
    other = await new_account(identity)
    theirs = await make_pixel(runtime, other)
    for pixel_id in (theirs["Id"], "pxl_000000000000000000000000"):
        answer = await runtime.get(f"/v1/pixels/{pixel_id}", headers=account.headers())
        assert answer.status_code == 404
        changed = await runtime.patch(f"/v1/pixels/{pixel_id}", headers=account.headers(), json={"Name": "mine"})
        assert changed.status_code == 404
    listed = (await runtime.get("/v1/pixels", headers=other.headers())).json()["Pixels"]
    assert [item["Id"] for item in listed] == [theirs["Id"]] and mine["Id"] not in str(listed)

    foreign = await runtime.get("/v1/pixels", headers={**account.admin.auth, "X-Service-Tenant": new_tenant_id()})
    assert foreign.status_code == 404
    anonymous = await runtime.get("/v1/pixels", headers={"X-Service-Tenant": account.tenant})
    assert anonymous.status_code == 401


async def test_a_write_with_the_session_cookie_needs_the_dashboards_origin(runtime, account, runtime_url):
    cookie = {"Cookie": f"herald_session={account.admin.token}", "X-Service-Tenant": account.tenant}
    read = await runtime.get("/v1/pixels", headers=cookie)
    assert read.status_code == 200  # reads with the cookie need no Origin
    forged = await runtime.post("/v1/pixels", headers={**cookie, "Origin": "https://evil.example.com"},
                                json={"Name": "x", "Site": "a.example.com"})
    assert forged.status_code == 403
    bare = await runtime.post("/v1/pixels", headers=cookie, json={"Name": "x", "Site": "a.example.com"})
    assert bare.status_code == 403
    same = await runtime.post("/v1/pixels", headers={**cookie, "Origin": runtime_url},
                              json={"Name": "x", "Site": "a.example.com"})
    assert same.status_code == 201, same.text
