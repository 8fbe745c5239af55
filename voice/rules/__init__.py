"""Rules: pure; the events, the clock and time controls, the Laws, arbiter actions."""
