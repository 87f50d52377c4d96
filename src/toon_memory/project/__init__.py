"""Facts about the project around a memory: git state and dependency manifests.

Invariant: reading project facts never fails the caller and never writes;
on any error (no git, no repository, an odd manifest) the answer is empty.
"""
