"""One line per config mistake: the file, the line, the key, and what would be right.

pydantic reports where a value failed in its own terms (union members such as
``dict[str,float]``, "Input should be ..."); this module turns the first failure into what a
user can act on: the YAML line, the allowed values, or the key they probably meant."""

from __future__ import annotations

import difflib
import types
import typing
from pathlib import Path

import yaml
from pydantic import BaseModel, ValidationError


def yaml_error(path: Path, exc: Exception) -> str:
    """A YAML syntax or encoding error as ``file:line: not valid YAML: problem``, with the line
    of what was left open when the parser found out later."""
    mark = getattr(exc, "problem_mark", None)
    if mark is None:
        return f"{path}: not valid YAML: {str(exc).splitlines()[0]}"
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    context, opened = getattr(exc, "context", None), getattr(exc, "context_mark", None)
    if context and opened is not None and opened.line != mark.line:
        context += f" opened on line {opened.line + 1}"
    detail = f"{problem} ({context})" if context else problem
    return f"{path}:{mark.line + 1}: not valid YAML: {detail}"


def validation_error(path: Path, text: str, data: dict, exc: ValidationError,
                     model: type[BaseModel]) -> str:
    """The first failure of ``exc`` as one line naming the file, line and key."""
    errors = exc.errors()
    field = _field_loc(errors[0], data)
    related = [e for e in errors if _field_loc(e, data) == field]
    where = ".".join(str(p) for p in field)
    line = _line_of(text, field)
    prefix = f"{path}:{line}" if line else f"{path}"
    first = related[0]
    if first["type"] == "extra_forbidden":
        hint = _suggest(model, field)
        return f"{prefix}: unknown key '{where}'" + (f" (did you mean '{hint}'?)" if hint else "")
    if first["type"] == "missing":
        return f"{prefix}: missing key '{where}'"
    return f"{prefix}: {where or '(top level)'}: {_message(related, _value_at(data, field))}"


def _field_loc(error: dict, data) -> tuple:
    """The error's location in the user's data, without pydantic's union-member tags (a
    ``missing`` key keeps its last element, which the data lacks by definition)."""
    loc, node = [], data
    for part in error["loc"]:
        if _holds(node, part):
            node = node[part]
        elif error["type"] == "missing" and part == error["loc"][-1]:
            loc.append(part)
            break
        else:
            break
        loc.append(part)
    return tuple(loc)


def _holds(node, part) -> bool:
    """True when the user's data ``node`` has an entry ``part`` (a key or an index)."""
    if isinstance(node, dict):
        return part in node
    return isinstance(node, list) and isinstance(part, int) and part < len(node)


def _value_at(data, loc: tuple):
    for part in loc:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _message(errors: list[dict], value) -> str:
    """What is wrong with a value, from all of pydantic's attempts at it (one per union
    member): the allowed values, the accepted shapes, or the validator's own words."""
    allowed, shapes = [], []
    for error in errors:
        if error["type"] == "literal_error":
            allowed += [v.strip(" '") for v in
                        error["ctx"]["expected"].replace(" or ", ", ").split(", ")]
        elif error["type"] in SHAPES:
            shapes.append(SHAPES[error["type"]])
        elif error["type"] == "value_error":
            return str(error["ctx"]["error"])
        elif error["type"] == "none_required":
            shapes.append("null")
        else:
            return error["msg"]
    if allowed:
        choices = ", ".join(dict.fromkeys(allowed + shapes))
        return f"{value!r} is not allowed; use one of: {choices}"
    if shapes:
        return f"expected {' or '.join(dict.fromkeys(shapes))}, got {value!r}"
    return errors[0]["msg"]


SHAPES = {"dict_type": "a mapping", "list_type": "a list", "int_type": "an integer",
          "int_parsing": "an integer", "float_parsing": "a number", "bool_parsing": "true/false",
          "string_type": "a string"}


def _line_of(text: str, loc: tuple) -> int | None:
    """The 1-based line of the deepest node of ``loc`` found in the YAML text (a key's own
    line for a mapping entry)."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None
    line = node.start_mark.line + 1 if node is not None else None
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            match = next(((k, v) for k, v in node.value if k.value == str(part)), None)
            if match is None:
                break
            line, node = match[0].start_mark.line + 1, match[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) \
                and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            break
    return line


def _suggest(model: type[BaseModel], loc: tuple) -> str | None:
    """The known key closest to the unknown last element of ``loc`` (None if none is close)."""
    fields = _fields_at(model, loc[:-1])
    close = difflib.get_close_matches(str(loc[-1]), fields, n=1, cutoff=0.6)
    return close[0] if close else None


def _fields_at(model, loc: tuple) -> list[str]:
    """The field names of the model that sits at ``loc`` (through dicts and lists of models)."""
    current = model
    for part in loc:
        current = _inner_model(current, part)
        if current is None:
            return []
    return list(current.model_fields) if _is_model(current) else []


def _inner_model(current, part):
    """What sits one step down ``part`` from ``current`` (a model's field, a container's item)."""
    if isinstance(current, _Container):
        return current.item
    if _is_model(current):
        field = current.model_fields.get(str(part))
        return _unwrap(field.annotation) if field else None
    return None


def _unwrap(annotation):
    """The model inside ``X | None``, ``list[X]`` or ``dict[str, X]``, else the annotation."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        models = [a for a in typing.get_args(annotation) if _is_model(_unwrap(a))]
        return _unwrap(models[0]) if models else annotation
    if origin in (list, dict):
        return _Container(_unwrap(typing.get_args(annotation)[-1]))
    return annotation


class _Container:
    """A list or dict level of the path: the next element is an index or a name."""

    def __init__(self, item):
        self.item = item


def _is_model(value) -> bool:
    return isinstance(value, type) and issubclass(value, BaseModel)

