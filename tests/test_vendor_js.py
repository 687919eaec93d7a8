"""The vendored JavaScript is exactly what scripts/vendor_js.py copied from the npm registry."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _vendor_script():
    spec = importlib.util.spec_from_file_location("vendor_js", ROOT / "scripts" / "vendor_js.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_vendored_file_matches_its_lock():
    assert _vendor_script().problems() == []


def test_a_changed_file_is_reported(tmp_path, monkeypatch):
    script = _vendor_script()
    vendor = tmp_path / "vendor"
    vendor.mkdir()
    (vendor / "packages.json").write_text(json.dumps({"packages": {"x": {"version": "1", "files": {"a.js": "a.js"}}}}))
    (vendor / "packages.lock.json").write_text(json.dumps({"x": {"version": "1", "a.js": "0" * 64}}))
    (vendor / "a.js").write_text("changed")
    monkeypatch.setattr(script, "MANIFEST", vendor / "packages.json")
    monkeypatch.setattr(script, "LOCK", vendor / "packages.lock.json")
    monkeypatch.setattr(script, "VENDOR", vendor)
    assert script.problems() == ["x: a.js differs from the vendored file"]


def test_pages_load_no_script_from_elsewhere():
    for template in (ROOT / "templates").rglob("*.html"):
        text = template.read_text()
        for host in ("https://cdn", "unpkg.com", "jsdelivr"):
            assert host not in text, template
