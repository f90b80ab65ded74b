from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="EmailBatch")



@_attrs_define
class EmailBatch:
    """ 
        Attributes:
            messages (list[Any]): The e-mails (1 to 500), each the body of `POST /v1/emails/send`; each is accepted or
                refused on its own.
     """

    messages: list[Any]





    def to_dict(self) -> dict[str, Any]:
        messages = self.messages




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "Messages": messages,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        messages = cast(list[Any], d.pop("Messages"))


        email_batch = cls(
            messages=messages,
        )

        return email_batch

