from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.lower_error import LowerError
from ...models.pascal_error import PascalError
from ...models.v1_logs_get_log_response_200 import V1LogsGetLogResponse200
from typing import cast



def _get_kwargs(
    log_id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/logs/{log_id}".format(log_id=quote(str(log_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> LowerError | PascalError | V1LogsGetLogResponse200:
    if response.status_code == 200:
        response_200 = V1LogsGetLogResponse200.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = LowerError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = PascalError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = PascalError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = LowerError.from_dict(response.json())



        return response_404

    if response.status_code == 429:
        response_429 = PascalError.from_dict(response.json())



        return response_429

    response_default = PascalError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[LowerError | PascalError | V1LogsGetLogResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    log_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[LowerError | PascalError | V1LogsGetLogResponse200]:
    """ One logged API request: what was asked and what was answered

     One logged API request: what was asked and what was answered.

    Args:
        log_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[LowerError | PascalError | V1LogsGetLogResponse200]
     """


    kwargs = _get_kwargs(
        log_id=log_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    log_id: str,
    *,
    client: AuthenticatedClient,

) -> LowerError | PascalError | V1LogsGetLogResponse200 | None:
    """ One logged API request: what was asked and what was answered

     One logged API request: what was asked and what was answered.

    Args:
        log_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        LowerError | PascalError | V1LogsGetLogResponse200
     """


    return sync_detailed(
        log_id=log_id,
client=client,

    ).parsed

async def asyncio_detailed(
    log_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[LowerError | PascalError | V1LogsGetLogResponse200]:
    """ One logged API request: what was asked and what was answered

     One logged API request: what was asked and what was answered.

    Args:
        log_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[LowerError | PascalError | V1LogsGetLogResponse200]
     """


    kwargs = _get_kwargs(
        log_id=log_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    log_id: str,
    *,
    client: AuthenticatedClient,

) -> LowerError | PascalError | V1LogsGetLogResponse200 | None:
    """ One logged API request: what was asked and what was answered

     One logged API request: what was asked and what was answered.

    Args:
        log_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        LowerError | PascalError | V1LogsGetLogResponse200
     """


    return (await asyncio_detailed(
        log_id=log_id,
client=client,

    )).parsed
