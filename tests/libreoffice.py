"""LibreOffice as a judge from outside: the paragraph texts it shows for a .docx as loaded, after
its own accept-all or reject-all, after accepting or rejecting one author's changes only, or after
a sequence of such steps.

    from tests.libreoffice import read_paragraphs, read_views
    rows = read_paragraphs("accept", [path, other])   # one LibreOffice start for all the files
    rows[str(path)] == {"file": str(path), "ok": True, "paragraphs": ["Title", "A1", ...], "comments": [...]}
    rows[str(other)] == {"file": str(other), "ok": False, "error": "LibreOffice could not open ..."}
    accepted, rejected = read_views([("accept", files), ("reject", files)])   # still one start

An action is ``"asis"``, ``"accept"`` or ``"reject"`` (every change), ``("accept" | "reject",
author)`` (only that author's changes, one at a time, as a reviewer selecting each and choosing
Accept or Reject would), or a list of those taken in turn (``[("reject", "Alice"), "accept"]``:
Alice's changes rejected, then every other one accepted). With ``save_to`` each document is also
saved by LibreOffice as .docx after the action, and its row names the file (``"saved"``).

Paragraphs of a table come cell by cell in LibreOffice's cell order. ``comments`` lists each comment
LibreOffice shows after the action: its ``author``, ``text`` and ``anchor`` (the text it covers).
A file LibreOffice refuses, or one it crashes or hangs on, is a row with ``ok`` false and the
reason; the files after it are read in a fresh LibreOffice. Nothing here raises for a bad document.
Starting LibreOffice costs seconds: ask for everything a test needs in one call.

What LibreOffice 7.4 headless taught us, and how this module keeps clear of it:
- A load that fails leaves a lock file ``.~lock.NAME#`` beside the document, and every later load
  of that path fails. LibreOffice only ever opens private copies, each in a folder of its own.
- Accepting or rejecting changes near a comment needs Writer's ``annotation.ui``, which the
  ``-nogui`` packages do not have: comments are hidden (``ShowAnnotations`` false) first.
- Driving it over a remote UNO connection crashes it on documents with comments; in-process it does
  not. The work runs as a Python macro inside LibreOffice (``libreoffice-script-provider-python``).
- Its embedded Python aborts at start-up when it sees another interpreter's settings
  (``PYTHONHOME``, a virtualenv first on ``PATH``): it starts with those removed.
- Every start has a profile of its own, so runs never share state or wait on each other's locks.
- Accept/Reject of one change acts on the change under the cursor: a selection would take every
  change it touches, and a cursor at a change's start picks a change ending there instead. The
  cursor goes, collapsed, after the change's first character.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tests.absent import skip_or_fail

MODES = ("asis", "accept", "reject")
INSTALL_HINT = "install libreoffice-writer-nogui and libreoffice-script-provider-python"

Step = str | tuple[str, str]
Action = Step | list[Step]
Row = dict[str, Any]

# Runs inside LibreOffice. It reads the job from the file named by DESKCHECK_LO_JOB (a list of
# items: a file, its steps, where to save it or null) and appends one JSON line per item to the
# job's log: {"index": i, "begin": true} before loading it, then {"index": i, "paragraphs": [...]}
# or {"index": i, "error": "..."}. A "begin" without its result names the item LibreOffice died on.
MACRO = r"""
import json
import os

import uno
from com.sun.star.beans import PropertyValue

WORD_FILTERS = ("MS Word 2007", "Office Open XML Text")
ALL = {"accept": ".uno:AcceptAllTrackedChanges", "reject": ".uno:RejectAllTrackedChanges"}
ONE = {"accept": ".uno:AcceptTrackedChange", "reject": ".uno:RejectTrackedChange"}
# More changes by one author than any test document holds: beyond it, the command is not working.
MOST_CHANGES = 500


def _property(name, value):
    prop = PropertyValue()
    prop.Name = name
    prop.Value = value
    return prop


def _collect(text, into):
    items = text.createEnumeration()
    while items.hasMoreElements():
        item = items.nextElement()
        if item.supportsService("com.sun.star.text.TextTable"):
            for cell in item.getCellNames():
                _collect(item.getCellByName(cell).getText(), into)
        elif item.supportsService("com.sun.star.text.Paragraph"):
            into.append(item.getString())
    return into


def _load(desktop, path):
    url = uno.systemPathToFileUrl(path)
    doc = desktop.loadComponentFromURL(url, "_blank", 0, (_property("Hidden", True),))
    if doc is not None:
        return doc
    repaired = desktop.loadComponentFromURL(
        url, "_blank", 0, (_property("Hidden", True), _property("RepairPackage", True))
    )
    if repaired is not None:
        repaired.close(True)
        raise RuntimeError("LibreOffice opens the file only by repairing it: it finds the package corrupt")
    raise RuntimeError("LibreOffice could not open the file")


def _first_change_by(doc, author):
    redlines = doc.getRedlines().createEnumeration()
    while redlines.hasMoreElements():
        redline = redlines.nextElement()
        if redline.getPropertyValue("RedlineAuthor") == author:
            return redline
    return None


def _cursor_in(redline):
    start = redline.getPropertyValue("RedlineStart")
    end = redline.getPropertyValue("RedlineEnd")
    text = start.getText()
    cursor = text.createTextCursorByRange(start)
    cursor.collapseToStart()
    inside = text.createTextCursorByRange(cursor)
    try:
        if inside.goRight(1, False) and text.compareRegionStarts(inside, end) > 0:
            return inside
    except Exception:
        pass  # the end lies in another text (a table cell): the start has to do
    return cursor


def _resolve_author(doc, dispatcher, mode, author):
    controller = doc.getCurrentController()
    for _ in range(MOST_CHANGES):
        redline = _first_change_by(doc, author)
        if redline is None:
            return
        controller.select(_cursor_in(redline))
        dispatcher.executeDispatch(controller.getFrame(), ONE[mode], "", 0, ())
    raise RuntimeError(f"{author}'s changes did not go away after {MOST_CHANGES} {mode} commands")


def _comments(doc):
    # Each comment's author, text and the text it is anchored on, as LibreOffice reads them.
    found = []
    fields = doc.getTextFields().createEnumeration()
    while fields.hasMoreElements():
        field = fields.nextElement()
        if field.supportsService("com.sun.star.text.TextField.Annotation"):
            anchor = field.getAnchor()
            found.append(
                {
                    "author": field.getPropertyValue("Author"),
                    "text": field.getPropertyValue("Content"),
                    "anchor": anchor.getString() if anchor is not None else "",
                }
            )
    return found


def _read(desktop, dispatcher, item):
    doc = _load(desktop, item["file"])
    try:
        # LibreOffice opens what it does not recognise as plain text: that is not a Word document.
        used = {arg.Name: arg.Value for arg in doc.getArgs()}.get("FilterName", "")
        if not used.startswith(WORD_FILTERS):
            raise RuntimeError(f"LibreOffice did not read the file as a Word document (it used {used!r})")
        controller = doc.getCurrentController()
        if any(mode != "asis" for mode, _ in item["steps"]):
            # Shown comments make the resolve commands load a UI file the -nogui packages lack.
            controller.getViewSettings().setPropertyValue("ShowAnnotations", False)
        for mode, author in item["steps"]:
            if mode == "asis":
                continue
            if author is None:
                dispatcher.executeDispatch(controller.getFrame(), ALL[mode], "", 0, ())
            else:
                _resolve_author(doc, dispatcher, mode, author)
        paragraphs = _collect(doc.getText(), [])
        if item["save"]:
            target = uno.systemPathToFileUrl(item["save"])
            doc.storeToURL(target, (_property("FilterName", "MS Word 2007 XML"), _property("Overwrite", True)))
        return paragraphs, _comments(doc)
    finally:
        doc.close(True)


def deskcheck_judge(*_):
    with open(os.environ["DESKCHECK_LO_JOB"], encoding="utf-8") as handle:
        job = json.load(handle)
    context = XSCRIPTCONTEXT.getComponentContext()
    desktop = XSCRIPTCONTEXT.getDesktop()
    dispatcher = context.ServiceManager.createInstanceWithContext("com.sun.star.frame.DispatchHelper", context)
    with open(job["log"], "a", encoding="utf-8") as log:
        for index, item in enumerate(job["items"]):
            log.write(json.dumps({"index": index, "begin": True}) + "\n")
            log.flush()
            row = {"index": index}
            try:
                row["paragraphs"], row["comments"] = _read(desktop, dispatcher, item)
            except Exception as exc:
                row["error"] = str(exc) or type(exc).__name__
            log.write(json.dumps(row, ensure_ascii=False) + "\n")
            log.flush()
    try:
        desktop.terminate()
    except Exception:
        pass


g_exportedScripts = (deskcheck_judge,)
"""


def soffice() -> str | None:
    return shutil.which("soffice")


def unavailable() -> str | None:
    """Why LibreOffice cannot judge here, or None when it can."""
    binary = soffice()
    if binary is None:
        return f"LibreOffice (soffice) is not installed: {INSTALL_HINT}"
    program = Path(binary).resolve().parent
    if not (program / "pythonscript.py").exists():
        return f"LibreOffice's Python scripting is missing beside {program}: {INSTALL_HINT}"
    return None


def require() -> None:
    """Skip the running test when LibreOffice cannot judge here (fail in CI)."""
    reason = unavailable()
    if reason is not None:
        skip_or_fail(reason)


def read_paragraphs(action: Action, files: Iterable[Path | str], *, save_to: Path | None = None) -> dict[str, Row]:
    """LibreOffice's paragraph texts of each file after ``action``, keyed by ``str(file)`` as
    given; see the module's docstring for actions and rows."""
    [rows] = read_views([(action, files)], save_to=save_to)
    return rows


def read_views(
    requests: Iterable[tuple[Action, Iterable[Path | str]]], *, save_to: Path | None = None
) -> list[dict[str, Row]]:
    """``read_paragraphs`` for each (action, files) request, all in one LibreOffice start: the
    rows of each request in order. With ``save_to``, LibreOffice's .docx of each file after its
    action is saved under that folder (the row's ``"saved"``)."""
    asked = [(_steps(action), list(dict.fromkeys(str(f) for f in files))) for action, files in requests]
    items = [(number, name, steps) for number, (steps, names) in enumerate(asked) for name in names]
    saves = [None] * len(items)
    if save_to is not None:
        saves = [str(Path(save_to) / str(index) / Path(name).name) for index, (_, name, _) in enumerate(items)]
        for target in saves:
            Path(target).parent.mkdir(parents=True, exist_ok=True)
    found: dict[int, Row] = {}
    while len(found) < len(items):
        todo = [index for index in range(len(items)) if index not in found]
        for index, row in zip(todo, _run_once([(items[i][1], items[i][2], saves[i]) for i in todo]), strict=True):
            if row is not None:
                found[index] = {"file": items[index][1], **row}
    rows: list[dict[str, Row]] = [{} for _ in asked]
    for index, (number, name, _) in enumerate(items):
        row = found[index]
        if save_to is not None and row["ok"]:
            row["saved"] = saves[index]
        rows[number][name] = row
    return rows


def _steps(action: Action) -> list[tuple[str, str | None]]:
    """The action as [(mode, author or None), ...]; a ValueError names a malformed one."""
    steps = action if isinstance(action, list) else [action]
    out = []
    for step in steps:
        mode, author = (step, None) if isinstance(step, str) else step
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        if not isinstance(step, str) and (mode == "asis" or not isinstance(author, str) or not author):
            raise ValueError(f"a step for one author is (accept or reject, author name), not {step!r}")
        out.append((mode, author))
    return out


def _run_once(items: list[tuple[str, list, str | None]]) -> list[Row | None]:
    """One LibreOffice over the (file, steps, save path) items: a row per item it got to, None for
    those left after a crash (to be read by the next start)."""
    with tempfile.TemporaryDirectory(prefix="deskcheck-lo-") as work:
        work_dir = Path(work)
        profile = work_dir / "profile"
        scripts = profile / "user" / "Scripts" / "python"
        scripts.mkdir(parents=True)
        (scripts / "deskcheck_judge.py").write_text(MACRO, encoding="utf-8")

        found: list[Row | None] = [None] * len(items)
        job_items: list[dict[str, Any]] = []
        for index, (source, steps, save) in enumerate(items):
            copy = work_dir / "in" / str(index) / Path(source).name
            copy.parent.mkdir(parents=True)
            try:
                shutil.copyfile(source, copy)
            except OSError as exc:
                found[index] = {"ok": False, "error": f"cannot read the file: {exc.strerror or exc}"}
            job_items.append({"file": str(copy), "steps": steps, "save": save})
        todo = [index for index, row in enumerate(found) if row is None]
        if not todo:
            return found

        log = work_dir / "log.jsonl"
        job = work_dir / "job.json"
        job.write_text(json.dumps({"items": [job_items[i] for i in todo], "log": str(log)}))
        outcome = _start(profile, job, timeout=60 + 10 * len(todo))

        began = None
        lines = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
        for line in lines:
            entry = json.loads(line)
            index = todo[entry["index"]]
            if entry.get("begin"):
                began = index
            elif "error" in entry:
                found[index], began = {"ok": False, "error": entry["error"]}, None
            else:
                comments = {"comments": entry["comments"]} if "comments" in entry else {}
                found[index], began = {"ok": True, "paragraphs": entry["paragraphs"], **comments}, None
        if began is not None:
            found[began] = {"ok": False, "error": f"LibreOffice crashed or hung on this file ({outcome})"}
        elif not lines:
            # The macro never ran: LibreOffice itself did not start, for every file alike.
            for index in todo:
                found[index] = {"ok": False, "error": f"LibreOffice did not run the reading macro ({outcome})"}
        return found


def _start(profile: Path, job: Path, timeout: float) -> str:
    """Run LibreOffice headless on ``profile`` with the job; returns how it ended, for messages."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PYTHON", "PYENV", "VIRTUAL_ENV", "CONDA"))
    }
    env.update(PATH="/usr/local/bin:/usr/bin:/bin", DESKCHECK_LO_JOB=str(job))
    command = [
        soffice() or "soffice",
        "--headless",
        "--invisible",
        "--nologo",
        "--norestore",
        "--nolockcheck",
        f"-env:UserInstallation={profile.as_uri()}",
        "vnd.sun.star.script:deskcheck_judge.py$deskcheck_judge?language=Python&location=user",
    ]
    try:
        # A session of its own: on a timeout the whole group goes (soffice starts soffice.bin).
        proc = subprocess.Popen(
            command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
        )
    except OSError as exc:
        return f"cannot start soffice: {exc}"
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return f"stopped after {timeout:.0f} s"
    tail = (err or out).strip().splitlines()[-1:]
    return f"exit code {proc.returncode}" + (f": {tail[0]}" if tail else "")
