"""Test helper: imports an exported catalog.py with stand-ins for penguiflow, httpx and openai (only
pydantic must be installed) and prints every NodeSpec with its models' JSON Schemas as JSON."""
import importlib
import json
import sys
import types
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from penguiflow_standins import ModelRegistry, Node, NodeSpec  # noqa: E402


def _stub(name: str, **attributes: Any) -> None:
    if name in sys.modules:
        return
    try:
        importlib.import_module(name)
        return
    except ImportError:
        pass
    module = types.ModuleType(name)
    module.__dict__.update(attributes)
    sys.modules[name] = module


_stub("penguiflow", ModelRegistry=ModelRegistry, Node=Node)
_stub("penguiflow.catalog", NodeSpec=NodeSpec)
_stub("httpx", AsyncClient=object)
_stub("openai", AsyncOpenAI=object)

sys.path.insert(0, sys.argv[1])
catalog = importlib.import_module("catalog")
records = []
for spec in catalog.CATALOG:
    records.append(
        {
            "name": spec.name,
            "desc": spec.desc,
            "side_effects": spec.side_effects,
            "tags": list(spec.tags),
            "auth_scopes": list(spec.auth_scopes),
            "cost_hint": spec.cost_hint,
            "latency_hint_ms": spec.latency_hint_ms,
            "safety_notes": spec.safety_notes,
            "extra": spec.extra,
            "node": spec.node.name,
            "registered": catalog.registry.models[spec.name] == (spec.args_model, spec.out_model),
            "args_schema": spec.args_model.model_json_schema(),
            "out_schema": spec.out_model.model_json_schema(),
        }
    )
print(json.dumps(records))
