/* view_writer.h — the writer a game's view hook fills: the same calls give compact JSON text or a jansson tree (internal: games and core). */
#ifndef ASOBI_VIEW_WRITER_H
#define ASOBI_VIEW_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* One implementation of each view, two outputs
 * --------------------------------------------
 * A game's view hook writes its fields once, through the vw_ calls below,
 * and core decides what they become:
 *
 *   - text: compact JSON appended to a growable buffer, byte for byte what
 *     json_dumps(tree, JSON_COMPACT) prints for the tree the same calls
 *     would build (asobi_state_view_text: no tree, no dump, ~10x faster);
 *   - tree: that jansson tree (asobi_state_view, for every caller that
 *     reads the view as json_t).
 *
 * Every call names its place with key: the member's name inside an object,
 * NULL inside an array. Containers nest with *_begin / *_end:
 *
 *     vw_int(w, "cycle", s->cycle);          // "cycle":3
 *     vw_array_begin(w, "hand");             // "hand":[
 *     vw_str(w, NULL, "5");                  //   "5"
 *     vw_array_end(w);                       // ]
 *     vw_seats(w, "winners", 0x5);           // "winners":[0,2]
 *
 * Members come out in the order written, as jansson keeps insertion order.
 * A view must not write the same key twice in one object (jansson would keep
 * the first place and the last value; the text cannot take a member back).
 * A string (or key) that is not well-formed UTF-8 is left out with its
 * member, as jansson's json_string refuses it; the games only write valid
 * text. An allocation failure, a key where a value is due (or none where a
 * member is due), a container under a key that is not UTF-8, an end that
 * does not match its begin or nesting deeper than ASOBI_VW_MAX_DEPTH makes
 * the writer fail: every later call does nothing and core returns NULL for the view. */

#define ASOBI_VW_MAX_DEPTH 16

typedef struct asobi_vw {
    bool tree;     /* the backend: the jansson tree (true) or the text */
    bool failed;   /* see above: the result is NULL */
    bool comma;    /* text: the open container holds a value already */
    int depth;     /* open containers, the root object included */
    uint32_t arrays; /* bit d: the container at depth d+1 is an array */
    /* text */
    char *buf;
    size_t len, cap;
    size_t headroom; /* bytes before the text's '{' (asobi_vw_start_text_in) */
    /* tree: the open containers, borrowed (stack[0], the root, is owned) */
    json_t *stack[ASOBI_VW_MAX_DEPTH];
} asobi_vw;

void vw_int(asobi_vw *w, const char *key, long long value);
void vw_str(asobi_vw *w, const char *key, const char *text);
void vw_bool(asobi_vw *w, const char *key, bool value);
void vw_null(asobi_vw *w, const char *key);
/* An array of the seats in a mask: 0b101 -> [0,2] (as asobi_json_seats). */
void vw_seats(asobi_vw *w, const char *key, uint32_t mask);
void vw_object_begin(asobi_vw *w, const char *key);
void vw_object_end(asobi_vw *w);
void vw_array_begin(asobi_vw *w, const char *key);
void vw_array_end(asobi_vw *w);
/* Any jansson value, as json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY)
 * prints it (text) or shared by reference (tree): for the rare members that
 * are trees already, such as a result's real-valued scores. */
void vw_json(asobi_vw *w, const char *key, const json_t *value);

/* A state's view as a member: the object asobi_state_view(state, seat) gives,
 * written into this writer (state.c). For messages that carry a view among
 * other members, as the server's updates do. Fails the writer for a viewer
 * that asobi_state_view refuses. */
struct asobi_state;
void vw_view(asobi_vw *w, const char *key, const struct asobi_state *state, int seat);

/* For core: a writer with its root object open, of either backend (false
 * when that first allocation fails), and its result with the root closed:
 * the malloc'd NUL-terminated text and its length (*len may be NULL), or
 * the tree (a new reference). NULL when the writer failed or the calls left
 * a container open; the writer holds nothing afterwards either way. */
bool asobi_vw_start_text(asobi_vw *w, size_t capacity);
bool asobi_vw_start_tree(asobi_vw *w);
char *asobi_vw_finish_text(asobi_vw *w, size_t *len);
json_t *asobi_vw_finish_tree(asobi_vw *w);
/* A text writer into a buffer its caller keeps from one message to the next
 * (a server's send buffer: no allocation per message once it has grown),
 * the text after headroom bytes left for a transport's header (such as
 * libwebsockets' LWS_PRE). buf may be NULL (cap 0). The writer owns the
 * buffer from start to finish, and finish hands it back, grown if need be,
 * through *buf and *cap, with the text's length (no NUL counted; one
 * follows it). A failed writer frees the buffer: 0, *buf NULL, *cap 0.
 * Call finish after every start, even a failed one. */
bool asobi_vw_start_text_in(asobi_vw *w, char *buf, size_t cap, size_t headroom);
size_t asobi_vw_finish_text_in(asobi_vw *w, char **buf, size_t *cap);
/* For a tree whose calls wrote one member under key (a list, say): that
 * member (a new reference), the rest freed; NULL as above. */
json_t *asobi_vw_finish_member(asobi_vw *w, const char *key);

#endif
