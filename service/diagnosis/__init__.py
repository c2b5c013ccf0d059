"""Diagnosis: facts in, findings out, over HTTP; and the loaded rules."""
