"""JSON Schemas of API request bodies and shared output shapes."""
