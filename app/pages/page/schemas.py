"""Request bodies of pages: the typed content blocks (a discriminated union on ``Type``), SEO, create
and the partial update. Strict: an unknown field is a 400 naming it."""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field, field_validator, model_validator

from app.http.bodies import Body, FieldProblem, example
from app.pages import validation

MAX_BLOCKS = 200
MAX_BODY_BYTES = 1024 * 1024

Id = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")]


class HeadingBlock(Body):
    type: Literal["heading"]
    """`heading`."""
    text: str = Field(min_length=1, max_length=300)
    """The heading (1 to 300 characters)."""
    level: int = Field(default=2, ge=1, le=6)
    """Its level, 1 to 6 (2 by default)."""


class TextBlock(Body):
    type: Literal["text"]
    """`text`."""
    text: str = Field(min_length=1, max_length=20_000)
    """The text (1 to 20000 characters)."""


class ImageBlock(Body):
    type: Literal["image"]
    """`image`."""
    media_id: Id | None = None
    """An image of the account's media (`Midia`); exactly one of `MediaId` and `Url`."""
    url: str | None = None
    """An image's https URL, instead of `MediaId`."""
    alt: str = Field(default="", max_length=300)
    """The image's text alternative (at most 300 characters)."""

    @field_validator("url")
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        return None if value is None else validation.web_url(value, https_only=True)

    @model_validator(mode="after")
    def _one_source(self) -> ImageBlock:
        if (self.media_id is None) == (self.url is None):
            raise FieldProblem("MediaId", "an image block takes exactly one of MediaId and Url")
        return self


class ButtonBlock(Body):
    type: Literal["button"]
    """`button`."""
    label: str = Field(min_length=1, max_length=100)
    """The button's label (1 to 100 characters)."""
    url: str
    """Where it goes: an http(s) URL, a `/path` or a `#anchor`."""
    style: Literal["primary", "secondary"] = "primary"
    """`primary` (default) or `secondary`."""

    _url = field_validator("url")(classmethod(lambda cls, value: validation.link(value)))


class FormBlock(Body):
    type: Literal["form"]
    """`form`."""
    form_id: Id
    """One of the account's forms."""


class EmbedBlock(Body):
    type: Literal["embed"]
    """`embed`."""
    url: str
    """The embedded page's https URL."""
    height: int = Field(default=400, ge=50, le=4000)
    """Its height in pixels, 50 to 4000 (400 by default)."""

    _url = field_validator("url")(classmethod(lambda cls, value: validation.web_url(value, https_only=True)))


class DividerBlock(Body):
    type: Literal["divider"]
    """`divider`."""


Block = Annotated[Union[HeadingBlock, TextBlock, ImageBlock, ButtonBlock, FormBlock, EmbedBlock, DividerBlock],
                  Field(discriminator="type")]
Blocks = Annotated[list[Block], Field(max_length=MAX_BLOCKS)]


class Seo(Body):
    title: str = Field(default="", max_length=70)
    """The page's title for search engines and shares (at most 70 characters)."""
    description: str = Field(default="", max_length=300)
    """Its description for search engines and shares (at most 300 characters)."""
    image_url: str | None = None
    """The image shown when it is shared (https)."""
    canonical_url: str | None = None
    """Its canonical URL (https)."""
    no_index: bool = False
    """Ask search engines not to index it."""

    @field_validator("image_url", "canonical_url")
    @classmethod
    def _urls(cls, value: str | None) -> str | None:
        return None if value is None else validation.web_url(value, https_only=True)


class _PageFields(Body):
    @field_validator("slug", check_fields=False)
    @classmethod
    def _slug(cls, value: str) -> str:
        return validation.slug(value)

    @field_validator("title", check_fields=False)
    @classmethod
    def _title(cls, value: str) -> str:
        return validation.title(value)

    @field_validator("domain", check_fields=False)
    @classmethod
    def _domain(cls, value: str) -> str:
        return "" if value == "" else validation.host(value)


class PageCreate(_PageFields):
    title: str = Field(max_length=200)
    """The page's title (1 to 200 characters, not blank)."""
    slug: str = Field(max_length=100)
    """Its path: 1 to 100 lower-case letters, digits and inner hyphens, unique per account and domain."""
    domain: str = Field(default="", max_length=253)
    """The custom domain (host) it is served on, or `""`."""
    blocks: Blocks = []
    """Its content: at most 200 typed blocks."""
    seo: Seo = Seo()
    """What search engines and shares show."""

    def values(self) -> dict:
        """Plain values for the service (blocks and SEO in their stored shape)."""
        return {"title": self.title, "slug": self.slug, "domain": self.domain, "blocks": dump_blocks(self.blocks),
                "seo": dump_seo(self.seo)}


class PagePatch(_PageFields):
    """Only the fields sent are touched; slug and title are validated as on create."""
    model_config = example({
        "Title": "Black Friday",
        "Blocks": [{"Type": "heading", "Text": "Black Friday: 40% off"}],
    })

    title: str = Field(default="", max_length=200)
    """A new title."""
    slug: str = Field(default="", max_length=100)
    """A new slug."""
    domain: str = Field(default="", max_length=253)
    """A new domain, or `""`."""
    blocks: Blocks = []
    """New blocks, replacing the draft's."""
    seo: Seo = Seo()
    """New SEO fields."""

    def changes(self) -> dict:
        """The fields sent, as plain values (blocks and SEO in their stored shape)."""
        dumped = {"blocks": lambda: dump_blocks(self.blocks), "seo": lambda: dump_seo(self.seo)}
        return {name: dumped[name]() if name in dumped else getattr(self, name) for name in self.model_fields_set}


def dump_blocks(blocks: list) -> list[dict]:
    return [block.model_dump(by_alias=True, exclude_none=True) for block in blocks]


def dump_seo(seo: Seo) -> dict:
    return seo.model_dump(by_alias=True)
