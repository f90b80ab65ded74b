"""The floor of this machine: a minimal Sanic handler that inserts the same two rows Herald
writes for a one-recipient send (a message and its outbox row) in one transaction, with raw
asyncpg on the same database. `sanic bench.floor:create_app --factory`.

Its pool gives connections back without asyncpg's reset query, as every Herald HTTP system's does
(models/__init__.py, ``keep_session``): the floor does no work Herald was relieved of."""

from __future__ import annotations

import json
import os
import secrets

import asyncpg
from sanic import Request, Sanic, response


async def keep_session(connection: asyncpg.Connection) -> None:
    """Nothing beyond asyncpg's own rollback of a transaction left open."""


def create_app() -> Sanic:
    app = Sanic("herald_bench_floor")
    app.config.ACCESS_LOG = False
    dsn = os.environ["PLATFORM_DATABASE_URL"].replace("postgres://", "postgresql://", 1)
    tenant_pk = int(os.environ["BENCH_TENANT_PK"])

    @app.before_server_start
    async def pool(app: Sanic) -> None:
        app.ctx.pool = await asyncpg.create_pool(dsn, min_size=4, max_size=20, reset=keep_session)

    @app.after_server_stop
    async def close(app: Sanic) -> None:
        await app.ctx.pool.close()

    @app.post("/v1/emails/send")
    async def send(request: Request):
        body = json.loads(request.body)
        message_id = "msg_" + secrets.token_hex(12)
        async with app.ctx.pool.acquire() as conn:
            async with conn.transaction():
                pk = await conn.fetchval(
                    "INSERT INTO messages (public_id, tenant_id, channel, status, mode, recipient, recipient_role, "
                    "sender, subject, content, attempts, created_at, updated_at) VALUES ($1, $2, 'email', 'queued', "
                    "'test', $3, 'to', $4, $5, $6::jsonb, 0, now(), now()) RETURNING id",
                    message_id, tenant_pk, body["Destination"]["ToAddresses"][0], body["Source"],
                    body["Message"]["Subject"]["Data"], json.dumps({"Text": body["Message"]["Body"]["Text"]["Data"]}))
                await conn.execute(
                    "INSERT INTO outbox (actor, queue, args, delay_ms, created_at, published_at) "
                    "VALUES ('floor.noop', 'floor', jsonb_build_array($1::bigint), 0, now(), now())", pk)
        return response.json({"MessageId": message_id, "Status": "queued"}, status=202)

    return app
