"""Retrieval benchmarks: LoCoMo evidence recall, a gold-query set, and recall latency."""
