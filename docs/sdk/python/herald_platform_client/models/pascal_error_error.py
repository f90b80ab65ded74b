from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.pascal_error_error_type import PascalErrorErrorType
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.pascal_error_error_details import PascalErrorErrorDetails





T = TypeVar("T", bound="PascalErrorError")



@_attrs_define
class PascalErrorError:
    """ What went wrong.

        Attributes:
            type_ (PascalErrorErrorType): `Sender` for a 4xx (the request is at fault), `Receiver` for a 5xx (Herald or a
                system it calls).
            code (str): The error's code, for programs (`ValidationError`, `NotFound`, `Throttling` ...).
            message (str): What went wrong, in English, for people; it may change.
            details (PascalErrorErrorDetails | Unset): More about it: for a refused body, each field's name and its reason.
     """

    type_: PascalErrorErrorType
    code: str
    message: str
    details: PascalErrorErrorDetails | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.pascal_error_error_details import PascalErrorErrorDetails # noqa: PLC0415
        type_ = self.type_.value

        code = self.code

        message = self.message

        details: dict[str, Any] | Unset = UNSET
        if not isinstance(self.details, Unset):
            details = self.details.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "Type": type_,
            "Code": code,
            "Message": message,
        })
        if details is not UNSET:
            field_dict["Details"] = details

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.pascal_error_error_details import PascalErrorErrorDetails # noqa: PLC0415
        d = dict(src_dict)
        type_ = PascalErrorErrorType(d.pop("Type"))




        code = d.pop("Code")

        message = d.pop("Message")

        _details = d.pop("Details", UNSET)
        details: PascalErrorErrorDetails | Unset
        if isinstance(_details,  Unset):
            details = UNSET
        else:
            details = PascalErrorErrorDetails.from_dict(_details)




        pascal_error_error = cls(
            type_=type_,
            code=code,
            message=message,
            details=details,
        )


        pascal_error_error.additional_properties = d
        return pascal_error_error

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
