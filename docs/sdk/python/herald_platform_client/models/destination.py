from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="Destination")



@_attrs_define
class Destination:
    """ 
        Attributes:
            to_addresses (list[str]): The recipients (1 to 50 addresses).
            cc_addresses (list[str] | Unset): Copied recipients (at most 50).
            bcc_addresses (list[str] | Unset): Blind-copied recipients (at most 50); not shown to the others.
     """

    to_addresses: list[str]
    cc_addresses: list[str] | Unset = UNSET
    bcc_addresses: list[str] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        to_addresses = self.to_addresses



        cc_addresses: list[str] | Unset = UNSET
        if not isinstance(self.cc_addresses, Unset):
            cc_addresses = self.cc_addresses



        bcc_addresses: list[str] | Unset = UNSET
        if not isinstance(self.bcc_addresses, Unset):
            bcc_addresses = self.bcc_addresses




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "ToAddresses": to_addresses,
        })
        if cc_addresses is not UNSET:
            field_dict["CcAddresses"] = cc_addresses
        if bcc_addresses is not UNSET:
            field_dict["BccAddresses"] = bcc_addresses

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        to_addresses = cast(list[str], d.pop("ToAddresses"))


        cc_addresses = cast(list[str], d.pop("CcAddresses", UNSET))


        bcc_addresses = cast(list[str], d.pop("BccAddresses", UNSET))


        destination = cls(
            to_addresses=to_addresses,
            cc_addresses=cc_addresses,
            bcc_addresses=bcc_addresses,
        )

        return destination

