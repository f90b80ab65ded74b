from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="V1MessageGetEmailResponse200EventsItem")



@_attrs_define
class V1MessageGetEmailResponse200EventsItem:
    """ 
        Attributes:
            type_ (str): What happened: `queued` (accepted) first, then the delivery's events.
            at (datetime.datetime): When.
            detail (Any): More about it (the provider's answer, a bounce's reason, a scheduled send's `ScheduledAt` ...), or
                null.
     """

    type_: str
    at: datetime.datetime
    detail: Any
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        at = self.at.isoformat()

        detail = self.detail


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "Type": type_,
            "At": at,
            "Detail": detail,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = d.pop("Type")

        at = datetime.datetime.fromisoformat(d.pop("At"))




        detail = d.pop("Detail")

        v1_message_get_email_response_200_events_item = cls(
            type_=type_,
            at=at,
            detail=detail,
        )


        v1_message_get_email_response_200_events_item.additional_properties = d
        return v1_message_get_email_response_200_events_item

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
