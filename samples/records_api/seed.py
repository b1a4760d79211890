"""The sample data a fresh database starts with, read from the package's data files (so it
works from a wheel as well as from the source tree)."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from .records import with_computed_columns
from .store import Dataset, RecordStore, parse_timestamp


@dataclass(frozen=True)
class Referential:
    name: str
    title: str
    key: str  # the property that identifies an item (a département's code)
    title_field: str  # the property a person reads (its name)
    items: tuple[dict[str, Any], ...]


def _read_json(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8"))


@functools.cache
def referentials() -> dict[str, Referential]:
    raw = _read_json("departements.json")
    referential = Referential(raw["name"], raw["title"], raw["key"], raw["titleField"], tuple(raw["items"]))
    return {referential.name: referential}


@functools.cache
def _datasets_file() -> dict[str, Any]:
    return _read_json("datasets.json")


def seed_datasets() -> list[dict[str, Any]]:
    """The seed datasets as plain JSON (a fresh copy each call): schema, settings and records."""
    return json.loads(json.dumps(_datasets_file()["datasets"]))


def seed(store: RecordStore) -> None:
    """Fill an empty store with the referentials, the datasets and their records."""
    with store.transaction():
        for referential in referentials().values():
            store.add_referential(referential.name, referential.key, list(referential.items))
        for raw in seed_datasets():
            dataset = Dataset(
                id=raw["id"],
                title=raw["title"],
                description=raw["description"],
                schema=raw["schema"],
                lookups=raw["lookups"],
                extensions=raw["extensions"],
                created_at=raw["createdAt"],
                schema_updated_at=raw["createdAt"],
            )
            store.add_dataset(dataset)
            for record in raw["records"]:
                data = {key: value for key, value in record.items() if not key.startswith("_")}
                store.insert_line(
                    dataset.id,
                    record["_id"],
                    with_computed_columns(store, dataset, data),
                    parse_timestamp(record["_updatedAt"]),
                )
