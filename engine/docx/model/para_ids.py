"""Fresh ``w14:paraId`` values for new paragraphs (document paragraphs, comment paragraphs).

A paraId is 8 hexadecimal digits below 0x80000000 and unique across the whole package (Word
links comments, threads and paragraphs through them). ``ParaIdAllocator`` collects the ids in
use in every WordprocessingML part once, then derives new ones deterministically from a seed,
salting until one is free.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..wml.ns import W14_PARAID, W_P
from .hashing import deterministic_hex_id

if TYPE_CHECKING:
    from ..package.docx_package import DocxPackage


class ParaIdAllocator:
    def __init__(self, package: DocxPackage) -> None:
        self.package = package
        self._used: set[str] | None = None

    def _collect(self) -> set[str]:
        used: set[str] = set()
        for name in self.package.part_names():
            if name.startswith("word/") and name.endswith(".xml") and "/_rels/" not in name:
                for element in self.package.xml(name).iter(W_P):
                    value = element.get(W14_PARAID)
                    if value:
                        used.add(value.upper())
        return used

    def reserve(self, value: str) -> None:
        if self._used is None:
            self._used = self._collect()
        self._used.add(value.upper())

    def new(self, seed: str) -> str:
        if self._used is None:
            self._used = self._collect()
        value = deterministic_hex_id(seed)
        salt = 0
        while value in self._used:
            salt += 1
            value = deterministic_hex_id(f"{seed}:{salt}")
        self._used.add(value)
        return value
