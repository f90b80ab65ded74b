from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.v1_templates_list_templates_response_200_templates_item_channel import V1TemplatesListTemplatesResponse200TemplatesItemChannel
from ..models.v1_templates_list_templates_response_200_templates_item_status import V1TemplatesListTemplatesResponse200TemplatesItemStatus
from typing import cast
import datetime






T = TypeVar("T", bound="V1TemplatesListTemplatesResponse200TemplatesItem")



@_attrs_define
class V1TemplatesListTemplatesResponse200TemplatesItem:
    """ 
        Attributes:
            template_id (str): The template's id (`tpl_...`).
            slug (str): Its name in sends (`Template`).
            channel (V1TemplatesListTemplatesResponse200TemplatesItemChannel): The channel it is for.
            name (str): A name for people.
            subject (None | str): The subject (e-mail) or title (push), with `{{ variables }}`.
            text (None | str): The text, with `{{ variables }}`.
            html (None | str): The HTML part (e-mail), with `{{ variables }}`.
            language (str): The language (WhatsApp).
            status (V1TemplatesListTemplatesResponse200TemplatesItemStatus): `active` (usable); WhatsApp: `pending`
                approval, `approved` or `rejected`.
            status_reason (None | str): WhatsApp: why it was rejected, or what it still waits for.
            variables (list[str]): The variables its parts use.
            created_at (datetime.datetime): When it was made.
            updated_at (datetime.datetime): When it last changed.
     """

    template_id: str
    slug: str
    channel: V1TemplatesListTemplatesResponse200TemplatesItemChannel
    name: str
    subject: None | str
    text: None | str
    html: None | str
    language: str
    status: V1TemplatesListTemplatesResponse200TemplatesItemStatus
    status_reason: None | str
    variables: list[str]
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        template_id = self.template_id

        slug = self.slug

        channel = self.channel.value

        name = self.name

        subject: None | str
        subject = self.subject

        text: None | str
        text = self.text

        html: None | str
        html = self.html

        language = self.language

        status = self.status.value

        status_reason: None | str
        status_reason = self.status_reason

        variables = self.variables



        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "TemplateId": template_id,
            "Slug": slug,
            "Channel": channel,
            "Name": name,
            "Subject": subject,
            "Text": text,
            "Html": html,
            "Language": language,
            "Status": status,
            "StatusReason": status_reason,
            "Variables": variables,
            "CreatedAt": created_at,
            "UpdatedAt": updated_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        template_id = d.pop("TemplateId")

        slug = d.pop("Slug")

        channel = V1TemplatesListTemplatesResponse200TemplatesItemChannel(d.pop("Channel"))




        name = d.pop("Name")

        def _parse_subject(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        subject = _parse_subject(d.pop("Subject"))


        def _parse_text(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        text = _parse_text(d.pop("Text"))


        def _parse_html(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        html = _parse_html(d.pop("Html"))


        language = d.pop("Language")

        status = V1TemplatesListTemplatesResponse200TemplatesItemStatus(d.pop("Status"))




        def _parse_status_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        status_reason = _parse_status_reason(d.pop("StatusReason"))


        variables = cast(list[str], d.pop("Variables"))


        created_at = datetime.datetime.fromisoformat(d.pop("CreatedAt"))




        updated_at = datetime.datetime.fromisoformat(d.pop("UpdatedAt"))




        v1_templates_list_templates_response_200_templates_item = cls(
            template_id=template_id,
            slug=slug,
            channel=channel,
            name=name,
            subject=subject,
            text=text,
            html=html,
            language=language,
            status=status,
            status_reason=status_reason,
            variables=variables,
            created_at=created_at,
            updated_at=updated_at,
        )


        v1_templates_list_templates_response_200_templates_item.additional_properties = d
        return v1_templates_list_templates_response_200_templates_item

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
