from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.v1_message_get_email_response_200_events_item import V1MessageGetEmailResponse200EventsItem
  from ..models.v1_message_get_email_response_200_message import V1MessageGetEmailResponse200Message





T = TypeVar("T", bound="V1MessageGetEmailResponse200")



@_attrs_define
class V1MessageGetEmailResponse200:
    """ 
        Attributes:
            message (V1MessageGetEmailResponse200Message): The e-mail.
            events (list[V1MessageGetEmailResponse200EventsItem]): The message's timeline, oldest first.
            request_id (str): This request's id (req_...), also in the X-Request-Id header.
     """

    message: V1MessageGetEmailResponse200Message
    events: list[V1MessageGetEmailResponse200EventsItem]
    request_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.v1_message_get_email_response_200_events_item import V1MessageGetEmailResponse200EventsItem # noqa: PLC0415
        from ..models.v1_message_get_email_response_200_message import V1MessageGetEmailResponse200Message # noqa: PLC0415
        message = self.message.to_dict()

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.to_dict()
            events.append(events_item)



        request_id = self.request_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "Message": message,
            "Events": events,
            "RequestId": request_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.v1_message_get_email_response_200_events_item import V1MessageGetEmailResponse200EventsItem # noqa: PLC0415
        from ..models.v1_message_get_email_response_200_message import V1MessageGetEmailResponse200Message # noqa: PLC0415
        d = dict(src_dict)
        message = V1MessageGetEmailResponse200Message.from_dict(d.pop("Message"))




        events = []
        _events = d.pop("Events")
        for events_item_data in (_events):
            events_item = V1MessageGetEmailResponse200EventsItem.from_dict(events_item_data)



            events.append(events_item)


        request_id = d.pop("RequestId")

        v1_message_get_email_response_200 = cls(
            message=message,
            events=events,
            request_id=request_id,
        )


        v1_message_get_email_response_200.additional_properties = d
        return v1_message_get_email_response_200

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
