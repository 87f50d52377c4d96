"""Benchmarks of toon-memory (run each as ``python -m benchmarks.<area>.<name>``)."""
