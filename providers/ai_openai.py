"""AI provider plug-in: an OpenAI-compatible chat completions API (``POST {base_url}/chat/completions``).

Registered in the entry-point group ``herald.providers.ai`` under the key ``openai`` (setup.cfg); the
pages system loads it by entry point (app/pages/ai/service.py), never by import. The interface an AI
plug-in offers, duck-typed so that the caller needs nothing of this package:

    provider = OpenAIChatProvider(base_url=..., api_key=..., model=...)
    data = await provider.complete_json(system_prompt, user_prompt)   # the decoded JSON the model wrote
    await provider.aclose()

``complete_json`` raises :class:`AiProviderError` (a :class:`providers.errors.ProviderError`) when the
service is unreachable, answers an error status, or answers text that is not JSON; the message
says why (for the caller's log, never for a client). What the JSON must contain is the caller's
business: the plug-in is a transport. The base URL is the operator's setting, not a tenant's, so it
is not an egress target (kit/egress.py is for URLs tenants give).
"""

from __future__ import annotations

import json

import httpx

from providers.errors import ProviderError

TIMEOUT = httpx.Timeout(60.0, connect=5.0)


class AiProviderError(ProviderError):
    """The provider failed or answered no JSON."""


class OpenAIChatProvider:
    key = "openai"

    def __init__(self, *, base_url: str, api_key: str | None, model: str, temperature: float = 0.7,
                 timeout: httpx.Timeout = TIMEOUT) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.temperature = temperature
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._timeout = timeout
        self._http: httpx.AsyncClient | None = None

    def __repr__(self) -> str:  # never the key
        return f"OpenAIChatProvider({self.base_url!r}, model={self.model!r})"

    def _client(self) -> httpx.AsyncClient:
        if self._http is None or self._http.is_closed:
            self._http = httpx.AsyncClient(timeout=self._timeout, trust_env=False, follow_redirects=False,
                                           headers=self._headers)
        return self._http

    async def aclose(self) -> None:
        if self._http is not None:
            await self._http.aclose()
            self._http = None

    async def complete_json(self, system: str, user: str) -> object:
        """The JSON object the model answered (``response_format`` json_object), decoded."""
        request = {"model": self.model, "temperature": self.temperature, "response_format": {"type": "json_object"},
                   "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}]}
        try:
            answer = await self._client().post(f"{self.base_url}/chat/completions", json=request)
        except httpx.HTTPError as error:
            raise AiProviderError(f"unreachable: {type(error).__name__}: {error}") from None
        if answer.status_code != 200:
            raise AiProviderError(f"answered {answer.status_code}: {answer.text[:300]!r}")
        try:
            content = answer.json()["choices"][0]["message"]["content"]
            text = content.strip().removeprefix("```json").removeprefix("```").removesuffix("```")
            return json.loads(text)
        except (ValueError, KeyError, IndexError, TypeError, AttributeError) as error:
            raise AiProviderError(f"answer is not JSON: {str(error)[:300]}") from None
