"""voice-chess: over-the-board chess by voice, following FIDE Laws of Chess Appendix D."""

__version__ = "0.1.0"
