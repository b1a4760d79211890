"""What every endpoint works with: the store, the tokens, the fault injector and the options."""

from __future__ import annotations

from dataclasses import dataclass

from .auth import Tokens
from .faults import FaultInjector
from .messages import ApiError
from .store import Dataset, Line, RecordStore


@dataclass(frozen=True)
class ApiContext:
    store: RecordStore
    tokens: Tokens
    faults: FaultInjector
    etags: bool  # send ETag on records (False: Last-Modified only, to test a client's fallback)

    def dataset(self, dataset_id: str) -> Dataset:
        dataset = self.store.dataset(dataset_id)
        if dataset is None:
            known = ", ".join(item.id for item in self.store.datasets())
            raise ApiError(404, f'There is no dataset "{dataset_id}"; datasets: {known}.')
        return dataset

    def line(self, dataset: Dataset, line_id: str) -> Line:
        line = self.store.line(dataset.id, line_id)
        if line is None:
            raise ApiError(
                404,
                f'The dataset {dataset.id} has no record "{line_id}"; search its records with '
                f"GET /api/v1/datasets/{dataset.id}/lines.",
            )
        return line
