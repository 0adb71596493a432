"""review.py — a game review: each decision of one seat in a record judged by a bot from what that seat knew."""
from ctypes import byref, c_char_p, c_int, c_uint64, c_void_p

from . import _lib
from ._lib import Error, P, PErr
from .state import AsobiError, State, _raise

_review = _lib._declare("asobi_review", P, P, c_int, c_char_p, c_uint64, c_int, c_void_p, c_void_p, PErr)

DEFAULT_BOT = "ismcts:iters=10000"


def review(record, seat, bot=None, seed=1, jobs=1):
    """Review seat's every decision in record (a record dict as State.record()
    gives, its JSON text, or a State with a record): the dict `asobi review
    --json` prints (docs/ai.md, "Game review"): "decisions", each with the
    move played and the bot's best, their values (seat's share of the win in
    [0,1], as the bot estimates it from what seat knew then, never from the
    record's hidden cards), the loss and its label, and the other moves
    weighed; and a "summary". bot is a spec that weighs moves (default
    DEFAULT_BOT); the same seed gives the same review, whatever jobs (the
    decisions searched at once, on threads)."""
    if isinstance(record, State):
        record = record.record()
    elif isinstance(record, (str, bytes)):
        import json
        try:
            record = json.loads(record)
        except ValueError as e:
            raise AsobiError("bad_record", "the record is not JSON: %s" % e) from None
    if not isinstance(record, dict):
        raise AsobiError("bad_record", "a record is a dict, its JSON text or a State")
    if type(seat) is not int or not 0 <= seat < 64:
        raise AsobiError("bad_seat", "seat %r does not exist" % (seat,))
    if type(seed) is not int or not 0 <= seed < 1 << 64:
        raise AsobiError("bad_argument", "the seed is a whole number from 0 to 2**64-1")
    if type(jobs) is not int or not 1 <= jobs <= 256:
        raise AsobiError("bad_argument", "jobs is a whole number from 1 to 256")
    spec = DEFAULT_BOT if bot is None else bot
    if not isinstance(spec, str):
        raise AsobiError("bad_bot", "a bot spec is a string such as \"ismcts:iters=500\"")
    handle = _lib.make_json(record)
    try:
        err = Error()
        out = _review(handle, seat, spec.encode("utf-8"), seed, jobs, None, None, byref(err))
    finally:
        _lib.json_delete(handle)
    if not out:
        _raise(err)
    return _lib.take_json(out)
