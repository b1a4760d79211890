"""What the worst OpenAPI document `openapi check` accepts costs, and how the cost grows with size.

The limits (`engine/openapi/document/source.py`): 100 MiB of text and 2 million values per document, and the
same again for all the files its $refs name. Each shape below is built to be as expensive as those
limits allow for one kind of content; `--real FILE` adds real descriptions (GitHub's dereferenced
one, 73 MB, is installed by `bench/openapi_peers.py --large`) and slices of them, to show time and
memory growing linearly with the size. Every document is checked by `deskcheck openapi check
--format json` as its own process, output discarded; the table gives CPU time (user + system),
wall time, peak resident memory and the exit code. Budget: 1 GiB and 30 s of CPU, or a refusal
with exit code 2.

Run from the repository root with the project's environment active:
    python bench/openapi_limits.py
    python bench/openapi_limits.py --shape examples --real GITHUB_DEREF
where GITHUB_DEREF is ~/.cache/deskcheck-bench/openapi-peers/npm/node_modules/@octokit/openapi/generated/
api.github.com.deref.json once bench/openapi_peers.py --large has run.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from _common import deskcheck, run_process

MiB = 1024 * 1024
VALUES = 2_000_000
HEAD = {"openapi": "3.0.3", "info": {"title": "limits", "version": "1"}, "servers": [{"url": "https://x.example"}]}
SHAPES: dict[str, tuple[str, Callable[[Path], Path]]] = {}


def shape(name: str, description: str):
    def register(build: Callable[[Path], Path]) -> Callable[[Path], Path]:
        SHAPES[name] = (description, build)
        return build

    return register


def write(path: Path, document: dict) -> Path:
    path.write_text(json.dumps(document, separators=(",", ":")), encoding="utf-8")
    return path


@shape("values-json", "just under 2 million tiny values in one array (4 MB of JSON)")
def _values_json(folder: Path) -> Path:
    return write(folder / "values.json", {**HEAD, "paths": {}, "x-values": [0] * (VALUES - 20)})


@shape("values-yaml", "the same in YAML (a flow sequence)")
def _values_yaml(folder: Path) -> Path:
    path = folder / "values.yaml"
    path.write_text(
        'openapi: 3.0.3\ninfo: {title: limits, version: "1"}\npaths: {}\nx-values: [' + "0," * (VALUES - 20) + "0]\n",
        encoding="utf-8",
    )
    return path


@shape("values-over", "2 million and one values in YAML: refused before the tree is built")
def _values_over(folder: Path) -> Path:
    path = folder / "over.yaml"
    path.write_text(
        'openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths: {}\nx-v: [' + "0," * VALUES + "0]\n", "utf-8"
    )
    return path


@shape("string", "one description of 99 MiB")
def _string(folder: Path) -> Path:
    return write(
        folder / "string.json",
        {**HEAD, "info": {"title": "t", "version": "1", "description": "x" * 99 * MiB}, "paths": {}},
    )


@shape("paths", "150,000 templated paths, each with an operation and its path parameter")
def _paths(folder: Path) -> Path:
    operation = {
        "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}],
        "responses": {"200": {"description": "ok"}},
    }
    paths = {f"/p{n}/{{id}}": {"get": {"operationId": f"op{n}", **operation}} for n in range(150_000)}
    return write(folder / "paths.json", {**HEAD, "paths": paths})


@shape("identical-paths", "120,000 paths that differ only in their template names: one finding each")
def _identical(folder: Path) -> Path:
    ok = {"responses": {"200": {"description": "ok"}}}
    paths = {
        f"/a/{{p{n}}}": {
            "parameters": [{"name": f"p{n}", "in": "path", "required": True, "schema": {"type": "string"}}],
            "get": ok,
        }
        for n in range(120_000)
    }
    return write(folder / "identical.json", {**HEAD, "paths": paths})


@shape("schema-errors", "120,000 path items whose parameter lacks a schema: one openapi-schema finding each")
def _schema_errors(folder: Path) -> Path:
    # jsonschema-rs gathers every error of one validation at once, about 20 KB each.
    ok = {"responses": {"200": {"description": "ok"}}}
    paths = {
        f"/a{n}/{{p}}": {"parameters": [{"name": "p", "in": "path", "required": True}], "get": ok}
        for n in range(120_000)
    }
    return write(folder / "schema-errors.json", {**HEAD, "paths": paths})


@shape("one-schema-errors", "one schema of 200,000 properties of a type that does not exist")
def _one_schema_errors(folder: Path) -> Path:
    properties = {f"p{n}": {"type": "text"} for n in range(200_000)}
    schema = {"type": "object", "properties": properties}
    return write(folder / "one-schema.json", {**HEAD, "paths": {}, "components": {"schemas": {"S": schema}}})


@shape("parameter-errors", "one path item of 120,000 parameters without a schema")
def _parameter_errors(folder: Path) -> Path:
    ok = {"responses": {"200": {"description": "ok"}}}
    parameters = [{"name": f"p{n}", "in": "query"} for n in range(120_000)]
    return write(folder / "parameters.json", {**HEAD, "paths": {"/a": {"parameters": parameters, "get": ok}}})


@shape("examples", "600,000 property examples of the wrong type: one finding each")
def _examples(folder: Path) -> Path:
    properties = {f"p{n}": {"type": "integer", "example": "x"} for n in range(600_000)}
    schema = {"type": "object", "properties": properties}
    return write(folder / "examples.json", {**HEAD, "paths": {}, "components": {"schemas": {"S": schema}}})


@shape("media-examples", "2,000 response schemas of 100 properties, 5 failing examples each")
def _media_examples(folder: Path) -> Path:
    schema = {"type": "object", "properties": {f"p{n}": {"type": "integer"} for n in range(100)}}
    bad = {f"p{n}": "x" for n in range(100)}
    paths = {}
    for n in range(2_000):
        content = {"application/json": {"schema": schema, "examples": {f"e{k}": {"value": bad} for k in range(5)}}}
        paths[f"/m{n}"] = {"get": {"responses": {"200": {"description": "ok", "content": content}}}}
    return write(folder / "media.json", {**HEAD, "paths": paths})


@shape("refs", "200,000 schemas, each a $ref to the next (chains followed once each)")
def _refs(folder: Path) -> Path:
    count = 200_000
    schemas = {f"S{n}": {"$ref": f"#/components/schemas/S{n + 1}"} for n in range(count)}
    schemas[f"S{count}"] = {"type": "object", "default": 3}
    return write(folder / "refs.json", {**HEAD, "paths": {}, "components": {"schemas": schemas}})


@shape("files", "a document whose $refs name 60 files of 40,000 values each (past the shared budget)")
def _files(folder: Path) -> Path:
    for n in range(60):
        write(folder / f"part{n}.json", {"P": {"type": "array", "x-n": list(range(40_000))}})
    schemas = {f"S{n}": {"$ref": f"part{n}.json#/P"} for n in range(60)}
    return write(folder / "files.json", {**HEAD, "paths": {}, "components": {"schemas": schemas}})


def slices(real: Path, folder: Path) -> list[tuple[str, Path]]:
    """``real`` and copies holding a quarter, a half and three quarters of its paths (written
    by another process, for the reason given in ``main``)."""
    code = (
        "import json, sys; d = json.load(open(sys.argv[1])); p = list(d.get('paths', {}).items())\n"
        "for q in (1, 2, 3):\n"
        "    json.dump(dict(d, paths=dict(p[: len(p) * q // 4])), open(f'{sys.argv[2]}/slice{q}.json', 'w'))"
    )
    subprocess.run([sys.executable, "-c", code, str(real), str(folder)], check=True)
    out = [(f"{real.name} {q}/4 of the paths", folder / f"slice{q}.json") for q in (1, 2, 3)]
    return [*out, (real.name, real)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", action="append", help="only these shapes (repeatable)")
    parser.add_argument("--real", type=Path, action="append", default=[], help="a real description to slice")
    parser.add_argument("--build", nargs=2, metavar=("SHAPE", "FOLDER"), help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.build:  # in a process of its own (see below)
        print(SHAPES[options.build[0]][1](Path(options.build[1])))
        return
    names = options.shape or list(SHAPES)
    print(f"{'document':52} {'MiB':>6} {'cpu s':>7} {'wall s':>7} {'peak MiB':>9} {'exit':>4}")
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        for name in names:
            # Built by another process: a measured process forked from one holding the document
            # would report that process's memory as its own peak (ru_maxrss counts it).
            built = subprocess.run(
                [sys.executable, __file__, "--build", name, str(folder)], capture_output=True, text=True, check=True
            )
            path = Path(built.stdout.strip())
            report(f"{name}: {SHAPES[name][0]}", path)
            for leftover in folder.iterdir():
                leftover.unlink()
        for real in options.real:
            for label, path in slices(real, folder):
                report(label, path)


def report(label: str, path: Path) -> None:
    sample = run_process([deskcheck(), "openapi", "check", str(path), "--format", "json"])
    size = path.stat().st_size / MiB
    peak = sample.peak_kib / 1024
    print(f"{label[:52]:52} {size:6.1f} {sample.cpu:7.2f} {sample.wall:7.2f} {peak:9.0f} {sample.returncode:4}")


if __name__ == "__main__":
    main()
