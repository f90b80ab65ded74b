from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.pascal_error import PascalError
from ...models.v1_message_send_whatsapp_response_202 import V1MessageSendWhatsappResponse202
from ...models.whatsapp_send import WhatsappSend
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: WhatsappSend,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/whatsapp/send",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PascalError | V1MessageSendWhatsappResponse202:
    if response.status_code == 202:
        response_202 = V1MessageSendWhatsappResponse202.from_dict(response.json())



        return response_202

    if response.status_code == 400:
        response_400 = PascalError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = PascalError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = PascalError.from_dict(response.json())



        return response_403

    if response.status_code == 429:
        response_429 = PascalError.from_dict(response.json())



        return response_429

    response_default = PascalError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[PascalError | V1MessageSendWhatsappResponse202]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: WhatsappSend,
    idempotency_key: str | Unset = UNSET,

) -> Response[PascalError | V1MessageSendWhatsappResponse202]:
    """ Send a WhatsApp message: accepted (202) and queued

     Send a WhatsApp message: accepted (202) and queued.

    Args:
        idempotency_key (str | Unset):
        body (WhatsappSend):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PascalError | V1MessageSendWhatsappResponse202]
     """


    kwargs = _get_kwargs(
        body=body,
idempotency_key=idempotency_key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: WhatsappSend,
    idempotency_key: str | Unset = UNSET,

) -> PascalError | V1MessageSendWhatsappResponse202 | None:
    """ Send a WhatsApp message: accepted (202) and queued

     Send a WhatsApp message: accepted (202) and queued.

    Args:
        idempotency_key (str | Unset):
        body (WhatsappSend):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PascalError | V1MessageSendWhatsappResponse202
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: WhatsappSend,
    idempotency_key: str | Unset = UNSET,

) -> Response[PascalError | V1MessageSendWhatsappResponse202]:
    """ Send a WhatsApp message: accepted (202) and queued

     Send a WhatsApp message: accepted (202) and queued.

    Args:
        idempotency_key (str | Unset):
        body (WhatsappSend):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PascalError | V1MessageSendWhatsappResponse202]
     """


    kwargs = _get_kwargs(
        body=body,
idempotency_key=idempotency_key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: WhatsappSend,
    idempotency_key: str | Unset = UNSET,

) -> PascalError | V1MessageSendWhatsappResponse202 | None:
    """ Send a WhatsApp message: accepted (202) and queued

     Send a WhatsApp message: accepted (202) and queued.

    Args:
        idempotency_key (str | Unset):
        body (WhatsappSend):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PascalError | V1MessageSendWhatsappResponse202
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
