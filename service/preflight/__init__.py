"""Pre-flight: check a planned job (and optionally the live cluster it will run on) before launch."""
