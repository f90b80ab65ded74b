from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="V1AccountUsageResponse200Usage")



@_attrs_define
class V1AccountUsageResponse200Usage:
    """ The month's usage.

        Attributes:
            period (str): The month counted (`YYYY-MM`, UTC).
            emails_sent (int): E-mails sent in the month.
            sms_sent (int): SMS sent in the month.
            push_sent (int): Push notifications sent in the month.
            api_calls (int): Requests made with the account's keys in the month.
            updated_at (datetime.datetime | None): When the counts last changed; null while nothing is counted.
     """

    period: str
    emails_sent: int
    sms_sent: int
    push_sent: int
    api_calls: int
    updated_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        period = self.period

        emails_sent = self.emails_sent

        sms_sent = self.sms_sent

        push_sent = self.push_sent

        api_calls = self.api_calls

        updated_at: None | str
        if isinstance(self.updated_at, datetime.datetime):
            updated_at = self.updated_at.isoformat()
        else:
            updated_at = self.updated_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "Period": period,
            "EmailsSent": emails_sent,
            "SmsSent": sms_sent,
            "PushSent": push_sent,
            "ApiCalls": api_calls,
            "UpdatedAt": updated_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        period = d.pop("Period")

        emails_sent = d.pop("EmailsSent")

        sms_sent = d.pop("SmsSent")

        push_sent = d.pop("PushSent")

        api_calls = d.pop("ApiCalls")

        def _parse_updated_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                updated_at_type_0 = datetime.datetime.fromisoformat(data)



                return updated_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        updated_at = _parse_updated_at(d.pop("UpdatedAt"))


        v1_account_usage_response_200_usage = cls(
            period=period,
            emails_sent=emails_sent,
            sms_sent=sms_sent,
            push_sent=push_sent,
            api_calls=api_calls,
            updated_at=updated_at,
        )


        v1_account_usage_response_200_usage.additional_properties = d
        return v1_account_usage_response_200_usage

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
