/* temp_store.h — the database a test of store.h's contract runs on: PostgreSQL when pg_fixture.py names one, else a fresh SQLite file. */
#ifndef ASOBI_TEST_TEMP_STORE_H
#define ASOBI_TEST_TEMP_STORE_H

#include <errno.h>
#include <stdlib.h>

#include "temp_db.h"

/* CTest runs each such test binary twice: plainly (a SQLite file in /tmp,
 * named for the program) and under tests/support/pg_fixture.py, which sets
 * ASOBI_TEST_PG to a throwaway PostgreSQL's URI (test_store_pg,
 * test_store_accounts_pg, test_store_ratings_pg). The same test code then
 * checks both backends against one contract. */
static struct {
    char path[128];  /* the SQLite file, when pg is NULL */
    const char *pg;  /* the PostgreSQL URI, or NULL */
} temp_store;

/* cmocka's group setup: choose the backend, make the SQLite file. */
static int temp_store_make(void **state)
{
    (void)state;
    temp_store.pg = getenv("ASOBI_TEST_PG");
    if (temp_store.pg && !*temp_store.pg)
        temp_store.pg = NULL;
    if (!temp_store.pg)
        temp_db_make(temp_store.path, sizeof temp_store.path, program_invocation_short_name);
    return 0;
}

/* cmocka's group teardown: remove the SQLite file and its side files. */
static int temp_store_remove(void **state)
{
    (void)state;
    if (!temp_store.pg)
        temp_db_remove(temp_store.path);
    return 0;
}

/* Where store_open is to open: the URI or the file. */
static const char *temp_store_where(void) { return temp_store.pg ? temp_store.pg : temp_store.path; }

#endif
