from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="SecretRotation")



@_attrs_define
class SecretRotation:
    """ 
        Attributes:
            overlap_seconds (int | Unset): How long the old secret still signs deliveries beside the new one: 0 to 604800
                seconds, 86400 by default. Default: 86400.
     """

    overlap_seconds: int | Unset = 86400





    def to_dict(self) -> dict[str, Any]:
        overlap_seconds = self.overlap_seconds


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if overlap_seconds is not UNSET:
            field_dict["OverlapSeconds"] = overlap_seconds

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        overlap_seconds = d.pop("OverlapSeconds", UNSET)

        secret_rotation = cls(
            overlap_seconds=overlap_seconds,
        )

        return secret_rotation

