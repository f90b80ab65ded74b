from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.lower_error import LowerError
from ...models.pascal_error import PascalError
from ...models.v1_logs_list_logs_response_200 import V1LogsListLogsResponse200
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    status_class: str | Unset = UNSET,
    status: str | Unset = UNSET,
    method: str | Unset = UNSET,
    path: str | Unset = UNSET,
    api_key_id: str | Unset = UNSET,
    error_code: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    message_id: str | Unset = UNSET,
    mode: str | Unset = UNSET,
    since: str | Unset = UNSET,
    until: str | Unset = UNSET,
    limit: str | Unset = UNSET,
    after: str | Unset = UNSET,
    before: str | Unset = UNSET,
    tenant_id: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["status_class"] = status_class

    params["status"] = status

    params["method"] = method

    params["path"] = path

    params["api_key_id"] = api_key_id

    params["error_code"] = error_code

    params["idempotency_key"] = idempotency_key

    params["message_id"] = message_id

    params["mode"] = mode

    params["since"] = since

    params["until"] = until

    params["limit"] = limit

    params["after"] = after

    params["before"] = before

    params["tenant_id"] = tenant_id


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/logs",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> LowerError | PascalError | V1LogsListLogsResponse200:
    if response.status_code == 200:
        response_200 = V1LogsListLogsResponse200.from_dict(response.json())



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

    if response.status_code == 422:
        response_422 = PascalError.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = PascalError.from_dict(response.json())



        return response_429

    response_default = PascalError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[LowerError | PascalError | V1LogsListLogsResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    status_class: str | Unset = UNSET,
    status: str | Unset = UNSET,
    method: str | Unset = UNSET,
    path: str | Unset = UNSET,
    api_key_id: str | Unset = UNSET,
    error_code: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    message_id: str | Unset = UNSET,
    mode: str | Unset = UNSET,
    since: str | Unset = UNSET,
    until: str | Unset = UNSET,
    limit: str | Unset = UNSET,
    after: str | Unset = UNSET,
    before: str | Unset = UNSET,
    tenant_id: str | Unset = UNSET,

) -> Response[LowerError | PascalError | V1LogsListLogsResponse200]:
    """ The account's API request log, newest first, filtered, a page at a time

     The account's API request log, newest first, filtered, a page at a time.

    Args:
        status_class (str | Unset):
        status (str | Unset):
        method (str | Unset):
        path (str | Unset):
        api_key_id (str | Unset):
        error_code (str | Unset):
        idempotency_key (str | Unset):
        message_id (str | Unset):
        mode (str | Unset):
        since (str | Unset):
        until (str | Unset):
        limit (str | Unset):
        after (str | Unset):
        before (str | Unset):
        tenant_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[LowerError | PascalError | V1LogsListLogsResponse200]
     """


    kwargs = _get_kwargs(
        status_class=status_class,
status=status,
method=method,
path=path,
api_key_id=api_key_id,
error_code=error_code,
idempotency_key=idempotency_key,
message_id=message_id,
mode=mode,
since=since,
until=until,
limit=limit,
after=after,
before=before,
tenant_id=tenant_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    status_class: str | Unset = UNSET,
    status: str | Unset = UNSET,
    method: str | Unset = UNSET,
    path: str | Unset = UNSET,
    api_key_id: str | Unset = UNSET,
    error_code: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    message_id: str | Unset = UNSET,
    mode: str | Unset = UNSET,
    since: str | Unset = UNSET,
    until: str | Unset = UNSET,
    limit: str | Unset = UNSET,
    after: str | Unset = UNSET,
    before: str | Unset = UNSET,
    tenant_id: str | Unset = UNSET,

) -> LowerError | PascalError | V1LogsListLogsResponse200 | None:
    """ The account's API request log, newest first, filtered, a page at a time

     The account's API request log, newest first, filtered, a page at a time.

    Args:
        status_class (str | Unset):
        status (str | Unset):
        method (str | Unset):
        path (str | Unset):
        api_key_id (str | Unset):
        error_code (str | Unset):
        idempotency_key (str | Unset):
        message_id (str | Unset):
        mode (str | Unset):
        since (str | Unset):
        until (str | Unset):
        limit (str | Unset):
        after (str | Unset):
        before (str | Unset):
        tenant_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        LowerError | PascalError | V1LogsListLogsResponse200
     """


    return sync_detailed(
        client=client,
status_class=status_class,
status=status,
method=method,
path=path,
api_key_id=api_key_id,
error_code=error_code,
idempotency_key=idempotency_key,
message_id=message_id,
mode=mode,
since=since,
until=until,
limit=limit,
after=after,
before=before,
tenant_id=tenant_id,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    status_class: str | Unset = UNSET,
    status: str | Unset = UNSET,
    method: str | Unset = UNSET,
    path: str | Unset = UNSET,
    api_key_id: str | Unset = UNSET,
    error_code: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    message_id: str | Unset = UNSET,
    mode: str | Unset = UNSET,
    since: str | Unset = UNSET,
    until: str | Unset = UNSET,
    limit: str | Unset = UNSET,
    after: str | Unset = UNSET,
    before: str | Unset = UNSET,
    tenant_id: str | Unset = UNSET,

) -> Response[LowerError | PascalError | V1LogsListLogsResponse200]:
    """ The account's API request log, newest first, filtered, a page at a time

     The account's API request log, newest first, filtered, a page at a time.

    Args:
        status_class (str | Unset):
        status (str | Unset):
        method (str | Unset):
        path (str | Unset):
        api_key_id (str | Unset):
        error_code (str | Unset):
        idempotency_key (str | Unset):
        message_id (str | Unset):
        mode (str | Unset):
        since (str | Unset):
        until (str | Unset):
        limit (str | Unset):
        after (str | Unset):
        before (str | Unset):
        tenant_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[LowerError | PascalError | V1LogsListLogsResponse200]
     """


    kwargs = _get_kwargs(
        status_class=status_class,
status=status,
method=method,
path=path,
api_key_id=api_key_id,
error_code=error_code,
idempotency_key=idempotency_key,
message_id=message_id,
mode=mode,
since=since,
until=until,
limit=limit,
after=after,
before=before,
tenant_id=tenant_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    status_class: str | Unset = UNSET,
    status: str | Unset = UNSET,
    method: str | Unset = UNSET,
    path: str | Unset = UNSET,
    api_key_id: str | Unset = UNSET,
    error_code: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    message_id: str | Unset = UNSET,
    mode: str | Unset = UNSET,
    since: str | Unset = UNSET,
    until: str | Unset = UNSET,
    limit: str | Unset = UNSET,
    after: str | Unset = UNSET,
    before: str | Unset = UNSET,
    tenant_id: str | Unset = UNSET,

) -> LowerError | PascalError | V1LogsListLogsResponse200 | None:
    """ The account's API request log, newest first, filtered, a page at a time

     The account's API request log, newest first, filtered, a page at a time.

    Args:
        status_class (str | Unset):
        status (str | Unset):
        method (str | Unset):
        path (str | Unset):
        api_key_id (str | Unset):
        error_code (str | Unset):
        idempotency_key (str | Unset):
        message_id (str | Unset):
        mode (str | Unset):
        since (str | Unset):
        until (str | Unset):
        limit (str | Unset):
        after (str | Unset):
        before (str | Unset):
        tenant_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        LowerError | PascalError | V1LogsListLogsResponse200
     """


    return (await asyncio_detailed(
        client=client,
status_class=status_class,
status=status,
method=method,
path=path,
api_key_id=api_key_id,
error_code=error_code,
idempotency_key=idempotency_key,
message_id=message_id,
mode=mode,
since=since,
until=until,
limit=limit,
after=after,
before=before,
tenant_id=tenant_id,

    )).parsed
