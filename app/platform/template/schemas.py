"""The bodies of POST /api/templates and of /v1/templates (strict: an unknown field is a 400 naming it)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.http import errors
from app.http.bodies import Body, example

SLUG = r"^[a-z0-9][a-z0-9_.-]{0,99}$"
CHANNELS = ("email", "sms", "push", "whatsapp")


class TemplateUpsert(Body):
    slug: Annotated[str, Field(pattern=SLUG)]
    """Its name in sends (`Template`): 1 to 100 of a-z 0-9 `_` `.` `-`, from a letter or digit; it cannot change."""
    channel: Literal["email", "sms", "push", "whatsapp"]
    """`email`, `sms`, `push` or `whatsapp`; it cannot change."""
    name: Annotated[str, Field(max_length=200)] | None = None
    """A name for people (at most 200 characters)."""
    subject: Annotated[str, Field(min_length=1, max_length=998)] | None = None
    """The subject (e-mail) or title (push), with `{{ variables }}`."""
    text: Annotated[str, Field(min_length=1, max_length=100_000)] | None = None
    """The text, with `{{ variables }}`."""
    html: Annotated[str, Field(min_length=1, max_length=1_000_000)] | None = None
    """The HTML part (e-mail only), with `{{ variables }}`."""
    language: Annotated[str, Field(pattern=r"^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})?$")] | None = None
    """The language (`en`, `pt_BR`), for WhatsApp's approval."""


class TemplateCreate(TemplateUpsert):
    """POST /v1/templates: the dashboard's fields; a slug the account already has is 409."""

    model_config = example({"Slug": "order-shipped", "Channel": "email", "Name": "Shipping notice",
                            "Subject": "Order {{ order }} has shipped",
                            "Text": "Hello {{ name }}, order {{ order }} is on its way.",
                            "Html": "<p>Hello {{ name }}, order <b>{{ order }}</b> is on its way.</p>"})


class TemplateChange(Body):
    """PATCH /v1/templates/{id}: the fields given replace the template's (null removes an optional
    part); slug and channel stay (another slug or channel is another template)."""

    model_config = example({"Subject": "Your order {{ order }} is on its way"})
    name: Annotated[str, Field(max_length=200)] | None = None
    """A name for people (at most 200 characters)."""
    subject: Annotated[str, Field(min_length=1, max_length=998)] | None = None
    """The subject (e-mail) or title (push), with `{{ variables }}`; `null` removes it."""
    text: Annotated[str, Field(min_length=1, max_length=100_000)] | None = None
    """The text, with `{{ variables }}`; `null` removes it."""
    html: Annotated[str, Field(min_length=1, max_length=1_000_000)] | None = None
    """The HTML part (e-mail only), with `{{ variables }}`; `null` removes it."""
    language: Annotated[str, Field(pattern=r"^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})?$")] | None = None
    """The language (`en`, `pt_BR`), for WhatsApp's approval."""

    def applied_to(self, slug: str, channel: str, current: dict[str, str | None]) -> TemplateUpsert:
        """The whole template once these changes are made to ``current`` (its fields by name)."""
        changes = self.model_dump(exclude_unset=True)
        if not changes:
            raise errors.Unprocessable("Give at least one of Name, Subject, Text, Html, Language.",
                                       details={"body": "at least one of Name, Subject, Text, Html, Language"})
        merged = {**current, **changes}
        return TemplateUpsert.model_validate({"Slug": slug, "Channel": channel, **{
            name.capitalize(): merged.get(name) for name in ("name", "subject", "text", "html", "language")}})
