from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="Attachment")



@_attrs_define
class Attachment:
    """ 
        Attributes:
            filename (str): The file's name as recipients see it (1 to 255 characters); types mail clients block (`.exe`
                ...) are refused.
            content (str): The file, base64.
            content_type (None | str | Unset): Its MIME type (`application/pdf`); guessed from the file name when absent.
     """

    filename: str
    content: str
    content_type: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        filename = self.filename

        content = self.content

        content_type: None | str | Unset
        if isinstance(self.content_type, Unset):
            content_type = UNSET
        else:
            content_type = self.content_type


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "Filename": filename,
            "Content": content,
        })
        if content_type is not UNSET:
            field_dict["ContentType"] = content_type

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        filename = d.pop("Filename")

        content = d.pop("Content")

        def _parse_content_type(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        content_type = _parse_content_type(d.pop("ContentType", UNSET))


        attachment = cls(
            filename=filename,
            content=content,
            content_type=content_type,
        )

        return attachment

