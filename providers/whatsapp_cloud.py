"""WhatsApp through the Cloud API (Graph): free text and approved templates.

``POST {base_url}/{api_version}/{phone_number_id}/messages`` with ``Authorization: Bearer``.

Configuration::

    phone_number_id, access_token   required
    api_version                     default v21.0
    base_url                        default https://graph.facebook.com (a tenant's goes through
                                    herald.egress: https, port 443, public addresses)

A message whose content has ``Template`` goes as a template message (``Language``; ``Variables``
with positional keys "1", "2", ... become the body parameters in that order), otherwise as text.
Graph reports throttling with HTTP 429 or with error codes 4, 80007, 130429, 131048, 131056:
those are transient.
"""

from __future__ import annotations

from providers.base import Outgoing, Receipt, WhatsappProvider
from providers.errors import ProviderConfigError, TransientProviderError
from providers.http import HttpProvider, describe, raise_for_answer, retry_after

THROTTLED_CODES = {4, 80007, 130429, 131048, 131056}


def _order(key: str) -> tuple[int, str]:
    return (int(key), "") if key.isdigit() else (1 << 30, key)


def payload(message: Outgoing) -> dict:
    content = message.content or {}
    base = {"messaging_product": "whatsapp", "recipient_type": "individual", "to": message.recipient.lstrip("+")}
    if content.get("Template"):
        variables = content.get("Variables") or {}
        template = {"name": content["Template"], "language": {"code": content.get("Language") or "en"}}
        if variables:
            template["components"] = [{"type": "body", "parameters": [
                {"type": "text", "text": variables[key]} for key in sorted(variables, key=_order)]}]
        return {**base, "type": "template", "template": template}
    return {**base, "type": "text", "text": {"preview_url": False, "body": content.get("Body", "")}}


class WhatsappCloudProvider(HttpProvider, WhatsappProvider):
    key = "whatsapp_cloud"

    def __init__(self, config: dict | None = None):
        super().__init__(config)
        missing = [name for name in ("phone_number_id", "access_token") if not self.config.get(name)]
        if missing:
            raise ProviderConfigError(f"whatsapp_cloud provider needs {', '.join(missing)}")
        base = self.config.get("base_url", "https://graph.facebook.com").rstrip("/")
        self.url = f"{base}/{self.config.get('api_version', 'v21.0')}/{self.config['phone_number_id']}/messages"

    async def send(self, message: Outgoing) -> Receipt:
        response = await self.post(self.url, "whatsapp", json=payload(message),
                                   headers={"Authorization": f"Bearer {self.config['access_token']}"})
        if 400 <= response.status_code < 500 and response.status_code != 429:
            try:
                code = int(response.json().get("error", {}).get("code") or 0)
            except (ValueError, AttributeError):
                code = 0
            if code in THROTTLED_CODES:
                raise TransientProviderError(f"whatsapp throttled (error {code}): {describe(response)}",
                                             retry_after=retry_after(response))
        raise_for_answer(response, "whatsapp")
        return Receipt(response.json()["messages"][0]["id"])
