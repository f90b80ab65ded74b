"""Signed previews over real HTTP: the pages system signs a link to a page's draft (or a version),
the runtime renders it like a published page with noindex and no-referrer, shows each saved change
of the draft at once, and refuses a forged token (404), an expired one (410) and another account's
page (the link is made only through the page's own account)."""

from __future__ import annotations

from urllib.parse import urlsplit

from app.pages.page import preview as signing
from tests.runtime.conftest import SITE_SCOPES, publish


async def _preview(pages, headers, page_id: str, **params) -> dict:
    made = await pages.post(f"/v1/paginas/{page_id}/previa", headers=headers, params=params)
    assert made.status_code == 200, made.text
    return made.json()["Previa"]


def _path(url: str) -> str:
    return urlsplit(url).path


async def test_a_draft_is_previewed_with_noindex_and_no_referrer_and_follows_each_change(pages, web, site):
    page = await publish(pages, site, "preview-me", [{"Type": "heading", "Text": "Draft <b>one</b>", "Level": 1}],
                         publish=False)
    link = await _preview(pages, site.headers, page["Id"])
    assert link["Version"] is None and link["Url"].split("/_preview/")[1] == link["Token"]
    shown = await web.get(_path(link["Url"]))
    assert shown.status_code == 200, shown.text
    assert "Draft &lt;b&gt;one&lt;/b&gt;" in shown.text and "<b>one" not in shown.text
    assert shown.headers["x-robots-tag"].startswith("noindex")
    assert shown.headers["referrer-policy"] == "no-referrer"
    assert shown.headers["cache-control"] == "no-store"
    assert shown.headers["content-security-policy"].startswith("frame-ancestors ")
    assert "herald-pixel" not in shown.text and "/collect" not in shown.text

    # The draft is not on the air: its address on the host answers 404, while the preview shows it.
    assert (await web.get("/preview-me", headers={"Host": site.host})).status_code == 404

    changed = await pages.patch(f"/v1/paginas/{page['Id']}", headers=site.headers,
                                json={"Blocks": [{"Type": "heading", "Text": "Draft two", "Level": 1}]})
    assert changed.status_code == 200
    assert "Draft two" in (await web.get(_path(link["Url"]))).text  # the same link, the new draft

    published = await pages.post(f"/v1/paginas/{page['Id']}/publicar", headers=site.headers)
    assert published.status_code == 200
    await pages.patch(f"/v1/paginas/{page['Id']}", headers=site.headers,
                      json={"Blocks": [{"Type": "heading", "Text": "Draft three", "Level": 1}]})
    version = await _preview(pages, site.headers, page["Id"], versao="1")
    assert version["Version"] == 1
    assert "Draft two" in (await web.get(_path(version["Url"]))).text
    assert (await pages.post(f"/v1/paginas/{page['Id']}/previa", headers=site.headers,
                             params={"versao": "9"})).status_code == 404


async def test_forged_expired_and_other_accounts_links_are_refused(pages, web, site, make_account):
    page = await publish(pages, site, "secret-draft", [{"Type": "text", "Text": "Not yet"}], publish=False)
    token = (await _preview(pages, site.headers, page["Id"]))["Token"]
    body, mac = token.split(".")
    forged_mac = body + "." + ("A" if mac[0] != "A" else "B") + mac[1:]
    assert (await web.get(f"/_preview/{forged_mac}")).status_code == 404
    # Claims rewritten without the key (another page of the token's shape): the signature no longer matches.
    other = signing.SEALER.sign("another-purpose", {"t": site.tenant, "p": page["Id"], "v": 0}, 600)
    refused = await web.get(f"/_preview/{other}")
    assert refused.status_code == 404 and refused.headers["x-robots-tag"].startswith("noindex")
    assert (await web.get("/_preview/not-a-token")).status_code == 404

    expired = signing.sign(site.tenant, page["Id"], 0, ttl=-5)
    gone = await web.get(f"/_preview/{expired}")
    assert gone.status_code == 410 and "expired" in gone.text and "Not yet" not in gone.text

    # Another account's page: its preview is never made, and a token naming the wrong account shows nothing.
    stranger = await make_account(scopes=SITE_SCOPES)
    assert (await pages.post(f"/v1/paginas/{page['Id']}/previa", headers=stranger.headers)).status_code == 404
    crossed = signing.sign(stranger.tenant_id, page["Id"], 0)
    assert (await web.get(f"/_preview/{crossed}")).status_code == 404

    # The internal route needs the service credential.
    assert (await pages.get(f"/internal/v1/previas/{token}", headers=site.headers)).status_code == 401
