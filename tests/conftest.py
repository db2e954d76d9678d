"""Tests marked ``postgres`` or ``redis`` are skipped when their service was not given (tests/services.py); the
run then ends with one line per service saying how many were skipped and how to run them."""

from __future__ import annotations

import pytest

from tests import services


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        for marker, reason in services.SKIP_REASON.items():
            if item.get_closest_marker(marker) is not None and services.missing(marker):
                item.add_marker(pytest.mark.skip(reason=reason))
                break


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    skipped = terminalreporter.stats.get("skipped", [])
    for reason in services.SKIP_REASON.values():
        count = sum(1 for report in skipped if reason in str(report.longrepr))
        if count:
            terminalreporter.write_line(
                f"{count} skipped: {reason} (make test sets it when the local server "
                'answers; docs/bot.md, "Tests")'
            )
