from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.pascal_error import PascalError
from ...models.v1_message_cancel_email_response_200 import V1MessageCancelEmailResponse200
from typing import cast



def _get_kwargs(
    message_id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/emails/{message_id}/cancel".format(message_id=quote(str(message_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PascalError | V1MessageCancelEmailResponse200:
    if response.status_code == 200:
        response_200 = V1MessageCancelEmailResponse200.from_dict(response.json())



        return response_200

    if response.status_code == 401:
        response_401 = PascalError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = PascalError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = PascalError.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = PascalError.from_dict(response.json())



        return response_409

    if response.status_code == 429:
        response_429 = PascalError.from_dict(response.json())



        return response_429

    response_default = PascalError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[PascalError | V1MessageCancelEmailResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    message_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[PascalError | V1MessageCancelEmailResponse200]:
    """ Cancel a scheduled e-mail (or one no attempt has begun): it will never be sent

     Cancel a scheduled e-mail (or one no attempt has begun): it will never be sent.

    Args:
        message_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PascalError | V1MessageCancelEmailResponse200]
     """


    kwargs = _get_kwargs(
        message_id=message_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    message_id: str,
    *,
    client: AuthenticatedClient,

) -> PascalError | V1MessageCancelEmailResponse200 | None:
    """ Cancel a scheduled e-mail (or one no attempt has begun): it will never be sent

     Cancel a scheduled e-mail (or one no attempt has begun): it will never be sent.

    Args:
        message_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PascalError | V1MessageCancelEmailResponse200
     """


    return sync_detailed(
        message_id=message_id,
client=client,

    ).parsed

async def asyncio_detailed(
    message_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[PascalError | V1MessageCancelEmailResponse200]:
    """ Cancel a scheduled e-mail (or one no attempt has begun): it will never be sent

     Cancel a scheduled e-mail (or one no attempt has begun): it will never be sent.

    Args:
        message_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PascalError | V1MessageCancelEmailResponse200]
     """


    kwargs = _get_kwargs(
        message_id=message_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    message_id: str,
    *,
    client: AuthenticatedClient,

) -> PascalError | V1MessageCancelEmailResponse200 | None:
    """ Cancel a scheduled e-mail (or one no attempt has begun): it will never be sent

     Cancel a scheduled e-mail (or one no attempt has begun): it will never be sent.

    Args:
        message_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PascalError | V1MessageCancelEmailResponse200
     """


    return (await asyncio_detailed(
        message_id=message_id,
client=client,

    )).parsed
