"""The operating system, as the rest of the package needs it: durable atomic writes,
inter-process locks, JSON settings files, process ancestry and OS errors told as one line.

Invariant: knows nothing of memories; imports only ``errors``. Every file replaced
here is replaced atomically (temp file, fsync, rename).
"""
