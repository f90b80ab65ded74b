from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="V1MessageSendSmsResponse202")



@_attrs_define
class V1MessageSendSmsResponse202:
    """ 
        Attributes:
            message_id (None | str): The first recipient's message id (`msg_...`).
            message_ids (list[str]): One message id per recipient, in order.
            reused_idempotency (bool): True when the `Idempotency-Key` was used before with the same body: the answer is the
                first send's, nothing new was sent.
            status (Literal['queued']): `queued`: accepted, to be sent.
            request_id (str): This request's id (req_...), also in the X-Request-Id header.
     """

    message_id: None | str
    message_ids: list[str]
    reused_idempotency: bool
    status: Literal['queued']
    request_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        message_id: None | str
        message_id = self.message_id

        message_ids = self.message_ids



        reused_idempotency = self.reused_idempotency

        status = self.status

        request_id = self.request_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "MessageId": message_id,
            "MessageIds": message_ids,
            "ReusedIdempotency": reused_idempotency,
            "Status": status,
            "RequestId": request_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_message_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        message_id = _parse_message_id(d.pop("MessageId"))


        message_ids = cast(list[str], d.pop("MessageIds"))


        reused_idempotency = d.pop("ReusedIdempotency")

        status = cast(Literal['queued'] , d.pop("Status"))
        if status != 'queued':
            raise ValueError(f"Status must match const 'queued', got '{status}'")

        request_id = d.pop("RequestId")

        v1_message_send_sms_response_202 = cls(
            message_id=message_id,
            message_ids=message_ids,
            reused_idempotency=reused_idempotency,
            status=status,
            request_id=request_id,
        )


        v1_message_send_sms_response_202.additional_properties = d
        return v1_message_send_sms_response_202

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
