/* test_limits.c — the limits per client address (src/server/limits.c), without sockets: addresses, token buckets, counts, the log's summary (issue 31). */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "server/limits.h"
#include "server/reply.h"

static const limits_config defaults = {
    .connections_per_address = 256,
    .connections = 4096,
    .tables_per_minute = 60,
    .table_burst = 60,
    .bot_tables_per_address = 4,
    .spectators_per_address = 64,
    .messages_per_address = 200,
    .messages_per_seat = 20,
    .log_lines_per_address = 10,
};

static limits_address *address(limits *l, const char *text)
{
    unsigned char key[LIMITS_KEY_BYTES];
    char name[48];
    limits_ip ip;
    assert_true(limits_ip_parse(text, strlen(text), &ip));
    limits_key_of(&ip, key, name, sizeof name);
    return limits_address_of(l, key, name);
}

/* An IPv4 client is its address, whether it comes as IPv4 or as IPv4 in
 * IPv6; an IPv6 client is its /64 (what one subscriber gets). */
static void test_an_address_is_ipv4_or_an_ipv6_slash_64(void **state)
{
    (void)state;
    limits l;
    limits_init(&l, &defaults, 7);
    limits_address *a = address(&l, "192.0.2.1");
    assert_ptr_equal(address(&l, "::ffff:192.0.2.1"), a);
    assert_ptr_not_equal(address(&l, "192.0.2.2"), a);
    limits_address *b = address(&l, "2001:db8:1:2::1");
    assert_ptr_equal(address(&l, "2001:db8:1:2:ffff:eeee:dddd:cccc"), b);
    assert_ptr_not_equal(address(&l, "2001:db8:1:3::1"), b);
    assert_string_equal(a->name, "192.0.2.1");
    assert_string_equal(b->name, "2001:db8:1:2::/64");
    assert_int_equal(l.addresses, 4);
    limits_free(&l);
}

static limits_ip ip_of(const char *text)
{
    limits_ip ip;
    assert_true(limits_ip_parse(text, strlen(text), &ip));
    return ip;
}

static void assert_client(const limits_range *trusted, int n, const char *peer, const char *xff,
                          const char *forwarded, const char *want)
{
    limits_ip p = ip_of(peer), w = ip_of(want);
    limits_ip got = limits_client_of(trusted, n, &p, xff, forwarded);
    assert_memory_equal(got.b, w.b, 16);
}

/* Behind --trusted-proxy (issue 39, point 2): the right-most forwarded
 * address that is not trusted is the client; anyone else's header is
 * ignored, so nobody chooses the address they are counted under. */
static void test_the_client_behind_a_trusted_proxy(void **state)
{
    (void)state;
    limits_range t[3];
    assert_true(limits_range_parse("127.0.0.1", &t[0]));
    assert_true(limits_range_parse("10.0.0.0/8", &t[1]));
    assert_true(limits_range_parse("fd00::/8", &t[2]));
    assert_false(limits_range_parse("10.0.0.0/33", &t[2]));
    assert_false(limits_range_parse("1.2.3.4:80", &t[2]));
    assert_false(limits_range_parse("example.org", &t[2]));
    assert_false(limits_range_parse("10.0.0.0/", &t[2]));
    /* a direct client: its own address whatever it writes */
    assert_client(t, 3, "198.51.100.7", "203.0.113.1", NULL, "198.51.100.7");
    /* one front */
    assert_client(t, 3, "127.0.0.1", "203.0.113.1", NULL, "203.0.113.1");
    /* a client that wrote a header of its own: the front appended the real one */
    assert_client(t, 3, "127.0.0.1", "1.1.1.1, 203.0.113.1", NULL, "203.0.113.1");
    /* two fronts, both trusted */
    assert_client(t, 3, "127.0.0.1", "203.0.113.1, 10.1.2.3", NULL, "203.0.113.1");
    assert_client(t, 3, "127.0.0.1", "203.0.113.1,10.1.2.3 , fd12::1", NULL, "203.0.113.1");
    /* only trusted hops: the left-most; no header: the proxy */
    assert_client(t, 3, "127.0.0.1", "10.0.0.9, 10.0.0.8", NULL, "10.0.0.9");
    assert_client(t, 3, "127.0.0.1", NULL, NULL, "127.0.0.1");
    /* garbage where a trusted hop wrote an address: the chain ends at that hop */
    assert_client(t, 3, "127.0.0.1", "203.0.113.1, unknown, 10.0.0.5", NULL, "10.0.0.5");
    assert_client(t, 3, "127.0.0.1", "nonsense", NULL, "127.0.0.1");
    /* ports and IPv6 */
    assert_client(t, 3, "127.0.0.1", "203.0.113.1:5555", NULL, "203.0.113.1");
    assert_client(t, 3, "127.0.0.1", "[2001:db8::1]:443", NULL, "2001:db8::1");
    assert_client(t, 3, "::ffff:127.0.0.1", "2001:db8::2", NULL, "2001:db8::2");
    /* RFC 7239 */
    assert_client(t, 3, "127.0.0.1", NULL, "for=192.0.2.60;proto=http;by=203.0.113.43", "192.0.2.60");
    assert_client(t, 3, "127.0.0.1", NULL, "for=1.1.1.1, For=\"[2001:db8:cafe::17]:4711\"", "2001:db8:cafe::17");
    assert_client(t, 3, "127.0.0.1", NULL, "for=_hidden", "127.0.0.1");
}

/* A token bucket: a burst, then the rate; a refusal says when to come back. */
static void test_a_bucket_gives_a_burst_then_its_rate(void **state)
{
    (void)state;
    limits_bucket b = {0};
    double retry = 0;
    for (int i = 0; i < 5; i++)
        assert_true(limits_bucket_take(&b, 1, 5, 100.0, &retry));
    assert_false(limits_bucket_take(&b, 1, 5, 100.0, &retry));
    assert_true(retry > 0.99 && retry <= 1.0);
    assert_false(limits_bucket_take(&b, 1, 5, 100.5, NULL));
    assert_true(limits_bucket_take(&b, 1, 5, 101.1, NULL));
    assert_true(limits_bucket_take(&b, 0, 0, 101.1, NULL)); /* rate 0: no limit */
}

/* Connections: a cap per address and one for all; a freed place is free. */
static void test_connections_per_address_and_in_all(void **state)
{
    (void)state;
    limits_config cfg = defaults;
    cfg.connections_per_address = 3;
    cfg.connections = 5;
    limits l;
    limits_init(&l, &cfg, 1);
    limits_address *a = address(&l, "10.0.0.1"), *b = address(&l, "10.0.0.2"), *c = address(&l, "10.0.0.3");
    for (int i = 0; i < 3; i++)
        assert_true(limits_connect(&l, a, 1));
    assert_false(limits_connect(&l, a, 1));
    assert_int_equal(l.refused[LIMIT_CONNECTIONS_PER_ADDRESS], 1);
    assert_true(limits_connect(&l, b, 1));
    assert_true(limits_connect(&l, b, 1));
    assert_false(limits_connect(&l, c, 1)); /* five in all */
    assert_int_equal(l.refused[LIMIT_CONNECTIONS], 1);
    limits_disconnect(&l, a, 2);
    assert_true(limits_connect(&l, c, 2));
    assert_int_equal(l.connections, 5);
    limits_free(&l);
}

/* A household: a burst of 30 creations and rematches never refused by the
 * defaults; a loop of 5 s gets at most the burst and a table a second. */
static void test_table_creations_a_burst_then_one_a_second(void **state)
{
    (void)state;
    limits l;
    limits_init(&l, &defaults, 1);
    limits_address *a = address(&l, "10.0.0.1");
    double retry = 0, now = 1000;
    for (int i = 0; i < 30; i++)
        assert_true(limits_create_table(&l, a, now, &retry));
    int made = 30;
    for (int i = 0; i < 5000; i++) /* 5 s of a loop, a request a millisecond */
        made += limits_create_table(&l, a, now + i / 1000.0, &retry);
    assert_true(made >= 60 && made <= 66);
    assert_true(retry > 0 && retry <= 1.0);
    assert_true(limits_create_table(&l, address(&l, "10.0.0.2"), now + 5, &retry)); /* another address */
    limits_free(&l);
}

static bool odd_ids_alive(void *ctx, int64_t id)
{
    (void)ctx;
    return id % 2 == 1;
}

/* All-bot tables: at most so many alive at once; the ended ones are let go. */
static void test_bot_tables_that_ended_are_let_go(void **state)
{
    (void)state;
    limits l;
    limits_init(&l, &defaults, 1);
    limits_address *a = address(&l, "10.0.0.1");
    for (int64_t id = 1; id <= 4; id++) {
        assert_true(limits_bot_table_allowed(&l, a, odd_ids_alive, NULL, 1));
        limits_bot_table_made(&l, a, 2 * id - 1, 1); /* alive */
    }
    assert_false(limits_bot_table_allowed(&l, a, odd_ids_alive, NULL, 1));
    assert_int_equal(l.refused[LIMIT_BOT_TABLES], 1);
    a->bot_tables.id[0] = 2; /* that one ended */
    assert_true(limits_bot_table_allowed(&l, a, odd_ids_alive, NULL, 1));
    assert_int_equal(a->bot_tables.n, 3);
    limits_free(&l);
}

/* Messages: one seat's connections share the seat's budget; the address's
 * budget is shared by its seats. */
static void test_messages_per_seat_and_per_address(void **state)
{
    (void)state;
    limits l;
    limits_init(&l, &defaults, 1);
    limits_address *a = address(&l, "10.0.0.1");
    limits_bucket seat = {0};
    int handled = 0;
    for (int i = 0; i < 200; i++) /* ten sockets of one seat, 200 messages at once */
        handled += limits_message(&l, a, &seat, 50.0);
    assert_int_equal(handled, 20);
    assert_int_equal(l.refused[LIMIT_MESSAGES_SEAT], 180);
    limits_bucket seats[40] = {{0}};
    handled = 0;
    for (int i = 0; i < 40 * 20; i++) /* 40 seats from one address */
        handled += limits_message(&l, a, &seats[i % 40], 60.0);
    assert_int_equal(handled, 400); /* a burst of two seconds' worth */
    assert_int_equal(l.refused[LIMIT_MESSAGES_ADDRESS], 400);
    limits_free(&l);
}

/* The refusals are summed up at most once a second, never a line each. */
static void test_the_summary_is_one_line_a_second(void **state)
{
    (void)state;
    limits l;
    limits_init(&l, &defaults, 1);
    limits_address *a = address(&l, "10.0.0.9");
    char line[256];
    assert_false(limits_summary(&l, 10, line, sizeof line));
    for (int i = 0; i < 1000; i++)
        limits_refused(&l, LIMIT_CONNECTIONS_PER_ADDRESS, a);
    limits_refused(&l, LIMIT_TABLES, a);
    assert_true(limits_summary(&l, 10, line, sizeof line));
    assert_string_equal(line, "1000 connections_per_address, 1 tables_per_address (the last from 10.0.0.9)");
    limits_refused(&l, LIMIT_TABLES, a);
    assert_false(limits_summary(&l, 10.5, line, sizeof line));
    assert_true(limits_summary(&l, 11, line, sizeof line));
    assert_int_equal(l.refused[LIMIT_CONNECTIONS_PER_ADDRESS], 1000);
    limits_free(&l);
}

/* A flood of refusals from one address: a burst of five seconds' lines,
 * then ten a second; the rest only counted. Another address is not held
 * back, nor a refusal without an address. */
static void test_a_flood_of_refusals_has_few_log_lines(void **state)
{
    (void)state;
    limits l;
    limits_init(&l, &defaults, 1);
    limits_address *a = address(&l, "10.0.0.1");
    int lines = 0;
    for (int i = 0; i < 10000; i++) /* 10,000 refusals in 2 s */
        lines += limits_log_line(&l, a, 10 + i / 5000.0);
    assert_true(lines >= 69 && lines <= 71);
    assert_int_equal(l.refused[LIMIT_LOG_LINES], 10000 - lines);
    assert_true(limits_log_line(&l, address(&l, "10.0.0.2"), 12));
    assert_true(limits_log_line(&l, NULL, 12));
    limits_free(&l);
}

/* Addresses that hold nothing and whose buckets are full again are
 * forgotten: the memory follows the clients present. */
static void test_idle_addresses_are_forgotten(void **state)
{
    (void)state;
    limits l;
    limits_init(&l, &defaults, 1);
    limits_address *a = address(&l, "10.0.0.1"), *b = address(&l, "10.0.0.2");
    assert_true(limits_connect(&l, a, 1));
    assert_true(limits_create_table(&l, b, 1, NULL));
    limits_sweep(&l, 1.5);
    assert_int_equal(l.addresses, 2); /* a holds a connection; b's bucket is not full */
    limits_sweep(&l, 100);
    assert_int_equal(l.addresses, 1);
    limits_disconnect(&l, a, 100);
    limits_sweep(&l, 100);
    assert_int_equal(l.addresses, 0);
    limits_free(&l);
}

/* A refusal echoes at most a capped part of a client's id. */
static void test_a_refusal_echoes_a_capped_id(void **state)
{
    (void)state;
    char big[60001];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    json_t *id = json_string(big), *echo = srv_echo_id(id);
    assert_int_equal(json_string_length(echo), SRV_ECHO_ID_MAX);
    json_decref(id);
    json_decref(echo);
    id = json_string("ああああああああああああああああああああああ"); /* 66 bytes: cut between characters */
    echo = srv_echo_id(id);
    assert_int_equal(json_string_length(echo), 63);
    json_decref(id);
    json_decref(echo);
    id = json_pack("[i,s]", 7, big);
    echo = srv_echo_id(id);
    assert_true(json_is_null(echo));
    json_decref(id);
    json_decref(echo);
    id = json_pack("{s:i}", "n", 12);
    echo = srv_echo_id(id);
    assert_ptr_equal(echo, id);
    json_decref(id);
    json_decref(echo);
    echo = srv_echo_id(NULL);
    assert_true(json_is_null(echo));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_an_address_is_ipv4_or_an_ipv6_slash_64),
        cmocka_unit_test(test_a_bucket_gives_a_burst_then_its_rate),
        cmocka_unit_test(test_the_client_behind_a_trusted_proxy),
        cmocka_unit_test(test_connections_per_address_and_in_all),
        cmocka_unit_test(test_table_creations_a_burst_then_one_a_second),
        cmocka_unit_test(test_bot_tables_that_ended_are_let_go),
        cmocka_unit_test(test_messages_per_seat_and_per_address),
        cmocka_unit_test(test_the_summary_is_one_line_a_second),
        cmocka_unit_test(test_a_flood_of_refusals_has_few_log_lines),
        cmocka_unit_test(test_idle_addresses_are_forgotten),
        cmocka_unit_test(test_a_refusal_echoes_a_capped_id),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
