"""LibreOffice as a reviewer: the paragraphs it shows after resolving tracked changes, all of them
or only one author's.

``lo_review(files, action)`` opens each file in LibreOffice (headless, a private profile, the
work done by a macro inside LibreOffice: loading documents over a remote UNO bridge is fragile)
and returns {file: paragraphs} where ``action`` is ``"asis"``, ``"accept"`` or ``"reject"``
(every change) or ``("accept" | "reject", author)`` (only that author's changes, one by one, as a
reviewer selecting each of them and choosing Accept or Reject would), or a list of such steps
taken in turn (``[("reject", "Alice"), "accept"]``: Alice's changes rejected, then every other
one accepted). Paragraphs of tables are
listed cell by cell. A file LibreOffice cannot open raises ``AssertionError`` with its message.

It needs only ``soffice`` and LibreOffice's Python script provider, so tests using it run
without any material outside the repository (use the ``needs_libreoffice`` fixture).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

_MACRO = r"""
import json, os, uno
from com.sun.star.beans import PropertyValue


def _value(name, value):
    prop = PropertyValue()
    prop.Name, prop.Value = name, value
    return prop


def _paragraphs(doc):
    found = []

    def walk(text):
        items = text.createEnumeration()
        while items.hasMoreElements():
            item = items.nextElement()
            if item.supportsService("com.sun.star.text.Paragraph"):
                found.append(item.getString())
            elif item.supportsService("com.sun.star.text.TextTable"):
                for name in item.getCellNames():
                    walk(item.getCellByName(name).getText())

    walk(doc.getText())
    return found


def _by_author(doc, helper, command, author):
    frame = doc.getCurrentController().getFrame()
    for _ in range(500):
        target = None
        redlines = doc.getRedlines().createEnumeration()
        while redlines.hasMoreElements():
            redline = redlines.nextElement()
            if redline.getPropertyValue("RedlineAuthor") == author:
                target = redline
                break
        if target is None:
            return
        # A collapsed cursor in the change picks it (a selection would take every change it
        # touches). At its first character, not its start: a change that ends where this one
        # starts would be picked instead.
        start, end = target.getPropertyValue("RedlineStart"), target.getPropertyValue("RedlineEnd")
        text = start.getText()
        cursor = text.createTextCursorByRange(start)
        cursor.collapseToStart()
        inside = text.createTextCursorByRange(cursor)
        try:
            if inside.goRight(1, False) and text.compareRegionStarts(inside, end) > 0:
                cursor = inside
        except Exception:
            pass  # ranges in different texts (a table cell): keep the start
        doc.getCurrentController().select(cursor)
        helper.executeDispatch(frame, command, "", 0, ())
    raise RuntimeError("the changes of " + author + " did not go away")


def run(*args):
    job = json.load(open(os.environ["LO_REVIEW_JOB"]))
    ctx = XSCRIPTCONTEXT.getComponentContext()
    desktop = XSCRIPTCONTEXT.getDesktop()
    helper = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.DispatchHelper", ctx)
    results = {}
    for path in job["files"]:
        try:
            doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(path), "_blank", 0, (_value("Hidden", True),))
            if doc is None:
                raise RuntimeError("LibreOffice could not open the file")
            try:
                # Comment windows need UI files the headless package lacks.
                doc.getCurrentController().getViewSettings().setPropertyValue("ShowAnnotations", False)
            except Exception:
                pass
            frame = doc.getCurrentController().getFrame()
            for mode, author in job["steps"]:
                if author is None and mode != "asis":
                    command = ".uno:AcceptAllTrackedChanges" if mode == "accept" else ".uno:RejectAllTrackedChanges"
                    helper.executeDispatch(frame, command, "", 0, ())
                elif author is not None:
                    command = ".uno:AcceptTrackedChange" if mode == "accept" else ".uno:RejectTrackedChange"
                    _by_author(doc, helper, command, author)
            results[path] = {"ok": True, "paragraphs": _paragraphs(doc)}
            doc.close(True)
        except Exception as error:
            results[path] = {"ok": False, "error": str(error) or type(error).__name__}
    with open(job["out"], "w", encoding="utf-8") as out:
        json.dump(results, out)
    try:
        desktop.terminate()
    except Exception:
        pass


g_exportedScripts = (run,)
"""


Action = str | tuple[str, str]


def lo_review(files: list[Path], action: Action | list[Action]) -> dict[Path, list[str]]:
    actions = action if isinstance(action, list) else [action]
    steps = [(step, None) if isinstance(step, str) else step for step in actions]
    work = Path(tempfile.mkdtemp(prefix="lo-review-"))
    try:
        scripts = work / "profile" / "user" / "Scripts" / "python"
        scripts.mkdir(parents=True)
        (scripts / "lo_review.py").write_text(_MACRO)
        copies = {}
        for number, source in enumerate(files):
            copy = work / "in" / str(number) / Path(source).name
            copy.parent.mkdir(parents=True)
            shutil.copyfile(source, copy)  # LibreOffice's lock files stay in the scratch folder
            copies[str(copy)] = Path(source)
        out = work / "out.json"
        job = work / "job.json"
        job.write_text(json.dumps({"steps": steps, "files": list(copies), "out": str(out)}))
        # LibreOffice's own Python aborts when it sees another interpreter's settings.
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "CONDA", "PYENV"))}
        env.update(PATH="/usr/local/bin:/usr/bin:/bin", LO_REVIEW_JOB=str(job))
        command = [
            "soffice", "--headless", "--invisible", "--nologo", "--norestore",
            f"-env:UserInstallation=file://{work / 'profile'}",
            "vnd.sun.star.script:lo_review.py$run?language=Python&location=user",
        ]  # fmt: skip
        subprocess.run(
            command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120 + 20 * len(files)
        )
        assert out.exists(), "LibreOffice stopped before reporting (a crash on one of the files?)"
        results = json.loads(out.read_text(encoding="utf-8"))
        paragraphs = {}
        for copy, source in copies.items():
            row = results[copy]
            assert row["ok"], f"LibreOffice on {source.name}: {row['error']}"
            paragraphs[source] = row["paragraphs"]
        return paragraphs
    finally:
        shutil.rmtree(work, ignore_errors=True)
