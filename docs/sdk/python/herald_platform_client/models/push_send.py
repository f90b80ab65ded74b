from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.notification import Notification
  from ..models.push_send_data_type_0 import PushSendDataType0
  from ..models.push_send_tags_type_0 import PushSendTagsType0





T = TypeVar("T", bound="PushSend")



@_attrs_define
class PushSend:
    """ 
        Attributes:
            notification (Notification):
            device_tokens (list[str]): The devices' push tokens (1 to 500), as registered with `POST /v1/push/devices` or by
                the apps.
            data (None | PushSendDataType0 | Unset): A JSON object handed to the app with the notification.
            idempotency_key (None | str | Unset): As the `Idempotency-Key` header: a retry with the same key and body
                answers the first send.
            tags (None | PushSendTagsType0 | Unset): Your labels (name to value), returned with the message and its events.
     """

    notification: Notification
    device_tokens: list[str]
    data: None | PushSendDataType0 | Unset = UNSET
    idempotency_key: None | str | Unset = UNSET
    tags: None | PushSendTagsType0 | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.notification import Notification # noqa: PLC0415
        from ..models.push_send_data_type_0 import PushSendDataType0 # noqa: PLC0415
        from ..models.push_send_tags_type_0 import PushSendTagsType0 # noqa: PLC0415
        notification = self.notification.to_dict()

        device_tokens = self.device_tokens



        data: dict[str, Any] | None | Unset
        if isinstance(self.data, Unset):
            data = UNSET
        elif isinstance(self.data, PushSendDataType0):
            data = self.data.to_dict()
        else:
            data = self.data

        idempotency_key: None | str | Unset
        if isinstance(self.idempotency_key, Unset):
            idempotency_key = UNSET
        else:
            idempotency_key = self.idempotency_key

        tags: dict[str, Any] | None | Unset
        if isinstance(self.tags, Unset):
            tags = UNSET
        elif isinstance(self.tags, PushSendTagsType0):
            tags = self.tags.to_dict()
        else:
            tags = self.tags


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "Notification": notification,
            "DeviceTokens": device_tokens,
        })
        if data is not UNSET:
            field_dict["Data"] = data
        if idempotency_key is not UNSET:
            field_dict["IdempotencyKey"] = idempotency_key
        if tags is not UNSET:
            field_dict["Tags"] = tags

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.notification import Notification # noqa: PLC0415
        from ..models.push_send_data_type_0 import PushSendDataType0 # noqa: PLC0415
        from ..models.push_send_tags_type_0 import PushSendTagsType0 # noqa: PLC0415
        d = dict(src_dict)
        notification = Notification.from_dict(d.pop("Notification"))




        device_tokens = cast(list[str], d.pop("DeviceTokens"))


        def _parse_data(data: object) -> None | PushSendDataType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                data_type_0 = PushSendDataType0.from_dict(data)



                return data_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PushSendDataType0 | Unset, data)

        data = _parse_data(d.pop("Data", UNSET))


        def _parse_idempotency_key(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        idempotency_key = _parse_idempotency_key(d.pop("IdempotencyKey", UNSET))


        def _parse_tags(data: object) -> None | PushSendTagsType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                tags_type_0 = PushSendTagsType0.from_dict(data)



                return tags_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PushSendTagsType0 | Unset, data)

        tags = _parse_tags(d.pop("Tags", UNSET))


        push_send = cls(
            notification=notification,
            device_tokens=device_tokens,
            data=data,
            idempotency_key=idempotency_key,
            tags=tags,
        )

        return push_send

