from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="V1WebhooksListDeliveriesResponse200DeliveriesItemAttemptsItem")



@_attrs_define
class V1WebhooksListDeliveriesResponse200DeliveriesItemAttemptsItem:
    """ 
        Attributes:
            number (int): The attempt's number, from 1.
            at (None | str): When it started (RFC 3339, to the millisecond).
            outcome (str): `succeeded` (2xx), `http_error` (any other status; redirects are not followed), `timeout`,
                `connection_error` or `unsafe_target` (an address never connected to).
            status_code (int | None): The endpoint's HTTP status, when it answered.
            duration_ms (int | None): How long the attempt took, in milliseconds.
            error (None | str): What went wrong, when it failed.
            response_excerpt (None | str): The first 1000 characters of the endpoint's answer.
     """

    number: int
    at: None | str
    outcome: str
    status_code: int | None
    duration_ms: int | None
    error: None | str
    response_excerpt: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        number = self.number

        at: None | str
        at = self.at

        outcome = self.outcome

        status_code: int | None
        status_code = self.status_code

        duration_ms: int | None
        duration_ms = self.duration_ms

        error: None | str
        error = self.error

        response_excerpt: None | str
        response_excerpt = self.response_excerpt


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "Number": number,
            "At": at,
            "Outcome": outcome,
            "StatusCode": status_code,
            "DurationMs": duration_ms,
            "Error": error,
            "ResponseExcerpt": response_excerpt,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        number = d.pop("Number")

        def _parse_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        at = _parse_at(d.pop("At"))


        outcome = d.pop("Outcome")

        def _parse_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        status_code = _parse_status_code(d.pop("StatusCode"))


        def _parse_duration_ms(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        duration_ms = _parse_duration_ms(d.pop("DurationMs"))


        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("Error"))


        def _parse_response_excerpt(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        response_excerpt = _parse_response_excerpt(d.pop("ResponseExcerpt"))


        v1_webhooks_list_deliveries_response_200_deliveries_item_attempts_item = cls(
            number=number,
            at=at,
            outcome=outcome,
            status_code=status_code,
            duration_ms=duration_ms,
            error=error,
            response_excerpt=response_excerpt,
        )


        v1_webhooks_list_deliveries_response_200_deliveries_item_attempts_item.additional_properties = d
        return v1_webhooks_list_deliveries_response_200_deliveries_item_attempts_item

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
