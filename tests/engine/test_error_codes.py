"""Every refusal a person can meet carries a stable code (issue 15): the site translates by code,
so a refusal raised with a bare English message would reach a Chinese page in English. The
modules below raise coded errors only; an illegal action in a deal (IllegalActionError) is coded
in every game."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.errors import EngineError, IllegalActionError, message_codes
from engine.registry import get_game, registered_keys

ENGINE = Path(__file__).resolve().parents[2] / "engine"

#: the referees' sheets, rule options and actions as sent: every refusal is coded
CODED_MODULES = (
    "daguai/offline.py",
    "daguai/actions.py",
    "xiaoluzi/actions.py",
    "xiaoluzi/result.py",
    "shanghai_doudizhu/rules.py",
    "sheets.py",
    "xiaoluzi/sheet.py",
    "shanghai_doudizhu/sheet.py",
)
#: the deals: every refusal of an action is coded (the deal's own set-up checks may not be)
DEALS = ("daguai/deal.py", "xiaoluzi/deal.py", "shanghai_doudizhu/deal.py")
ERRORS = {"EngineError", "IllegalActionError", "InvalidNotationError", "InvalidFinishError"}
ERRORS |= {"CannotEscapeError", "InvalidPlayError"}


def _raises(path: Path, names: set[str]) -> list[tuple[int, bool]]:
    """(line, coded) of each ``raise NAME(...)`` / ``raise NAME.of(...)`` of ``names``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Raise) or not isinstance(node.exc, ast.Call):
            continue
        call: ast.expr = node.exc
        while isinstance(call, ast.Call):  # NAME.of(...).within(...): down to NAME.of(...)
            func = call.func
            if isinstance(func, ast.Name) and func.id in names:
                coded = any(k.arg == "code" for k in call.keywords)
                found.append((node.lineno, coded))
                break
            if not isinstance(func, ast.Attribute):
                break
            if func.attr == "of" and isinstance(func.value, ast.Name) and func.value.id in names:
                found.append((node.lineno, True))
                break
            call = func.value
    return found


@pytest.mark.parametrize("module", CODED_MODULES)
def test_the_modules_people_meet_raise_only_coded_errors(module: str) -> None:
    raises = _raises(ENGINE / module, ERRORS)
    text = (ENGINE / module).read_text(encoding="utf-8")
    assert raises or ".refuse(" in text, module  # a sheet refuses through its Fields
    assert [line for line, coded in raises if not coded] == []


@pytest.mark.parametrize("module", DEALS)
def test_every_refusal_of_an_action_is_coded(module: str) -> None:
    raises = _raises(ENGINE / module, {"IllegalActionError", "CannotEscapeError"})
    assert len(raises) >= 10, module
    assert [line for line, coded in raises if not coded] == []


def test_codes_are_registered_and_build_the_english_message() -> None:
    for key in registered_keys():
        get_game(key)
    codes = message_codes()
    assert len(codes) > 150
    assert all(code.count(".") == 1 for code in codes)
    error = IllegalActionError.of("daguai.finish_twice", seat=1, order=(1, 1, 3))
    assert str(error) == "seat 1 goes out twice in finishing order (1, 1, 3)"
    assert (error.code, error.params) == ("daguai.finish_twice", {"seat": 1, "order": (1, 1, 3)})
    located = error.within(deal=2)
    assert isinstance(located, IllegalActionError) and located.where == (("deal", 2),)
    assert str(located) == "deal 2: seat 1 goes out twice in finishing order (1, 1, 3)"
    assert str(error) == "seat 1 goes out twice in finishing order (1, 1, 3)"  # unchanged
    with pytest.raises(KeyError):
        EngineError.of("no.such_code")
