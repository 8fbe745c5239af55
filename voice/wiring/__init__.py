"""Wiring: the App that puts a whole game together, web server included."""
