from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.v1_webhooks_list_events_response_200_events_item import V1WebhooksListEventsResponse200EventsItem





T = TypeVar("T", bound="V1WebhooksListEventsResponse200")



@_attrs_define
class V1WebhooksListEventsResponse200:
    """ 
        Attributes:
            events (list[V1WebhooksListEventsResponse200EventsItem]): The events, newest first.
            next_cursor (int | None | str): Give it as `cursor` for the next page; null on the last.
            has_more (bool): Whether there is a next page.
            request_id (str): This request's id (req_...), also in the X-Request-Id header.
     """

    events: list[V1WebhooksListEventsResponse200EventsItem]
    next_cursor: int | None | str
    has_more: bool
    request_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.v1_webhooks_list_events_response_200_events_item import V1WebhooksListEventsResponse200EventsItem # noqa: PLC0415
        events = []
        for events_item_data in self.events:
            events_item = events_item_data.to_dict()
            events.append(events_item)



        next_cursor: int | None | str
        next_cursor = self.next_cursor

        has_more = self.has_more

        request_id = self.request_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "Events": events,
            "NextCursor": next_cursor,
            "HasMore": has_more,
            "RequestId": request_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.v1_webhooks_list_events_response_200_events_item import V1WebhooksListEventsResponse200EventsItem # noqa: PLC0415
        d = dict(src_dict)
        events = []
        _events = d.pop("Events")
        for events_item_data in (_events):
            events_item = V1WebhooksListEventsResponse200EventsItem.from_dict(events_item_data)



            events.append(events_item)


        def _parse_next_cursor(data: object) -> int | None | str:
            if data is None:
                return data
            return cast(int | None | str, data)

        next_cursor = _parse_next_cursor(d.pop("NextCursor"))


        has_more = d.pop("HasMore")

        request_id = d.pop("RequestId")

        v1_webhooks_list_events_response_200 = cls(
            events=events,
            next_cursor=next_cursor,
            has_more=has_more,
            request_id=request_id,
        )


        v1_webhooks_list_events_response_200.additional_properties = d
        return v1_webhooks_list_events_response_200

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
