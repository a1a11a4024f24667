"""The contract (:mod:`ugentopoly_widget.widget.contract`) as a JSON Schema and as the view's
TypeScript types, generated from its typed definitions.

    python -m ugentopoly_widget.widget.contract_export --write   # after changing widget/contract/
    python -m ugentopoly_widget.widget.contract_export --check   # exit 1 when a file is stale

The schema (draft 2020-12) is the pivot: every ``TypedDict`` and every named alias of
widget/contract/ becomes one of its ``$defs``, and the TypeScript (``js/src/contract.ts``) is
written from the schema, so the two cannot say different things. Objects are closed
(``additionalProperties: false``): a field Python adds without the contract fails validation.
"""

from __future__ import annotations

import argparse
import json
import sys
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from . import contract

SCHEMA_FILE = Path(__file__).with_name("contract.schema.json")
ROOT = Path(__file__).resolve().parents[2]
TS_FILE = ROOT / "js" / "src" / "contract.ts"
JSONSchema = dict[str, Any]


def _version() -> str:
    from .. import __version__

    return __version__


def _named() -> dict[Any, str]:
    """The contract's aliases (Union, Literal, tuple, Annotated values) by their value."""
    out: dict[Any, str] = {}
    for name, value in vars(contract).items():
        if name.startswith("_") or isinstance(value, type) or name == "ROOTS":
            continue
        origin = typing.get_origin(value)
        if origin in (typing.Union, _union_type(), typing.Literal, tuple, typing.Annotated):
            out.setdefault(value, name)
    return out


class _Builder:
    def __init__(self) -> None:
        self.defs: dict[str, JSONSchema] = {}
        self.named = _named()

    def ref(self, name: str, make: typing.Callable[[], JSONSchema]) -> JSONSchema:
        if name not in self.defs:
            self.defs[name] = {}  # placeholder: a type may refer to itself
            self.defs[name] = make()
        return {"$ref": f"#/$defs/{name}"}

    def schema(self, tp: Any, *, top: bool = False) -> JSONSchema:
        name = None if top else self.named.get(tp)
        if name is not None:
            return self.ref(name, lambda: self._alias(name, tp))
        if typing.is_typeddict(tp):
            return self.ref(tp.__name__, lambda: self._object(tp))
        origin = typing.get_origin(tp)
        args = typing.get_args(tp)
        if origin is typing.Annotated:
            inner = self.schema(args[0])
            docs = [a for a in args[1:] if isinstance(a, contract.Doc)]
            if not docs:
                return inner
            out: JSONSchema = dict(inner) if "$ref" not in inner else {"allOf": [inner]}
            out["description"] = str(docs[0])
            return out
        if origin is typing.Literal:
            return {"const": args[0]} if len(args) == 1 else {"enum": list(args)}
        if origin in (typing.Union, _union_type()):
            variants = [self.schema(a) for a in args]
            if type(None) in args:
                return {"anyOf": variants}
            return {"oneOf": variants}
        if origin is list:
            return {"type": "array", "items": self.schema(args[0])}
        if origin is tuple:
            return {"type": "array", "prefixItems": [self.schema(a) for a in args],
                    "items": False, "minItems": len(args), "maxItems": len(args)}
        if origin is dict:
            key, value = args
            if typing.get_origin(key) is typing.Literal:
                keys = list(typing.get_args(key))
                item = self.schema(value)
                return {"type": "object", "properties": {k: item for k in keys},
                        "required": keys, "additionalProperties": False}
            return {"type": "object", "additionalProperties": self.schema(value)}
        simple = {int: "integer", float: "number", str: "string", bool: "boolean",
                  type(None): "null"}
        if tp in simple:
            return {"type": simple[tp]}
        raise TypeError(f"the contract cannot say {tp!r}")

    def _alias(self, name: str, tp: Any) -> JSONSchema:
        out = self.schema(tp, top=True)
        doc = contract.ALIAS_DOCS.get(name)
        return {"description": doc, **out} if doc else out

    def _object(self, td: Any) -> JSONSchema:
        props: dict[str, JSONSchema] = {}
        required: list[str] = []
        for key, (tp, needed) in contract.fields(td).items():
            props[key] = self.schema(tp)
            if needed:
                required.append(key)
        out: JSONSchema = {"type": "object"}
        doc = td.__doc__
        if doc and not doc.startswith(td.__name__ + "("):  # not the generated one
            out["description"] = " ".join(doc.split())
        out.update(properties=props, required=required, additionalProperties=False)
        return out


def _union_type() -> Any:
    import types

    return types.UnionType


def json_schema() -> JSONSchema:
    """The contract as one JSON Schema: its ``$defs`` are the types; ``Traits``, ``Request``
    and ``Message`` are the roots."""
    builder = _Builder()
    for value in contract.ROOTS.values():
        builder.schema(value)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"urn:ugentopoly-widget:contract:{_version()}",
        "title": "ugentopoly_widget: the contract between Python and the browser view",
        "description": "Generated from ugentopoly_widget/widget/contract/ by "
                       "contract_export.py: do not edit. Traits: every synced trait (x-view-"
                       "writes: those the view may set); Request: what a view sends "
                       "(model.send); Message: Python's custom messages to the views.",
        "version": _version(),
        "x-view-writes": list(contract.VIEW_WRITES),
        "$defs": dict(sorted(builder.defs.items())),
    }


# ---------------------------------------------------------------------------------- TypeScript


def _ts(schema: JSONSchema, indent: str = "") -> str:
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[1]
    if "allOf" in schema:
        return _ts(schema["allOf"][0], indent)
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return " | ".join(json.dumps(v) for v in schema["enum"])
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return " | ".join(_ts(v, indent) for v in schema[key])
    kind = schema.get("type")
    if kind == "array":
        if "prefixItems" in schema:
            return "[" + ", ".join(_ts(v, indent) for v in schema["prefixItems"]) + "]"
        item = _ts(schema["items"], indent)
        return f"({item})[]" if " | " in item else f"{item}[]"
    if kind == "object":
        props = schema.get("properties")
        if props is None:
            return f"{{ [key: string]: {_ts(schema['additionalProperties'], indent)} }}"
        if not props:
            return "Record<string, never>"
        inner = indent + "  "
        lines = ["{"]
        for key, value in props.items():
            if "description" in value:
                lines.append(f"{inner}/** {value['description']} */")
            mark = "" if key in schema.get("required", ()) else "?"
            name = key if key.isidentifier() else json.dumps(key)
            lines.append(f"{inner}{name}{mark}: {_ts(value, inner)};")
        lines.append(indent + "}")
        return "\n".join(lines)
    simple = {"integer": "number", "number": "number", "string": "string", "boolean": "boolean",
              "null": "null"}
    return simple[str(kind)]


def typescript(schema: JSONSchema | None = None) -> str:
    """The schema's ``$defs`` as TypeScript types (one ``export type`` each)."""
    schema = schema if schema is not None else json_schema()
    out = [
        "// The contract between Python and this view, generated from",
        "// ugentopoly_widget/widget/contract/ (schema: widget/contract.schema.json) by",
        "//   python -m ugentopoly_widget.widget.contract_export --write",
        "// Do not edit: change widget/contract/ and run that. tests/test_contract.py checks it.",
        f"// Contract of ugentopoly_widget {schema['version']}.",
        "",
        "/** The traits the view may set (model.set; checked in Python). */",
        "export type ViewWrites = " + " | ".join(json.dumps(k) for k in schema["x-view-writes"])
        + ";",
    ]
    for name, value in schema["$defs"].items():
        out.append("")
        if "description" in value:
            out.append(f"/** {value['description']} */")
        body = dict(value)
        body.pop("description", None)
        out.append(f"export type {name} = {_ts(body)};")
    return "\n".join(out) + "\n"


def schema_text() -> str:
    return json.dumps(json_schema(), indent=1, ensure_ascii=False) + "\n"


def _files() -> Iterator[tuple[Path, str]]:
    schema = json_schema()
    yield SCHEMA_FILE, json.dumps(schema, indent=1, ensure_ascii=False) + "\n"
    if TS_FILE.parent.is_dir():  # a checkout (an installed package has no js/)
        yield TS_FILE, typescript(schema)


def stale() -> list[Path]:
    """The generated files that differ from what widget/contract/ says now."""
    return [path for path, text in _files()
            if not path.exists() or path.read_text(encoding="utf-8") != text]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", action="store_true", help="write the schema and contract.ts")
    group.add_argument("--check", action="store_true", help="exit 1 when either is stale")
    args = ap.parse_args(argv)
    if args.check:
        old = stale()
        for path in old:
            print(f"stale: {path} (run python -m {__spec__.name} --write)", file=sys.stderr)
        return 1 if old else 0
    for path, text in _files():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
