"""The memory graph viewer: a local web page over ``Memory``, like the CLI and the MCP server.

Invariant: an adapter only. It reads the memory through ``Memory``'s public
API (``viewer.payload``), never writes it, and imports neither ``server`` nor
``cli``. Parts: ``payload`` (the data the page draws), ``page`` (the HTML and
its assets, served as files or inlined into one self-contained file),
``http`` (the 127.0.0.1 app), ``watch`` (file-change detection) and ``run``
(the live server's lifecycle). Importing this package loads none of them.
"""
