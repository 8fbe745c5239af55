"""Speech: audio devices, listening, recognisers, models and speaking."""
