"""The shared, atomic rate-limit counters (memory here; Redis in test_rate_limit_redis)."""

import threading

import pytest

from insightshop.extensions import limiter
from insightshop.services import rate_limits

RULE = rate_limits.Rule("test-rule", "TEST_RULE_LIMIT", "3 per minute", "Slow down")


def test_the_fourth_attempt_is_refused_with_retry_after(app):
    for _ in range(3):
        rate_limits.take((RULE, "someone"))

    with pytest.raises(rate_limits.RateLimited) as refused:
        rate_limits.take((RULE, "someone"))

    assert refused.value.code == "rate_limited" and refused.value.message == "Slow down"
    assert 1 <= refused.value.retry_after <= 60
    rate_limits.take((RULE, "someone-else"))  # other keys are untouched


def test_a_refund_gives_the_attempt_back(app):
    for _ in range(10):
        rate_limits.take((RULE, "ok")).refund()

    rate_limits.take((RULE, "ok"))


def test_a_refusal_on_one_key_takes_nothing_from_the_others(app):
    for _ in range(3):
        rate_limits.take((RULE, "busy"))

    with pytest.raises(rate_limits.RateLimited):
        rate_limits.take((RULE, "quiet"), (RULE, "busy"))

    for _ in range(3):
        rate_limits.take((RULE, "quiet"))


@pytest.mark.commits  # thirty threads, each with a connection of its own
def test_concurrent_attempts_never_pass_more_than_the_limit(app):
    passed, barrier = [], threading.Barrier(30)

    def attempt():
        with app.app_context():
            barrier.wait()
            try:
                rate_limits.take((RULE, "crowd"))
                passed.append(1)
            except rate_limits.RateLimited:
                pass

    threads = [threading.Thread(target=attempt) for _ in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)

    assert len(passed) == 3
    assert limiter.storage is not None
