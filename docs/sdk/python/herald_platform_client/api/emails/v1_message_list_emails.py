from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.pascal_error import PascalError
from ...models.v1_message_list_emails_response_200 import V1MessageListEmailsResponse200
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    status: str | Unset = UNSET,
    q: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["status"] = status

    params["q"] = q

    params["cursor"] = cursor

    params["limit"] = limit


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/emails",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PascalError | V1MessageListEmailsResponse200:
    if response.status_code == 200:
        response_200 = V1MessageListEmailsResponse200.from_dict(response.json())



        return response_200

    if response.status_code == 401:
        response_401 = PascalError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = PascalError.from_dict(response.json())



        return response_403

    if response.status_code == 422:
        response_422 = PascalError.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = PascalError.from_dict(response.json())



        return response_429

    response_default = PascalError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[PascalError | V1MessageListEmailsResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    status: str | Unset = UNSET,
    q: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: str | Unset = UNSET,

) -> Response[PascalError | V1MessageListEmailsResponse200]:
    """ The account's e-mails, newest first, filtered by status or a search, a page at a time

     The account's e-mails, newest first, filtered by status or a search, a page at a time.

    Args:
        status (str | Unset):
        q (str | Unset):
        cursor (str | Unset):
        limit (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PascalError | V1MessageListEmailsResponse200]
     """


    kwargs = _get_kwargs(
        status=status,
q=q,
cursor=cursor,
limit=limit,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    status: str | Unset = UNSET,
    q: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: str | Unset = UNSET,

) -> PascalError | V1MessageListEmailsResponse200 | None:
    """ The account's e-mails, newest first, filtered by status or a search, a page at a time

     The account's e-mails, newest first, filtered by status or a search, a page at a time.

    Args:
        status (str | Unset):
        q (str | Unset):
        cursor (str | Unset):
        limit (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PascalError | V1MessageListEmailsResponse200
     """


    return sync_detailed(
        client=client,
status=status,
q=q,
cursor=cursor,
limit=limit,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    status: str | Unset = UNSET,
    q: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: str | Unset = UNSET,

) -> Response[PascalError | V1MessageListEmailsResponse200]:
    """ The account's e-mails, newest first, filtered by status or a search, a page at a time

     The account's e-mails, newest first, filtered by status or a search, a page at a time.

    Args:
        status (str | Unset):
        q (str | Unset):
        cursor (str | Unset):
        limit (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PascalError | V1MessageListEmailsResponse200]
     """


    kwargs = _get_kwargs(
        status=status,
q=q,
cursor=cursor,
limit=limit,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    status: str | Unset = UNSET,
    q: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: str | Unset = UNSET,

) -> PascalError | V1MessageListEmailsResponse200 | None:
    """ The account's e-mails, newest first, filtered by status or a search, a page at a time

     The account's e-mails, newest first, filtered by status or a search, a page at a time.

    Args:
        status (str | Unset):
        q (str | Unset):
        cursor (str | Unset):
        limit (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PascalError | V1MessageListEmailsResponse200
     """


    return (await asyncio_detailed(
        client=client,
status=status,
q=q,
cursor=cursor,
limit=limit,

    )).parsed
