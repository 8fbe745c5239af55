"""Runtime: running a game; the host loop, journal, resume, engine and inputs."""
