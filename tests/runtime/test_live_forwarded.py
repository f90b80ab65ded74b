"""The live stream's per-address cap counts the person's address the console forwards when it relays
the stream (``X-Service-Client-Ip`` beside the service credential in ``X-Service-Token``), not the
console's own, which every relayed stream shares; without the credential the header is ignored and
the peer's address counts (docs/runtime.md, "The live stream")."""

from __future__ import annotations

import asyncio

import httpx

from tests.runtime.conftest import new_account
from tests.runtime.test_live import STREAM, no_stream_open_from_here


async def test_the_address_cap_counts_the_forwarded_address_only_with_the_service_credential(
        start_server, identity, services):
    server = start_server("runtime", RUNTIME_SSE_HEARTBEAT_SECONDS="1", RUNTIME_LIVE_STREAMS="10")
    people = [await new_account(identity) for _ in range(4)]
    await no_stream_open_from_here(services)
    token = services.env["SERVICE_TOKEN"]

    def relayed(account, address: str, proof: str = token) -> dict:
        return {**account.headers(), "X-Service-Client-Ip": address, "X-Service-Token": proof}

    async with httpx.AsyncClient(base_url=server.url, timeout=20) as client:
        opened = []
        try:
            for account in people[:3]:  # three people behind one forwarded address
                response = await client.send(client.build_request("GET", STREAM, headers=relayed(account, "203.0.113.7")),
                                             stream=True)
                opened.append(response)
                assert response.status_code == 200
            refused = await asyncio.wait_for(client.get(STREAM, headers=relayed(people[3], "203.0.113.7")), 10)
            assert refused.status_code == 429
            assert "This address already has 3" in refused.json()["Error"]["Message"]
            # Another address forwarded: its own places, though every request comes from 127.0.0.1.
            async with client.stream("GET", STREAM, headers=relayed(people[3], "203.0.113.8")) as other:
                assert other.status_code == 200
            # The header without the credential is not believed: the peer's address (free) counts.
            async with client.stream("GET", STREAM, headers=relayed(people[3], "203.0.113.7", "not-the-token")) as forged:
                assert forged.status_code == 200
        finally:
            for response in opened:
                await response.aclose()
