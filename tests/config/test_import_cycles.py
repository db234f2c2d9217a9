"""The apps' modules import each other in one direction only: no cycle, even through an import
made inside a function (issue 12: the play services and the tasks, the results' and the rounds'
services stop importing each other), and each module imports on its own. The rooms' order is
tests/config/test_architecture.py's."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("games", "tournaments")


def _modules() -> dict[str, Path]:
    """The apps' modules (not their migrations), by dotted name."""
    found: dict[str, Path] = {}
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "migrations" in parts:
                continue
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The apps' modules that ``name`` imports anywhere in its source (at module level, inside a
    function, under TYPE_CHECKING alike)."""
    package = name if path.stem == "__init__" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            # ``from games import tasks`` imports the module games.tasks (and its package's
            # __init__, which names no module of the apps when only submodules are imported)
            targets = [f"{base}.{alias.name}" for alias in node.names]
            if not all(t in modules for t in targets):
                targets.append(base)
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name and target not in APPS:
                found.add(target)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_graph_sees_imports_inside_functions() -> None:
    """The check reads imports wherever they are (a cycle hidden in a function counts)."""
    graph = _graph()
    assert "games.play.services" in graph["games.tasks"]  # the tasks call the services
    assert "tournaments.knockout.selectors" in graph["tournaments.knockout.services"]
    assert "tournaments.results.tallies" in graph["tournaments.rounds.services"]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_services_tasks_and_results_do_not_import_each_other() -> None:
    graph = _graph()
    for services in ("games.play.services", "games.play.locking"):
        assert "games.tasks" not in graph[services]  # services queue tasks by name
    for services in ("tournaments.rounds.services", "tournaments.draw.services"):
        assert "tournaments.results.services" not in graph[services]
    # The tallies stand alone: models, the bulk writer and the formats' hooks (duplicate play's
    # publication rule: a deal counts once every table has played it), none of which reach back.
    below = {"tournaments.models", "tournaments.common.bulk", "tournaments.formats"}
    tallies = graph["tournaments.results.tallies"]
    assert not {m for m in tallies if m.startswith("tournaments.")} - below
    for module in below - {"tournaments.models"}:
        assert not graph[module] & {
            "tournaments.rounds.services",
            "tournaments.draw.services",
            "tournaments.results.services",
            "tournaments.standings.selectors",
            "tournaments.results.tallies",
        }, module


def test_no_import_cycle_among_the_apps_modules() -> None:
    assert _cycles(_graph()) == []


#: Modules Django imports while it sets up (models, app configs, admin registrations).
OWN = (".models", ".apps", ".admin")

_IMPORT_EACH = """
import importlib, os, sys, traceback
import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()  # the apps' models, app configs and admin (Django imports those itself)
# models and admin registrations (packages: tournaments.models.*, tournaments.admin.*) register
# once per process: they stay; every other module of the apps is imported anew
kept = {n for n in sys.modules if n in APPS or any(n.endswith(o) or o + "." in n for o in OWN)}
failed = 0
for name in sys.argv[1:]:
    pid = os.fork()
    if pid == 0:  # a child: forget every other module of the apps, then import this one first
        for loaded in [n for n in sys.modules if n.split(".")[0] in APPS and n not in kept]:
            del sys.modules[loaded]
        try:
            importlib.import_module(name)
        except BaseException:
            print(name, traceback.format_exc().splitlines()[-1], file=sys.stderr)
            os._exit(1)
        os._exit(0)
    failed += os.waitpid(pid, 0)[1] != 0
sys.exit(1 if failed else 0)
"""


def test_each_module_imports_first_in_a_fresh_interpreter() -> None:
    """Each module imports first, on its own, after Django is set up: an import cycle at module
    level fails in one order or another."""
    names = [
        n
        for n in _modules()
        if n not in APPS and not any(n.endswith(o) or o + "." in n for o in OWN)
    ]
    script = f"APPS = {APPS!r}\nOWN = {OWN!r}\n" + _IMPORT_EACH
    run = subprocess.run(
        [sys.executable, "-c", script, *names],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
