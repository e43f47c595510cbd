"""Frozen copies of earlier AI players, kept only as yardsticks for ``bench/ai.py``."""
