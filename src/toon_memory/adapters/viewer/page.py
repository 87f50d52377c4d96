"""The viewer page: the HTML template and its assets, served as files or inlined into one file.

Invariant: entry data reaches the page only as JSON inside a
``<script type="application/json">`` block, with ``<``, ``>``, ``&`` and the
JavaScript line separators escaped, so no content can close the block or open
markup; the page's scripts put it into the DOM only as text. Inlined scripts
never contain ``</script`` or ``<!--`` (checked). The static page carries a
Content-Security-Policy that allows exactly its own inline scripts (by hash)
and no network at all; it works from ``file://``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

#: Every file the page may load, with its content type (the HTTP app serves only these).
ASSET_TYPES: dict[str, str] = {
    "viewer.css": "text/css; charset=utf-8",
    "d3.min.js": "text/javascript; charset=utf-8",
    "viewer.js": "text/javascript; charset=utf-8",
    "panels.js": "text/javascript; charset=utf-8",
    "bridge.js": "text/javascript; charset=utf-8",
    "d3-LICENSE.txt": "text/plain; charset=utf-8",
}
#: The scripts, in load order.
SCRIPTS: tuple[str, ...] = ("d3.min.js", "viewer.js", "panels.js", "bridge.js")
MODES: tuple[str, ...] = ("live", "static", "app")
_MARKER = re.compile(r"<!--(CSP|MODE|STYLE|DATA|SCRIPTS)-->")
_UNSAFE_IN_SCRIPT = re.compile(r"</script|<!--", re.IGNORECASE)
_JSON_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028",
                 "\u2029": "\\u2029"}  # fmt: skip


@cache
def _read(name: str) -> bytes:
    return (files("toon_memory.adapters.viewer") / "assets" / name).read_bytes()


def asset(name: str) -> bytes:
    """The bytes of one served asset; ``KeyError`` for a name not in ``ASSET_TYPES``."""
    if name not in ASSET_TYPES:
        raise KeyError(name)
    return _read(name)


def _text(name: str) -> str:
    return _read(name).decode("utf-8")


def embed_json(value: Any) -> str:
    """``value`` as JSON that is safe inside a ``<script>`` block (no ``</script>``, no ``<!--``)."""
    raw = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return re.sub("[<>&\u2028\u2029]", lambda m: _JSON_ESCAPES[m.group()], raw)


def _fill(parts: dict[str, str]) -> str:
    """The template with each marker replaced in one pass (inserted text is never rescanned)."""
    return _MARKER.sub(lambda m: parts[m.group(1)], _text("index.html"))


def _mode_meta(mode: str) -> str:
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}")
    return f'<meta name="toon-viewer-mode" content="{mode}">'


def live_page() -> str:
    """The page the HTTP app serves: assets by URL, data fetched from ``/api/graph``."""
    return _fill({
        "CSP": "",
        "MODE": _mode_meta("live"),
        "STYLE": '<link rel="stylesheet" href="/assets/viewer.css">',
        "DATA": "",
        "SCRIPTS": "\n".join(f'<script src="/assets/{name}"></script>' for name in SCRIPTS),
    })  # fmt: skip


def _inline_script(name: str) -> str:
    code = _text(name)
    if _UNSAFE_IN_SCRIPT.search(code):
        raise ValueError(f"{name} cannot be inlined: it contains </script or <!--")
    return code


def _sha256(code: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(code.encode()).digest()).decode() + "'"


def static_csp(scripts: list[str]) -> str:
    """A policy for the self-contained page: its own scripts only, no network."""
    hashes = " ".join(_sha256(code) for code in scripts)
    return (
        f"default-src 'none'; script-src {hashes}; style-src 'unsafe-inline'; "
        "img-src data: blob:; base-uri 'none'; form-action 'none'"
    )


def standalone_page(payload: dict[str, Any], *, app: bool = False) -> str:
    """One self-contained HTML file: styles, scripts and ``payload`` inline.

    ``app=True`` is the MCP Apps variant: the host enforces its own policy
    (and may add its own scripts), so no CSP is embedded.
    """
    scripts = [f"\n{_inline_script(name)}\n" for name in SCRIPTS]
    csp = (
        ""
        if app
        else f'<meta http-equiv="Content-Security-Policy" content="{static_csp(scripts)}">'
    )
    return _fill({
        "CSP": csp,
        "MODE": _mode_meta("app" if app else "static"),
        "STYLE": "<style>\n" + _text("viewer.css") + "\n</style>",
        "DATA": f'<script type="application/json" id="toon-data">{embed_json(payload)}</script>',
        "SCRIPTS": "\n".join(f"<script>{code}</script>" for code in scripts),
    })  # fmt: skip


def write_export(payload: dict[str, Any], target: Path) -> Path:
    """Write the self-contained page for ``payload`` to ``target`` (parents created)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(standalone_page(payload), encoding="utf-8")
    return target
