"""Benchmarks: measured figures for the README and the issues, printed and never asserted."""
