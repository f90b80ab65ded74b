"""AI generation bodies: the request, and the page a provider answers (validated like a page's blocks)."""

from __future__ import annotations

import logging
from typing import Literal

import pydantic
from pydantic import Field

from app.http import errors
from app.http.bodies import Body
from app.pages.page.schemas import Blocks, Seo, dump_blocks, dump_seo

log = logging.getLogger("herald.pages.ai")


class GenerationRequest(Body):
    brief: str = Field(min_length=10, max_length=4000)
    """What the page is about, for the AI provider (10 to 4000 characters)."""
    language: Literal["pt-BR", "en", "es"] = "pt-BR"
    """The page's language: `pt-BR` (default), `en` or `es`."""


class GeneratedPage(Body):
    """The provider's page (PascalCase keys, as our bodies); fields we did not ask for are ignored."""

    model_config = pydantic.ConfigDict(**{**Body.model_config, "extra": "ignore"})
    title: str = Field(min_length=1, max_length=200)
    blocks: Blocks
    seo: Seo = Seo()


def generated_page(data: object) -> dict:
    """The provider's answer as ``{Title, Blocks, Seo}`` in the stored shape, or 502 when it is not
    a valid page (the reason logged)."""
    try:
        page = GeneratedPage.model_validate(data)
    except pydantic.ValidationError as error:
        log.warning("AI provider's answer is not a valid page: %s", str(error)[:300])
        raise errors.UpstreamError("The AI provider's answer was not a valid page; try again.") from None
    return {"Title": page.title.strip(), "Blocks": dump_blocks(page.blocks), "Seo": dump_seo(page.seo)}
