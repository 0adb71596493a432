"""_lib.py — finds libasobi.so, declares the C functions the binding calls (ctypes), and moves JSON across."""
import ctypes
import json
import os

from ctypes import (POINTER, Structure, byref, c_bool, c_char, c_char_p, c_double, c_int,
                    c_size_t, c_uint32, c_uint64, c_void_p)

MAX_SEATS = 8
ALL_SEEING = -1
SPECTATOR = -2
MESSAGE_MAX = 256


def _candidates():
    """Where libasobi.so may be, in the order tried.

    ASOBI_LIBRARY wins when set (the tests point it at the build under test);
    then a copy next to the package (an installed package ships one); then the
    build trees of a source checkout, python/asobi/../../build*/ (the README's
    setup builds into build/)."""
    env = os.environ.get("ASOBI_LIBRARY")
    if env:
        return [env]
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    return [os.path.join(here, "libasobi.so"),
            os.path.join(repo, "build", "libasobi.so")]


def _load():
    tried = []
    for path in _candidates():
        if os.path.exists(path):
            path = os.path.abspath(path)
            return ctypes.CDLL(path), path
        tried.append(path)
    raise ImportError("asobi: libasobi.so not found (tried %s); build it with scripts/setup.sh "
                      "or set ASOBI_LIBRARY to its path" % ", ".join(tried))


lib, path = _load()


class Error(Structure):
    """asobi_error: a code and a message (error.h)."""
    _fields_ = [("code", c_int), ("message", c_char * MESSAGE_MAX)]


class Result(Structure):
    """asobi_result (game.h)."""
    _fields_ = [("terminal", c_bool), ("players", c_int),
                ("score", c_double * MAX_SEATS), ("rank", c_int * MAX_SEATS),
                ("winners", c_uint32)]


class Rng(Structure):
    """asobi_rng: four 64-bit words of xoshiro256** (rng.h)."""
    _fields_ = [("s", c_uint64 * 4)]


def _declare(name, restype, *argtypes):
    fn = getattr(lib, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)
    return fn


P = c_void_p  # every opaque pointer (asobi_state *, asobi_game_def *, json_t *, asobi_bot *)
PErr = POINTER(Error)

# error.h
code_name = _declare("asobi_code_name", c_char_p, c_int)
# game.h: the registry
game_count = _declare("asobi_game_count", c_int)
game_at = _declare("asobi_game_at", P, c_int)
game_find = _declare("asobi_game_find", P, c_char_p)
game_name = _declare("asobi_game_name", c_char_p, P)
game_max_actions = _declare("asobi_game_max_actions", c_int, P)
game_describe = _declare("asobi_game_describe", P, P)
game_options = _declare("asobi_game_options", P, P, P, PErr)
# game.h: the state
state_new = _declare("asobi_state_new", P, P, c_int, P, c_uint64, PErr)
state_clone = _declare("asobi_state_clone", P, P)
state_copy = _declare("asobi_state_copy", None, P, P)
state_free = _declare("asobi_state_free", None, P)
state_equal = _declare("asobi_state_equal", c_bool, P, P)
state_players = _declare("asobi_state_players", c_int, P)
state_game = _declare("asobi_state_game", P, P)
state_to_move = _declare("asobi_state_to_move", c_uint32, P)
state_may_act = _declare("asobi_state_may_act", c_int, P, c_int, PErr)
state_legal = _declare("asobi_state_legal", c_int, P, c_int, P)
state_action_text = _declare("asobi_state_action_text", c_int, P, c_int, c_int, c_char_p, c_size_t)
state_parse_action = _declare("asobi_state_parse_action", c_int, P, c_int, c_char_p, POINTER(c_int),
                              PErr)
state_apply = _declare("asobi_state_apply", c_int, P, c_int, c_int, PErr)
state_result = _declare("asobi_state_result", None, P, POINTER(Result))
state_view_text = _declare("asobi_state_view_text", c_void_p, P, c_int, c_void_p)
state_render = _declare("asobi_state_render", c_void_p, P, c_int)
state_events = _declare("asobi_state_events", P, P, c_int, c_int, P, c_int)
state_determinize = _declare("asobi_state_determinize", None, P, c_int, POINTER(Rng))
state_retract_unseen = _declare("asobi_state_retract_unseen", None, P, c_int)
rng_seed = _declare("asobi_rng_seed", None, POINTER(Rng), c_uint64)
state_random_playout = _declare("asobi_state_random_playout", ctypes.c_long, P, POINTER(Rng))
state_sample = _declare("asobi_state_sample", c_void_p, P, c_char_p)
state_from_sample = _declare("asobi_state_from_sample", P, c_char_p, c_size_t, c_char_p, PErr)

# The calls of a playout, declared without argtypes: ctypes then converts
# nothing in Python (a state is passed as its c_void_p object, seats and ids
# as C ints), which halves the cost of each call. Their callers check that
# seats and ids are Python ints first: untyped, a str would go as a pointer.
fast_to_move = lib["asobi_state_to_move"]
fast_to_move.restype = c_uint32
fast_turn = lib["asobi_state_turn"]
fast_turn.restype = c_uint32
fast_legal = lib["asobi_state_legal"]
fast_legal.restype = c_int
fast_apply = lib["asobi_state_apply"]
fast_apply.restype = c_int
# record.h
match_load = _declare("asobi_match_load", P, P, PErr)
match_free = _declare("asobi_match_free", None, P)
match_seed = _declare("asobi_match_seed", c_uint64, P)
match_state = _declare("asobi_match_state", P, P)
match_options = _declare("asobi_match_options", P, P)
match_length = _declare("asobi_match_length", c_int, P)
match_action_seat = _declare("asobi_match_action_seat", c_int, P, c_int)
match_action_text = _declare("asobi_match_action_text", c_char_p, P, c_int)
match_undo_index = _declare("asobi_match_undo_index", c_int, P, c_int)
match_undo = _declare("asobi_match_undo", c_int, P, c_int, PErr)
# bot.h
bot_new = _declare("asobi_bot_new", P, c_char_p, P, c_int, c_int, c_uint64, PErr)
bot_free = _declare("asobi_bot_free", None, P)
bot_choose = _declare("asobi_bot_choose", c_int, P, P, PErr)
bot_check_spec = _declare("asobi_bot_check_spec", c_int, c_char_p, P, PErr)
bot_names = _declare("asobi_bot_names", POINTER(c_char_p))
bot_help = _declare("asobi_bot_help", c_char_p, c_char_p)

# jansson, which libasobi links and whose json_t its API speaks: looked up
# through libasobi's handle, so it is the very copy libasobi uses.
# json_decref is an inline function in jansson.h; the binding only ever
# releases objects it holds the single reference to, which is what
# json_decref does when the count falls to zero: json_delete.
_json_loads = _declare("json_loads", P, c_char_p, c_size_t, c_void_p)
_json_dumps = _declare("json_dumps", c_void_p, P, c_size_t)
json_delete = _declare("json_delete", None, P)
_libc = ctypes.CDLL(None)
_free = _libc.free
_free.argtypes = [c_void_p]
_free.restype = None

JSON_COMPACT = 0x20
JSON_ENCODE_ANY = 0x200
JSON_DECODE_ANY = 0x4


def take_json(handle):
    """The Python value of a json_t * that the caller owns; releases it."""
    if not handle:
        return None
    text = _json_dumps(handle, JSON_COMPACT | JSON_ENCODE_ANY)
    json_delete(handle)
    if not text:
        raise MemoryError("asobi: json_dumps failed")
    try:
        return json.loads(ctypes.string_at(text).decode("utf-8"))
    finally:
        _free(text)


def take_string(pointer):
    """The text of a malloc'd char * that the caller owns; frees it."""
    if not pointer:
        return None
    try:
        return ctypes.string_at(pointer).decode("utf-8")
    finally:
        _free(pointer)


def make_json(value):
    """A new json_t * (the caller owns it) holding a Python value; None for None."""
    if value is None:
        return None
    text = json.dumps(value, ensure_ascii=True, allow_nan=False).encode("ascii")
    error = ctypes.create_string_buffer(512)  # json_error_t is smaller
    handle = _json_loads(text, JSON_DECODE_ANY, error)
    if not handle:
        raise ValueError("asobi: could not pass %r to the library as JSON" % (value,))
    return handle


def describe_error(err):
    """(code name, message) of a filled asobi_error."""
    return code_name(err.code).decode("ascii"), err.message.decode("utf-8", "replace")


__all__ = ["lib", "path", "Error", "Result", "Rng", "byref"]
