"""YAML config edits through ruamel.yaml's round-trip mode.

Invariant: an unedited document is written back as its exact original text;
an edited one keeps comments, key order, quoting and the file's own
indentation (mapping step and list-dash offset are read from the file).
ruamel is imported only when a YAML file is opened.
"""

from __future__ import annotations

import io
import itertools
import re
from typing import Any

from toon_memory.adapters.installer.tomltext import MISSING

_DASH = re.compile(r"^( *)- ", re.MULTILINE)


class YamlSyntaxError(ValueError):
    """The text is not YAML; ``line`` is 1-based (0 when unknown)."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(problem)
        self.line = line
        self.problem = problem


def _indents(text: str) -> tuple[int, int, int]:
    """(mapping, sequence, offset) as the file writes them; 2/4/2 for a new file."""
    lines = text.splitlines()
    mapping, offset = 2, 2
    found_map = found_seq = False
    for prev, line in itertools.pairwise(lines):
        if not prev.rstrip().endswith(":") or not line.strip() or line.lstrip().startswith("#"):
            continue
        step = (len(line) - len(line.lstrip(" "))) - (len(prev) - len(prev.lstrip(" ")))
        if line.lstrip().startswith("- ") and not found_seq:
            offset, found_seq = max(step, 0), True
        elif not line.lstrip().startswith("- ") and step > 0 and not found_map:
            mapping, found_map = step, True
    return mapping, offset + 2, offset


def _yaml(text: str) -> Any:
    from ruamel.yaml import YAML

    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 4096
    mapping, sequence, offset = _indents(text)
    yaml.indent(mapping=mapping, sequence=sequence, offset=offset)
    return yaml


def plain(value: Any) -> Any:
    """ruamel containers as plain dicts and lists."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


class YamlDocument:
    """A YAML file being edited; ``text`` is the current content."""

    def __init__(self, text: str) -> None:
        from ruamel.yaml.error import MarkedYAMLError, YAMLError

        self._original = text
        self._yaml = _yaml(text)
        try:
            self._data = self._yaml.load(text)
        except MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line = mark.line + 1 if mark is not None else 0
            raise YamlSyntaxError(line, f"{exc.problem or exc.context}") from None
        except YAMLError as exc:
            raise YamlSyntaxError(0, str(exc)) from None
        if self._data is not None and not isinstance(self._data, dict):
            raise YamlSyntaxError(1, "expected a mapping at the top level")
        self._dirty = False

    @property
    def text(self) -> str:
        if not self._dirty:
            return self._original
        if not self._data:
            return ""
        out = io.StringIO()
        self._yaml.dump(self._data, out)
        return out.getvalue()

    def _walk(self, path: tuple[str | int, ...]) -> Any:
        data = self._data
        for step in path:
            if isinstance(step, int):
                if not isinstance(data, list) or not 0 <= step < len(data):
                    return MISSING
            elif not isinstance(data, dict) or step not in data:
                return MISSING
            data = data[step]
        return data

    def get(self, path: tuple[str | int, ...]) -> Any:
        found = self._walk(path)
        return found if found is MISSING else plain(found)

    def _holder(self, path: tuple[str | int, ...]) -> Any:
        from ruamel.yaml.comments import CommentedMap

        if self._data is None:
            self._data = CommentedMap()
        holder = self._data
        for step in path:
            if isinstance(step, str) and step not in holder:
                holder[step] = CommentedMap()
            holder = holder[step]
            if not isinstance(holder, (dict, list)):
                raise TypeError(f"{'.'.join(map(str, path))} is not a mapping")
        return holder

    def set(self, path: tuple[str | int, ...], value: Any) -> None:
        if self.get(path) == value:
            return
        self._holder(path[:-1])[path[-1]] = value
        self._dirty = True

    def delete(self, path: tuple[str | int, ...]) -> None:
        if self._walk(path) is MISSING:
            return
        holder = self._walk(path[:-1])
        del holder[path[-1]]
        self._dirty = True

    def append(self, path: tuple[str | int, ...], value: Any) -> None:
        found = self._walk(path)
        if found is MISSING:
            self.set(path, [value])
            return
        if not isinstance(found, list):
            raise TypeError(f"{'.'.join(map(str, path))} is not a list")
        found.append(value)
        self._dirty = True
