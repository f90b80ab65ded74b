from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.template_create_channel import TemplateCreateChannel
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="TemplateCreate")



@_attrs_define
class TemplateCreate:
    """ POST /v1/templates: the dashboard's fields; a slug the account already has is 409.

        Attributes:
            slug (str): Its name in sends (`Template`): 1 to 100 of a-z 0-9 `_` `.` `-`, from a letter or digit; it cannot
                change.
            channel (TemplateCreateChannel): `email`, `sms`, `push` or `whatsapp`; it cannot change.
            name (None | str | Unset): A name for people (at most 200 characters).
            subject (None | str | Unset): The subject (e-mail) or title (push), with `{{ variables }}`.
            text (None | str | Unset): The text, with `{{ variables }}`.
            html (None | str | Unset): The HTML part (e-mail only), with `{{ variables }}`.
            language (None | str | Unset): The language (`en`, `pt_BR`), for WhatsApp's approval.
     """

    slug: str
    channel: TemplateCreateChannel
    name: None | str | Unset = UNSET
    subject: None | str | Unset = UNSET
    text: None | str | Unset = UNSET
    html: None | str | Unset = UNSET
    language: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        slug = self.slug

        channel = self.channel.value

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        subject: None | str | Unset
        if isinstance(self.subject, Unset):
            subject = UNSET
        else:
            subject = self.subject

        text: None | str | Unset
        if isinstance(self.text, Unset):
            text = UNSET
        else:
            text = self.text

        html: None | str | Unset
        if isinstance(self.html, Unset):
            html = UNSET
        else:
            html = self.html

        language: None | str | Unset
        if isinstance(self.language, Unset):
            language = UNSET
        else:
            language = self.language


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "Slug": slug,
            "Channel": channel,
        })
        if name is not UNSET:
            field_dict["Name"] = name
        if subject is not UNSET:
            field_dict["Subject"] = subject
        if text is not UNSET:
            field_dict["Text"] = text
        if html is not UNSET:
            field_dict["Html"] = html
        if language is not UNSET:
            field_dict["Language"] = language

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        slug = d.pop("Slug")

        channel = TemplateCreateChannel(d.pop("Channel"))




        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("Name", UNSET))


        def _parse_subject(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        subject = _parse_subject(d.pop("Subject", UNSET))


        def _parse_text(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        text = _parse_text(d.pop("Text", UNSET))


        def _parse_html(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        html = _parse_html(d.pop("Html", UNSET))


        def _parse_language(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        language = _parse_language(d.pop("Language", UNSET))


        template_create = cls(
            slug=slug,
            channel=channel,
            name=name,
            subject=subject,
            text=text,
            html=html,
            language=language,
        )

        return template_create

