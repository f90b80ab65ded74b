from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="V1WebhooksCreateWebhookResponse201WebhookHealth")



@_attrs_define
class V1WebhooksCreateWebhookResponse201WebhookHealth:
    """ How deliveries to it are going.

        Attributes:
            breaker (str): `closed`; `open` after 5 failed attempts in a row (no calls until `BreakerOpenUntil`); `half-
                open` while one delivery probes the endpoint.
            breaker_open_until (None | str): While `open`, when a probe may be sent (RFC 3339, to the millisecond).
            consecutive_failures (int): Failed attempts in a row.
            failing_since (None | str): When the failures in a row began (RFC 3339, to the millisecond).
            last_success_at (None | str): The last successful attempt (RFC 3339, to the millisecond).
     """

    breaker: str
    breaker_open_until: None | str
    consecutive_failures: int
    failing_since: None | str
    last_success_at: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        breaker = self.breaker

        breaker_open_until: None | str
        breaker_open_until = self.breaker_open_until

        consecutive_failures = self.consecutive_failures

        failing_since: None | str
        failing_since = self.failing_since

        last_success_at: None | str
        last_success_at = self.last_success_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "Breaker": breaker,
            "BreakerOpenUntil": breaker_open_until,
            "ConsecutiveFailures": consecutive_failures,
            "FailingSince": failing_since,
            "LastSuccessAt": last_success_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        breaker = d.pop("Breaker")

        def _parse_breaker_open_until(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        breaker_open_until = _parse_breaker_open_until(d.pop("BreakerOpenUntil"))


        consecutive_failures = d.pop("ConsecutiveFailures")

        def _parse_failing_since(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        failing_since = _parse_failing_since(d.pop("FailingSince"))


        def _parse_last_success_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_success_at = _parse_last_success_at(d.pop("LastSuccessAt"))


        v1_webhooks_create_webhook_response_201_webhook_health = cls(
            breaker=breaker,
            breaker_open_until=breaker_open_until,
            consecutive_failures=consecutive_failures,
            failing_since=failing_since,
            last_success_at=last_success_at,
        )


        v1_webhooks_create_webhook_response_201_webhook_health.additional_properties = d
        return v1_webhooks_create_webhook_response_201_webhook_health

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
