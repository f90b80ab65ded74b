from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.v1_message_send_email_batch_response_202_results_item_type_1_error import V1MessageSendEmailBatchResponse202ResultsItemType1Error





T = TypeVar("T", bound="V1MessageSendEmailBatchResponse202ResultsItemType1")



@_attrs_define
class V1MessageSendEmailBatchResponse202ResultsItemType1:
    """ 
        Attributes:
            index (int): The item's position in `Messages`, from 0.
            error (V1MessageSendEmailBatchResponse202ResultsItemType1Error): Why this item was refused (the others are not
                affected).
     """

    index: int
    error: V1MessageSendEmailBatchResponse202ResultsItemType1Error
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.v1_message_send_email_batch_response_202_results_item_type_1_error import V1MessageSendEmailBatchResponse202ResultsItemType1Error # noqa: PLC0415
        index = self.index

        error = self.error.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "Index": index,
            "Error": error,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.v1_message_send_email_batch_response_202_results_item_type_1_error import V1MessageSendEmailBatchResponse202ResultsItemType1Error # noqa: PLC0415
        d = dict(src_dict)
        index = d.pop("Index")

        error = V1MessageSendEmailBatchResponse202ResultsItemType1Error.from_dict(d.pop("Error"))




        v1_message_send_email_batch_response_202_results_item_type_1 = cls(
            index=index,
            error=error,
        )


        v1_message_send_email_batch_response_202_results_item_type_1.additional_properties = d
        return v1_message_send_email_batch_response_202_results_item_type_1

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
