from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="WebhookCreate")



@_attrs_define
class WebhookCreate:
    """ 
        Attributes:
            url (str): Where events are POSTed: an https URL on the public internet.
            event_types (list[str] | Unset): The event types to deliver (`email.delivered` ...), or `["*"]` (the default)
                for all.
            enabled (bool | Unset): Whether events are delivered to it. Default: True.
            description (str | Unset): Your note on the endpoint (at most 500 characters). Default: ''.
     """

    url: str
    event_types: list[str] | Unset = UNSET
    enabled: bool | Unset = True
    description: str | Unset = ''





    def to_dict(self) -> dict[str, Any]:
        url = self.url

        event_types: list[str] | Unset = UNSET
        if not isinstance(self.event_types, Unset):
            event_types = self.event_types



        enabled = self.enabled

        description = self.description


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "Url": url,
        })
        if event_types is not UNSET:
            field_dict["EventTypes"] = event_types
        if enabled is not UNSET:
            field_dict["Enabled"] = enabled
        if description is not UNSET:
            field_dict["Description"] = description

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("Url")

        event_types = cast(list[str], d.pop("EventTypes", UNSET))


        enabled = d.pop("Enabled", UNSET)

        description = d.pop("Description", UNSET)

        webhook_create = cls(
            url=url,
            event_types=event_types,
            enabled=enabled,
            description=description,
        )

        return webhook_create

