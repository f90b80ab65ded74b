from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="V1WebhooksSendTestEventResponse202")



@_attrs_define
class V1WebhooksSendTestEventResponse202:
    """ 
        Attributes:
            event_id (str): The event's id (`evt_...`).
            delivery_id (str): The queued delivery's id (`whd_...`).
            request_id (str): This request's id (req_...), also in the X-Request-Id header.
     """

    event_id: str
    delivery_id: str
    request_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        event_id = self.event_id

        delivery_id = self.delivery_id

        request_id = self.request_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "EventId": event_id,
            "DeliveryId": delivery_id,
            "RequestId": request_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        event_id = d.pop("EventId")

        delivery_id = d.pop("DeliveryId")

        request_id = d.pop("RequestId")

        v1_webhooks_send_test_event_response_202 = cls(
            event_id=event_id,
            delivery_id=delivery_id,
            request_id=request_id,
        )


        v1_webhooks_send_test_event_response_202.additional_properties = d
        return v1_webhooks_send_test_event_response_202

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
