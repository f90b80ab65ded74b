from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="V1MessageSendEmailBatchResponse202ResultsItemType0")



@_attrs_define
class V1MessageSendEmailBatchResponse202ResultsItemType0:
    """ 
        Attributes:
            index (int): The item's position in `Messages`, from 0.
            message_id (None | str): The first recipient's message id (`msg_...`).
            message_ids (list[str]): One message id per recipient, in order.
            reused_idempotency (bool): True when the `Idempotency-Key` was used before with the same body: the answer is the
                first send's, nothing new was sent.
     """

    index: int
    message_id: None | str
    message_ids: list[str]
    reused_idempotency: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        index = self.index

        message_id: None | str
        message_id = self.message_id

        message_ids = self.message_ids



        reused_idempotency = self.reused_idempotency


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "Index": index,
            "MessageId": message_id,
            "MessageIds": message_ids,
            "ReusedIdempotency": reused_idempotency,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        index = d.pop("Index")

        def _parse_message_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        message_id = _parse_message_id(d.pop("MessageId"))


        message_ids = cast(list[str], d.pop("MessageIds"))


        reused_idempotency = d.pop("ReusedIdempotency")

        v1_message_send_email_batch_response_202_results_item_type_0 = cls(
            index=index,
            message_id=message_id,
            message_ids=message_ids,
            reused_idempotency=reused_idempotency,
        )


        v1_message_send_email_batch_response_202_results_item_type_0.additional_properties = d
        return v1_message_send_email_batch_response_202_results_item_type_0

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
