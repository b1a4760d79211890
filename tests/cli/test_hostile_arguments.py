"""Hostile tool arguments and files (issue 15 items 4, 8, 10, 12 and the Also list): deep or huge
JSON, non-UTF-8 input, FIFOs and devices where a file is expected, control characters in
--author, an output folder that cannot be written, and the permissions of what is written."""

from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys

import pytest

from deskcheck.engine.errors import InputError
from tests.conftest import REPO
from tests.docx.builders import make_docx, p
from tests.helpers import deskcheck_executable, run_cli, run_process

DEEP = '{"a":' * 100_000 + "1" + "}" * 100_000
HUGE_INTEGER = '{"query": ' + "7" * 5_000 + "}"


@pytest.fixture
def docx(tmp_path):
    return make_docx(tmp_path / "a.docx", p("Supplier shall pay."))


def fill(argv: list[str], **values: object) -> list[str]:
    """``argv`` with each ``{name}`` replaced by ``values[name]`` (JSON braces left alone)."""
    out = []
    for arg in argv:
        for name, value in values.items():
            arg = arg.replace("{" + name + "}", str(value))
        out.append(arg)
    return out


def run_bytes(*args: str, stdin: bytes, timeout: float = 60) -> subprocess.CompletedProcess:
    """``deskcheck ARGS`` as a process fed raw bytes on stdin."""
    return subprocess.run([deskcheck_executable(), *args], input=stdin, capture_output=True, timeout=timeout)


# -- item 8: nesting and numbers ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (DEEP, "more than 100 levels deep"),
        ("[" * 150 + "]" * 150, "more than 100 levels deep"),
        (HUGE_INTEGER, "integer of 5,000 digits"),
        ('{"query": 1e999}', "too large for a JSON number"),
        ('{"query": NaN}', "NaN, which is not JSON"),
        ('{"query": -Infinity}', "-Infinity, which is not JSON"),
    ],
)
def test_deep_or_odd_json_is_an_error_envelope_not_a_traceback(tmp_path, docx, text, message):
    args = tmp_path / "args.json"
    args.write_text(text, encoding="utf-8")
    for spelling in (text, f"@{args}"):
        run = run_cli("docx", "find-text", str(docx), spelling, expect=2)
        assert message in run.json["error"] and run.stderr == f"error: {run.json['error']}\n"
    run = run_cli("docx", "find-text", str(docx), "-", stdin=text, expect=2)
    assert message in run.json["error"]


@pytest.mark.slow
def test_batch_reports_a_bad_line_and_goes_on_with_the_next(docx):
    lines = [
        '{"id": 1, "tool": "find_text", "args": ' + DEEP + "}",
        '{"id": 2, "tool": "find_text", "args": {"query": "Supplier"}}',
        '{"id": 3, "tool": "find_text", "args": ' + HUGE_INTEGER + "}",
        '{"id": 4, "tool": "find_text", "args": {"query": 1e999}}',
        '{"id": 5, "tool": "find_text", "args": {"query": "pay"}}',
    ]
    run = run_process("batch", "--docx", str(docx), stdin="\n".join(lines) + "\n", expect=1)
    answers = run.json_lines
    assert [a["ok"] for a in answers] == [False, True, False, False, True]
    assert "levels deep" in answers[0]["error"] and "5,000 digits" in answers[2]["error"]
    assert answers[1]["result"]["totalMatches"] == 1 and answers[4]["id"] == 5


@pytest.mark.slow
def test_batch_reads_a_line_that_is_not_utf8_as_one_bad_line(docx):
    stdin = b'{"id": 1, "tool": "find_text", "args": {"query": "\xff"}}\n'
    stdin += b'{"id": 2, "tool": "find_text", "args": {"query": "pay"}}\n'
    proc = run_bytes("batch", "--docx", str(docx), stdin=stdin)
    answers = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert proc.returncode == 1 and len(answers) == 2
    assert "not UTF-8" in answers[0]["error"] and answers[1]["ok"] is True


def test_batch_skips_a_line_longer_than_the_limit(docx, monkeypatch):
    from deskcheck.cli.commands import batch

    monkeypatch.setattr(batch, "MAX_LINE_BYTES", 1_000)
    lines = '{"id": 1, "tool": "find_text", "args": {"query": "' + "x" * 5_000 + '"}}\n'
    lines += '{"id": 2, "tool": "find_text", "args": {"query": "pay"}}\n'
    run = run_cli("batch", "--docx", str(docx), stdin=lines, expect=1)
    first, second = run.json_lines
    assert "longer than 1,000 bytes" in first["error"] and second["id"] == 2 and second["ok"]


def test_a_host_passing_deep_arguments_gets_an_input_error(docx):
    from deskcheck.engine.docx.tools.toolset import docx_toolset

    value: object = "x"
    for _ in range(200):
        value = [value]
    result = docx_toolset(docx).call("find_text", {"query": value})
    assert not result.ok and result.input_error and "levels deep" in result.error


# -- issue 26 item 9: a lone surrogate is not text ---------------------------------------------


@pytest.fixture
def form_files(tmp_path):
    (tmp_path / "schema.json").write_text('{"type": "object", "properties": {"name": {"type": "string"}}}')
    (tmp_path / "data.json").write_text("{}")
    return ["--schema", str(tmp_path / "schema.json"), "--data", str(tmp_path / "data.json")]


@pytest.mark.parametrize("path", ['"/name\\ud800"', '"/\\udfff"', '"/name\\ud83d"'])
@pytest.mark.slow
def test_a_lone_surrogate_in_a_form_path_is_bad_input_not_a_traceback(form_files, path):
    args = '{"path": ' + path + ', "value": "x"}'
    run = run_process("form", "set-field-value", *form_files, args, expect=2)
    assert "lone surrogate" in run.json["error"] and "Traceback" not in run.stderr


@pytest.mark.slow
def test_a_surrogate_pair_is_one_character_and_is_kept(form_files):
    run_process("form", "set-field-value", *form_files, '{"path": "/name", "value": "\\ud83d\\ude00"}')
    assert json.loads(run_process("form", "get-data", *form_files).json["result"])["data"] == {"name": "\U0001f600"}


@pytest.mark.slow
def test_a_lone_surrogate_in_a_batch_id_fails_that_line_and_the_rest_run(form_files):
    lines = [
        '{"id": "a\\ud800", "tool": "form_getData", "args": {}}',
        '{"id": "b", "tool": "form_setFieldValue", "args": {"\\udc00": 1}}',
        '{"id": "c", "tool": "form_getData", "args": {}}',
    ]
    run = run_process("batch", *form_files, stdin="\n".join(lines) + "\n", expect=1)
    answers = run.json_lines
    assert [a["ok"] for a in answers] == [False, False, True] and answers[2]["id"] == "c"
    assert "lone surrogate \\ud800" in answers[0]["error"] and "lone surrogate \\udc00" in answers[1]["error"]
    assert "Traceback" not in run.stderr


SAMPLE_SPEC = "samples/records_api/openapi.json"


@pytest.mark.parametrize(
    "argv",
    [
        ["form", "describe-state", "{form}", "--identity", "me\udcff"],
        ["call", "--spec", SAMPLE_SPEC, "--profile", "read\udcff", "sample_list_datasets"],
        ["call", "--spec", "http://127.0.0.1:9/\udcff.json", "sample_list_datasets"],
        ["call", "--spec", SAMPLE_SPEC, "--base-url", "http://127.0.0.1:9/\udcff", "sample_list_datasets"],
        ["call", "--spec", SAMPLE_SPEC, "--allow-host", "h\udcff", "sample_list_datasets"],
        [
            "openapi",
            "check",
            SAMPLE_SPEC,
            "--format",
            "json",
            "--live",
            "--base-url",
            "http://h/",
            "--param",
            "id=\udcff",
        ],
    ],
    ids=["identity", "profile", "spec-url", "base-url", "allow-host", "live-param"],
)
@pytest.mark.slow
def test_an_option_that_is_not_utf8_is_bad_usage(form_files, argv):
    # A byte that is not UTF-8 on the command line reaches Python as a lone surrogate.
    argv = [part for arg in argv for part in (form_files if arg == "{form}" else [arg])]
    run = run_process(*argv, expect=2, cwd=str(REPO))
    # Errors reach stderr in every case (a bad option value as usage, nothing on stdout).
    assert "not UTF-8 text" in run.stderr and "Traceback" not in run.stderr


def test_a_host_passing_a_lone_surrogate_gets_an_input_error(docx):
    from deskcheck.engine.docx.tools.toolset import docx_toolset

    result = docx_toolset(docx).call("find_text", {"query": "pay\ud800"})
    assert not result.ok and result.input_error and "lone surrogate \\ud800" in result.error


def test_an_envelope_holding_a_lone_surrogate_is_still_one_json_line():
    from deskcheck.cli.output.envelope import write_json_line

    class Utf8Stream(io.StringIO):  # like stdout: refuses what UTF-8 cannot encode
        def write(self, text: str) -> int:
            text.encode("utf-8")
            return super().write(text)

    stream = Utf8Stream()
    write_json_line(stream, {"ok": False, "error": "bad \udc80 byte"})
    assert json.loads(stream.getvalue()) == {"ok": False, "error": "bad \udc80 byte"}


@pytest.mark.parametrize("value", ["[NaN]", "[1e999]", "[" + "7" * 5000 + "]", '["\\ud800"]', "[" * 200 + "]" * 200])
def test_a_json_looking_string_out_of_bounds_stays_a_string(value):
    from deskcheck.engine.forms.schema.values import parse_json_string

    assert parse_json_string(value) == value
    assert parse_json_string('{"a": [1, 2.5]}') == {"a": [1, 2.5]}


# -- Also: ARGS on stdin must be UTF-8, like the same @file -----------------------------------


@pytest.mark.slow
def test_args_that_are_not_utf8_are_refused_from_stdin_as_from_a_file(tmp_path, docx):
    data = b'{"query": "caf\xe9"}'  # Latin-1
    path = tmp_path / "args.json"
    path.write_bytes(data)
    from_file = run_process("docx", "find-text", str(docx), f"@{path}", expect=2)
    assert "not UTF-8" in from_file.json["error"]
    from_stdin = run_bytes("docx", "find-text", str(docx), "-", stdin=data)
    assert from_stdin.returncode == 2 and "not UTF-8" in json.loads(from_stdin.stdout)["error"]


# -- item 4: what is not a regular file --------------------------------------------------------


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize(
    "argv",
    [
        ["docx", "find-text", "{docx}", "@/dev/zero"],
        ["docx", "find-text", "{docx}", "@{fifo}"],
        ["form", "get-data", "--schema", "{fifo}", "--data", "{data}"],
        ["form", "get-data", "--schema", "{schema}", "--data", "{fifo}"],
        ["form", "get-data", "--schema", "/dev/zero", "--data", "{data}"],
        ["openapi", "check", "{fifo}"],
        ["openapi", "tools", "/dev/zero"],
        ["repl", "--docx", "{docx}", "--script", "{fifo}"],
        ["docx", "queue", "apply", "{fifo}", "{docx}"],
        ["mcp", "replay", "{fifo}"],
        ["openapi", "check", "{spec}", "--config", "{fifo}"],
    ],
)
@pytest.mark.slow
def test_every_path_that_comes_in_refuses_fifos_and_devices(tmp_path, docx, fifo, argv):
    """A FIFO blocked forever; a device was read until memory ran out (the cap used st_size)."""
    schema = tmp_path / "s.json"
    schema.write_text('{"type": "object"}')
    data = tmp_path / "d.json"
    data.write_text("{}")
    spec = tmp_path / "api.json"
    spec.write_text('{"openapi": "3.0.0", "info": {"title": "t", "version": "1"}, "paths": {}}')
    args = fill(argv, docx=docx, fifo=fifo, schema=schema, data=data, spec=spec)
    run = run_process(*args, expect=None, timeout=60)
    assert run.exit_code == 2, run.stdout + run.stderr
    assert "not a regular file" in run.stdout + run.stderr


def test_the_bounded_reader_never_reads_past_its_limit(tmp_path):
    from deskcheck.engine.files import read_regular_file

    path = tmp_path / "f"
    path.write_bytes(b"x" * 100)
    assert read_regular_file(path, 100, subject="f", wanted="a file") == b"x" * 100
    with pytest.raises(InputError, match="larger than 99 bytes"):
        read_regular_file(path, 99, subject="f", wanted="a file")
    # /proc files say size 0 and are regular: only reading bounds them.
    with pytest.raises(InputError, match="larger than 10 bytes"):
        read_regular_file("/proc/self/status", 10, subject="status", wanted="a file")


# -- item 10: --author --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["docx", "suggest-changes", "{docx}", "--dry-run", '{"operations": []}'],
        ["docx", "add-comment", "{docx}", "--dry-run", '{"blockId": "1A2B3C4D", "text": "x"}'],
        ["docx", "reply-comment", "{docx}", "--dry-run", "{}"],
        ["docx", "accept-change", "{docx}", "--dry-run", "{}"],
        ["docx", "accept-all", "{docx}", "--dry-run"],
        ["docx", "reject-all", "{docx}", "--dry-run"],
        ["docx", "redline", "{docx}", "{docx}", "-o", "{out}"],
        ["call", "--docx", "{docx}", "suggest_changes", '{"operations": []}'],
        ["batch", "--docx", "{docx}"],
        ["repl", "--docx", "{docx}", "--script", "/dev/null"],
    ],
)
@pytest.mark.parametrize("author", ["a\x01b", "\x1b[31mred", "tab\tis fine but \x00 is not", "\ud800"])
def test_an_author_a_docx_cannot_store_is_refused_naming_the_option(tmp_path, docx, argv, author):
    args = fill(argv, docx=docx, out=tmp_path / "out.docx")
    run = run_cli(*args, "--author", author, expect=2, stdin='{"id": 1, "tool": "read_document"}\n')
    # A bad option value is bad usage: the usage on stderr, nothing on stdout.
    assert run.stdout == "" and "Usage: deskcheck" in run.stderr
    assert "'--author'" in run.stderr and "cannot store" in run.stderr
    assert author not in run.stderr, "the value's control characters never reach the terminal"
    assert not (tmp_path / "out.docx").exists()


def test_the_engine_refuses_such_an_author_too(tmp_path, docx):
    from deskcheck.engine.docx.review.revisions import resolve_file
    from deskcheck.engine.docx.tools.toolset import DocxOptions, docx_toolset
    from deskcheck.engine.docx.versions.redline import redline_files

    with pytest.raises(InputError, match="cannot store"):
        docx_toolset(docx, DocxOptions(author="a\x01"))
    with pytest.raises(InputError, match="cannot store"):
        redline_files(docx, docx, tmp_path / "r.docx", author="a\x01")
    with pytest.raises(InputError, match="cannot store"):
        resolve_file(docx, "accept", author="a\x01", dry_run=True)


def test_a_tab_or_accents_in_the_author_are_fine(docx):
    run_cli("docx", "accept-all", str(docx), "--dry-run", "--author", "Zoë\tO'Brien", expect=0)


# -- item 12 and Also: writing ------------------------------------------------------------------

EDIT = '{"operations": [{"type": "replaceInBlock", "blockId": "{block}", "find": "pay", "replace": "remit"}]}'


def first_block(docx) -> str:
    return run_cli("docx", "read-document", str(docx)).json["result"]["blocks"][0]["blockId"]


@pytest.fixture
def read_only_folder(tmp_path):
    """A folder nothing can be created in: chmod for a normal user; for root (CI), whom chmod
    does not stop, the immutable attribute, or else a file system that refuses every write."""
    folder = tmp_path / "locked"
    folder.mkdir()
    if os.geteuid() != 0:
        folder.chmod(0o555)
        yield folder
        folder.chmod(0o755)
        return
    if subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode == 0:
        yield folder
        subprocess.run(["chattr", "-i", str(folder)], check=False)
        return
    pytest.skip("running as root where neither chmod nor chattr makes a folder read-only")


@pytest.mark.parametrize(
    "argv",
    [
        ["docx", "suggest-changes", "{docx}", "-o", "{out}", EDIT],
        ["docx", "accept-all", "{docx}", "-o", "{out}"],
        ["docx", "redline", "{docx}", "{docx}", "-o", "{out}"],
        ["docx", "add-comment", "{docx}", "-o", "{out}", '{"blockId": "{block}", "text": "Why?"}'],
    ],
)
def test_an_output_folder_that_cannot_be_written_exits_2(docx, read_only_folder, argv):
    block = first_block(docx)
    args = fill(argv, docx=docx, out=read_only_folder / "out.docx", block=block)
    run = run_cli(*args, expect=2)
    assert "cannot write" in run.json["error"] and "writable" in run.json["error"]


def test_a_folder_on_a_read_only_file_system_is_bad_output(tmp_path, monkeypatch):
    """The same mapping whoever runs the tests (root included): EROFS when the temporary file is
    created is an InputError, and the target stays as it was."""
    import errno

    from deskcheck.engine.files import write_atomically

    target = tmp_path / "out.docx"
    target.write_bytes(b"before")
    real_open = os.open

    def refusing(path, flags, *rest):
        if flags & os.O_CREAT:
            raise OSError(errno.EROFS, "Read-only file system")
        return real_open(path, flags, *rest)

    monkeypatch.setattr(os, "open", refusing)
    with pytest.raises(InputError) as info:
        write_atomically(target, b"after")
    assert info.value.code == "badOutput" and "writable" in info.value.message
    assert target.read_bytes() == b"before"


def test_a_device_or_fifo_as_output_is_refused_not_replaced(tmp_path, docx, fifo):
    """As root, renaming over /dev/null replaced the device with a regular file."""
    run = run_cli("docx", "accept-all", str(docx), "-o", str(fifo), expect=2)
    assert "not a regular file" in run.json["error"] or "named pipe" in run.json["error"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
@pytest.mark.slow
def test_new_files_follow_the_umask_and_rewritten_ones_keep_their_mode(tmp_path, docx, umask, mode):
    script = (
        "import os, sys; os.umask(int(sys.argv[1], 8)); from deskcheck.cli.main import run; sys.exit(run(sys.argv[2:]))"
    )
    out = tmp_path / f"out-{umask:o}.docx"
    command = [sys.executable, "-c", script, f"{umask:o}", "docx", "accept-all", str(docx), "-o", str(out)]
    subprocess.run(command, check=True, capture_output=True)
    assert stat.S_IMODE(out.stat().st_mode) == mode
    out.chmod(0o640)
    block = first_block(out)
    command = [
        sys.executable,
        "-c",
        script,
        f"{umask:o}",
        "docx",
        "add-comment",
        str(out),
        f'{{"blockId": "{block}", "text": "x"}}',
    ]
    subprocess.run(command, check=True, capture_output=True)
    assert stat.S_IMODE(out.stat().st_mode) == 0o640


def test_read_args_keeps_reading_a_text_stream():
    from deskcheck.cli.args import read_args

    assert read_args("-", io.StringIO('{"a": 1}')) == {"a": 1}


# -- item 8's class: how many values an input holds ---------------------------------------------


@pytest.mark.parametrize("count", [250_000, 1_500_000])  # parsed then counted; refused before parsing
@pytest.mark.slow
def test_a_record_of_too_many_values_is_refused_before_a_session_builds_it(tmp_path, count):
    """30 MB of empty arrays took a form session 8 GB and 174 s."""
    schema = tmp_path / "s.json"
    schema.write_text('{"type": "object"}')
    data = tmp_path / "d.json"
    data.write_text('{"a": [' + ",".join(["[]"] * count) + "]}")
    run = run_cli("form", "get-data", "--schema", str(schema), "--data", str(data), expect=2)
    assert "more than 200,000 values" in run.json["error"]
    args = '{"path": "/a", "value": [' + ",".join(["0"] * count) + "]}"
    run = run_cli(
        "form", "set-field-value", "--schema", str(schema), "--data", str(tmp_path / "new.json"), args, expect=2
    )
    assert "more than 200,000 values" in run.json["error"]


@pytest.mark.slow
def test_text_full_of_brackets_and_commas_is_not_mistaken_for_values(tmp_path):
    schema = tmp_path / "s.json"
    schema.write_text('{"type": "object"}')
    data = tmp_path / "d.json"
    data.write_text(json.dumps({"notes": ['a, [b], {c}, "d" \\ ' * 40 for _ in range(20_000)]}))
    assert data.stat().st_size > 1024 * 1024
    run_cli("form", "get-data", "--schema", str(schema), "--data", str(data))


@pytest.mark.slow
def test_a_yaml_alias_bomb_is_refused(tmp_path):
    lines = ['a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for previous, name in zip("abcdef", "bcdefg", strict=True):
        lines.append(f"{name}: &{name} [{', '.join(['*' + previous] * 10)}]")
    data = tmp_path / "d.yaml"
    data.write_text("\n".join(lines) + "\n")
    schema = tmp_path / "s.json"
    schema.write_text('{"type": "object"}')
    run = run_cli("form", "get-data", "--schema", str(schema), "--data", str(data), expect=2)
    assert "more than" in run.json["error"] and "values" in run.json["error"]
