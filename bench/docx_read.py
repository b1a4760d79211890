"""Reading .docx files as blocks: whole-process time of `deskcheck call --docx FILE read_document`.

1. The reference file: folio's performance-1500-paragraphs.docx (the reference system takes about
   0.46 s on this machine class; the target is under 0.25 s). Median and best of N runs after a
   warm-up run, next to the CLI's own floor (an unknown tool name on the same file, which starts
   the CLI and builds the tool set but reads nothing).
2. Generated documents of 2,500 to 20,000 paragraphs (a mix of plain paragraphs, numbered items,
   headings and table cells, without w14:paraId so that every id is minted): time and peak memory
   (max RSS of the process), to show the growth is linear.

Run from the repository root with the project's environment active:
    python bench/docx_read.py [--runs N]
Bytecode caching is switched on for the measured processes (as it is for an installed deskcheck),
even when PYTHONDONTWRITEBYTECODE is set in the calling shell.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import zipfile
from pathlib import Path

from _common import REFERENCE_DOCX as REFERENCE
from _common import deskcheck, reference, run_process

SIZES = (2_500, 5_000, 10_000, 20_000)


def measure(command: list[str], runs: int) -> tuple[float, float, int]:
    """Median and best wall time (s), and peak resident memory (KiB), over ``runs`` runs."""
    run_process(command)  # warm the file cache and the bytecode cache
    samples = [run_process(command) for _ in range(runs)]
    times = [sample.wall for sample in samples]
    return statistics.median(times), min(times), max(sample.peak_kib for sample in samples)


def generated_document(path: Path, paragraphs: int) -> Path:
    """A package with ``paragraphs`` paragraphs: every tenth a heading, every fifth numbered,
    and a 2x2 table every 50 paragraphs (4 of the count)."""
    w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    body = []
    count = 0
    while count < paragraphs:
        if count % 50 == 49 and count + 4 <= paragraphs:
            cells = "".join(f"<w:tc><w:p><w:r><w:t>Cell {count}-{c}</w:t></w:r></w:p></w:tc>" for c in range(2))
            body.append(f"<w:tbl><w:tr>{cells}</w:tr><w:tr>{cells}</w:tr></w:tbl>")
            count += 4
            continue
        if count % 10 == 0:
            ppr = '<w:pPr><w:pStyle w:val="Heading1"/></w:pPr>'
        elif count % 5 == 0:
            ppr = '<w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr>'
        else:
            ppr = ""
        text = f"Paragraph {count}: the parties agree that clause {count % 97} applies to every deliverable."
        body.append(f'<w:p>{ppr}<w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>')
        count += 1
    document = f'<?xml version="1.0" encoding="UTF-8"?><w:document {w}><w:body>{"".join(body)}</w:body></w:document>'
    styles = (
        f'<?xml version="1.0" encoding="UTF-8"?><w:styles {w}><w:style w:type="paragraph" w:styleId="Heading1">'
        '<w:name w:val="heading 1"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style></w:styles>'
    )
    numbering = (
        f'<?xml version="1.0" encoding="UTF-8"?><w:numbering {w}><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0">'
        '<w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl></w:abstractNum>'
        '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>'
    )
    main = "application/vnd.openxmlformats-officedocument.wordprocessingml"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(
            "[Content_Types].xml",
            '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
            'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
            'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
            f'<Override PartName="/word/document.xml" ContentType="{main}.document.main+xml"/>'
            f'<Override PartName="/word/styles.xml" ContentType="{main}.styles+xml"/>'
            f'<Override PartName="/word/numbering.xml" ContentType="{main}.numbering+xml"/></Types>',
        )
        archive.writestr(
            "_rels/.rels",
            '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
            f'2006/relationships"><Relationship Id="rId1" Type="{rel}/officeDocument" Target="word/document.xml"/>'
            "</Relationships>",
        )
        archive.writestr(
            "word/_rels/document.xml.rels",
            '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
            f'2006/relationships"><Relationship Id="rId1" Type="{rel}/styles" Target="styles.xml"/>'
            f'<Relationship Id="rId2" Type="{rel}/numbering" Target="numbering.xml"/></Relationships>',
        )
        archive.writestr("word/document.xml", document)
        archive.writestr("word/styles.xml", styles)
        archive.writestr("word/numbering.xml", numbering)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    reference(REFERENCE)
    exe = deskcheck()
    floor = measure([exe, "call", "--docx", str(REFERENCE), "no_such_tool"], runs)
    read = measure([exe, "call", "--docx", str(REFERENCE), "read_document"], runs)
    print(f"{REFERENCE.name} ({runs} runs)")
    print(f"  CLI floor (unknown tool)  median {floor[0]:.3f} s  best {floor[1]:.3f} s")
    print(f"  read_document             median {read[0]:.3f} s  best {read[1]:.3f} s  peak {read[2] / 1024:.0f} MiB")
    print("generated documents (read_document, whole process)")
    with tempfile.TemporaryDirectory() as folder:
        for size in SIZES:
            path = generated_document(Path(folder) / f"gen-{size}.docx", size)
            median, best, peak = measure([exe, "call", "--docx", str(path), "read_document"], max(3, runs // 3))
            per = (median - floor[0]) / size * 1e6
            print(
                f"  {size:>6} paragraphs  median {median:.3f} s  best {best:.3f} s  peak {peak / 1024:.0f} MiB"
                f"  ({per:.1f} us per paragraph above the floor)"
            )


if __name__ == "__main__":
    main()
