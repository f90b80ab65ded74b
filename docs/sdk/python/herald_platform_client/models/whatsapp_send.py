from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.whatsapp_send_tags_type_0 import WhatsappSendTagsType0
  from ..models.whatsapp_send_variables_type_0 import WhatsappSendVariablesType0





T = TypeVar("T", bound="WhatsappSend")



@_attrs_define
class WhatsappSend:
    """ 
        Attributes:
            to (list[str]): The recipients' numbers in E.164 (`+14155550123`), 1 to 100.
            body (None | str | Unset): The text (1 to 4096 characters); exactly one of `Body` or `Template`.
            template (None | str | Unset): The slug of one of the account's approved WhatsApp templates, instead of `Body`.
            variables (None | Unset | WhatsappSendVariablesType0): The template's variables (with `Template` only).
            idempotency_key (None | str | Unset): As the `Idempotency-Key` header: a retry with the same key and body
                answers the first send.
            tags (None | Unset | WhatsappSendTagsType0): Your labels (name to value), returned with the message and its
                events.
     """

    to: list[str]
    body: None | str | Unset = UNSET
    template: None | str | Unset = UNSET
    variables: None | Unset | WhatsappSendVariablesType0 = UNSET
    idempotency_key: None | str | Unset = UNSET
    tags: None | Unset | WhatsappSendTagsType0 = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.whatsapp_send_tags_type_0 import WhatsappSendTagsType0 # noqa: PLC0415
        from ..models.whatsapp_send_variables_type_0 import WhatsappSendVariablesType0 # noqa: PLC0415
        to = self.to



        body: None | str | Unset
        if isinstance(self.body, Unset):
            body = UNSET
        else:
            body = self.body

        template: None | str | Unset
        if isinstance(self.template, Unset):
            template = UNSET
        else:
            template = self.template

        variables: dict[str, Any] | None | Unset
        if isinstance(self.variables, Unset):
            variables = UNSET
        elif isinstance(self.variables, WhatsappSendVariablesType0):
            variables = self.variables.to_dict()
        else:
            variables = self.variables

        idempotency_key: None | str | Unset
        if isinstance(self.idempotency_key, Unset):
            idempotency_key = UNSET
        else:
            idempotency_key = self.idempotency_key

        tags: dict[str, Any] | None | Unset
        if isinstance(self.tags, Unset):
            tags = UNSET
        elif isinstance(self.tags, WhatsappSendTagsType0):
            tags = self.tags.to_dict()
        else:
            tags = self.tags


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "To": to,
        })
        if body is not UNSET:
            field_dict["Body"] = body
        if template is not UNSET:
            field_dict["Template"] = template
        if variables is not UNSET:
            field_dict["Variables"] = variables
        if idempotency_key is not UNSET:
            field_dict["IdempotencyKey"] = idempotency_key
        if tags is not UNSET:
            field_dict["Tags"] = tags

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.whatsapp_send_tags_type_0 import WhatsappSendTagsType0 # noqa: PLC0415
        from ..models.whatsapp_send_variables_type_0 import WhatsappSendVariablesType0 # noqa: PLC0415
        d = dict(src_dict)
        to = cast(list[str], d.pop("To"))


        def _parse_body(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        body = _parse_body(d.pop("Body", UNSET))


        def _parse_template(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        template = _parse_template(d.pop("Template", UNSET))


        def _parse_variables(data: object) -> None | Unset | WhatsappSendVariablesType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                variables_type_0 = WhatsappSendVariablesType0.from_dict(data)



                return variables_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | WhatsappSendVariablesType0, data)

        variables = _parse_variables(d.pop("Variables", UNSET))


        def _parse_idempotency_key(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        idempotency_key = _parse_idempotency_key(d.pop("IdempotencyKey", UNSET))


        def _parse_tags(data: object) -> None | Unset | WhatsappSendTagsType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                tags_type_0 = WhatsappSendTagsType0.from_dict(data)



                return tags_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | WhatsappSendTagsType0, data)

        tags = _parse_tags(d.pop("Tags", UNSET))


        whatsapp_send = cls(
            to=to,
            body=body,
            template=template,
            variables=variables,
            idempotency_key=idempotency_key,
            tags=tags,
        )

        return whatsapp_send

