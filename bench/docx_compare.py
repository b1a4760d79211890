"""Comparing and redlining two versions: whole-process time of `deskcheck docx compare` and
`deskcheck docx redline`.

1. The reference pair: folio's performance-1500-paragraphs.docx against a copy with 170
   paragraphs changed (100 modified by a word, 35 inserted, 35 deleted; a fixed seed). The
   reference system takes about 0.54 s (compare) and 0.85 s (redline) on this machine class; the
   targets are 0.35 s and 0.6 s. Median and best of N runs after a warm-up, next to the CLI's
   floor (comparing two one-paragraph documents).
2. A generated 20,000-paragraph document (headings, numbered items, tables; see docx_read.py)
   against a copy with 600 paragraphs changed the same way: time and peak memory (max RSS).

Wall times depend on what else runs on the machine; the CPU time (user + system) of the process
is printed next to them. Run from the repository root with the project's environment active:
    python bench/docx_compare.py [--runs N]
Bytecode caching is on for the measured processes, as in an installed deskcheck.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from copy import deepcopy
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.docx.builders

import statistics

from _common import REFERENCE_DOCX as REFERENCE
from _common import Sample, deskcheck, reference, run_process
from docx_read import generated_document


def run_once(command: list[str]) -> Sample:
    """One process (wall time, CPU time, peak memory); it must exit 0."""
    sample = run_process(command)
    if sample.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {sample.returncode}")
    return sample


def measure(command: list[str], runs: int) -> tuple[float, float, float, int]:
    """Median and best wall time, median CPU time and peak memory over ``runs`` after a warm-up."""
    run_once(command)
    samples = [run_once(command) for _ in range(runs)]
    walls = [sample.wall for sample in samples]
    cpu = statistics.median(sample.cpu for sample in samples)
    return statistics.median(walls), min(walls), cpu, max(sample.peak_kib for sample in samples)


def edited_copy(source: Path, target: Path, *, modified: int, inserted: int, deleted: int, seed: int = 5) -> Path:
    """A copy of ``source`` with body paragraphs changed: a word of ``modified`` of them edited,
    ``inserted`` new paragraphs, ``deleted`` removed (all different paragraphs, chosen by seed)."""
    from deskcheck.engine.docx.model.document import DocxDocument
    from deskcheck.engine.docx.wml.ns import W14_PARAID, W_P, W_T

    doc = DocxDocument.open(source)
    body = doc.body
    paragraphs = [child for child in body if child.tag == W_P and child.find(f".//{W_T}") is not None]
    rng = random.Random(seed)
    chosen = rng.sample(range(len(paragraphs)), modified + inserted + deleted)
    for index in chosen[:modified]:
        t = next(paragraphs[index].iter(W_T))
        words = t.text.split(" ")
        position = rng.randrange(len(words))
        words[position] = words[position].upper() + "-edited"
        t.text = " ".join(words)
    for index in chosen[modified : modified + inserted]:
        new = deepcopy(paragraphs[index])
        new.attrib.pop(W14_PARAID, None)
        next(new.iter(W_T)).text = f"Inserted paragraph {index} with words of its own."
        paragraphs[index].addnext(new)
    for index in chosen[modified + inserted :]:
        body.remove(paragraphs[index])
    doc.package.mark_dirty(doc.main_part)
    doc.package.save(target)
    return target


def tiny(path: Path, text: str) -> Path:
    from tests.docx.builders import make_docx, p

    return make_docx(path, p(text))


def report(label: str, figures: tuple[float, float, float, int]) -> None:
    median, best, cpu, peak = figures
    print(f"  {label:<26} median {median:.3f} s  best {best:.3f} s  cpu {cpu:.3f} s  peak {peak / 1024:.0f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    reference(REFERENCE)
    exe = deskcheck()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        small_a, small_b = tiny(work / "a.docx", "One paragraph."), tiny(work / "b.docx", "One changed paragraph.")
        current = edited_copy(REFERENCE, work / "perf-edited.docx", modified=100, inserted=35, deleted=35)
        out = work / "redline.docx"
        print(f"{REFERENCE.name} against 170 changed paragraphs ({runs} runs)")
        report("CLI floor (tiny compare)", measure([exe, "docx", "compare", str(small_a), str(small_b)], runs))
        report("compare (json)", measure([exe, "docx", "compare", str(REFERENCE), str(current)], runs))
        report("compare (text)", measure([exe, "docx", "compare", str(REFERENCE), str(current), "--format",
                                          "text"], runs))  # fmt: skip
        report("redline", measure([exe, "docx", "redline", str(REFERENCE), str(current), "-o", str(out)], runs))
        print("generated 20,000 paragraphs against 600 changed")
        big = generated_document(work / "gen-20000.docx", 20_000)
        big_current = edited_copy(big, work / "gen-20000-edited.docx", modified=400, inserted=100, deleted=100)
        big_runs = max(3, runs // 5)
        report("compare (json)", measure([exe, "docx", "compare", str(big), str(big_current)], big_runs))
        report("redline", measure([exe, "docx", "redline", str(big), str(big_current), "-o", str(out)], big_runs))


if __name__ == "__main__":
    main()
