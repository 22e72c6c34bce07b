"""Hypothesis strategies for input that is never valid: the fuzz tests' raw material.

Every string a strategy here gives for a field holds something no valid value
has (a NUL, a lone surrogate, a control character, or too much), so a fuzzed
message or form can never succeed by chance: any change it made would be a
defect, not luck.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

# Mostly what PostgreSQL cannot take (NUL, lone surrogates), some of what a page should not show raw.
POISON = ["\x00", "\ud800", "\udfff", "\ud83d", "a\x00", "\x00\ud800", "\x1b[2J", "\u202e", "\n\r"]

poisoned_text = st.builds(lambda head, poison, tail: head + poison + tail,
                          st.text(max_size=12), st.sampled_from(POISON), st.text(max_size=12))
scalar = st.one_of(
    st.none(), st.booleans(), poisoned_text, st.text(min_size=200, max_size=600),
    st.integers(min_value=-(2**70), max_value=2**70), st.floats(allow_nan=True, allow_infinity=True),
)
# Wrong types at any depth: lists and objects of the above, nested.
value = st.recursive(scalar, lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)


@st.composite
def message(draw: Any, required: dict[str, list[str]], valid: dict[str, Any],
            bad: dict[str, Any] | None = None) -> dict[str, Any]:
    """An object with a "type" (one of REQUIRED's, or anything at all) and fields from
    VALID. One field the type requires is missing or holds a bad value (from BAD,
    else ``value``); every other field may hold a valid value (from VALID) or a bad
    one. So each message is one mistake away from success, and never succeeds."""
    known = draw(st.integers(0, 3)) > 0  # mostly a type the socket knows
    kind = draw(st.sampled_from(sorted(required)) if known else value)
    needed = required[kind] if known else []
    spoilt = draw(st.sampled_from(needed)) if needed else None
    content = {"type": kind}
    for field in sorted(valid):
        present, good = draw(st.integers(0, 3)) > 0, draw(st.integers(0, 3)) > 0
        if field == spoilt:
            if present:  # else missing
                content[field] = draw(st.one_of(poisoned_text, (bad or {}).get(field, value)))
        elif present:
            content[field] = draw(valid[field] if good else value)
    return content


def to_json(data: Any) -> str:
    """JSON text as a client would send it: surrogates and NUL as \\u escapes."""
    return json.dumps(data, allow_nan=True)


def frames(messages: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[tuple[str, bytes]]:
    """(kind, payload) for one websocket frame, "text" or "binary"; MESSAGES for the
    well-formed objects among them. None of them valid."""
    others = st.one_of(
        value.map(to_json),  # JSON, but not an object (or an object without a good "type")
        st.text(max_size=80),  # mostly not JSON at all
        st.integers(min_value=1, max_value=3000).map(lambda n: "[" * n + "]" * n),  # deep nesting
        st.integers(min_value=1, max_value=3000).map(lambda n: '{"a":' * n + "1" + "}" * n),
        st.integers(min_value=4097, max_value=60000).map(lambda n: '{"type":"ping","x":"' + "y" * n + '"}'),
        st.integers(min_value=1, max_value=4000).map(lambda n: "9" * n),  # a huge number
    ).map(lambda text: ("text", text.encode()))
    binary = st.binary(max_size=300).map(lambda data: ("binary", data))
    # Half of them objects a handler reads; the rest fail before any handler.
    return st.one_of(messages.map(lambda m: ("text", to_json(m).encode())), st.one_of(others, binary))
