"""The shape of the code (shared/DESIGN.md, "The shape" and "Boundaries"), read from the source: the engines and
the game kit stay pure and apart, the pure rule modules import no Django, no module imports itself round a
circle, and no module of the campaign app outgrows a newcomer's reading."""

from __future__ import annotations

import sys

import pytest

from tests.import_graph import ROOT, cycles, graph, imported_names, module_files

STDLIB = sys.stdlib_module_names
MODULES = module_files()

# Each pure package or module, and the project packages it may import besides the standard library.
PURE = {
    "gamekit": (),
    "battles.engine": ("gamekit",),
    "cardgames.engine": ("gamekit",),
    "campaign.economy.rules": (),
    "campaign.map.rules": (),
    "campaign.map.terrain": ("campaign.map.rules",),
    "campaign.map.routing": ("campaign.map.rules", "campaign.map.terrain"),
}
LONGEST_CAMPAIGN_MODULE = 500


def _modules_of(package: str) -> list[str]:
    return [name for name in MODULES if name == package or name.startswith(package + ".")]


def _allowed(imported: str, package: str, also: tuple[str, ...]) -> bool:
    top = imported.split(".")[0]
    if top in STDLIB or top == "__future__":
        return True
    return any(imported == p or imported.startswith(p + ".") for p in (package, *also))


@pytest.mark.parametrize("package", sorted(PURE))
def test_pure_code_imports_only_the_standard_library_and_what_it_builds_on(package):
    assert _modules_of(package), f"{package} is gone: update PURE in this test"
    strays = {
        f"{module} imports {imported}"
        for module in _modules_of(package)
        for imported in imported_names(MODULES[module])
        if not _allowed(imported, package, PURE[package])
    }
    assert not strays, sorted(strays)


def test_the_engines_share_only_the_game_kit():
    for engine, other in (("battles.engine", "cardgames"), ("cardgames.engine", "battles")):
        for module in _modules_of(engine):
            names = imported_names(MODULES[module])
            assert not {n for n in names if n.split(".")[0] == other}, f"{module} imports {other}"


def test_no_module_imports_itself_round_a_circle():
    """Function-level imports count too: a cycle hidden in a function is still a cycle."""
    assert cycles(graph()) == []


def test_no_module_of_the_campaign_app_is_over_500_lines():
    long = {
        str(path.relative_to(ROOT)): lines
        for name, path in MODULES.items()
        if name.startswith("campaign") and (lines := len(path.read_text().splitlines())) > LONGEST_CAMPAIGN_MODULE
    }
    assert long == {}


def test_every_domain_package_says_what_it_holds_and_may_import():
    for package in ("campaign.campaigns", "campaign.economy", "campaign.catalogue", "campaign.map",
                    "campaign.models", "campaign.web", "gamekit"):
        doc = MODULES[package].read_text().lstrip()
        assert doc.startswith('"""'), f"{package}/__init__.py has no docstring"
        assert "import" in doc.split('"""')[1].lower(), f"{package}/__init__.py does not say what it may import"


def test_the_graph_sees_a_cycle_when_there_is_one():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
