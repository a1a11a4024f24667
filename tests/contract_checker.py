"""A validator for the contract's JSON Schema (the subset contract_export writes) that also
records what it saw, so a test can say which fields, branches and values of the contract no
payload ever used.

Coverage keys name a place in the schema: ``Tile`` (a definition was seen), ``Tile.percent``
(a field was present), ``Tile.percent|null`` (a branch of a union was taken), ``Tile.kind=TAX``
(an enum value was seen; a named literal counts wherever it is used: ``SeatKind=rollout``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

Schema = dict[str, Any]
_TYPES = {
    "integer": lambda v: type(v) is int,
    "number": lambda v: type(v) in (int, float),
    "string": lambda v: type(v) is str,
    "boolean": lambda v: type(v) is bool,
    "null": lambda v: v is None,
    "array": lambda v: type(v) is list,
    "object": lambda v: type(v) is dict,
}


def _label(node: Schema) -> str:
    """A union branch's name: its definition, its type or its value."""
    if "$ref" in node:
        return str(node["$ref"]).rsplit("/", 1)[1]
    if "allOf" in node:
        return _label(node["allOf"][0])
    if "const" in node:
        return json.dumps(node["const"])
    if "enum" in node:
        return "|".join(json.dumps(v) for v in node["enum"])
    kind = node.get("type", "?")
    if kind == "object" and node.get("properties") == {}:
        return "{}"
    return str(kind)


class Checker:
    """``check(value, node)`` -> the errors (empty: valid); ``seen``: the coverage keys."""

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self.defs: dict[str, Schema] = schema["$defs"]
        self.seen: set[str] = set()

    def trait(self, name: str) -> Schema:
        return self.defs["Traits"]["properties"][name]  # type: ignore[no-any-return]

    def check(self, value: Any, node: Schema, where: str = "", path: str = "$") -> list[str]:
        seen: set[str] = set()
        errors = self._check(value, node, where, path, seen)
        if not errors:
            self.seen |= seen
        return errors

    def _check(self, value: Any, node: Schema, where: str, path: str, seen: set[str]
               ) -> list[str]:
        if "$ref" in node:
            name = str(node["$ref"]).rsplit("/", 1)[1]
            seen.add(name)
            return self._check(value, self.defs[name], name, path, seen)
        if "allOf" in node:
            return self._check(value, node["allOf"][0], where, path, seen)
        for key in ("oneOf", "anyOf"):
            if key in node:
                failures = []
                for branch in node[key]:
                    trial: set[str] = set()
                    errors = self._check(value, branch, where, path, trial)
                    if not errors:
                        seen |= trial
                        seen.add(f"{where}|{_label(branch)}")
                        return []
                    failures.append(f"{_label(branch)}: {errors[0]}")
                # the branch that got furthest (the longest path) says most
                failures.sort(key=lambda f: -len(f.split(": ", 2)[1]))
                return [f"{path}: matches none of {len(failures)} branches, e.g. "
                        + failures[0]]
        if "const" in node:
            if value != node["const"] or type(value) is not type(node["const"]):
                return [f"{path}: {value!r} is not {node['const']!r}"]
            return []
        if "enum" in node:
            if not any(value == v and type(value) is type(v) for v in node["enum"]):
                return [f"{path}: {value!r} is not one of {node['enum']}"]
            seen.add(f"{where}={value}")
            return []
        kind = node["type"]
        if not _TYPES[kind](value):
            return [f"{path}: {type(value).__name__} {str(value)[:60]!r} is not {kind}"]
        if kind == "array":
            return self._array(value, node, where, path, seen)
        if kind == "object":
            return self._object(value, node, where, path, seen)
        return []

    def _array(self, value: list[Any], node: Schema, where: str, path: str, seen: set[str]
               ) -> list[str]:
        if "prefixItems" in node:
            items = node["prefixItems"]
            if len(value) != len(items):
                return [f"{path}: {len(value)} items, not {len(items)}"]
            for k, (item, sub) in enumerate(zip(value, items, strict=True)):
                errors = self._check(item, sub, f"{where}[{k}]", f"{path}[{k}]", seen)
                if errors:
                    return errors
            return []
        for k, item in enumerate(value):
            errors = self._check(item, node["items"], f"{where}[]", f"{path}[{k}]", seen)
            if errors:
                return errors
        return []

    def _object(self, value: dict[str, Any], node: Schema, where: str, path: str,
                seen: set[str]) -> list[str]:
        props: Schema | None = node.get("properties")
        if props is None:  # a map: any keys
            for key, item in value.items():
                errors = self._check(item, node["additionalProperties"], f"{where}{{}}",
                                     f"{path}.{key}", seen)
                if errors:
                    return errors
            return []
        extra = sorted(set(value) - set(props))
        if extra:
            return [f"{path}: fields the contract does not have: {extra}"]
        missing = [k for k in node.get("required", ()) if k not in value]
        if missing:
            return [f"{path}: missing fields: {missing}"]
        for key, item in value.items():
            seen.add(f"{where}.{key}")
            errors = self._check(item, props[key], f"{where}.{key}", f"{path}.{key}", seen)
            if errors:
                return errors
        return []


def declared(schema: Schema) -> set[str]:
    """Every coverage key the schema has (what a complete set of payloads would show)."""
    out: set[str] = set()
    for name, node in schema["$defs"].items():
        out.add(name)
        out |= set(_declared(node, name, schema["$defs"]))
    return out


def _declared(node: Schema, where: str, defs: Schema) -> Iterator[str]:
    if "$ref" in node:
        return
    if "allOf" in node:
        yield from _declared(node["allOf"][0], where, defs)
        return
    for key in ("oneOf", "anyOf"):
        if key in node:
            for branch in node[key]:
                yield f"{where}|{_label(branch)}"
                yield from _declared(branch, where, defs)
            return
    if "enum" in node:
        yield from (f"{where}={v}" for v in node["enum"])
        return
    kind = node.get("type")
    if kind == "array":
        if "prefixItems" in node:
            for k, sub in enumerate(node["prefixItems"]):
                yield from _declared(sub, f"{where}[{k}]", defs)
        else:
            yield from _declared(node["items"], f"{where}[]", defs)
    elif kind == "object":
        props = node.get("properties")
        if props is None:
            yield from _declared(node["additionalProperties"], f"{where}{{}}", defs)
            return
        for key, sub in props.items():
            yield f"{where}.{key}"
            yield from _declared(sub, f"{where}.{key}", defs)
