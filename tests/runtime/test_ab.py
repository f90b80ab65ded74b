"""``GET /v1/analytics/ab`` over real HTTP: a published page under an A/B test shows a visitor one
variant, whose pixel tag and form carry that variant; the visit (through /collect and the consumer)
and the form submission are counted on that side: visitors, conversions and the rate."""

from __future__ import annotations

import re
import secrets

import httpx

from models.runtime.pixel import Pixel
from tests.fixtures.access import grant
from tests.fixtures.identity import make_person
from tests.runtime.conftest import BROWSER, eventually, new_form, publish, visit


async def test_ab_counts_visitors_and_conversions_per_variant(pages, web, site, identity, consumer):
    await Pixel.create(public_id=f"pxl_{secrets.token_hex(8)}", tenant=site.tenant, name="Site", site=site.host)
    form = await new_form(pages, site, consent=False)
    blocks = [{"Type": "heading", "Text": "Offer"}, {"Type": "form", "FormId": form["Id"]}]
    page = await publish(pages, site, "offer", blocks)
    for name in ("A", "B"):
        made = await pages.post(f"/v1/paginas/{page['Id']}/variantes", headers=site.headers,
                                json={"Name": name, "Weight": 50, "Blocks": blocks})
        assert made.status_code == 201, made.text
    assert (await pages.post(f"/v1/paginas/{page['Id']}/ab/promover", headers=site.headers)).status_code == 200

    host = {"Host": site.host, "User-Agent": BROWSER}
    sides = {}
    for index in range(4):
        visitor = f"ab-visitor-{index}-{secrets.token_hex(6)}"
        shown = await web.get("/offer", headers={**host, "Cookie": f"hv={visitor}"})
        assert shown.status_code == 200
        credential = re.search(r'data-credential="([^"]+)"', shown.text).group(1)
        variant = re.search(r'data-variant="([^"]+)"', shown.text).group(1)
        assert f'name="_variant" value="{variant}"' in shown.text
        collected = await web.post("/collect", params={"k": credential}, headers={"Origin": f"http://{site.host}"},
                                   json=visit(f"http://{site.host}/offer",
                                              {"Type": "pageview", "Page": "/offer", "Variant": variant, "New": True},
                                              session=f"sess-ab-{index}-{secrets.token_hex(4)}"))
        assert collected.status_code == 204, collected.text
        sides.setdefault(variant, {"visitors": 0, "conversions": 0})["visitors"] += 1
        if index % 2 == 0:
            sent = await web.post("/offer", headers={**host, "Cookie": f"hv={visitor}"},
                                  json={"Fields": {"email": f"ab{index}@example.com"}})
            assert sent.status_code == 201, sent.text
            sides[variant]["conversions"] += 1

    reader = await make_person(identity, "ab-reader")
    await grant(identity, site.tenant, reader.id, "analytics", "leitor")
    headers = {**reader.auth, "X-Service-Tenant": site.tenant}
    answer = {}

    async def counted() -> bool:
        got = await web.get("/v1/analytics/ab", params={"pagina": "/offer"}, headers=headers)
        assert got.status_code == 200, got.text
        answer.update(got.json())
        return got.json()["AB"]["Visitors"] == 4
    await eventually(counted, what="the visits counted per variant")
    by_variant = {item["Variant"]: item for item in answer["AB"]["Variants"]}
    assert set(by_variant) == set(sides)
    for variant, expected in sides.items():
        item = by_variant[variant]
        assert (item["Visitors"], item["Conversions"]) == (expected["visitors"], expected["conversions"])
        assert item["Rate"] == round(expected["conversions"] / expected["visitors"], 4)
    assert answer["AB"]["Conversions"] == 2

    missing = await web.get("/v1/analytics/ab", headers=headers)
    assert missing.status_code == 422
    async with httpx.AsyncClient(base_url=str(web.base_url)) as anonymous:
        assert (await anonymous.get("/v1/analytics/ab", params={"pagina": "/offer"})).status_code == 401
