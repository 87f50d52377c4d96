"""The ``toon-memory`` command line: a thin click layer over ``Memory``."""
