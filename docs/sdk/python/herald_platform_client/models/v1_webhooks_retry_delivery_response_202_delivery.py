from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.v1_webhooks_retry_delivery_response_202_delivery_attempts_item import V1WebhooksRetryDeliveryResponse202DeliveryAttemptsItem





T = TypeVar("T", bound="V1WebhooksRetryDeliveryResponse202Delivery")



@_attrs_define
class V1WebhooksRetryDeliveryResponse202Delivery:
    """ The delivery.

        Attributes:
            id (str): The delivery's id (`whd_...`).
            webhook_id (str): The endpoint's id (`whk_...`).
            event_id (str): The event's id (`evt_...`).
            event_type (str): The event's type (`email.delivered`, `webhook.test` ...).
            status (str): `pending`, `succeeded` or `failed`.
            attempt_count (int): Attempts made so far.
            next_attempt_at (None | str): While `pending`, when the next attempt is due (RFC 3339, to the millisecond).
            last_attempt_at (None | str): When the last attempt started (RFC 3339, to the millisecond).
            last_status_code (int | None): The HTTP status of the last attempt, when the endpoint answered.
            last_error (None | str): What went wrong on the last attempt.
            created_at (str): When the delivery was queued (RFC 3339, to the millisecond).
            attempts (list[V1WebhooksRetryDeliveryResponse202DeliveryAttemptsItem]): Its attempts, in order.
     """

    id: str
    webhook_id: str
    event_id: str
    event_type: str
    status: str
    attempt_count: int
    next_attempt_at: None | str
    last_attempt_at: None | str
    last_status_code: int | None
    last_error: None | str
    created_at: str
    attempts: list[V1WebhooksRetryDeliveryResponse202DeliveryAttemptsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.v1_webhooks_retry_delivery_response_202_delivery_attempts_item import V1WebhooksRetryDeliveryResponse202DeliveryAttemptsItem # noqa: PLC0415
        id = self.id

        webhook_id = self.webhook_id

        event_id = self.event_id

        event_type = self.event_type

        status = self.status

        attempt_count = self.attempt_count

        next_attempt_at: None | str
        next_attempt_at = self.next_attempt_at

        last_attempt_at: None | str
        last_attempt_at = self.last_attempt_at

        last_status_code: int | None
        last_status_code = self.last_status_code

        last_error: None | str
        last_error = self.last_error

        created_at = self.created_at

        attempts = []
        for attempts_item_data in self.attempts:
            attempts_item = attempts_item_data.to_dict()
            attempts.append(attempts_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "Id": id,
            "WebhookId": webhook_id,
            "EventId": event_id,
            "EventType": event_type,
            "Status": status,
            "AttemptCount": attempt_count,
            "NextAttemptAt": next_attempt_at,
            "LastAttemptAt": last_attempt_at,
            "LastStatusCode": last_status_code,
            "LastError": last_error,
            "CreatedAt": created_at,
            "Attempts": attempts,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.v1_webhooks_retry_delivery_response_202_delivery_attempts_item import V1WebhooksRetryDeliveryResponse202DeliveryAttemptsItem # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("Id")

        webhook_id = d.pop("WebhookId")

        event_id = d.pop("EventId")

        event_type = d.pop("EventType")

        status = d.pop("Status")

        attempt_count = d.pop("AttemptCount")

        def _parse_next_attempt_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("NextAttemptAt"))


        def _parse_last_attempt_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_attempt_at = _parse_last_attempt_at(d.pop("LastAttemptAt"))


        def _parse_last_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        last_status_code = _parse_last_status_code(d.pop("LastStatusCode"))


        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("LastError"))


        created_at = d.pop("CreatedAt")

        attempts = []
        _attempts = d.pop("Attempts")
        for attempts_item_data in (_attempts):
            attempts_item = V1WebhooksRetryDeliveryResponse202DeliveryAttemptsItem.from_dict(attempts_item_data)



            attempts.append(attempts_item)


        v1_webhooks_retry_delivery_response_202_delivery = cls(
            id=id,
            webhook_id=webhook_id,
            event_id=event_id,
            event_type=event_type,
            status=status,
            attempt_count=attempt_count,
            next_attempt_at=next_attempt_at,
            last_attempt_at=last_attempt_at,
            last_status_code=last_status_code,
            last_error=last_error,
            created_at=created_at,
            attempts=attempts,
        )


        v1_webhooks_retry_delivery_response_202_delivery.additional_properties = d
        return v1_webhooks_retry_delivery_response_202_delivery

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
