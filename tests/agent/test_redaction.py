"""Secrets are replaced before a chat message is stored or sent to a model service."""

import pytest

from insightshop.agent.redaction import redact


@pytest.mark.parametrize(
    ("said", "secret"),
    [
        ("my password is hunter22", "hunter22"),
        ("password: Tr0ub4dor&3", "Tr0ub4dor&3"),
        ("login with pwd=s3cret!", "s3cret!"),
        ("card 4242 4242 4242 4242 exp 12/30", "4242 4242 4242 4242"),
        ("pay with 5555-5555-5555-4444 please", "5555-5555-5555-4444"),
        ("cvc 123", "123"),
        ("my token is eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", "eyJhbGciOiJIUzI1NiJ9"),
        ("use key sk-ant-api03-abcdefghijklmnop", "sk-ant-api03-abcdefghijklmnop"),
    ],
)
def test_secrets_are_redacted(said, secret):
    assert secret not in redact(said) and "[redacted]" in redact(said)


@pytest.mark.parametrize(
    "said",
    [
        "I forgot my password, how do I reset it?",
        "where is order 12345678901234",  # long, but not a card number (Luhn)
        "add 2 large white shirts under $40",
        "track 1Z999AA10123456784",
    ],
)
def test_ordinary_requests_are_left_alone(said):
    assert redact(said) == said
