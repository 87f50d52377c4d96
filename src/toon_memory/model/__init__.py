"""The data model: entries and their enums, the clock, settings, the heartbeat record.

Invariant: pure (no file, process or network I/O) and imports nothing of the
package but ``errors``; every other layer may use it.
"""
