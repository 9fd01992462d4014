"""Test helper: runs an exported planner.py's build_planner() against stand-ins made only from the recorded
upstream types (argv[1], JSON of upstream-react-planner.ts; argv[2], the export's folder) and prints JSON:
{"errors": [...], "passed": {keyword: type name}, "raised": ValueError text in "bare" mode (argv[3])}.
Only pydantic must be installed.

The stand-ins are stricter than PenguiFlow where PenguiFlow is silent: a config model forbids unknown
fields (BackgroundTasksConfig would drop them without a word) and checks types strictly."""
import importlib
import json
import sys
import types
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import ConfigDict, Field, ValidationError, create_model

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "testing"))
from penguiflow_standins import ModelRegistry, Node, NodeSpec  # noqa: E402

record = json.load(open(sys.argv[1], encoding="utf8"))
KEYWORDS: dict[str, str] = record["keywords"]
CLASSES: dict[str, dict[str, Any]] = record["classes"]
errors: list[str] = []


PLAIN = {"NodeSpec": NodeSpec, "Node": Node, "ModelRegistry": ModelRegistry}
FIELD_TYPES = {"bool": bool, "int": int, "float": float, "str": str, "list[str]": list[str]}
UNSET = object()


def make_model(name: str, fields: dict[str, str]) -> Any:
    """A pydantic stand-in with the recorded fields; unrecorded fields and loose types are refused."""
    return create_model(  # type: ignore[call-overload]
        name,
        __config__=ConfigDict(extra="forbid", strict=True),
        **{key: (FIELD_TYPES[annotation], Field(default=UNSET)) for key, annotation in fields.items()},
    )


classes: dict[str, Any] = {}
for name, entry in CLASSES.items():
    if entry["kind"] == "model":
        classes[name] = make_model(name, entry["fields"])
    elif entry["kind"] == "class":
        classes[name] = PLAIN[name]


def split_top(annotation: str, separator: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for char in annotation:
        depth += char == "["
        depth -= char == "]"
        if char == separator and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    return [*parts, current.strip()]


def matches(value: Any, annotation: str) -> bool:
    for part in split_top(annotation, "|"):
        if part == "Any" or (part == "None" and value is None):
            return True
        if part == "bool" and isinstance(value, bool):
            return True
        if part == "int" and isinstance(value, int) and not isinstance(value, bool):
            return True
        if part == "float" and isinstance(value, (int, float)) and not isinstance(value, bool):
            return True
        if part == "str" and isinstance(value, str):
            return True
        if part.startswith("Mapping[") and isinstance(value, Mapping):
            return True
        if part.startswith("Sequence[") and isinstance(value, Sequence) and not isinstance(value, str):
            inner = part[len("Sequence[") : -1]
            if all(matches(item, inner) for item in value):
                return True
        entry = CLASSES.get(part)
        if entry is not None and entry["kind"] == "protocol" and callable(getattr(value, entry["method"], None)):
            return True
        if part in classes and isinstance(value, classes[part]):
            return True
    return False


passed: dict[str, str] = {}


class ReactPlanner:
    def __init__(self, llm: Any = None, **keywords: Any) -> None:
        for keyword, value in {"llm": llm, **keywords}.items():
            passed[keyword] = type(value).__name__
            annotation = KEYWORDS.get(keyword)
            if annotation is None:
                errors.append(f"{keyword}: ReactPlanner has no such keyword")
            elif not matches(value, annotation):
                errors.append(f"{keyword}: {type(value).__name__} where ReactPlanner takes {annotation}")


def install(name: str, **attributes: Any) -> None:
    module = types.ModuleType(name)
    module.__dict__.update(attributes)
    sys.modules[name] = module


def install_if_missing(name: str, **attributes: Any) -> None:
    try:
        importlib.import_module(name)
    except ImportError:
        install(name, **attributes)


install("penguiflow", ModelRegistry=ModelRegistry, Node=Node)
install("penguiflow.catalog", NodeSpec=NodeSpec)
install(
    "penguiflow.planner",
    ReactPlanner=ReactPlanner,
    **{name: model for name, model in classes.items() if CLASSES[name].get("module") == "penguiflow.planner"},
)
install_if_missing("httpx", AsyncClient=object)
install_if_missing("openai", AsyncOpenAI=object)


class ScriptedClient:
    async def complete(self, **_: Any) -> tuple[str, float]:
        return '{"thought": "finish", "next_node": null, "args": {"raw_answer": "done"}}', 0.0


# argv[3] "bare": build_planner() with no arguments, as `python planner.py` calls it; its ValueError is reported.
bare = sys.argv[3:] == ["bare"]
raised = None
sys.path.insert(0, sys.argv[2])
try:
    planner = importlib.import_module("planner")
    overrides = {"llm_client": ScriptedClient()} if planner.LLM is None and not bare else {}
    planner.build_planner(**overrides)
except ValidationError as error:
    errors.append(f"ValidationError: {error}")
except ValueError as error:
    if bare:
        raised = str(error)
    else:
        errors.append(f"ValueError: {error}")
except (TypeError, NameError, ImportError) as error:
    errors.append(f"{type(error).__name__}: {error}")
print(json.dumps({"errors": errors, "passed": passed, "raised": raised}))
