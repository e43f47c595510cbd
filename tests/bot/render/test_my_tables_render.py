"""The list of a player's tables within Discord's embed limits: at most ``SHOWN`` lines, then
"and N more", whatever the number of tables and the length of their names."""

from __future__ import annotations

import dataclasses

from bot.app.limits import DESCRIPTION, TITLE
from bot.render import my_tables
from bot.service import TableService


async def test_many_tables_are_capped_with_a_count(service: TableService) -> None:
    await service.open_table(5, 99, 1, "Ann" * 30, "troika", options={"timer": "24h"})
    table = service.get_table(5)
    assert table is not None
    tables = [dataclasses.replace(table, id=i, channel_id=10**18 + i) for i in range(40)]
    embed = my_tables.my_tables_embed(tables, 1)
    lines = (embed.description or "").splitlines()
    assert len(lines) == my_tables.SHOWN + 1 and "25 more" in lines[-1]
    assert len(embed.description or "") <= DESCRIPTION and len(embed.title or "") <= TITLE
    digest = my_tables.digest_embed(tables, 1, lambda guild: "S" * 100)
    assert len(digest.description or "") <= DESCRIPTION
    assert len(my_tables.web_list(tables, 1, 5)["tables"]) == my_tables.SHOWN
