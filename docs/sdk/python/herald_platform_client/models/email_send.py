from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.attachment import Attachment
  from ..models.destination import Destination
  from ..models.email_message import EmailMessage
  from ..models.email_send_headers_type_0 import EmailSendHeadersType0
  from ..models.email_send_tags_type_0 import EmailSendTagsType0
  from ..models.email_send_variables_type_0 import EmailSendVariablesType0





T = TypeVar("T", bound="EmailSend")



@_attrs_define
class EmailSend:
    """ 
        Attributes:
            source (str): The sender: an address of the account's verified domains (the sandbox's with a test key), named or
                not.
            destination (Destination):
            message (EmailMessage | None | Unset): The subject and body; exactly one of `Message` or `Template`.
            template (None | str | Unset): The slug of one of the account's e-mail templates, instead of `Message`.
            variables (EmailSendVariablesType0 | None | Unset): The template's variables (with `Template` only).
            reply_to_addresses (list[str] | None | Unset): Where replies go (at most 10 addresses).
            headers (EmailSendHeadersType0 | None | Unset): Custom header fields (at most 50); the ones Herald sets (From,
                Subject ...) and `X-Herald-*` are refused.
            attachments (list[Attachment] | None | Unset): Files, base64, at most 10 MB decoded per message.
            scheduled_at (None | str | Unset): When to deliver it (RFC 3339, at most 72 hours ahead); `POST
                /v1/emails/{id}/cancel` before then cancels it.
            idempotency_key (None | str | Unset): As the `Idempotency-Key` header (1 to 128 of A-Z a-z 0-9 . _ : -): a retry
                answers the first send.
            tags (EmailSendTagsType0 | None | Unset): Your labels (name to value, values at most 256 characters), returned
                with the message and its events.
     """

    source: str
    destination: Destination
    message: EmailMessage | None | Unset = UNSET
    template: None | str | Unset = UNSET
    variables: EmailSendVariablesType0 | None | Unset = UNSET
    reply_to_addresses: list[str] | None | Unset = UNSET
    headers: EmailSendHeadersType0 | None | Unset = UNSET
    attachments: list[Attachment] | None | Unset = UNSET
    scheduled_at: None | str | Unset = UNSET
    idempotency_key: None | str | Unset = UNSET
    tags: EmailSendTagsType0 | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.attachment import Attachment # noqa: PLC0415
        from ..models.destination import Destination # noqa: PLC0415
        from ..models.email_message import EmailMessage # noqa: PLC0415
        from ..models.email_send_headers_type_0 import EmailSendHeadersType0 # noqa: PLC0415
        from ..models.email_send_tags_type_0 import EmailSendTagsType0 # noqa: PLC0415
        from ..models.email_send_variables_type_0 import EmailSendVariablesType0 # noqa: PLC0415
        source = self.source

        destination = self.destination.to_dict()

        message: dict[str, Any] | None | Unset
        if isinstance(self.message, Unset):
            message = UNSET
        elif isinstance(self.message, EmailMessage):
            message = self.message.to_dict()
        else:
            message = self.message

        template: None | str | Unset
        if isinstance(self.template, Unset):
            template = UNSET
        else:
            template = self.template

        variables: dict[str, Any] | None | Unset
        if isinstance(self.variables, Unset):
            variables = UNSET
        elif isinstance(self.variables, EmailSendVariablesType0):
            variables = self.variables.to_dict()
        else:
            variables = self.variables

        reply_to_addresses: list[str] | None | Unset
        if isinstance(self.reply_to_addresses, Unset):
            reply_to_addresses = UNSET
        elif isinstance(self.reply_to_addresses, list):
            reply_to_addresses = self.reply_to_addresses


        else:
            reply_to_addresses = self.reply_to_addresses

        headers: dict[str, Any] | None | Unset
        if isinstance(self.headers, Unset):
            headers = UNSET
        elif isinstance(self.headers, EmailSendHeadersType0):
            headers = self.headers.to_dict()
        else:
            headers = self.headers

        attachments: list[dict[str, Any]] | None | Unset
        if isinstance(self.attachments, Unset):
            attachments = UNSET
        elif isinstance(self.attachments, list):
            attachments = []
            for attachments_type_0_item_data in self.attachments:
                attachments_type_0_item = attachments_type_0_item_data.to_dict()
                attachments.append(attachments_type_0_item)


        else:
            attachments = self.attachments

        scheduled_at: None | str | Unset
        if isinstance(self.scheduled_at, Unset):
            scheduled_at = UNSET
        else:
            scheduled_at = self.scheduled_at

        idempotency_key: None | str | Unset
        if isinstance(self.idempotency_key, Unset):
            idempotency_key = UNSET
        else:
            idempotency_key = self.idempotency_key

        tags: dict[str, Any] | None | Unset
        if isinstance(self.tags, Unset):
            tags = UNSET
        elif isinstance(self.tags, EmailSendTagsType0):
            tags = self.tags.to_dict()
        else:
            tags = self.tags


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "Source": source,
            "Destination": destination,
        })
        if message is not UNSET:
            field_dict["Message"] = message
        if template is not UNSET:
            field_dict["Template"] = template
        if variables is not UNSET:
            field_dict["Variables"] = variables
        if reply_to_addresses is not UNSET:
            field_dict["ReplyToAddresses"] = reply_to_addresses
        if headers is not UNSET:
            field_dict["Headers"] = headers
        if attachments is not UNSET:
            field_dict["Attachments"] = attachments
        if scheduled_at is not UNSET:
            field_dict["ScheduledAt"] = scheduled_at
        if idempotency_key is not UNSET:
            field_dict["IdempotencyKey"] = idempotency_key
        if tags is not UNSET:
            field_dict["Tags"] = tags

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.attachment import Attachment # noqa: PLC0415
        from ..models.destination import Destination # noqa: PLC0415
        from ..models.email_message import EmailMessage # noqa: PLC0415
        from ..models.email_send_headers_type_0 import EmailSendHeadersType0 # noqa: PLC0415
        from ..models.email_send_tags_type_0 import EmailSendTagsType0 # noqa: PLC0415
        from ..models.email_send_variables_type_0 import EmailSendVariablesType0 # noqa: PLC0415
        d = dict(src_dict)
        source = d.pop("Source")

        destination = Destination.from_dict(d.pop("Destination"))




        def _parse_message(data: object) -> EmailMessage | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                message_type_0 = EmailMessage.from_dict(data)



                return message_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EmailMessage | None | Unset, data)

        message = _parse_message(d.pop("Message", UNSET))


        def _parse_template(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        template = _parse_template(d.pop("Template", UNSET))


        def _parse_variables(data: object) -> EmailSendVariablesType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                variables_type_0 = EmailSendVariablesType0.from_dict(data)



                return variables_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EmailSendVariablesType0 | None | Unset, data)

        variables = _parse_variables(d.pop("Variables", UNSET))


        def _parse_reply_to_addresses(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                reply_to_addresses_type_0 = cast(list[str], data)

                return reply_to_addresses_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        reply_to_addresses = _parse_reply_to_addresses(d.pop("ReplyToAddresses", UNSET))


        def _parse_headers(data: object) -> EmailSendHeadersType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                headers_type_0 = EmailSendHeadersType0.from_dict(data)



                return headers_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EmailSendHeadersType0 | None | Unset, data)

        headers = _parse_headers(d.pop("Headers", UNSET))


        def _parse_attachments(data: object) -> list[Attachment] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                attachments_type_0 = []
                _attachments_type_0 = data
                for attachments_type_0_item_data in (_attachments_type_0):
                    attachments_type_0_item = Attachment.from_dict(attachments_type_0_item_data)



                    attachments_type_0.append(attachments_type_0_item)

                return attachments_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[Attachment] | None | Unset, data)

        attachments = _parse_attachments(d.pop("Attachments", UNSET))


        def _parse_scheduled_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        scheduled_at = _parse_scheduled_at(d.pop("ScheduledAt", UNSET))


        def _parse_idempotency_key(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        idempotency_key = _parse_idempotency_key(d.pop("IdempotencyKey", UNSET))


        def _parse_tags(data: object) -> EmailSendTagsType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                tags_type_0 = EmailSendTagsType0.from_dict(data)



                return tags_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EmailSendTagsType0 | None | Unset, data)

        tags = _parse_tags(d.pop("Tags", UNSET))


        email_send = cls(
            source=source,
            destination=destination,
            message=message,
            template=template,
            variables=variables,
            reply_to_addresses=reply_to_addresses,
            headers=headers,
            attachments=attachments,
            scheduled_at=scheduled_at,
            idempotency_key=idempotency_key,
            tags=tags,
        )

        return email_send

