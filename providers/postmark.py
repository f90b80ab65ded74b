"""E-mail through Postmark's Email API (``POST /email``, ``X-Postmark-Server-Token``).

Configuration::

    server_token                required (the Postmark server's API token)
    message_stream              ``outbound`` (default) or the account's transactional stream
    webhook_username, webhook_password   the basic-auth credentials the account puts in the
                                webhook URL it gives Postmark (app/platform/relay_event/postmark.py)
    base_url                    default https://api.postmarkapp.com (a tenant's goes through kit.egress)
    timeout                     seconds (15)

Postmark signs with DKIM for the sender signatures and domains verified there. Its ``MessageID``
is kept as the message's provider id, which its webhooks name.
"""

from __future__ import annotations

import base64

from providers.base import EmailProvider, Outgoing, Receipt
from providers.errors import PermanentProviderError, ProviderConfigError, RecipientBounced, TransientProviderError
from providers.http import HttpProvider, describe, raise_for_answer, retry_after
from providers.relay_mail import headers_of

# Postmark's ErrorCode (https://postmarkapp.com/developer/api/overview#error-codes) that mean more
# than the status: the token or the sender is wrong (configuration), the recipient is inactive.
CONFIGURATION = {10, 400, 401, 405, 412, 413, 501}
THROTTLED = {429}
INACTIVE = 406


class PostmarkProvider(HttpProvider, EmailProvider):
    key = "postmark"

    def __init__(self, config: dict | None = None):
        super().__init__(config)
        if not self.config.get("server_token"):
            raise ProviderConfigError("postmark provider needs server_token")
        self.base_url = self.config.get("base_url", "https://api.postmarkapp.com").rstrip("/")

    def request_body(self, message: Outgoing) -> dict:
        content = message.content or {}
        body = {"From": message.sender, "To": ", ".join(content.get("To") or [message.recipient]),
                "Subject": message.subject or "", "MessageStream": self.config.get("message_stream", "outbound"),
                "Metadata": {"herald-message-id": message.message_id}}
        if content.get("Cc"):
            body["Cc"] = ", ".join(content["Cc"])
        if content.get("ReplyTo"):
            body["ReplyTo"] = ", ".join(content["ReplyTo"])
        if content.get("Text") is not None:
            body["TextBody"] = content["Text"]
        if content.get("Html") is not None:
            body["HtmlBody"] = content["Html"]
        body["Headers"] = [{"Name": name, "Value": value} for name, value in headers_of(message)]
        if message.attachments:
            body["Attachments"] = [{"Name": file.filename, "ContentType": file.content_type,
                                    "Content": base64.b64encode(file.data).decode("ascii")}
                                   for file in message.attachments]
        return body

    async def send(self, message: Outgoing) -> Receipt:
        response = await self.post(f"{self.base_url}/email", "postmark", json=self.request_body(message),
                                   headers={"X-Postmark-Server-Token": self.config["server_token"],
                                            "Accept": "application/json"})
        if response.status_code == 422:
            try:
                code = int(response.json().get("ErrorCode") or 0)
            except (ValueError, TypeError, AttributeError):
                code = 0
            if code in CONFIGURATION:
                raise ProviderConfigError(f"postmark refused the configuration (error {code}): {describe(response)}")
            if code in THROTTLED:
                raise TransientProviderError(f"postmark throttled the message (error {code}): {describe(response)}",
                                             retry_after=retry_after(response))
            if code == INACTIVE:  # Postmark stopped sending there after a hard bounce or a complaint
                raise RecipientBounced(f"postmark marked the recipient inactive (error {code}, {describe(response)})")
            raise PermanentProviderError(f"postmark refused the message (error {code}): {describe(response)}")
        raise_for_answer(response, "postmark")
        try:
            message_id = response.json()["MessageID"]
        except (ValueError, KeyError, TypeError):
            raise TransientProviderError(f"postmark answered without a MessageID: {describe(response)}") from None
        return Receipt(str(message_id)[:255], {"Relay": "postmark", "RelayMessageId": str(message_id)[:255]})
