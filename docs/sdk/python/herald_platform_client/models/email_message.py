from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.email_body_parts import EmailBodyParts
  from ..models.subject import Subject





T = TypeVar("T", bound="EmailMessage")



@_attrs_define
class EmailMessage:
    """ 
        Attributes:
            subject (Subject):
            body (EmailBodyParts):
     """

    subject: Subject
    body: EmailBodyParts





    def to_dict(self) -> dict[str, Any]:
        from ..models.email_body_parts import EmailBodyParts # noqa: PLC0415
        from ..models.subject import Subject # noqa: PLC0415
        subject = self.subject.to_dict()

        body = self.body.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "Subject": subject,
            "Body": body,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.email_body_parts import EmailBodyParts # noqa: PLC0415
        from ..models.subject import Subject # noqa: PLC0415
        d = dict(src_dict)
        subject = Subject.from_dict(d.pop("Subject"))




        body = EmailBodyParts.from_dict(d.pop("Body"))




        email_message = cls(
            subject=subject,
            body=body,
        )

        return email_message

