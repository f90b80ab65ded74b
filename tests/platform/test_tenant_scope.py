"""404, never 403: two people and three accounts in a tree, every tenant-scoped /api route (read
from the platform's own OpenAPI document, so a new route is covered the day it is added)."""

from __future__ import annotations

from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import join, new_account, new_child, signed_in_member

FILLERS = {"key_id": "key_" + "0" * 24, "user_id": "usr_" + "0" * 24, "token": "cvt_" + "0" * 24,
           "log_id": "log_" + "0" * 24}


async def tenant_routes(dashboard) -> list[tuple[str, str]]:
    document = (await dashboard.get("/openapi.json")).json()
    return [(method.upper(), path) for path, operations in document["paths"].items()
            if path.startswith("/api/tenants/{tenant_id}") for method in operations if method in
            ("get", "post", "patch", "put", "delete")]


async def test_outside_the_tree_is_404_on_every_route(dashboard, identity):
    alice = await signed_in_member(identity, dashboard, "alice")
    bob = await signed_in_member(identity, dashboard, "bob")
    root = await new_account(dashboard, alice, "Scope Root")
    middle = await new_child(dashboard, alice, root["Id"], "Scope Middle")
    leaf = await new_child(dashboard, alice, middle["Id"], "Scope Leaf")
    await join(dashboard, alice, middle["Id"], bob, "owner")

    routes = await tenant_routes(dashboard)
    assert len(routes) >= 15, routes
    for method, template in routes:
        for who, tenant, reachable in ((bob, root["Id"], False), (bob, leaf["Id"], True),
                                       (alice, leaf["Id"], True), (bob, "acc_" + "f" * 24, False)):
            path = template.replace("{tenant_id}", tenant)
            for name, value in FILLERS.items():
                path = path.replace("{" + name + "}", value)
            answer = await dashboard.request(method, path, json={} if method != "GET" else None, headers=who.auth)
            if reachable:
                assert answer.status_code != 403 or answer.json()["Error"]["Code"] == "PermissionDenied", \
                    (method, path, answer.text)
            else:
                assert answer.status_code == 404, (method, path, answer.status_code, answer.text)
                assert answer.json()["Error"]["Code"] == "NotFound"

    for path in ("/api/tenants/tree", "/api/flags"):
        hidden = await dashboard.get(path, headers={**bob.auth, "X-Service-Tenant": root["Id"]})
        assert hidden.status_code == 404, (path, hidden.text)
        shown = await dashboard.get(path, headers={**bob.auth, "X-Service-Tenant": leaf["Id"]})
        assert shown.status_code == 200, (path, shown.text)
    visible = {t["Id"] for t in (await dashboard.get("/api/tenants", headers=bob.auth)).json()["Tenants"]}
    assert visible == {middle["Id"], leaf["Id"]}

    # Moving needs both sides: bob owns the middle but not the root.
    away = await dashboard.patch(f"/api/tenants/{leaf['Id']}/parent", json={"ParentId": root["Id"]}, headers=bob.auth)
    assert away.status_code == 404, away.text
