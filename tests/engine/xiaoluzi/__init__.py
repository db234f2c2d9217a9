"""Tests of engine.xiaoluzi (小路子)."""
