"""Tool arguments: any accepted spelling in, checked canonical keyword arguments out.

Invariant: ``normalise`` either raises ``InputError`` naming the published
parameter (unknown, given twice, wrong type, out of range, missing) or
returns a dict keyed by published names whose values have the published
type. It runs before any handler, so a bad call never reaches ``Memory``.
A JSON ``null`` counts as "not given".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toon_memory.errors import InputError
from toon_memory.server.specs import Param, ToolSpec

_TRUE = ("true", "1", "yes")
_FALSE = ("false", "0", "no")


_LOOKUPS: dict[str, dict[str, Param]] = {}


def _lookup(spec: ToolSpec) -> dict[str, Param]:
    found = _LOOKUPS.get(spec.name)
    if found is None:
        found = _LOOKUPS[spec.name] = {s: p for p in spec.params for s in p.spellings}
    return found


def normalise(spec: ToolSpec, arguments: Mapping[str, Any] | None) -> dict[str, Any]:
    """Checked arguments of a call to ``spec``, keyed by published parameter names."""
    lookup = _lookup(spec)
    out: dict[str, Any] = {}
    for given, value in (arguments or {}).items():
        param = lookup.get(given)
        if param is None:
            takes = ", ".join(p.name for p in spec.params) or "no parameters"
            raise InputError(given, f"unknown parameter ({spec.name} takes {takes})")
        if value is None:
            continue
        if param.name in out:
            raise InputError(param.name, f"given twice (also as {given!r})")
        out[param.name] = _checked(param, value)
    for name in spec.required:
        if name not in out:
            raise InputError(name, "is required")
    return out


def _checked(param: Param, value: Any) -> Any:
    converted = _CONVERT[param.kind](param, value)
    if param.enum and converted not in param.enum:
        choices = ", ".join(str(choice) for choice in param.enum)
        raise InputError(param.name, f"must be one of {choices}; got {value!r}")
    if param.minimum is not None and converted < param.minimum:
        raise InputError(param.name, f"must be at least {param.minimum}; got {value!r}")
    if param.maximum is not None and converted > param.maximum:
        raise InputError(param.name, f"must be at most {param.maximum}; got {value!r}")
    return converted


def _string(param: Param, value: Any) -> Any:
    if isinstance(value, str):
        return value.strip().lower() if param.enum else value
    if param.many and isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool) and not param.enum:
        return str(value)
    wanted = "a string or a list of strings" if param.many else "a string"
    raise InputError(param.name, f"expected {wanted}; got {value!r}")


def _integer(param: Param, value: Any) -> int:
    if isinstance(value, bool):
        raise InputError(param.name, f"expected a whole number; got {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    raise InputError(param.name, f"expected a whole number; got {value!r}")


def _number(param: Param, value: Any) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            pass
    raise InputError(param.name, f"expected a number; got {value!r}")


def _boolean(param: Param, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower() if isinstance(value, (str, int)) else ""
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise InputError(param.name, f"expected true or false; got {value!r}")


_CONVERT = {"string": _string, "integer": _integer, "number": _number, "boolean": _boolean}
