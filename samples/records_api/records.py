"""What happens to a record a client sends before it is stored: metadata and computed columns
dropped, unknown fields refused, the dataset's JSON Schema checked, lookup fields checked against
their referential, and the computed (extension) columns filled in again."""

from __future__ import annotations

from typing import Any

from .messages import ApiError
from .store import Dataset, RecordStore
from .validation import Problem, schema_problems, show_value


def computed_columns(dataset: Dataset) -> set[str]:
    """Columns the API computes (``x-extension``): a client's value for them is ignored."""
    properties = dataset.schema.get("properties") or {}
    marked = {key for key, spec in properties.items() if isinstance(spec, dict) and "x-extension" in spec}
    return marked | {extension["column"] for extension in dataset.extensions}


def prepare_for_write(store: RecordStore, dataset: Dataset, body: Any) -> dict[str, Any]:
    """The data to store for ``body``, or a 400 listing every problem at once."""
    if not isinstance(body, dict):
        raise ApiError(400, "Send the record as a JSON object whose keys are the dataset's columns.")
    skipped = computed_columns(dataset)
    # Keys starting with "_" are the API's own metadata (_id, _updatedAt): a client that sends
    # back a record it read is not at fault.
    data = {key: value for key, value in body.items() if not key.startswith("_") and key not in skipped}
    properties = dataset.schema.get("properties") or {}
    problems: list[Problem] = [
        (f"/{key}", f'"{key}" is not a column of the dataset {dataset.id}') for key in data if key not in properties
    ]
    problems += schema_problems(dataset.schema, data)
    problems += _lookup_problems(store, dataset, data)
    if problems:
        details = "; ".join(f"{where}: {message}" for where, message in problems)
        raise ApiError(
            400,
            f"The record is not valid ({len(problems)} problem{'s' if len(problems) > 1 else ''}): {details}.",
            errors=[{"path": where, "message": message} for where, message in problems],
        )
    return with_computed_columns(store, dataset, data)


def _lookup_problems(store: RecordStore, dataset: Dataset, data: dict[str, Any]) -> list[Problem]:
    problems: list[Problem] = []
    for lookup in dataset.lookups:
        column, name, key = lookup["column"], lookup["referential"], lookup["key"]
        value = data.get(column)
        if not isinstance(value, dict) or key not in value:
            continue  # absent, or already reported by the schema check
        item = store.referential_item(name, str(value[key]))
        if item is None:
            message = f"{show_value(value[key])} is not in the list of {name}; pick a value from the suggestions"
            problems.append((f"/{column}/{key}", message))
            continue
        for field, given in value.items():
            if field in item and item[field] != given:
                expected = f"should be {show_value(item[field])} for {key} {show_value(item[key])}"
                problems.append((f"/{column}/{field}", expected))
    return problems


def with_computed_columns(store: RecordStore, dataset: Dataset, data: dict[str, Any]) -> dict[str, Any]:
    result = dict(data)
    for extension in dataset.extensions:
        column = extension["column"]
        result.pop(column, None)
        source, key = data.get(extension["from"]), extension["key"]
        if isinstance(source, dict) and key in source:
            item = store.referential_item(extension["referential"], str(source[key]))
            if item is not None and extension["property"] in item:
                result[column] = item[extension["property"]]
    return result
