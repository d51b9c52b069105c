"""Test helpers shared by every game's tests: scripted dice and playing answers."""
