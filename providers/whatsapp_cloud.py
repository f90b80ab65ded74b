"""WhatsApp through the Cloud API (Graph): free text and approved templates.

``POST {base_url}/{api_version}/{phone_number_id}/messages`` with ``Authorization: Bearer``.

Configuration::

    phone_number_id, access_token   required
    api_version                     default v21.0
    base_url                        default https://graph.facebook.com (a tenant's goes through
                                    kit.egress: https, port 443, public addresses)

A message whose content has ``Template`` goes as a template message (``Language``; ``Variables``
with positional keys "1", "2", ... become the body parameters in that order), otherwise as text.
Graph reports throttling with HTTP 429 or with error codes 4, 80007, 130429, 131048, 131056:
those are transient.

Template approval (app/platform/template/approval.py): :meth:`submit_template` creates a template
for review (``POST {base_url}/{api_version}/{business_account_id}/message_templates``; needs
``business_account_id``, the WhatsApp Business Account) or, given the provider's template id,
submits its new body (``POST {base_url}/{api_version}/{template id}``: an edit goes back to
review); :meth:`template_status` reads ``status`` and ``rejected_reason``
(``GET {base_url}/{api_version}/{template id}``). Graph's statuses map to Herald's with
:func:`approval_state`.
"""

from __future__ import annotations

import re
from typing import Any

import httpx

from kit import egress
from providers.base import Outgoing, Receipt, WhatsappProvider
from providers.errors import PermanentProviderError, ProviderConfigError, TransientProviderError
from providers.http import HttpProvider, describe, raise_for_answer, retry_after

THROTTLED_CODES = {4, 80007, 130429, 131048, 131056}
# Graph's template statuses: only APPROVED sends; these are final refusals; anything else
# (PENDING, IN_APPEAL, PAUSED, LIMIT_EXCEEDED, ...) is still waiting on review.
REFUSED_STATUSES = {"REJECTED", "DISABLED", "DELETED", "PENDING_DELETION", "ARCHIVED"}
PLACEHOLDER = re.compile(r"\{\{\s*(\d+)\s*\}\}")


def approval_state(status: str) -> str:
    """Herald's template state (``approved``, ``rejected``, ``pending``) of a Graph template status."""
    status = (status or "").upper()
    if status == "APPROVED":
        return "approved"
    if status in REFUSED_STATUSES:
        return "rejected"
    return "pending"


def template_name(slug: str) -> str:
    """Graph's template names are lower-case letters, digits and underscores."""
    return re.sub(r"[^a-z0-9_]", "_", slug.lower())[:512]


def template_components(text: str) -> list[dict]:
    """The BODY component of a template, with the example values review asks for when it has
    ``{{n}}`` placeholders."""
    body: dict[str, Any] = {"type": "BODY", "text": text}
    count = max((int(found) for found in PLACEHOLDER.findall(text)), default=0)
    if count:
        body["example"] = {"body_text": [[f"example {index}" for index in range(1, count + 1)]]}
    return [body]


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

    @property
    def graph(self) -> str:
        base = self.config.get("base_url", "https://graph.facebook.com").rstrip("/")
        return f"{base}/{self.config.get('api_version', 'v21.0')}"

    async def _graph(self, method: str, url: str, **kwargs: Any) -> dict:
        """One Graph call for templates: the answer's JSON, or the provider errors of a send."""
        try:
            response = await self.http.request(method, url, headers={
                "Authorization": f"Bearer {self.config['access_token']}"}, **kwargs)
        except egress.UnsafeTarget as error:
            raise ProviderConfigError(f"whatsapp: {error}") from error
        except egress.RefusedReply as error:
            raise PermanentProviderError(f"whatsapp: {error}") from error
        except httpx.TimeoutException as error:
            raise TransientProviderError(f"whatsapp timed out: {type(error).__name__}") from error
        except (httpx.TransportError, ConnectionError) as error:
            raise TransientProviderError(f"whatsapp unreachable: {error!r}") from error
        raise_for_answer(response, "whatsapp")
        try:
            answer = response.json()
        except ValueError:
            raise TransientProviderError(f"whatsapp answered {describe(response)} without JSON") from None
        return answer if isinstance(answer, dict) else {}

    async def submit_template(self, slug: str, language: str, text: str, *, category: str = "UTILITY",
                              template_id: str | None = None) -> tuple[str, str]:
        """Submit a template for review: ``(provider template id, Graph status)``. With
        ``template_id`` the template's body is replaced (and reviewed again)."""
        components = template_components(text)
        if template_id:
            await self._graph("POST", f"{self.graph}/{template_id}", json={"components": components})
            return template_id, "PENDING"
        account = self.config.get("business_account_id")
        if not account:
            raise ProviderConfigError("whatsapp_cloud needs business_account_id to submit templates")
        answer = await self._graph("POST", f"{self.graph}/{account}/message_templates", json={
            "name": template_name(slug), "language": language, "category": category, "components": components})
        if not answer.get("id"):
            raise PermanentProviderError(f"whatsapp: no template id in the answer: {str(answer)[:200]}")
        return str(answer["id"]), str(answer.get("status") or "PENDING")

    async def template_status(self, template_id: str) -> tuple[str, str | None]:
        """``(Graph status, rejected reason or None)`` of a submitted template."""
        answer = await self._graph("GET", f"{self.graph}/{template_id}",
                                   params={"fields": "name,status,rejected_reason"})
        reason = answer.get("rejected_reason")
        return str(answer.get("status") or "PENDING"), (None if reason in (None, "", "NONE") else str(reason))

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
