"""Errors a user can cause: values with a stable code, parameters and an English message.

The bot translates ``code`` with ``params`` through its catalogues; ``str(err)`` is the
English text, used in logs and tests.  Card parameters are canonical card text.
"""

from __future__ import annotations


class RuleError(Exception):
    """An action that the rules (or the input format) do not allow."""

    def __init__(self, code: str, template: str, **params: object) -> None:
        self.code = code
        self.template = template
        self.params: dict[str, object] = params
        super().__init__(template.format(**params) if params else template)

    @property
    def message(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {str(self)!r})"


class OptionError(RuleError):
    """An invalid rule option: names the field and the values it allows."""

    def __init__(self, field: str, value: object, allowed: str) -> None:
        super().__init__(
            "bad_option",
            "Option {field}={value} is not allowed; allowed: {allowed}",
            field=field,
            value=value,
            allowed=allowed,
        )
        self.field = field
