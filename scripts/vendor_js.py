"""Vendor the JavaScript libraries Muster's pages use from the npm registry into static/vendor/.

static/vendor/packages.json names each package, its version and the files to copy. The tarball is
checked against the registry's sha512 integrity, and the sha256 of every copied file is written to
static/vendor/packages.lock.json, which tests/test_vendor_js.py checks without the network.

    python scripts/vendor_js.py          # fetch and copy every package
    python scripts/vendor_js.py --check  # only check the copied files against the lock (no network)
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import sys
import tarfile
import urllib.request
from pathlib import Path

VENDOR = Path(__file__).resolve().parent.parent / "static" / "vendor"
MANIFEST = VENDOR / "packages.json"
LOCK = VENDOR / "packages.lock.json"
REGISTRY = "https://registry.npmjs.org"


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=60) as response:  # noqa: S310 (the npm registry, https only)
        return response.read()


def _tarball(name: str, version: str) -> tarfile.TarFile:
    meta = json.loads(_get(f"{REGISTRY}/{name}/{version}"))
    data = _get(meta["dist"]["tarball"])
    algorithm, _, expected = meta["dist"]["integrity"].partition("-")
    if base64.b64encode(hashlib.new(algorithm, data).digest()).decode() != expected:
        raise SystemExit(f"{name}@{version}: the tarball does not match the registry's integrity; not vendored")
    return tarfile.open(fileobj=io.BytesIO(data), mode="r:gz")


def vendor() -> dict[str, dict[str, str]]:
    lock: dict[str, dict[str, str]] = {}
    for name, spec in json.loads(MANIFEST.read_text())["packages"].items():
        archive = _tarball(name, spec["version"])
        hashes = {}
        for source, dest in spec["files"].items():
            member = archive.extractfile(f"package/{source}")
            if member is None:
                raise SystemExit(f"{name}@{spec['version']} has no file {source}")
            content = member.read()
            target = VENDOR / dest
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
            hashes[dest] = hashlib.sha256(content).hexdigest()
        lock[name] = {"version": spec["version"], **hashes}
        print(f"vendored {name}@{spec['version']}: {len(hashes)} files")
    LOCK.write_text(json.dumps(lock, indent=2, sort_keys=True) + "\n")
    return lock


def problems() -> list[str]:
    """What differs between the manifest, the lock and the files on disk (empty when all agree)."""
    manifest = json.loads(MANIFEST.read_text())["packages"]
    lock = json.loads(LOCK.read_text()) if LOCK.exists() else {}
    found = []
    for name, spec in manifest.items():
        locked = lock.get(name, {})
        if locked.get("version") != spec["version"]:
            found.append(f"{name}: packages.json wants {spec['version']}, the lock has {locked.get('version')}")
            continue
        for dest in spec["files"].values():
            path = VENDOR / dest
            if not path.exists():
                found.append(f"{name}: {dest} is missing")
            elif hashlib.sha256(path.read_bytes()).hexdigest() != locked.get(dest):
                found.append(f"{name}: {dest} differs from the vendored file")
    return found


if __name__ == "__main__":
    if "--check" in sys.argv:
        issues = problems()
        print("\n".join(issues) or "every vendored file matches its lock")
        sys.exit(1 if issues else 0)
    vendor()
