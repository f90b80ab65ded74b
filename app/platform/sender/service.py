"""The sender domains a key may send from (the account's, and for a test-mode key the sandbox domain),
and the account's mailboxes, which the mail system keeps (``GET /internal/v1/mailboxes`` there)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors
from app.platform.api_key.principal import Principal
from models.platform.domain import SenderDomain

if TYPE_CHECKING:  # the client's module imports Sanic, which a service must not load
    from app.http.services import ServiceClient

log = logging.getLogger("herald.senders")

MAILBOXES_PATH = "/internal/v1/mailboxes"


async def sender_domains(conn: BaseDBAsyncClient, principal: Principal) -> list[SenderDomain]:
    """The account's sender domains by name (the sandbox domain is the view's to add)."""
    return await SenderDomain.filter(tenant_id=principal.tenant_pk).using_db(conn).order_by("name")


async def mailbox_addresses(mail: ServiceClient, principal: Principal) -> list[str]:
    """The addresses of the account's mailboxes of the key's mode, from the mail system. The mail
    system down: none listed (logged), so the listing of domains still answers (systems fail
    independently)."""
    try:
        answer = await mail.get(
            MAILBOXES_PATH, params={"account": principal.tenant_id, "mode": principal.mode})
    except errors.HttpError as error:
        log.warning("mailboxes of %s not listed: the mail system did not answer (%s)", principal.tenant_id, error.code)
        return []
    if not answer.ok or not isinstance(answer.body, dict):
        log.warning("mailboxes of %s not listed: the mail system answered %s", principal.tenant_id, answer.status)
        return []
    return [str(item["Address"]) for item in answer.body.get("Mailboxes", []) if isinstance(item, dict)]
