"""The result pager on its own (no server): every shape a tool answers is bounded by the cap and
reads back whole through its continuations."""

from __future__ import annotations

import json

import pytest

from deskcheck.cli.mcp.paging import Pager

CAP = 5_000


def read_whole(pager: Pager, first: dict, pointer: str) -> object:
    """The value at ``pointer`` (a list or a string) assembled from every page."""
    parts, page = [], first
    while True:
        assert len(json.dumps(page, ensure_ascii=False)) <= CAP
        parts.append(resolve(page, pointer))
        continuation = page["paged"].get("continuation")
        if continuation is None:
            break
        page = pager.next_page(continuation, "me")
    return "".join(parts) if isinstance(parts[0], str) else [item for part in parts for item in part]


def resolve(value, pointer: str):
    for part in pointer.strip("/").split("/"):
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


def story_list(characters: int) -> dict:
    text = "".join(f"[{n:08X}] Paragraph {n}: the parties agree.\n" for n in range(characters // 40))
    return {"documentVersion": "15aa6e55386628f1", "stories": [{"handle": {"type": "main"}, "text": text}]}


def test_one_long_story_in_a_list_of_one_is_paged_by_its_text():
    # list_stories on a long document: the bulk is the text of the one story in a one-item list
    # (it used to be sent whole, 5.4 MB for 30,000 paragraphs, because only lists of two or more
    # items and strings at the top were considered).
    value = story_list(200_000)
    pager = Pager(CAP)
    first = pager.bound("list_stories", value, "me")
    assert first["paged"]["path"] == "/stories/0/text"
    assert read_whole(pager, first, "/stories/0/text") == value["stories"][0]["text"]


@pytest.mark.parametrize("items", [2, 50, 3_000])
def test_a_long_list_reads_back_whole_and_each_page_fits(items):
    value = {"documentVersion": "v", "blocks": [{"id": f"{n:08X}", "text": "word " * 20} for n in range(items)]}
    pager = Pager(CAP)
    first = pager.bound("read_document", value, "me")
    if len(json.dumps(value)) <= CAP:
        assert first == value
    else:
        assert read_whole(pager, first, "/blocks") == value["blocks"]


def test_an_object_with_no_bulky_part_is_paged_as_its_json_text():
    value = {f"key{n}": n for n in range(5_000)}
    pager = Pager(CAP)
    first = pager.bound("getData", value, "me")
    text, page = "", first
    while True:
        body = page["text"]
        marker = body.rfind("\n[characters ")
        text += body[:marker] if marker >= 0 and "continue_result" in body[marker:] else body
        if marker < 0 or "continue_result" not in body[marker:]:
            break
        page = pager.next_page(body[marker:].split('"continuation": "')[1].split('"')[0], "me")
    assert json.loads(text) == value


def test_another_client_cannot_read_my_pages():
    pager = Pager(CAP)
    first = pager.bound("read_document", story_list(50_000), "me")
    with pytest.raises(ValueError, match="names no result kept for you"):
        pager.next_page(first["paged"]["continuation"], "someone else")
