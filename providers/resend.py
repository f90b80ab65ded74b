"""E-mail through Resend's API (``POST /emails``) over httpx.

Configuration (``settings`` and ``secrets`` of the account's row, or EMAIL_PROVIDER_CONFIG)::

    api_key             required (``Authorization: Bearer re_...``), a key with sending access
    base_url            default https://api.resend.com (a tenant's goes through kit.egress)
    timeout             seconds (default 15)
    webhook_secret      the webhook's signing secret (``whsec_...``): what the account's event
                        callback checks (app/platform/relay_event/resend.py)

Resend signs the mail with DKIM for the domains verified in its account: the sender domain must be
verified there too. The message id goes as ``Idempotency-Key`` (a retry after an unknown outcome is
not sent twice) and as the ``X-Herald-Message-Id`` header. The answer's ``id`` is kept as the
provider message id, which Resend's events carry as ``data.email_id``.
Errors: 429 and 5xx transient (``Retry-After`` honoured), a 409 of two requests with one key at
once transient too, 401/403 a configuration error, other 4xx permanent with Resend's error name
(``validation_error`` ...), never its text.
"""

from __future__ import annotations

import re

from providers import relay_parts
from providers.base import EmailProvider, Outgoing, Receipt
from providers.errors import PermanentProviderError, ProviderConfigError, TransientProviderError
from providers.http import HttpProvider, describe, raise_for_answer, retry_after

MESSAGE_ID = re.compile(r"^[A-Za-z0-9_.-]{1,200}$")
ERROR_NAME = re.compile(r"^[a-z_]{1,64}$")
TAG_TEXT = re.compile(r"^[A-Za-z0-9_-]{1,256}$")


class ResendProvider(HttpProvider, EmailProvider):
    key = "resend"

    def __init__(self, config: dict | None = None):
        super().__init__(config)
        if not self.config.get("api_key"):
            raise ProviderConfigError("resend provider needs api_key")
        self.base_url = str(self.config.get("base_url") or "https://api.resend.com").rstrip("/")

    def body(self, message: Outgoing) -> dict:
        text, html = relay_parts.bodies(message)
        body: dict = {
            "from": relay_parts.formatted("the From address", message.sender or ""),
            "to": [relay_parts.mailbox("the recipient", message.recipient)[0]],
            "subject": message.subject or "",
            "headers": relay_parts.headers(message),
        }
        if text is not None:
            body["text"] = text
        if html is not None:
            body["html"] = html
        reply_to = (message.content or {}).get("ReplyTo") or []
        if reply_to:
            body["reply_to"] = [relay_parts.formatted("a Reply-To address", text) for text in reply_to]
        files = relay_parts.files(message)
        if files:
            body["attachments"] = [{"filename": item["filename"], "content": item["content"],
                                    "content_type": item["type"]} for item in files]
        # Resend's tags take letters, digits, _ and - only: the tags that fit go along, for its dashboard.
        tags = [{"name": name, "value": value} for name, value in (message.tags or {}).items()
                if TAG_TEXT.match(str(name)) and TAG_TEXT.match(str(value))]
        if tags:
            body["tags"] = tags
        return body

    async def send(self, message: Outgoing) -> Receipt:
        response = await self.post(f"{self.base_url}/emails", "resend", json=self.body(message),
                                   headers={"Authorization": f"Bearer {self.config['api_key']}",
                                            "Idempotency-Key": message.idempotency_key})
        name = _error_name(response) if response.status_code >= 400 else ""
        if response.status_code == 409 and name == "concurrent_idempotent_requests":
            raise TransientProviderError(f"resend answered {describe(response)} ({name})",
                                         retry_after=retry_after(response) or 1.0)
        if 400 <= response.status_code < 500 and response.status_code not in (401, 403, 408, 429):
            raise PermanentProviderError(f"resend refused the message ({name or 'no error name'}): "
                                         f"{describe(response)}")
        raise_for_answer(response, "resend")
        try:
            provider_id = response.json().get("id")
        except (ValueError, AttributeError):
            provider_id = None
        if not isinstance(provider_id, str) or not MESSAGE_ID.match(provider_id):
            raise TransientProviderError("resend answered without a readable id")
        return Receipt(provider_id, {"ResendId": provider_id})


def _error_name(response) -> str:
    try:
        name = response.json().get("name")
    except (ValueError, AttributeError):
        return ""
    return name if isinstance(name, str) and ERROR_NAME.match(name) else ""
