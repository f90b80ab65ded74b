"""The /v1 gate's key cache (app/platform/api_key/principal.py): one load in flight per key,
shared by every request waiting for it, and a load begun before the cache was emptied is not
kept after it. The real load runs; the subclass only counts its calls."""

import asyncio

from app.platform.api_key.principal import KeyDirectory


class Counting(KeyDirectory):
    def __init__(self, hold: asyncio.Event | None = None) -> None:
        super().__init__()
        self.loads = 0
        self.hold = hold

    async def _load(self, digest):  # type: ignore[override]
        self.loads += 1
        if self.hold is not None:
            await self.hold.wait()
        return await KeyDirectory._load(digest)


async def test_concurrent_misses_share_one_load(make_account):
    account = await make_account(scopes=("email:send",))
    directory = Counting()
    found = await asyncio.gather(*(directory.lookup(account.key) for _ in range(20)))
    assert directory.loads == 1
    assert all(principal == found[0] for principal in found)
    assert found[0].tenant_id == account.tenant_id and found[0].scopes == ("email:send",)
    await directory.lookup(account.key)
    assert directory.loads == 1  # cached
    directory.forget_all()
    await asyncio.gather(*(directory.lookup(account.key) for _ in range(5)))
    assert directory.loads == 2
    assert await directory.lookup("hk_test_" + "0" * 40) is None  # no such key: None, cached too


async def test_a_load_begun_before_the_cache_is_emptied_is_not_kept(make_account):
    account = await make_account(scopes=("email:send",))
    hold = asyncio.Event()
    directory = Counting(hold)
    first = asyncio.create_task(directory.lookup(account.key))
    deadline = asyncio.get_running_loop().time() + 5
    while directory.loads == 0:
        assert asyncio.get_running_loop().time() < deadline
        await asyncio.sleep(0.01)
    directory.forget_all()  # e.g. the tenant was suspended while the row was being read
    hold.set()
    assert (await first).tenant_id == account.tenant_id
    await directory.lookup(account.key)
    assert directory.loads == 2
