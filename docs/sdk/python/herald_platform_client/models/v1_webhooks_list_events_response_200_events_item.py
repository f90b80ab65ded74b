from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="V1WebhooksListEventsResponse200EventsItem")



@_attrs_define
class V1WebhooksListEventsResponse200EventsItem:
    """ 
        Attributes:
            event_id (str): The event's id (`evt_...`).
            event_type (str): The event's type (`email.delivered`, `webhook.test` ...).
            created_at (str): When it happened (RFC 3339, to the millisecond).
            tenant_id (str): The account's id.
            data (Any): The event's payload: its fields depend on the type (docs/webhooks.md).
     """

    event_id: str
    event_type: str
    created_at: str
    tenant_id: str
    data: Any
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        event_id = self.event_id

        event_type = self.event_type

        created_at = self.created_at

        tenant_id = self.tenant_id

        data = self.data


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "EventId": event_id,
            "EventType": event_type,
            "CreatedAt": created_at,
            "TenantId": tenant_id,
            "Data": data,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        event_id = d.pop("EventId")

        event_type = d.pop("EventType")

        created_at = d.pop("CreatedAt")

        tenant_id = d.pop("TenantId")

        data = d.pop("Data")

        v1_webhooks_list_events_response_200_events_item = cls(
            event_id=event_id,
            event_type=event_type,
            created_at=created_at,
            tenant_id=tenant_id,
            data=data,
        )


        v1_webhooks_list_events_response_200_events_item.additional_properties = d
        return v1_webhooks_list_events_response_200_events_item

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
