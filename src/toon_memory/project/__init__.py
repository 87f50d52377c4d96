"""Facts about the project around a memory, read from git and the project's files.

Modules: ``git`` (the git runner; files of this session, for recall),
``repository`` (branch, last commit, work-tree counts), ``history``
(commits and changed files since a moment), ``callers`` (``git grep`` for
symbols), ``languages``/``packages`` (what the project is, from its
manifests), ``files`` (the file list), ``mentions`` (paths and symbols a
text names), ``testfiles`` (the tests of a source file).

Invariant: reading project facts never fails the caller, never writes and
never blocks long; on any error (no git, no repository, an odd manifest) the
answer is empty.
"""
