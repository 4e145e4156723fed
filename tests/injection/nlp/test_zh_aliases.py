"""A given name shared by two full names is counted the same whatever the order of the names
(a set's order changes with the hash seed, so it made the entities of one unit differ from
one process to the next: 老爹 3 or 8 times in a chapter of 儒林外史)."""

from __future__ import annotations

from longnovel.injection.nlp.zh import names

TEXT = ("潘老爹道：“你们坐。”众人坐下吃茶。" * 6 + "那日费老爹来了，说道：“好。”"
        + "老爹说：“去罢。”两人出门去了。" * 2 + "这里的人都说那是一件好事。" * 30)


def test_shared_given_name_counted_the_same_in_either_order():
    stats = names.stats_of(TEXT)
    first = names._aliases(stats, ["潘老爹", "费老爹"], 2)
    second = names._aliases(stats, ["费老爹", "潘老爹"], 2)
    assert first == second == {"老爹": 8}  # the 老爹 not written after 费: 6 + 2
