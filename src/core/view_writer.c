/* view_writer.c — the view writer (view_writer.h): compact JSON text printed as jansson prints it, or the jansson tree itself. */
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "view_writer.h"

/* ---- both backends -------------------------------------------------------- */

static bool fail(asobi_vw *w)
{
    w->failed = true;
    return false;
}

/* May a value go into the open container under key (a name in an object,
 * NULL in an array)? A misplaced call makes the writer fail. */
static bool placed(asobi_vw *w, const char *key)
{
    if (w->failed)
        return false;
    if (w->depth < 1 || (key == NULL) != (bool)((w->arrays >> (w->depth - 1)) & 1u))
        return fail(w);
    return true;
}

static void mark_kind(asobi_vw *w, bool array)
{
    if (array)
        w->arrays |= 1u << w->depth;
    else
        w->arrays &= ~(1u << w->depth);
}

/* ---- text ----------------------------------------------------------------- */

static bool grow(asobi_vw *w, size_t need)
{
    if (w->len > SIZE_MAX / 4 || need > SIZE_MAX / 4 - w->len)
        return fail(w);
    size_t cap = w->cap ? w->cap : 256;
    while (cap - w->len < need)
        cap *= 2;
    char *buf = realloc(w->buf, cap);
    if (!buf)
        return fail(w);
    w->buf = buf;
    w->cap = cap;
    return true;
}

/* Room for need more bytes after len. */
static inline bool room(asobi_vw *w, size_t need)
{
    return w->cap - w->len >= need || grow(w, need);
}

/* The length of the well-formed UTF-8 character that starts with the byte
 * s[0] >= 0x80, or 0: jansson's rules (utf.c), no overlong forms, no
 * surrogates, nothing above U+10FFFF. The text ends with a NUL, which is no
 * continuation byte, so the loop never reads past it. */
static size_t utf8_char(const unsigned char *s)
{
    unsigned c = s[0];
    size_t n;
    uint32_t v;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2, v = c & 0x1Fu;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, v = c & 0x0Fu;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, v = c & 0x07u;
    else
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0u) != 0x80u)
            return 0;
        v = (v << 6) | (s[i] & 0x3Fu);
    }
    if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) || (n == 3 && v < 0x800) || (n == 4 && v < 0x10000))
        return 0;
    return n;
}

/* The bytes a JSON string holds as they are (without JSON_ENSURE_ASCII or
 * JSON_ESCAPE_SLASH, as the views are dumped): printable ASCII but '"' and
 * '\\', 0x7F included. NUL, controls, those two and bytes >= 0x80 are not. */
#define ROW(x) x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x
static const unsigned char plain[256] = {
    ROW(0), ROW(0),                                 /* 0x00-0x1F */
    1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* 0x20-0x2F: '"' */
    ROW(1), ROW(1),                                 /* 0x30-0x4F */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, /* 0x50-0x5F: '\\' */
    ROW(1), ROW(1),                                 /* 0x60-0x7F */
    ROW(0), ROW(0), ROW(0), ROW(0), ROW(0), ROW(0), ROW(0), ROW(0),
};
#undef ROW

/* Write text (NUL-terminated) at p as a JSON string, escaped as jansson's
 * dump.c escapes it without flags: \" and \\, \b \f \n \r \t, other bytes
 * below 0x20 as \u00XX (upper-case hex); '/', 0x7F and UTF-8 as they are.
 * p has room for 6 * strlen(text) + 2 bytes. Returns the end, or NULL when
 * text is not well-formed UTF-8. */
static char *escape(char *p, const char *text)
{
    static const char hex[] = "0123456789ABCDEF";
    const unsigned char *s = (const unsigned char *)text;
    *p++ = '"';
    for (;;) {
        unsigned c = *s;
        if (plain[c]) {
            *p++ = (char)c;
            s++;
            continue;
        }
        if (c == 0)
            break;
        if (c >= 0x80) {
            size_t k = utf8_char(s);
            if (k == 0)
                return NULL;
            for (size_t i = 0; i < k; i++) /* 2 to 4 bytes: no memcpy call */
                *p++ = (char)*s++;
            continue;
        }
        *p++ = '\\';
        switch (c) {
        case '"': *p++ = '"'; break;
        case '\\': *p++ = '\\'; break;
        case '\b': *p++ = 'b'; break;
        case '\f': *p++ = 'f'; break;
        case '\n': *p++ = 'n'; break;
        case '\r': *p++ = 'r'; break;
        case '\t': *p++ = 't'; break;
        default:
            *p++ = 'u';
            *p++ = '0';
            *p++ = '0';
            *p++ = hex[c >> 4];
            *p++ = hex[c & 15u];
        }
        s++;
    }
    *p++ = '"';
    return p;
}

/* The length of the longest prefix of s that JSON holds as it is: all of s
 * for a plain key or word (s's NUL ends the scan, plain[0] being 0). */
static inline size_t plain_prefix(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (plain[u[i]])
        i++;
    return i;
}

/* The room a string of n bytes may take escaped (6 bytes a byte, quotes);
 * SIZE_MAX, which head() refuses, for a string too long to bother. */
static size_t escaped_max(size_t n) { return n > SIZE_MAX / 32 ? SIZE_MAX : 6 * n + 2; }

/* Make room for what comes before a value (a comma after an earlier value,
 * the member's "key": in an object) and for extra bytes of the value, write
 * that head and return where the value goes. Nothing counts until commit():
 * a value refused after its head leaves the text as it was. NULL when out of
 * memory (the writer fails) or when the key is not UTF-8 (the member is
 * left out). */
static char *head(asobi_vw *w, const char *key, size_t extra)
{
    size_t plain_len = key ? plain_prefix(key) : 0;
    bool simple = !key || key[plain_len] == '\0'; /* the usual key: copied as it is */
    size_t need = simple ? plain_len + 2 : escaped_max(plain_len + strlen(key + plain_len));
    if (need > SIZE_MAX / 4 || extra > SIZE_MAX / 4) {
        fail(w);
        return NULL;
    }
    if (!room(w, need + extra + 2)) /* the comma and the colon */
        return NULL;
    char *p = w->buf + w->len;
    if (w->comma)
        *p++ = ',';
    if (key && simple) {
        *p++ = '"';
        memcpy(p, key, plain_len);
        p += plain_len;
        *p++ = '"';
        *p++ = ':';
    } else if (key) {
        p = escape(p, key);
        if (!p)
            return NULL;
        *p++ = ':';
    }
    return p;
}

/* The value written up to end: it counts, and the next one needs a comma. */
static void commit(asobi_vw *w, char *end)
{
    w->len = (size_t)(end - w->buf);
    w->comma = true;
}

/* value in decimal, as printf's %lld, at p (room for 20 bytes); the end. */
static char *put_decimal(char *p, long long value)
{
    if (value >= 0 && value < 10) {
        *p++ = (char)('0' + value);
        return p;
    }
    unsigned long long u = value < 0 ? 0ull - (unsigned long long)value : (unsigned long long)value;
    char tmp[24];
    char *end = tmp + sizeof tmp, *q = end;
    do {
        *--q = (char)('0' + u % 10u);
        u /= 10u;
    } while (u);
    if (value < 0)
        *--q = '-';
    size_t n = (size_t)(end - q);
    memcpy(p, q, n);
    return p + n;
}

/* A short literal as the value (true, false, null). */
static void text_literal(asobi_vw *w, const char *key, const char *lit, size_t n)
{
    char *p = head(w, key, n);
    if (p) {
        memcpy(p, lit, n);
        commit(w, p + n);
    }
}

/* ---- tree ------------------------------------------------------------------ */

/* Put v (a new reference, NULL when its allocation failed) in the open
 * container under key. */
static void tree_put(asobi_vw *w, const char *key, json_t *v)
{
    if (!v) {
        fail(w);
        return;
    }
    json_t *top = w->stack[w->depth - 1];
    if (key && !asobi_utf8_valid(key)) { /* as json_object_set_new refuses it */
        json_decref(v);
        return;
    }
    if (key ? json_object_set_new_nocheck(top, key, v) : json_array_append_new(top, v))
        fail(w);
}

/* ---- the calls ---------------------------------------------------------------- */

void vw_int(asobi_vw *w, const char *key, long long value)
{
    if (!placed(w, key))
        return;
    if (w->tree) {
        tree_put(w, key, json_integer(value));
        return;
    }
    char *p = head(w, key, 20);
    if (p)
        commit(w, put_decimal(p, value));
}

void vw_str(asobi_vw *w, const char *key, const char *text)
{
    if (!placed(w, key) || !text) /* NULL is no string: left out, as json_string(NULL) is */
        return;
    if (w->tree) {
        if (asobi_utf8_valid(text))
            tree_put(w, key, json_string_nocheck(text));
        return;
    }
    size_t plain_len = plain_prefix(text);
    if (text[plain_len] == '\0') { /* the usual value: copied as it is */
        char *p = head(w, key, plain_len + 2);
        if (p) {
            *p++ = '"';
            memcpy(p, text, plain_len);
            p += plain_len;
            *p++ = '"';
            commit(w, p);
        }
        return;
    }
    char *p = head(w, key, escaped_max(plain_len + strlen(text + plain_len)));
    if (p && (p = escape(p, text)) != NULL)
        commit(w, p);
}

void vw_bool(asobi_vw *w, const char *key, bool value)
{
    if (!placed(w, key))
        return;
    if (w->tree)
        tree_put(w, key, json_boolean(value));
    else
        text_literal(w, key, value ? "true" : "false", value ? 4 : 5);
}

void vw_null(asobi_vw *w, const char *key)
{
    if (!placed(w, key))
        return;
    if (w->tree)
        tree_put(w, key, json_null());
    else
        text_literal(w, key, "null", 4);
}

void vw_seats(asobi_vw *w, const char *key, uint32_t mask)
{
    if (!placed(w, key))
        return;
    if (w->tree) {
        json_t *a = json_array();
        for (int i = 0; a && i < 32; i++)
            if ((mask & (1u << i)) && json_array_append_new(a, json_integer(i))) {
                json_decref(a);
                a = NULL;
            }
        tree_put(w, key, a);
        return;
    }
    char *p = head(w, key, 2 + 32 * 3);
    if (!p)
        return;
    *p++ = '[';
    bool first = true;
    for (int i = 0; i < 32; i++)
        if (mask & (1u << i)) {
            if (!first)
                *p++ = ',';
            first = false;
            p = put_decimal(p, i);
        }
    *p++ = ']';
    commit(w, p);
}

static void begin(asobi_vw *w, const char *key, bool array)
{
    if (!placed(w, key))
        return;
    if (w->depth >= ASOBI_VW_MAX_DEPTH) {
        fail(w);
        return;
    }
    if (w->tree) {
        /* a container cannot be left out like a value: what goes into it
         * would land in its parent, so a bad key fails the writer */
        if (key && !asobi_utf8_valid(key)) {
            fail(w);
            return;
        }
        json_t *c = array ? json_array() : json_object();
        tree_put(w, key, c);
        if (w->failed)
            return;
        w->stack[w->depth] = c;
    } else {
        char *p = head(w, key, 1);
        if (!p) {
            fail(w); /* out of memory, or the key is not UTF-8: as above */
            return;
        }
        *p++ = array ? '[' : '{';
        w->len = (size_t)(p - w->buf);
        w->comma = false;
    }
    mark_kind(w, array);
    w->depth++;
}

static void end(asobi_vw *w, bool array)
{
    if (w->failed)
        return;
    /* the root object is core's to close; an end must match its begin */
    if (w->depth < 2 || (bool)((w->arrays >> (w->depth - 1)) & 1u) != array) {
        fail(w);
        return;
    }
    if (!w->tree) {
        if (!room(w, 1))
            return;
        char *p = w->buf + w->len;
        *p++ = array ? ']' : '}';
        commit(w, p);
    }
    w->depth--;
}

void vw_object_begin(asobi_vw *w, const char *key) { begin(w, key, false); }
void vw_object_end(asobi_vw *w) { end(w, false); }
void vw_array_begin(asobi_vw *w, const char *key) { begin(w, key, true); }
void vw_array_end(asobi_vw *w) { end(w, true); }

void vw_json(asobi_vw *w, const char *key, const json_t *value)
{
    if (!placed(w, key))
        return;
    if (!value) {
        fail(w);
        return;
    }
    if (w->tree) {
        tree_put(w, key, json_incref((json_t *)value));
        return;
    }
    char *dumped = json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY);
    if (!dumped) {
        fail(w);
        return;
    }
    size_t n = strlen(dumped);
    char *p = head(w, key, n);
    if (p) {
        memcpy(p, dumped, n);
        commit(w, p + n);
    }
    free(dumped);
}

/* ---- for core ------------------------------------------------------------------ */

static void start(asobi_vw *w, bool tree)
{
    w->tree = tree;
    w->failed = false;
    w->comma = false;
    w->depth = 1;
    w->arrays = 0;
    w->buf = NULL;
    w->len = w->cap = w->headroom = 0;
    w->stack[0] = NULL;
}

bool asobi_vw_start_text(asobi_vw *w, size_t capacity)
{
    start(w, false);
    if (!grow(w, capacity < 2 ? 2 : capacity))
        return false;
    w->buf[w->len++] = '{';
    return true;
}

bool asobi_vw_start_text_in(asobi_vw *w, char *buf, size_t cap, size_t headroom)
{
    start(w, false);
    w->buf = buf;
    w->cap = buf ? cap : 0;
    w->headroom = headroom;
    if (!room(w, headroom > SIZE_MAX / 4 ? SIZE_MAX : headroom + 2)) /* the headroom, '{' and a '}' */
        return false;
    w->len = headroom;
    w->buf[w->len++] = '{';
    return true;
}

size_t asobi_vw_finish_text_in(asobi_vw *w, char **buf, size_t *cap)
{
    size_t len = 0;
    if (!w->failed && w->depth == 1 && room(w, 2)) {
        w->buf[w->len++] = '}';
        w->buf[w->len] = '\0';
        len = w->len - w->headroom;
        *buf = w->buf;
        *cap = w->cap;
    } else {
        free(w->buf);
        *buf = NULL;
        *cap = 0;
    }
    w->buf = NULL;
    w->len = w->cap = w->headroom = 0;
    w->failed = true;
    return len;
}

bool asobi_vw_start_tree(asobi_vw *w)
{
    start(w, true);
    w->stack[0] = json_object();
    return w->stack[0] ? true : fail(w);
}

char *asobi_vw_finish_text(asobi_vw *w, size_t *len)
{
    char *text = NULL;
    if (!w->failed && w->depth == 1 && room(w, 2)) {
        w->buf[w->len++] = '}';
        w->buf[w->len] = '\0';
        text = w->buf;
        if (len)
            *len = w->len;
    } else {
        free(w->buf);
    }
    w->buf = NULL;
    w->len = w->cap = 0;
    w->failed = true;
    return text;
}

json_t *asobi_vw_finish_tree(asobi_vw *w)
{
    json_t *root = w->stack[0];
    w->stack[0] = NULL;
    if (w->failed || w->depth != 1) {
        json_decref(root);
        root = NULL;
    }
    w->failed = true;
    return root;
}

json_t *asobi_vw_finish_member(asobi_vw *w, const char *key)
{
    json_t *root = asobi_vw_finish_tree(w);
    json_t *member = json_incref(json_object_get(root, key));
    json_decref(root);
    return member;
}
