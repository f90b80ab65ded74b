"""Datacenter ASNs and the per-address ceiling of /collect, over real HTTP: an ASN the operator
listed on the platform, stated by the edge in ``X-Client-ASN``, makes the consumer class the visit as
``hosting`` traffic with the reason ``asn:<number>`` (seen in traffic quality, kept out of the
human reads); one address past ``RUNTIME_COLLECT_PER_ADDRESS`` batches a minute gets 429."""

from __future__ import annotations

import random

from app.runtime.collect.service import asn_of
from tests.runtime.conftest import BROWSER, consumer_process, eventually, make_pixel, visit

SITE = "https://shop.example.com"


async def test_an_asn_of_the_operators_list_is_classed_as_hosting_with_its_reason(servers, runtime, account, services,
                                                                                 tmp_path):
    from models.platform.datacenter_asn import DatacenterAsn

    servers("platform")
    listed = random.randint(4_200_000_000, 4_294_000_000)
    await DatacenterAsn.create(asn=listed, name="Test cloud", created_by="test")
    consumer = consumer_process(services, tmp_path)  # started after the list: it reads it at once
    try:
        pixel = await make_pixel(runtime, account)
        params, origin = {"k": pixel["Credential"]}, {"Origin": SITE, "User-Agent": BROWSER}
        cloud = await runtime.post("/collect", params=params, headers={**origin, "X-Client-ASN": f"AS{listed}"},
                                   json=visit(f"{SITE}/", {"Type": "pageview"}, session="sess-cloud"))
        person = await runtime.post("/collect", params=params, headers={**origin, "X-Client-ASN": "3320"},
                                    json=visit(f"{SITE}/", {"Type": "pageview"}, session="sess-person"))
        assert cloud.status_code == person.status_code == 204

        seen = {}

        async def classed() -> bool:
            answer = await runtime.get("/v1/analytics/traffic-quality", headers=account.headers())
            quality = seen["last"] = answer.json()["TrafficQuality"]
            return quality["Human"] == 1 and {"Class": "hosting", "Reason": f"asn:{listed}", "Events": 1} in \
                quality["Reasons"]
        try:
            await eventually(classed, what="the datacenter visit classed")
        except AssertionError:
            raise AssertionError(f"{seen}; consumer log: {consumer.log.read_text()[-3000:]}") from None
        overview = (await runtime.get("/v1/analytics/overview", headers=account.headers())).json()["Overview"]
        assert overview["Pageviews"] == 1  # only the person counts
    finally:
        consumer.stop()
        await DatacenterAsn.filter(asn=listed).delete()


def test_the_edge_reads_the_asn_header_strictly():
    assert asn_of({"x-client-asn": "AS16509"}) == 16509
    assert asn_of({"x-client-asn": " 13335 "}) == 13335
    for bad in ("", "AS", "-1", "12a", "99999999999", "4294967296"):
        assert asn_of({"x-client-asn": bad}) == 0, bad
    assert asn_of({}) == 0


async def test_one_address_past_its_ceiling_gets_429_on_collect(start_server, servers, account, identity, redis):
    import httpx

    async for key in redis.scan_iter(match="{runtime-collect}:addr:*"):  # other tests post from 127.0.0.1 too
        await redis.delete(key)
    servers("identity")
    limited = start_server("runtime", RUNTIME_COLLECT_PER_ADDRESS="3")
    async with httpx.AsyncClient(base_url=limited.url, timeout=20) as client:
        pixel = await make_pixel(client, account)
        body = visit(f"{SITE}/", {"Type": "pageview"})
        statuses = [(await client.post("/collect", params={"k": pixel["Credential"]}, headers={"Origin": SITE},
                                       json=body)).status_code for _ in range(4)]
        assert statuses == [204, 204, 204, 429]
        refused = await client.post("/collect", params={"k": pixel["Credential"]}, headers={"Origin": SITE}, json=body)
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
        assert refused.headers["access-control-allow-origin"] == SITE
        assert refused.json()["Error"]["Code"] == "Throttling"
