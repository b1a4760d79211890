"""Rendering of results: the contract's JSON envelopes, or rich text on a terminal."""
