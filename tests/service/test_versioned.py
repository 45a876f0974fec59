"""The compare-and-set loop every versioned document is changed through (players,
statistics, races), on a document whose version other writers move."""

from __future__ import annotations

import pytest

from service.store.versioned import compare_and_set


class KeptChanging(Exception):
    pass


class Document:
    """A versioned counter; ``rivals`` writes land between a read and the next write."""

    def __init__(self, rivals: int = 0) -> None:
        self.version = 0
        self.value = 0
        self.reads = 0
        self.writes = 0
        self.rivals = rivals

    async def read(self) -> list[int]:
        self.reads += 1
        return [self.version, self.value]

    async def write(self, read: list[int]) -> bool:
        self.writes += 1
        if self.rivals:
            self.rivals -= 1
            self.version += 1
            self.value += 100
        if read[0] != self.version:
            return False
        self.version, self.value = self.version + 1, read[1]
        return True


def add_one(read: list[int]) -> bool:
    read[1] += 1
    return True


async def test_a_change_is_applied_again_to_what_a_rival_wrote() -> None:
    doc = Document(rivals=2)
    read, written = await compare_and_set(
        doc.read, add_one, doc.write, attempts=5, kept_changing=KeptChanging
    )
    assert written and read == [2, 201]
    assert (doc.version, doc.value, doc.reads, doc.writes) == (3, 201, 3, 3)


async def test_it_gives_up_after_its_attempts() -> None:
    doc = Document(rivals=10)
    with pytest.raises(KeptChanging):
        await compare_and_set(doc.read, add_one, doc.write, attempts=3, kept_changing=KeptChanging)
    assert doc.reads == doc.writes == 3


async def test_nothing_to_change_writes_nothing() -> None:
    doc = Document()
    read, written = await compare_and_set(
        doc.read, lambda read: False, doc.write, attempts=3, kept_changing=KeptChanging
    )
    assert not written and read == [0, 0]
    assert (doc.reads, doc.writes) == (1, 0)


async def test_an_earlier_read_is_changed_first_without_reading() -> None:
    doc = Document()
    read, written = await compare_and_set(
        doc.read, add_one, doc.write, attempts=3, kept_changing=KeptChanging, earlier=[0, 0]
    )
    assert written and read == [0, 1]
    assert (doc.reads, doc.writes, doc.value) == (0, 1, 1)


async def test_an_earlier_read_with_nothing_to_change_is_read_again() -> None:
    doc = Document()
    doc.version, doc.value = 1, 5
    seen: list[list[int]] = []

    def note(read: list[int]) -> bool:
        seen.append(list(read))
        return False

    read, written = await compare_and_set(
        doc.read, note, doc.write, attempts=3, kept_changing=KeptChanging, earlier=[0, 0]
    )
    assert not written and read == [1, 5]
    assert seen == [[0, 0], [1, 5]] and doc.writes == 0
