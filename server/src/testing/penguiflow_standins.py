"""Test helper: stand-ins for the three PenguiFlow classes an export builds (ModelRegistry, Node, NodeSpec),
with upstream's constructor signatures, for the scripts that load an export where PenguiFlow is absent."""
from dataclasses import dataclass, field
from typing import Any


class ModelRegistry:
    def __init__(self) -> None:
        self.models: dict[str, tuple[Any, Any]] = {}

    def register(self, name: str, args_model: Any, out_model: Any) -> None:
        self.models[name] = (args_model, out_model)


class Node:
    def __init__(self, func: Any, name: str) -> None:
        self.func = func
        self.name = name


@dataclass(frozen=True)
class NodeSpec:
    node: Any
    name: str
    desc: str
    args_model: Any
    out_model: Any
    side_effects: str = "pure"
    tags: tuple = ()
    auth_scopes: tuple = ()
    cost_hint: Any = None
    latency_hint_ms: Any = None
    safety_notes: Any = None
    extra: dict = field(default_factory=dict)
