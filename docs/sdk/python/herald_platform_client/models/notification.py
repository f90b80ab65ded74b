from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Notification")



@_attrs_define
class Notification:
    """ 
        Attributes:
            title (str): The notification's title (1 to 512 characters).
            body (str): The notification's text (1 to 4096 characters).
     """

    title: str
    body: str





    def to_dict(self) -> dict[str, Any]:
        title = self.title

        body = self.body


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "Title": title,
            "Body": body,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        title = d.pop("Title")

        body = d.pop("Body")

        notification = cls(
            title=title,
            body=body,
        )

        return notification

