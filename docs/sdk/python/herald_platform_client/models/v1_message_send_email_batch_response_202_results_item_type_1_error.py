from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.v1_message_send_email_batch_response_202_results_item_type_1_error_details import V1MessageSendEmailBatchResponse202ResultsItemType1ErrorDetails





T = TypeVar("T", bound="V1MessageSendEmailBatchResponse202ResultsItemType1Error")



@_attrs_define
class V1MessageSendEmailBatchResponse202ResultsItemType1Error:
    """ Why this item was refused (the others are not affected).

        Attributes:
            code (str): The error's code (`ValidationError` ...).
            message (str): What went wrong.
            details (V1MessageSendEmailBatchResponse202ResultsItemType1ErrorDetails | Unset): Each refused field and its
                reason.
     """

    code: str
    message: str
    details: V1MessageSendEmailBatchResponse202ResultsItemType1ErrorDetails | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.v1_message_send_email_batch_response_202_results_item_type_1_error_details import V1MessageSendEmailBatchResponse202ResultsItemType1ErrorDetails # noqa: PLC0415
        code = self.code

        message = self.message

        details: dict[str, Any] | Unset = UNSET
        if not isinstance(self.details, Unset):
            details = self.details.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "Code": code,
            "Message": message,
        })
        if details is not UNSET:
            field_dict["Details"] = details

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.v1_message_send_email_batch_response_202_results_item_type_1_error_details import V1MessageSendEmailBatchResponse202ResultsItemType1ErrorDetails # noqa: PLC0415
        d = dict(src_dict)
        code = d.pop("Code")

        message = d.pop("Message")

        _details = d.pop("Details", UNSET)
        details: V1MessageSendEmailBatchResponse202ResultsItemType1ErrorDetails | Unset
        if isinstance(_details,  Unset):
            details = UNSET
        else:
            details = V1MessageSendEmailBatchResponse202ResultsItemType1ErrorDetails.from_dict(_details)




        v1_message_send_email_batch_response_202_results_item_type_1_error = cls(
            code=code,
            message=message,
            details=details,
        )


        v1_message_send_email_batch_response_202_results_item_type_1_error.additional_properties = d
        return v1_message_send_email_batch_response_202_results_item_type_1_error

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
