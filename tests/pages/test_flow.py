"""The issue's "done when", in one go over HTTP: a page made of blocks with an uploaded image and a
form, a custom domain verified against the test DNS server, the page published, an A/B test at
50/50 started and its winner promoted; the TLS ask true for the verified domain and false for any
other, and the runtime resolving the page on that host."""

from __future__ import annotations

import secrets

from tests.pages.test_media import png


async def test_a_person_builds_publishes_and_ab_tests_a_page_on_a_custom_domain(pages, account, dns_server,
                                                                               service):
    headers = account.headers
    image = (await pages.post("/v1/midias", headers=headers, files={"arquivo": ("hero.png", png(9), "image/png")}))
    assert image.status_code == 201, image.text
    media_id = image.json()["Midia"]["Id"]
    form = await pages.post("/v1/formularios", headers=headers, json={
        "Name": "Leads", "Fields": [{"Name": "email", "Label": "E-mail", "Type": "email", "Required": True}],
        "Consent": {"Text": "I agree."}})
    form_id = form.json()["Formulario"]["Id"]

    host = f"flow-{secrets.token_hex(4)}.example.com"
    domain = (await pages.post("/v1/dominios", headers=headers, json={"Name": host})).json()["Dominio"]
    dns_server.publish(domain["Record"]["Name"], "TXT", domain["Record"]["Value"])
    verified = await pages.post(f"/v1/dominios/{domain['Id']}/verificar", headers=headers)
    assert verified.status_code == 200 and verified.json()["Dominio"]["Verified"]

    blocks = [{"Type": "heading", "Text": "Spring sale", "Level": 1},
              {"Type": "image", "MediaId": media_id, "Alt": ""}, {"Type": "form", "FormId": form_id}]
    page = await pages.post("/v1/paginas", headers=headers,
                            json={"Title": "Spring", "Slug": "spring", "Domain": host, "Blocks": blocks})
    assert page.status_code == 201, page.text
    page_id = page.json()["Pagina"]["Id"]
    assert (await pages.post(f"/v1/paginas/{page_id}/publicar", headers=headers)).status_code == 200

    a = (await pages.post(f"/v1/paginas/{page_id}/variantes", headers=headers,
                          json={"Name": "A", "Weight": 50})).json()["Variante"]
    b_blocks = [{"Type": "heading", "Text": "Spring: 20% off", "Level": 1}, {"Type": "form", "FormId": form_id}]
    b = (await pages.post(f"/v1/paginas/{page_id}/variantes", headers=headers,
                          json={"Name": "B", "Weight": 50, "Blocks": b_blocks})).json()["Variante"]
    started = await pages.post(f"/v1/paginas/{page_id}/ab/promover", headers=headers)
    assert started.json()["Experimento"]["Status"] == "rodando"

    # The runtime shows each visitor one variant for the whole test.
    for visitor in ("alice", "bob", "carol", "dave", "erin", "frank"):
        params = {"dominio": host, "slug": "spring", "visitante": visitor}
        first = (await pages.get("/internal/v1/paginas", headers=service, params=params)).json()["Pagina"]
        again = (await pages.get("/internal/v1/paginas", headers=service, params=params)).json()["Pagina"]
        assert first["VariantId"] == again["VariantId"] in (a["Id"], b["Id"])

    promoted = await pages.post(f"/v1/paginas/{page_id}/ab/promover", headers=headers, json={"VariantId": b["Id"]})
    assert promoted.status_code == 200 and promoted.json()["Experimento"]["Status"] == "concluido"
    live = (await pages.get("/internal/v1/paginas", headers=service, params={"dominio": host, "slug": "spring"}))
    assert live.json()["Pagina"]["Blocks"] == b_blocks and live.json()["Pagina"]["Version"] == 2

    ask = await pages.get("/internal/v1/tls/authorize", headers=service, params={"domain": host})
    assert ask.json() == {"Authorized": True, "RequestId": ask.json()["RequestId"]}
    other = await pages.get("/internal/v1/tls/authorize", headers=service, params={"domain": f"x.{host}"})
    assert other.json()["Authorized"] is False
