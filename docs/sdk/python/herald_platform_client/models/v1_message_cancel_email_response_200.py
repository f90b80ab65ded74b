from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import Literal, cast






T = TypeVar("T", bound="V1MessageCancelEmailResponse200")



@_attrs_define
class V1MessageCancelEmailResponse200:
    """ 
        Attributes:
            message_id (str): The message's id (`msg_...`).
            status (Literal['failed']): `failed`: it will not be sent.
            cancelled (Literal[True]): True: the scheduled send was cancelled.
            request_id (str): This request's id (req_...), also in the X-Request-Id header.
     """

    message_id: str
    status: Literal['failed']
    cancelled: Literal[True]
    request_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        message_id = self.message_id

        status = self.status

        cancelled = self.cancelled

        request_id = self.request_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "MessageId": message_id,
            "Status": status,
            "Cancelled": cancelled,
            "RequestId": request_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        message_id = d.pop("MessageId")

        status = cast(Literal['failed'] , d.pop("Status"))
        if status != 'failed':
            raise ValueError(f"Status must match const 'failed', got '{status}'")

        cancelled = cast(Literal[True] , d.pop("Cancelled"))
        if cancelled != True:
            raise ValueError(f"Cancelled must match const True, got '{cancelled}'")

        request_id = d.pop("RequestId")

        v1_message_cancel_email_response_200 = cls(
            message_id=message_id,
            status=status,
            cancelled=cancelled,
            request_id=request_id,
        )


        v1_message_cancel_email_response_200.additional_properties = d
        return v1_message_cancel_email_response_200

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
