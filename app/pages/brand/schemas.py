"""The brand body: the four elements sent together; an empty string deletes that element."""

from __future__ import annotations

from pydantic import Field, field_validator

from app.http.bodies import Body, example
from app.pages import validation


class BrandPut(Body):
    model_config = example({
        "LogoUrl": "https://example.com/logo.png",
        "PrimaryColor": "#1a73e8",
        "SecondaryColor": "#202124",
        "Font": "Inter",
    })
    logo_url: str = Field(max_length=2048)
    """The logo's URL."""
    primary_color: str = Field(max_length=7)
    """The primary colour (`#rrggbb`)."""
    secondary_color: str = Field(max_length=7)
    """The secondary colour (`#rrggbb`)."""
    font: str = Field(max_length=100)
    """The font's name."""

    @field_validator("logo_url")
    @classmethod
    def _logo(cls, value: str) -> str:
        return value if value == "" else validation.web_url(value, https_only=True)

    @field_validator("primary_color", "secondary_color")
    @classmethod
    def _color(cls, value: str) -> str:
        if value and not validation.COLOR.fullmatch(value):
            raise ValueError("must be a colour as #rrggbb")
        return value.lower()

    @field_validator("font")
    @classmethod
    def _font(cls, value: str) -> str:
        value = value.strip()
        if value and not all(char.isalnum() or char in " -_" for char in value):
            raise ValueError("must be a font family name (letters, digits, spaces, - and _)")
        return value

    def stored(self) -> dict[str, str | None]:
        """Column -> value, None for an element deleted."""
        return {name: (getattr(self, name) or None) for name in ("logo_url", "primary_color", "secondary_color",
                                                                 "font")}
