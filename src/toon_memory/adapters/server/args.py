"""Tool arguments: any accepted spelling in, checked canonical keyword arguments out.

Invariant: ``normalise`` either raises ``InputError`` naming the published
parameter (unknown, given twice, wrong type, out of range, not finite,
invalid Unicode, missing; a boolean is a JSON boolean, nothing else) or returns a dict keyed by published names whose
values have the published type (strings free of lone surrogates, numbers
finite). It runs before any handler, so a bad call never reaches ``Memory``.
A JSON ``null`` counts as "not given". An error quotes at most ``QUOTE``
characters of a value, escaped, so its text is short and always encodable.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from toon_memory.adapters.server.specs import Param, ToolSpec
from toon_memory.errors import QUOTE, InputError, quote
from toon_memory.model.checks import check_bool, check_number, check_whole

_SURROGATE = re.compile("[\ud800-\udfff]")


def name_of(given: Any, limit: int = QUOTE) -> str:
    """Text as given (a parameter name), safe to show: lone surrogates replaced, length capped."""
    text = _SURROGATE.sub("\ufffd", str(given))
    return text if len(text) <= limit else text[:limit] + "..."


def refused(spec: ToolSpec, invalid: Mapping[str, Any]) -> InputError | None:
    """The error for arguments refused before parsing (``wire.INVALID``), or None."""
    for given, problem in invalid.items():
        param = _lookup(spec).get(given)
        return InputError(param.name if param else name_of(given), name_of(problem, 2 * QUOTE))
    return None


_LOOKUPS: dict[str, dict[str, Param]] = {}


def _lookup(spec: ToolSpec) -> dict[str, Param]:
    found = _LOOKUPS.get(spec.name)
    if found is None:
        found = _LOOKUPS[spec.name] = {s: p for p in spec.published for s in p.spellings}
    return found


def normalise(spec: ToolSpec, arguments: Mapping[str, Any] | None) -> dict[str, Any]:
    """Checked arguments of a call to ``spec``, keyed by published parameter names."""
    lookup = _lookup(spec)
    out: dict[str, Any] = {}
    for given, value in (arguments or {}).items():
        param = lookup.get(given)
        if param is None:
            takes = ", ".join(p.name for p in spec.published) or "no parameters"
            raise InputError(name_of(given), f"unknown parameter ({spec.name} takes {takes})")
        if value is None:
            continue
        if param.name in out:
            raise InputError(param.name, f"given twice (also as {quote(given)})")
        out[param.name] = _checked(param, value)
    for name in spec.required:
        if name not in out:
            raise InputError(name, "is required")
    return out


def _checked(param: Param, value: Any) -> Any:
    converted = _CONVERT[param.kind](param, value)
    if param.enum and converted not in param.enum:
        choices = ", ".join(str(choice) for choice in param.enum)
        raise InputError(param.name, f"must be one of {choices}; got {quote(value)}")
    if param.kind == "number" and (param.minimum is not None or param.maximum is not None):
        low, high = param.minimum, param.maximum
        return check_number(converted, param.name, -math.inf if low is None else low,
                            math.inf if high is None else high)  # fmt: skip
    return converted


def _text(param: Param, value: str) -> str:
    found = _SURROGATE.search(value)
    if found:
        raise InputError(
            param.name, f"invalid Unicode (a lone surrogate at character {found.start() + 1})"
        )
    return value


def _string(param: Param, value: Any) -> Any:
    if isinstance(value, str):
        return _text(param, value.strip().lower() if param.enum else value)
    if param.many and isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [_text(param, item) for item in value]
    if isinstance(value, float) and not param.enum:
        return str(_finite(param, value))
    if isinstance(value, int) and not isinstance(value, bool) and not param.enum:
        if value.bit_length() > 128:
            raise InputError(param.name, "expected a string; got a very large number")
        return str(value)
    wanted = "a string or a list of strings" if param.many else "a string"
    raise InputError(param.name, f"expected {wanted}; got {quote(value)}")


def _finite(param: Param, value: float) -> float:
    if not math.isfinite(value):
        raise InputError(param.name, f"expected a finite number; got {quote(value)}")
    return value


def _integer(param: Param, value: Any) -> int:
    return check_whole(value, param.name, param.minimum, param.maximum)


def _number(param: Param, value: Any) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            return _finite(param, float(value))
        except OverflowError:
            pass
    elif isinstance(value, str) and len(value) <= QUOTE:
        try:
            return _finite(param, float(value))
        except ValueError:
            pass
    raise InputError(param.name, f"expected a finite number; got {quote(value)}")


def _boolean(param: Param, value: Any) -> bool:
    return check_bool(value, param.name)


_CONVERT = {"string": _string, "integer": _integer, "number": _number, "boolean": _boolean}
