from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="WebhookUpdate")



@_attrs_define
class WebhookUpdate:
    """ 
        Attributes:
            url (None | str | Unset): Where events are POSTed: an https URL on the public internet.
            event_types (list[str] | None | Unset): The event types to deliver, or `["*"]` for all.
            enabled (bool | None | Unset): Whether events are delivered to it.
            description (None | str | Unset): Your note on the endpoint (at most 500 characters).
     """

    url: None | str | Unset = UNSET
    event_types: list[str] | None | Unset = UNSET
    enabled: bool | None | Unset = UNSET
    description: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        url: None | str | Unset
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url

        event_types: list[str] | None | Unset
        if isinstance(self.event_types, Unset):
            event_types = UNSET
        elif isinstance(self.event_types, list):
            event_types = self.event_types


        else:
            event_types = self.event_types

        enabled: bool | None | Unset
        if isinstance(self.enabled, Unset):
            enabled = UNSET
        else:
            enabled = self.enabled

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if url is not UNSET:
            field_dict["Url"] = url
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
        def _parse_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        url = _parse_url(d.pop("Url", UNSET))


        def _parse_event_types(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                event_types_type_0 = cast(list[str], data)

                return event_types_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        event_types = _parse_event_types(d.pop("EventTypes", UNSET))


        def _parse_enabled(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        enabled = _parse_enabled(d.pop("Enabled", UNSET))


        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("Description", UNSET))


        webhook_update = cls(
            url=url,
            event_types=event_types,
            enabled=enabled,
            description=description,
        )

        return webhook_update

