"""LibreOffice as a judge from outside: the paragraph texts it shows for a .docx, as loaded, after
its own accept-all or after its own reject-all.

    from tests.libreoffice import read_paragraphs
    rows = read_paragraphs("accept", [path, other])   # one LibreOffice start for all the files
    rows[str(path)] == {"file": str(path), "ok": True, "paragraphs": ["Title", "A1", "B1", ...]}
    rows[str(other)] == {"file": str(other), "ok": False, "error": "LibreOffice could not open ..."}

Paragraphs of a table come cell by cell in LibreOffice's cell order. A file LibreOffice refuses, or
one it crashes or hangs on, is a row with ``ok`` false and the reason; the files after it are read
in a fresh LibreOffice. Nothing here raises for a bad document.

What LibreOffice 7.4 headless taught us, and how this module keeps clear of it:
- A load that fails leaves a lock file ``.~lock.NAME#`` beside the document, and every later load
  of that path fails. LibreOffice only ever opens private copies, in a folder of their own.
- Accepting or rejecting all changes near a comment needs Writer's ``annotation.ui``, which the
  ``-nogui`` packages do not have: comments are hidden (``ShowAnnotations`` false) first.
- Driving it over a remote UNO connection crashes it on documents with comments; in-process it does
  not. The work runs as a Python macro inside LibreOffice (``libreoffice-script-provider-python``).
- Its embedded Python aborts at start-up when it sees another interpreter's settings
  (``PYTHONHOME``, a virtualenv first on ``PATH``): it starts with those removed.
- Every start has a profile of its own, so runs never share state or wait on each other's locks.
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

import pytest

MODES = ("asis", "accept", "reject")
INSTALL_HINT = "install libreoffice-writer-nogui and libreoffice-script-provider-python"

# Runs inside LibreOffice. It reads the job from the file named by DESKCHECK_LO_JOB and appends one
# JSON line per document to the job's log: {"index": i, "begin": true} before loading it, then
# {"index": i, "paragraphs": [...]} or {"index": i, "error": "..."}. A "begin" without its result
# names the document LibreOffice died on.
MACRO = r"""
import json
import os

import uno
from com.sun.star.beans import PropertyValue

WORD_FILTERS = ("MS Word 2007", "Office Open XML Text")
RESOLVE = {"accept": ".uno:AcceptAllTrackedChanges", "reject": ".uno:RejectAllTrackedChanges"}


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


def _read(desktop, dispatcher, path, mode):
    doc = _load(desktop, path)
    try:
        # LibreOffice opens what it does not recognise as plain text: that is not a Word document.
        used = {arg.Name: arg.Value for arg in doc.getArgs()}.get("FilterName", "")
        if not used.startswith(WORD_FILTERS):
            raise RuntimeError(f"LibreOffice did not read the file as a Word document (it used {used!r})")
        if mode in RESOLVE:
            controller = doc.getCurrentController()
            # Shown comments make the resolve commands load a UI file the -nogui packages lack.
            controller.getViewSettings().setPropertyValue("ShowAnnotations", False)
            dispatcher.executeDispatch(controller.getFrame(), RESOLVE[mode], "", 0, ())
        return _collect(doc.getText(), [])
    finally:
        doc.close(True)


def deskcheck_judge(*_):
    with open(os.environ["DESKCHECK_LO_JOB"], encoding="utf-8") as handle:
        job = json.load(handle)
    context = XSCRIPTCONTEXT.getComponentContext()
    desktop = XSCRIPTCONTEXT.getDesktop()
    dispatcher = context.ServiceManager.createInstanceWithContext("com.sun.star.frame.DispatchHelper", context)
    with open(job["log"], "a", encoding="utf-8") as log:
        for index, path in enumerate(job["files"]):
            log.write(json.dumps({"index": index, "begin": True}) + "\n")
            log.flush()
            row = {"index": index}
            try:
                row["paragraphs"] = _read(desktop, dispatcher, path, job["mode"])
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
    """Skip the running test when LibreOffice cannot judge here; in CI (CI=true) fail instead,
    because .ci/run installs it and a silent skip would hide the check."""
    reason = unavailable()
    if reason is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true and {reason} (.ci/run should have installed it)")
    pytest.skip(reason)


def read_paragraphs(mode: str, files: Iterable[Path | str]) -> dict[str, dict[str, Any]]:
    """LibreOffice's paragraph texts of each file in ``mode`` (asis, accept or reject), keyed by
    ``str(file)`` as given; see the module's docstring for the rows."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    names = list(dict.fromkeys(str(f) for f in files))
    rows: dict[str, dict[str, Any]] = {}
    pending = names
    while pending:
        found = _run_once(mode, [Path(name) for name in pending])
        for name, row in zip(pending, found, strict=True):
            if row is not None:
                rows[name] = {"file": name, **row}
        pending = [name for name in pending if name not in rows]
    return {name: rows[name] for name in names}


def _run_once(mode: str, files: list[Path]) -> list[dict[str, Any] | None]:
    """One LibreOffice over ``files``: a row per file it got to, None for those left after a
    crash (to be read by the next start)."""
    with tempfile.TemporaryDirectory(prefix="deskcheck-lo-") as work:
        work_dir = Path(work)
        profile = work_dir / "profile"
        scripts = profile / "user" / "Scripts" / "python"
        scripts.mkdir(parents=True)
        (scripts / "deskcheck_judge.py").write_text(MACRO, encoding="utf-8")

        found: list[dict[str, Any] | None] = [None] * len(files)
        copies: list[str] = []
        for index, source in enumerate(files):
            copy = work_dir / "in" / str(index) / source.name
            copy.parent.mkdir(parents=True)
            try:
                shutil.copyfile(source, copy)
            except OSError as exc:
                found[index] = {"ok": False, "error": f"cannot read the file: {exc.strerror or exc}"}
            copies.append(str(copy))
        todo = [index for index, row in enumerate(found) if row is None]
        if not todo:
            return found

        log = work_dir / "log.jsonl"
        job = work_dir / "job.json"
        job.write_text(json.dumps({"mode": mode, "files": [copies[i] for i in todo], "log": str(log)}))
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
                found[index], began = {"ok": True, "paragraphs": entry["paragraphs"]}, None
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
