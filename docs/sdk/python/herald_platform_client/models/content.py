from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="Content")



@_attrs_define
class Content:
    """ 
        Attributes:
            data (str): The text.
            charset (None | str | Unset): Its MIME charset (an IANA name such as `UTF-8`, any case); the Subject's is the
                message's.
     """

    data: str
    charset: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        data = self.data

        charset: None | str | Unset
        if isinstance(self.charset, Unset):
            charset = UNSET
        else:
            charset = self.charset


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "Data": data,
        })
        if charset is not UNSET:
            field_dict["Charset"] = charset

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        data = d.pop("Data")

        def _parse_charset(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        charset = _parse_charset(d.pop("Charset", UNSET))


        content = cls(
            data=data,
            charset=charset,
        )

        return content

