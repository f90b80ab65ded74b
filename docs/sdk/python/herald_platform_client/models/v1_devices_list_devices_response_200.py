from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.v1_devices_list_devices_response_200_devices_item import V1DevicesListDevicesResponse200DevicesItem





T = TypeVar("T", bound="V1DevicesListDevicesResponse200")



@_attrs_define
class V1DevicesListDevicesResponse200:
    """ 
        Attributes:
            devices (list[V1DevicesListDevicesResponse200DevicesItem]): The account's devices.
            next_cursor (int): Give it as `cursor` for the next page.
            has_more (bool): Whether there is a next page.
            request_id (str): This request's id (req_...), also in the X-Request-Id header.
     """

    devices: list[V1DevicesListDevicesResponse200DevicesItem]
    next_cursor: int
    has_more: bool
    request_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.v1_devices_list_devices_response_200_devices_item import V1DevicesListDevicesResponse200DevicesItem # noqa: PLC0415
        devices = []
        for devices_item_data in self.devices:
            devices_item = devices_item_data.to_dict()
            devices.append(devices_item)



        next_cursor = self.next_cursor

        has_more = self.has_more

        request_id = self.request_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "Devices": devices,
            "NextCursor": next_cursor,
            "HasMore": has_more,
            "RequestId": request_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.v1_devices_list_devices_response_200_devices_item import V1DevicesListDevicesResponse200DevicesItem # noqa: PLC0415
        d = dict(src_dict)
        devices = []
        _devices = d.pop("Devices")
        for devices_item_data in (_devices):
            devices_item = V1DevicesListDevicesResponse200DevicesItem.from_dict(devices_item_data)



            devices.append(devices_item)


        next_cursor = d.pop("NextCursor")

        has_more = d.pop("HasMore")

        request_id = d.pop("RequestId")

        v1_devices_list_devices_response_200 = cls(
            devices=devices,
            next_cursor=next_cursor,
            has_more=has_more,
            request_id=request_id,
        )


        v1_devices_list_devices_response_200.additional_properties = d
        return v1_devices_list_devices_response_200

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
