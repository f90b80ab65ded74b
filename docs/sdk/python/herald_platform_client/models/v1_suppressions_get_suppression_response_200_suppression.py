from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="V1SuppressionsGetSuppressionResponse200Suppression")



@_attrs_define
class V1SuppressionsGetSuppressionResponse200Suppression:
    """ The suppression.

        Attributes:
            id (str): The suppression's id (`sup_...`).
            channel (str): The channel it applies to.
            address (str): The suppressed address or number.
            reason (str): Why: `bounce` (a hard bounce), `complaint` or `crm_opt_out` (an opt-out in the CRM).
            message_id (None | str): The message that caused it (a bounce, a complaint); null for an opt-out.
            removable (bool): Whether the account may lift it (not an opt-out kept by the CRM).
            created_at (datetime.datetime): When it began.
     """

    id: str
    channel: str
    address: str
    reason: str
    message_id: None | str
    removable: bool
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        channel = self.channel

        address = self.address

        reason = self.reason

        message_id: None | str
        message_id = self.message_id

        removable = self.removable

        created_at = self.created_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "Id": id,
            "Channel": channel,
            "Address": address,
            "Reason": reason,
            "MessageId": message_id,
            "Removable": removable,
            "CreatedAt": created_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("Id")

        channel = d.pop("Channel")

        address = d.pop("Address")

        reason = d.pop("Reason")

        def _parse_message_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        message_id = _parse_message_id(d.pop("MessageId"))


        removable = d.pop("Removable")

        created_at = datetime.datetime.fromisoformat(d.pop("CreatedAt"))




        v1_suppressions_get_suppression_response_200_suppression = cls(
            id=id,
            channel=channel,
            address=address,
            reason=reason,
            message_id=message_id,
            removable=removable,
            created_at=created_at,
        )


        v1_suppressions_get_suppression_response_200_suppression.additional_properties = d
        return v1_suppressions_get_suppression_response_200_suppression

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
