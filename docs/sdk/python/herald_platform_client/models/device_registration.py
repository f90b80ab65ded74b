from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.device_registration_platform import DeviceRegistrationPlatform
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.device_registration_metadata_type_0 import DeviceRegistrationMetadataType0





T = TypeVar("T", bound="DeviceRegistration")



@_attrs_define
class DeviceRegistration:
    """ 
        Attributes:
            token (str): The device's push token; for `web`, a browser's PushSubscription as JSON or an FCM registration
                token.
            platform (DeviceRegistrationPlatform): `ios`, `android` or `web`.
            user_ref (None | str | Unset): Your reference for the device's user (at most 256 characters); accepted, not
                stored.
            metadata (DeviceRegistrationMetadataType0 | None | Unset): Your labels for the device (name to value); accepted,
                not stored.
     """

    token: str
    platform: DeviceRegistrationPlatform
    user_ref: None | str | Unset = UNSET
    metadata: DeviceRegistrationMetadataType0 | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.device_registration_metadata_type_0 import DeviceRegistrationMetadataType0 # noqa: PLC0415
        token = self.token

        platform = self.platform.value

        user_ref: None | str | Unset
        if isinstance(self.user_ref, Unset):
            user_ref = UNSET
        else:
            user_ref = self.user_ref

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, DeviceRegistrationMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "Token": token,
            "Platform": platform,
        })
        if user_ref is not UNSET:
            field_dict["UserRef"] = user_ref
        if metadata is not UNSET:
            field_dict["Metadata"] = metadata

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.device_registration_metadata_type_0 import DeviceRegistrationMetadataType0 # noqa: PLC0415
        d = dict(src_dict)
        token = d.pop("Token")

        platform = DeviceRegistrationPlatform(d.pop("Platform"))




        def _parse_user_ref(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        user_ref = _parse_user_ref(d.pop("UserRef", UNSET))


        def _parse_metadata(data: object) -> DeviceRegistrationMetadataType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = DeviceRegistrationMetadataType0.from_dict(data)



                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DeviceRegistrationMetadataType0 | None | Unset, data)

        metadata = _parse_metadata(d.pop("Metadata", UNSET))


        device_registration = cls(
            token=token,
            platform=platform,
            user_ref=user_ref,
            metadata=metadata,
        )

        return device_registration

