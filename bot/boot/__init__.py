"""Configuration, start-up checks, health and the running bot's composition."""
