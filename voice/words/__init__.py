"""Words: pure; the language of the game, its vocabulary, phrases and catalogues."""
