"""Presentation: pure text, keyboards, images and translations."""
