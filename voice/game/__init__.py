"""Game: pure and replayable; the Appendix D session, scoresheet and talking clock."""
