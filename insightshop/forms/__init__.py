"""WTForms for the pages; they parse and validate input, services decide the rules."""
