from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="TestEvent")



@_attrs_define
class TestEvent:
    """ 
        Attributes:
            event_type (str | Unset): The event type the test delivery carries: `webhook.test` by default. Default:
                'webhook.test'.
     """

    event_type: str | Unset = 'webhook.test'





    def to_dict(self) -> dict[str, Any]:
        event_type = self.event_type


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if event_type is not UNSET:
            field_dict["EventType"] = event_type

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        event_type = d.pop("EventType", UNSET)

        test_event = cls(
            event_type=event_type,
        )

        return test_event

