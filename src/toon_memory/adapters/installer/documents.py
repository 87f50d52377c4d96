"""One editing interface over the config formats: JSON, JSONC, JSON5, TOML, YAML.

Invariant: ``open_document`` either returns a document whose ``text`` is the
input unchanged, or raises ``DocumentSyntaxError`` naming the 1-based line;
edits never touch a value outside the path they are given, and an edit that
changes nothing leaves ``text`` identical. Paths are tuples of keys (str) and
list indexes (int); ``get`` answers plain Python values or ``MISSING``.
"""

from __future__ import annotations

from typing import Any, Protocol

from toon_memory.adapters.installer import jsonedit
from toon_memory.adapters.installer.jsontext import JsonSyntaxError, find, line_of, parse, to_python
from toon_memory.adapters.installer.tomltext import MISSING, TomlDocument, TomlSyntaxError
from toon_memory.adapters.installer.yamldoc import YamlDocument, YamlSyntaxError
from toon_memory.errors import quote

FORMATS = ("json", "jsonc", "json5", "toml", "yaml")
PathT = tuple[str | int, ...]

__all__ = ["FORMATS", "MISSING", "Document", "DocumentSyntaxError", "open_document"]


class DocumentSyntaxError(ValueError):
    """A config file that does not parse: ``line`` (1-based, 0 unknown) and ``problem``."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line
        self.problem = problem


class Document(Protocol):
    """What the installer needs from a config file."""

    @property
    def text(self) -> str: ...

    def get(self, path: PathT) -> Any: ...

    def set(self, path: PathT, value: Any) -> None: ...

    def delete(self, path: PathT) -> None: ...

    def append(self, path: PathT, value: Any) -> None: ...


class JsonDocument:
    """JSON, JSONC or JSON5 edited by text splices (comments and layout kept)."""

    def __init__(self, text: str, dialect: str) -> None:
        self.dialect = dialect
        self.text = text
        self._root = self._parse(text)

    def _parse(self, text: str) -> Any:
        try:
            root = parse(text, self.dialect).root
        except JsonSyntaxError as exc:
            raise DocumentSyntaxError(line_of(text, exc.offset), exc.problem) from None
        if root is not None and root.kind != "object":
            raise DocumentSyntaxError(
                line_of(text, root.start), "expected an object at the top level"
            )
        return root

    def _edit(self, new_text: str) -> None:
        if new_text != self.text:
            self.text = new_text
            self._root = self._parse(new_text)

    def get(self, path: PathT) -> Any:
        if self._root is None:
            return MISSING
        node = find(self._root, path)
        return MISSING if node is None else to_python(node)

    def set(self, path: PathT, value: Any) -> None:
        self._edit(jsonedit.set_value(self.text, self.dialect, path, value))

    def delete(self, path: PathT) -> None:
        self._edit(jsonedit.delete(self.text, self.dialect, path))

    def append(self, path: PathT, value: Any) -> None:
        self._edit(jsonedit.append_item(self.text, self.dialect, path, value))


class _Toml(TomlDocument):
    def append(self, path: PathT, value: Any) -> None:
        current = self.get(path)
        self.set(path, [*([] if current is MISSING else current), value])


def open_document(fmt: str, text: str) -> Document:
    """The document of ``text`` in ``fmt``; DocumentSyntaxError when it does not parse."""
    try:
        if fmt in ("json", "jsonc", "json5"):
            return JsonDocument(text, fmt)
        if fmt == "toml":
            return _Toml(text)
        if fmt == "yaml":
            return YamlDocument(text)
    except (TomlSyntaxError, YamlSyntaxError) as exc:
        raise DocumentSyntaxError(exc.line, exc.problem) from None
    raise ValueError(f"unknown config format {quote(fmt)}")


def is_empty(doc: Document) -> bool:
    """True when the document holds no key at all."""
    return doc.get(()) in (MISSING, None, {})
