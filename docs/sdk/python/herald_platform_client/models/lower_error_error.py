from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.lower_error_error_type import LowerErrorErrorType
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.lower_error_error_details import LowerErrorErrorDetails





T = TypeVar("T", bound="LowerErrorError")



@_attrs_define
class LowerErrorError:
    """ What went wrong.

        Attributes:
            type_ (LowerErrorErrorType): `Sender` for a 4xx (the request is at fault), `Receiver` for a 5xx (Herald or a
                system it calls).
            code (str): The error's code, for programs (`ValidationError`, `NotFound`, `Throttling` ...).
            message (str): What went wrong, in English, for people; it may change.
            details (LowerErrorErrorDetails | Unset): More about it: for a refused body, each field's name and its reason.
     """

    type_: LowerErrorErrorType
    code: str
    message: str
    details: LowerErrorErrorDetails | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.lower_error_error_details import LowerErrorErrorDetails # noqa: PLC0415
        type_ = self.type_.value

        code = self.code

        message = self.message

        details: dict[str, Any] | Unset = UNSET
        if not isinstance(self.details, Unset):
            details = self.details.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "type": type_,
            "code": code,
            "message": message,
        })
        if details is not UNSET:
            field_dict["details"] = details

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.lower_error_error_details import LowerErrorErrorDetails # noqa: PLC0415
        d = dict(src_dict)
        type_ = LowerErrorErrorType(d.pop("type"))




        code = d.pop("code")

        message = d.pop("message")

        _details = d.pop("details", UNSET)
        details: LowerErrorErrorDetails | Unset
        if isinstance(_details,  Unset):
            details = UNSET
        else:
            details = LowerErrorErrorDetails.from_dict(_details)




        lower_error_error = cls(
            type_=type_,
            code=code,
            message=message,
            details=details,
        )


        lower_error_error.additional_properties = d
        return lower_error_error

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
