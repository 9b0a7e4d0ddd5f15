"""Service messages in the console's language.

A service refuses with a Message from the catalogue (app/domain/messages.py): English text that
knows its id, template and arguments. The console translates the template in the "messages"
context and fills the arguments in (%1, %2, …); a sentence that is not from the catalogue is
shown as the service wrote it.
"""
from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from app.domain.errors import DomainError, ValidationError
from app.domain.messages import Message, fill, message_of

CONTEXT = "messages"


def translate_message(text: str) -> str:
    """`text` in the console's language when it is a catalogue Message, else as it is."""
    if not isinstance(text, Message):
        return text
    args = tuple(translate_message(a) if isinstance(a, Message) else a for a in text.args)
    return fill(QCoreApplication.translate(CONTEXT, text.template), args)


def translate_errors(errors: dict[str, str]) -> str:
    """A validation's field errors in the console's language, joined as ValidationError joins them."""
    return "; ".join(f"{k}: {translate_message(v)}" if k else translate_message(v) for k, v in errors.items())


def translate_error(exc: BaseException) -> str:
    """What an error says, in the console's language: each field's message of a validation, the
    message of any other refusal, else the error's text."""
    if isinstance(exc, ValidationError) and exc.errors:
        return translate_errors(exc.errors)
    if isinstance(exc, DomainError):
        return translate_message(exc.message)
    return translate_message(message_of(exc))
