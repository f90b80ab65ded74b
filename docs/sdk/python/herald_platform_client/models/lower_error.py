from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.lower_error_error import LowerErrorError





T = TypeVar("T", bound="LowerError")



@_attrs_define
class LowerError:
    """ 
        Example:
            {'error': {'type': 'Sender', 'code': 'InvalidRequest', 'message': 'The request body is not valid JSON.'},
                'RequestId': 'req_0123456789abcdef'}

        Attributes:
            error (LowerErrorError): What went wrong.
            request_id (str): The request's id (req_...), also in the X-Request-Id header.
     """

    error: LowerErrorError
    request_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.lower_error_error import LowerErrorError # noqa: PLC0415
        error = self.error.to_dict()

        request_id = self.request_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "error": error,
            "RequestId": request_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.lower_error_error import LowerErrorError # noqa: PLC0415
        d = dict(src_dict)
        error = LowerErrorError.from_dict(d.pop("error"))




        request_id = d.pop("RequestId")

        lower_error = cls(
            error=error,
            request_id=request_id,
        )


        lower_error.additional_properties = d
        return lower_error

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
