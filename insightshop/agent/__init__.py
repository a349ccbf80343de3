"""The shopping assistant: chat engines, the conversation store, result cards."""
