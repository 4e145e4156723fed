"""English entities from capitalized spans."""
