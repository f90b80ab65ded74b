from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.v1_devices_list_devices_response_200_devices_item_platform import V1DevicesListDevicesResponse200DevicesItemPlatform
from typing import cast
import datetime






T = TypeVar("T", bound="V1DevicesListDevicesResponse200DevicesItem")



@_attrs_define
class V1DevicesListDevicesResponse200DevicesItem:
    """ 
        Attributes:
            device_id (str): The device's id (`dev_...`).
            token (str): Its push token, as registered.
            platform (V1DevicesListDevicesResponse200DevicesItemPlatform): `ios`, `android` or `web`.
            created_at (datetime.datetime): When it was first registered.
            updated_at (datetime.datetime): When it was last registered or changed.
     """

    device_id: str
    token: str
    platform: V1DevicesListDevicesResponse200DevicesItemPlatform
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        device_id = self.device_id

        token = self.token

        platform = self.platform.value

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "DeviceId": device_id,
            "Token": token,
            "Platform": platform,
            "CreatedAt": created_at,
            "UpdatedAt": updated_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        device_id = d.pop("DeviceId")

        token = d.pop("Token")

        platform = V1DevicesListDevicesResponse200DevicesItemPlatform(d.pop("Platform"))




        created_at = datetime.datetime.fromisoformat(d.pop("CreatedAt"))




        updated_at = datetime.datetime.fromisoformat(d.pop("UpdatedAt"))




        v1_devices_list_devices_response_200_devices_item = cls(
            device_id=device_id,
            token=token,
            platform=platform,
            created_at=created_at,
            updated_at=updated_at,
        )


        v1_devices_list_devices_response_200_devices_item.additional_properties = d
        return v1_devices_list_devices_response_200_devices_item

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
