from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.email_send import EmailSend
from ...models.pascal_error import PascalError
from ...models.v1_message_send_email_response_202 import V1MessageSendEmailResponse202
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: EmailSend,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/emails/send",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PascalError | V1MessageSendEmailResponse202:
    if response.status_code == 202:
        response_202 = V1MessageSendEmailResponse202.from_dict(response.json())



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



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[PascalError | V1MessageSendEmailResponse202]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: EmailSend,
    idempotency_key: str | Unset = UNSET,

) -> Response[PascalError | V1MessageSendEmailResponse202]:
    """ Send one e-mail: accepted (202) and queued; its MessageId follows it through /v1/emails and the
    webhooks

     Send one e-mail: accepted (202) and queued; its MessageId follows it through /v1/emails and the
    webhooks.

    Args:
        idempotency_key (str | Unset):
        body (EmailSend):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PascalError | V1MessageSendEmailResponse202]
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
    body: EmailSend,
    idempotency_key: str | Unset = UNSET,

) -> PascalError | V1MessageSendEmailResponse202 | None:
    """ Send one e-mail: accepted (202) and queued; its MessageId follows it through /v1/emails and the
    webhooks

     Send one e-mail: accepted (202) and queued; its MessageId follows it through /v1/emails and the
    webhooks.

    Args:
        idempotency_key (str | Unset):
        body (EmailSend):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PascalError | V1MessageSendEmailResponse202
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: EmailSend,
    idempotency_key: str | Unset = UNSET,

) -> Response[PascalError | V1MessageSendEmailResponse202]:
    """ Send one e-mail: accepted (202) and queued; its MessageId follows it through /v1/emails and the
    webhooks

     Send one e-mail: accepted (202) and queued; its MessageId follows it through /v1/emails and the
    webhooks.

    Args:
        idempotency_key (str | Unset):
        body (EmailSend):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PascalError | V1MessageSendEmailResponse202]
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
    body: EmailSend,
    idempotency_key: str | Unset = UNSET,

) -> PascalError | V1MessageSendEmailResponse202 | None:
    """ Send one e-mail: accepted (202) and queued; its MessageId follows it through /v1/emails and the
    webhooks

     Send one e-mail: accepted (202) and queued; its MessageId follows it through /v1/emails and the
    webhooks.

    Args:
        idempotency_key (str | Unset):
        body (EmailSend):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PascalError | V1MessageSendEmailResponse202
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
