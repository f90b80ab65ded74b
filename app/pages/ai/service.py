"""AI page generation: a brief becomes page blocks through an AI provider plug-in. Nothing is saved.

The plug-in is found by entry point (group :data:`GROUP`, name ``AI_PROVIDER``, default ``openai``:
providers/ai_openai.py, an OpenAI-compatible chat completions API), never imported: ``app`` does not
import ``providers`` (the import-linter contracts). It is loaded once, when the server starts and
``AI_BASE_URL`` is set; a plug-in that is missing or fails to load stops the start with one clear
line, like the delivery plug-ins (providers/registry.py).

No ``AI_BASE_URL``: 503 (contract, section G rule 5). The plug-in answers the decoded JSON the model
wrote; it must be ``{"Title", "Blocks", "Seo"}`` whose blocks pass the same validation as a page's
(app/pages/ai/schemas.py). Anything else (the plug-in raising: unreachable, an error status, text
that is not JSON) is a 502 with the reason logged.
"""

from __future__ import annotations

import logging
from importlib.metadata import entry_points
from typing import Protocol

from app.http import errors
from app.pages.errors import GenerationUnavailable

log = logging.getLogger("herald.pages.ai")

GROUP = "herald.providers.ai"
SYSTEM_PROMPT = (
    "You write landing pages. Answer with one JSON object only, no prose: "
    '{"Title": string (at most 200 characters), "Seo": {"Title": string (at most 70), "Description": string '
    '(at most 300)}, "Blocks": [block, ...]} where each block is one of '
    '{"Type": "heading", "Text": string, "Level": 1-6}, {"Type": "text", "Text": string}, '
    '{"Type": "button", "Label": string, "Url": "#form" or an https URL}, {"Type": "divider"}. '
    "Write in the language of the brief.")


class AiProvider(Protocol):
    """What an AI plug-in offers (providers/ai_openai.py)."""

    async def complete_json(self, system: str, user: str) -> object: ...

    async def aclose(self) -> None: ...


class AiPluginError(RuntimeError):
    """The configured plug-in cannot be loaded: the server does not start."""


def load_provider(settings) -> AiProvider | None:
    """The configured plug-in, built from the settings; None when no ``AI_BASE_URL`` is set."""
    if not settings.ai_base_url:
        return None
    found = [entry for entry in entry_points(group=GROUP) if entry.name == settings.ai_provider]
    if not found:
        names = sorted(entry.name for entry in entry_points(group=GROUP)) or ["none"]
        raise AiPluginError(f"AI_PROVIDER={settings.ai_provider!r} names no plug-in of {GROUP} "
                            f"(installed: {', '.join(names)})")
    if len(found) > 1:
        raise AiPluginError(f"two AI plug-ins share the key {settings.ai_provider!r} ({GROUP})")
    try:
        factory = found[0].load()
        provider = factory(base_url=settings.ai_base_url, api_key=settings.ai_api_key, model=settings.ai_model)
    except Exception as exc:  # noqa: BLE001 - any failure to load stops the start
        raise AiPluginError(f"AI plug-in {found[0].name!r} ({found[0].value}) failed to load: {exc!r}") from exc
    if not callable(getattr(provider, "complete_json", None)):
        raise AiPluginError(f"{found[0].value} is not an AI plug-in (no complete_json)")
    return provider


def provider_of(loaded: AiProvider | None) -> AiProvider:
    """The plug-in loaded at start (app/pages/ai/v1.py), or 503 when none is configured."""
    if loaded is None:
        raise GenerationUnavailable()
    return loaded


async def generate(provider: AiProvider, brief: str, language: str) -> object:
    """The plug-in's answer, decoded from the JSON the model wrote (validated by the caller,
    app/pages/ai/schemas.py); 502 when the plug-in fails."""
    try:
        return await provider.complete_json(SYSTEM_PROMPT, f"Language: {language}\nBrief: {brief}")
    except Exception as error:  # noqa: BLE001 - the plug-in's failures (any type) are the provider's: 502
        log.warning("AI provider failed: %s: %s", type(error).__name__, str(error)[:300])
        raise errors.UpstreamError("The AI provider did not produce a page; try again.") from None
