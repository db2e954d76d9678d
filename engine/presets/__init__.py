"""Preset data files, one per notice (see engine.options.load_preset)."""
