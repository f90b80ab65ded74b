"""AI page generation: a brief becomes page blocks through a provider plug-in speaking the
OpenAI-compatible chat completions API (``POST {AI_BASE_URL}/chat/completions``). Nothing is saved.

No ``AI_BASE_URL`` configured: 503 (contract, section G rule 5). The provider's answer must be a JSON
object ``{"Title", "Blocks", "Seo"}`` whose blocks pass the same validation as a page's
(app/pages/ai/schemas.py); anything else (unreachable, an error status, text that is not such JSON)
is a 502 with the reason logged.
The base URL is the operator's setting, not a tenant's, so it is not an egress target.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

import httpx

from app.http import errors
from app.pages.errors import GenerationUnavailable

log = logging.getLogger("herald.pages.ai")

TIMEOUT = httpx.Timeout(60.0, connect=5.0)
SYSTEM_PROMPT = (
    "You write landing pages. Answer with one JSON object only, no prose: "
    '{"Title": string (at most 200 characters), "Seo": {"Title": string (at most 70), "Description": string '
    '(at most 300)}, "Blocks": [block, ...]} where each block is one of '
    '{"Type": "heading", "Text": string, "Level": 1-6}, {"Type": "text", "Text": string}, '
    '{"Type": "button", "Label": string, "Url": "#form" or an https URL}, {"Type": "divider"}. '
    "Write in the language of the brief.")


@dataclass(frozen=True)
class Provider:
    base_url: str
    api_key: str | None
    model: str


def provider_of(settings) -> Provider:
    if not settings.ai_base_url:
        raise GenerationUnavailable()
    return Provider(settings.ai_base_url, settings.ai_api_key, settings.ai_model)


async def generate(provider: Provider, brief: str, language: str) -> object:
    """The provider's answer, decoded from the JSON text of its message (validated by the caller,
    app/pages/ai/schemas.py); 502 when the provider fails or answers no JSON."""
    headers = {"Authorization": f"Bearer {provider.api_key}"} if provider.api_key else {}
    request = {"model": provider.model, "temperature": 0.7, "response_format": {"type": "json_object"},
               "messages": [{"role": "system", "content": SYSTEM_PROMPT},
                            {"role": "user", "content": f"Language: {language}\nBrief: {brief}"}]}
    try:
        async with httpx.AsyncClient(timeout=TIMEOUT, trust_env=False, follow_redirects=False) as client:
            answer = await client.post(f"{provider.base_url}/chat/completions", json=request, headers=headers)
    except httpx.HTTPError as error:
        log.warning("AI provider unreachable: %s", error)
        raise errors.UpstreamError() from None
    if answer.status_code != 200:
        log.warning("AI provider answered %s: %r", answer.status_code, answer.text[:300])
        raise errors.UpstreamError()
    try:
        content = answer.json()["choices"][0]["message"]["content"]
        text = content.strip().removeprefix("```json").removeprefix("```").removesuffix("```")
        return json.loads(text)
    except (ValueError, KeyError, IndexError, TypeError, AttributeError) as error:
        log.warning("AI provider's answer is not JSON: %s", str(error)[:300])
        raise errors.UpstreamError("The AI provider's answer was not a valid page; try again.") from None
