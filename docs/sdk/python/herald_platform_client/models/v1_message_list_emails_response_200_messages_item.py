from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="V1MessageListEmailsResponse200MessagesItem")



@_attrs_define
class V1MessageListEmailsResponse200MessagesItem:
    """ 
        Attributes:
            message_id (str): The message's id (`msg_...`).
            status (str): `queued`, `sending`, `sent`, `delivered`, `failed`, `bounced` or `complained`.
            to (str): The recipient.
            role (None | str): E-mail: how the recipient was addressed (`to`, `cc`, `bcc`).
            from_ (None | str): The sender.
            subject (None | str): The subject (e-mail).
            mode (str): `live` or `test`: the mode of the key that sent it.
            created_at (datetime.datetime): When it was accepted.
            updated_at (datetime.datetime): When its status last changed.
     """

    message_id: str
    status: str
    to: str
    role: None | str
    from_: None | str
    subject: None | str
    mode: str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        message_id = self.message_id

        status = self.status

        to = self.to

        role: None | str
        role = self.role

        from_: None | str
        from_ = self.from_

        subject: None | str
        subject = self.subject

        mode = self.mode

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "MessageId": message_id,
            "Status": status,
            "To": to,
            "Role": role,
            "From": from_,
            "Subject": subject,
            "Mode": mode,
            "CreatedAt": created_at,
            "UpdatedAt": updated_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        message_id = d.pop("MessageId")

        status = d.pop("Status")

        to = d.pop("To")

        def _parse_role(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        role = _parse_role(d.pop("Role"))


        def _parse_from_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        from_ = _parse_from_(d.pop("From"))


        def _parse_subject(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        subject = _parse_subject(d.pop("Subject"))


        mode = d.pop("Mode")

        created_at = datetime.datetime.fromisoformat(d.pop("CreatedAt"))




        updated_at = datetime.datetime.fromisoformat(d.pop("UpdatedAt"))




        v1_message_list_emails_response_200_messages_item = cls(
            message_id=message_id,
            status=status,
            to=to,
            role=role,
            from_=from_,
            subject=subject,
            mode=mode,
            created_at=created_at,
            updated_at=updated_at,
        )


        v1_message_list_emails_response_200_messages_item.additional_properties = d
        return v1_message_list_emails_response_200_messages_item

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
