"""WhatsApp template approval end to end: the dashboard's upsert enqueues the submission (outbox,
relay, worker), the account's WhatsApp Cloud API configuration takes it to a local Graph server
(real sockets), the sync job polls the review, and only an approved template sends (422 before).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable

from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import new_account, signed_in_member


class Graph:
    """A local WhatsApp Cloud API (Graph) for templates: records requests, answers from ``answer``."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, str, dict]] = []
        self.statuses: dict[str, dict] = {}  # template id -> the GET answer
        self.created = 0
        self.lock = threading.Lock()
        graph = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _answer(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                status, payload = graph.answer(self.command, self.path, body,
                                               self.headers.get("authorization", ""))
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = _answer

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def answer(self, method: str, path: str, body: dict, authorization: str) -> tuple[int, dict]:
        with self.lock:
            self.requests.append((method, path, body))
            if authorization != "Bearer EAAG-token":
                return 401, {"error": {"code": 190, "message": "Invalid OAuth access token"}}
            if method == "POST" and path == "/v21.0/waba-77/message_templates":
                if body.get("name") == "refused_one":
                    return 400, {"error": {"code": 100, "message": "Invalid parameter"}}
                self.created += 1
                return 200, {"id": f"tmpl-{self.created}", "status": "PENDING", "category": body["category"]}
            template_id = path.split("?")[0].rsplit("/", 1)[-1]
            if method == "POST" and template_id in self.statuses:
                self.statuses[template_id] = {"status": "PENDING"}
                return 200, {"success": True}
            if method == "GET" and template_id in self.statuses:
                return 200, {"id": template_id, **self.statuses[template_id]}
            return 404, {"error": {"code": 100, "message": "Unsupported request"}}

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


async def eventually(what: Callable, seconds: float = 30.0):
    deadline = time.monotonic() + seconds
    while True:
        found = await what()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds}s: {what.__name__}")
        await asyncio.sleep(0.1)


async def test_a_whatsapp_template_is_submitted_reviewed_and_only_then_sent(dashboard, identity, pipeline):
    from models.platform.provider_config import set_provider_config
    from models.platform.template import Template
    from models.platform.tenant import Tenant
    from schedules.platform.whatsapp_templates import sync_templates

    owner = await signed_in_member(identity, dashboard, "tplwaok")
    account = await new_account(dashboard, owner, "WA approval")
    headers = {**owner.auth, "X-Service-Tenant": account["Id"]}
    tenant = await Tenant.get(public_id=account["Id"])
    graph = Graph()
    try:
        await set_provider_config(tenant.id, "whatsapp", "whatsapp_cloud",
                                  {"phone_number_id": "1055", "base_url": graph.url, "business_account_id": "waba-77"},
                                  {"access_token": "EAAG-token"})
        made = await dashboard.post("/api/templates", headers=headers, json={
            "Slug": "order.update", "Channel": "whatsapp", "Text": "Hi {{1}}, order {{2}} shipped", "Language": "pt_BR"})
        assert made.status_code == 200, made.text
        assert made.json()["Template"]["Status"] == "pending" and made.json()["Template"]["StatusReason"] is None

        async def submitted():
            row = await Template.get(tenant_id=tenant.id, slug="order.update")
            return row if row.provider_template_id else None

        row = await eventually(submitted)
        assert row.provider_template_id == "tmpl-1" and row.status == "pending" and row.submitted_at is not None
        [(method, path, body)] = [request for request in graph.requests if request[0] == "POST"]
        assert body == {"name": "order_update", "language": "pt_BR", "category": "UTILITY", "components": [
            {"type": "BODY", "text": "Hi {{1}}, order {{2}} shipped",
             "example": {"body_text": [["example 1", "example 2"]]}}]}

        send = {"Channel": "whatsapp", "Recipients": ["+14155550601"], "Template": "order.update",
                "Variables": {"1": "Ana", "2": "#7"}}
        refused = await dashboard.post("/api/messages/send", json=send, headers=headers)
        assert refused.status_code == 422 and "not approved (pending)" in refused.json()["Error"]["Details"]["Template"]

        # The review is not done yet: the poll keeps it pending; then Graph approves it.
        graph.statuses["tmpl-1"] = {"status": "PENDING"}
        due = await sync_templates(poll_seconds=0)
        assert row.id in due["check"]

        async def polled():
            return any(request[0] == "GET" and "/v21.0/tmpl-1" in request[1] for request in graph.requests)

        await eventually(polled)
        graph.statuses["tmpl-1"] = {"status": "APPROVED"}

        async def due_again():  # the check job writes checked_at after Graph saw its GET: until then, not due
            return row.id in (await sync_templates(poll_seconds=0))["check"]

        await eventually(due_again)

        async def approved():
            listed = (await dashboard.get("/api/templates", headers=headers)).json()["Templates"]
            return listed[0] if listed[0]["Status"] == "approved" else None

        template = await eventually(approved)
        assert template["StatusReason"] is None
        sent = await dashboard.post("/api/messages/send", json=send, headers=headers)
        assert sent.status_code == 202, sent.text

        # A new text goes back to review: the same provider template gets the new body.
        changed = await dashboard.post("/api/templates", headers=headers, json={
            "Slug": "order.update", "Channel": "whatsapp", "Text": "Hello {{1}}", "Language": "pt_BR"})
        assert changed.json()["Template"]["Status"] == "pending"

        async def resubmitted():
            return [request for request in graph.requests if request[:2] == ("POST", "/v21.0/tmpl-1")]

        [(_, _, edit)] = await eventually(resubmitted)
        assert edit == {"components": [{"type": "BODY", "text": "Hello {{1}}",
                                        "example": {"body_text": [["example 1"]]}}]}
        graph.statuses["tmpl-1"] = {"status": "REJECTED", "rejected_reason": "INVALID_FORMAT"}

        async def rejected():
            await sync_templates(poll_seconds=0)
            listed = (await dashboard.get("/api/templates", headers=headers)).json()["Templates"]
            return listed[0] if listed[0]["Status"] == "rejected" else None

        template = await eventually(rejected)
        assert template["StatusReason"] == "INVALID_FORMAT"
        refused = await dashboard.post("/api/messages/send", json={**send, "Variables": {"1": "Ana"}}, headers=headers)
        assert refused.status_code == 422 and "rejected" in refused.json()["Error"]["Details"]["Template"]

        # A submission the provider refuses outright is rejected with its reason.
        await dashboard.post("/api/templates", headers=headers, json={
            "Slug": "refused-one", "Channel": "whatsapp", "Text": "Hi"})

        async def refused_outright():
            row = await Template.get(tenant_id=tenant.id, slug="refused-one")
            return row if row.status == "rejected" else None

        row = await eventually(refused_outright)
        assert "refused by the provider" in row.status_reason and "HTTP 400" in row.status_reason
    finally:
        graph.close()


async def test_without_a_reviewing_provider_the_template_waits_and_says_why(dashboard, identity, pipeline):
    from models.platform.template import Template
    from models.platform.tenant import Tenant

    owner = await signed_in_member(identity, dashboard, "tplwawait")
    account = await new_account(dashboard, owner, "WA waiting")
    headers = {**owner.auth, "X-Service-Tenant": account["Id"]}
    tenant = await Tenant.get(public_id=account["Id"])
    made = await dashboard.post("/api/templates", headers=headers, json={
        "Slug": "welcome", "Channel": "whatsapp", "Text": "Welcome {{1}}"})
    assert made.status_code == 200, made.text

    async def explained():
        row = await Template.get(tenant_id=tenant.id, slug="welcome")
        return row if row.status_reason else None

    row = await eventually(explained)
    assert row.status == "pending" and row.provider_template_id is None and row.checked_at is not None
    listed = (await dashboard.get("/api/templates", headers=headers)).json()["Templates"]
    assert listed[0]["Status"] == "pending" and listed[0]["StatusReason"] == row.status_reason
