"""voice-chess: over-the-board chess by voice, following FIDE Laws of Chess Appendix D.

Free of third-party imports: ``voice/bootstrap.py`` runs before anything is installed.
"""

__version__ = "0.1.0"
