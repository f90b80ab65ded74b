"""Custom domains against a loopback DNS server: created unverified; every verification attempt
recorded; DNS unreachable 503 with Retry-After, record absent 422 saying what to publish; the TLS ask
true only for a verified domain, and deletion the only way to withdraw it. Then the runtime's reads."""

from __future__ import annotations

import secrets

from tests.pages.conftest import new_page


def host() -> str:
    return f"lp-{secrets.token_hex(4)}.example.com"


async def add(pages, account, name: str) -> dict:
    made = await pages.post("/v1/dominios", headers=account.headers, json={"Name": name})
    assert made.status_code == 201, made.text
    return made.json()["Dominio"]


async def test_a_domain_is_verified_by_its_txt_record_and_every_attempt_is_recorded(pages, account, dns_server):
    name = host()
    domain = await add(pages, account, name.upper() + ".")
    assert domain["Name"] == name and domain["Status"] == "nao_verificado" and not domain["Verified"]
    record = domain["Record"]
    assert record["Type"] == "TXT" and record["Name"] == f"_herald-verify.{name}"
    assert record["Value"].startswith("herald-verify=")

    absent = await pages.post(f"/v1/dominios/{domain['Id']}/verificar", headers=account.headers)
    assert absent.status_code == 422 and absent.json()["Error"]["Code"] == "DomainNotVerified"
    assert absent.json()["Error"]["Details"]["RecordValue"] == record["Value"]
    read = (await pages.get(f"/v1/dominios/{domain['Id']}", headers=account.headers)).json()["Dominio"]
    assert read["LastCheck"]["Outcome"] == "absent" and not read["Verified"]

    dns_server.failing = True
    try:
        down = await pages.post(f"/v1/dominios/{domain['Id']}/verificar", headers=account.headers)
    finally:
        dns_server.failing = False
    assert down.status_code == 503 and down.headers.get("Retry-After")
    assert down.json()["Error"]["Code"] == "VerificacaoIndisponivel"
    read = (await pages.get(f"/v1/dominios/{domain['Id']}", headers=account.headers)).json()["Dominio"]
    assert read["LastCheck"]["Outcome"] == "unreachable"

    dns_server.publish(record["Name"], "TXT", record["Value"])
    verified = await pages.post(f"/v1/dominios/{domain['Id']}/verificar", headers=account.headers)
    assert verified.status_code == 200, verified.text
    body = verified.json()["Dominio"]
    assert body["Verified"] and body["Status"] == "verificado" and body["VerifiedAt"]
    assert body["LastCheck"]["Outcome"] == "verified"


async def test_the_tls_ask_is_true_only_for_a_verified_domain_until_it_is_deleted(pages, account, dns_server, service):
    name = host()
    domain = await add(pages, account, name)

    async def ask(domain_name: str):
        return await pages.get("/internal/v1/tls/authorize", headers=service, params={"domain": domain_name})

    assert (await ask(name)).json()["Authorized"] is False  # unverified
    assert (await ask("never-heard-of.example.org")).json()["Authorized"] is False
    assert (await ask("not a host")).json()["Authorized"] is False
    assert (await pages.get("/internal/v1/tls/authorize", params={"domain": name})).status_code == 401

    dns_server.publish(domain["Record"]["Name"], "TXT", domain["Record"]["Value"])
    assert (await pages.post(f"/v1/dominios/{domain['Id']}/verificar", headers=account.headers)).status_code == 200
    await wait_for_cache()
    assert (await ask(name)).json()["Authorized"] is True
    proxy = await pages.get("/tls/ask", params={"domain": name})  # what Caddy calls: no credential
    assert proxy.status_code == 200
    assert (await pages.get("/tls/ask", params={"domain": host()})).status_code == 404

    assert (await pages.delete(f"/v1/dominios/{domain['Id']}", headers=account.headers)).status_code == 204
    await wait_for_cache()
    assert (await ask(name)).json()["Authorized"] is False
    assert (await pages.get("/tls/ask", params={"domain": name})).status_code == 404
    assert (await pages.get(f"/v1/dominios/{domain['Id']}", headers=account.headers)).status_code == 404


async def wait_for_cache() -> None:
    import asyncio

    from app.pages.page.internal import TLS_CACHE_SECONDS

    await asyncio.sleep(TLS_CACHE_SECONDS + 0.1)


async def test_the_runtime_resolves_published_pages_and_redirects_on_a_verified_host(pages, account, dns_server,
                                                                                    service, make_account):
    name = host()
    domain = await add(pages, account, name)
    dns_server.publish(domain["Record"]["Name"], "TXT", domain["Record"]["Value"])
    assert (await pages.post(f"/v1/dominios/{domain['Id']}/verificar", headers=account.headers)).status_code == 200

    page = await new_page(pages, account.headers, slug="spring", Domain=name)
    draft_only = await new_page(pages, account.headers, slug="draft", Domain=name)
    lookup = {"dominio": name, "slug": "spring"}
    assert (await pages.get("/internal/v1/paginas", headers=service, params=lookup)).status_code == 404
    await pages.post(f"/v1/paginas/{page['Id']}/publicar", headers=account.headers)
    found = await pages.get("/internal/v1/paginas", headers=service, params=lookup)
    assert found.status_code == 200, found.text
    body = found.json()["Pagina"]
    assert body["TenantId"] == account.tenant_id and body["Blocks"] == page["Blocks"] and body["Version"] == 1

    listed = await pages.get("/internal/v1/paginas/publicadas", headers=service, params={"dominio": name})
    assert [item["Slug"] for item in listed.json()["Paginas"]] == ["spring"]
    assert set(listed.json()["Paginas"][0]) == {"Slug", "PublishedAt"}
    assert draft_only["Slug"] not in [item["Slug"] for item in listed.json()["Paginas"]]
    empty = await pages.get("/internal/v1/paginas/publicadas", headers=service, params={"dominio": host()})
    assert empty.status_code == 200 and empty.json()["Paginas"] == []

    await pages.post("/v1/redirects", headers=account.headers,
                     json={"Domain": name, "Slug": "go", "Target": "https://shop.example.com", "StatusCode": 301})
    resolved = await pages.get("/internal/v1/redirects", headers=service, params={"dominio": name, "slug": "go"})
    assert resolved.status_code == 200
    assert resolved.json()["Redirect"]["Target"] == "https://shop.example.com"
    assert "TenantId" not in resolved.json()["Redirect"]

    # Another account that adds the same host cannot verify it while it is held.
    other = await make_account(scopes=("pages:read", "pages:write"))
    theirs = await add(pages, other, name)
    held = await pages.post(f"/v1/dominios/{theirs['Id']}/verificar", headers=other.headers)
    assert held.status_code == 409
