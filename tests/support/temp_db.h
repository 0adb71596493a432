/* temp_db.h — a SQLite database in a temporary file for the server's tests, and its removal with WAL mode's two side files. */
#ifndef ASOBI_TEST_TEMP_DB_H
#define ASOBI_TEST_TEMP_DB_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Make an empty file /tmp/asobi-test-WHAT-XXXXXX; path holds its name (cap >= 64). */
static inline void temp_db_make(char *path, size_t cap, const char *what)
{
    snprintf(path, cap, "/tmp/asobi-test-%s-XXXXXX", what);
    int fd = mkstemp(path);
    if (fd >= 0)
        close(fd);
}

/* Remove the database and the -wal and -shm files SQLite keeps beside it. */
static inline void temp_db_remove(const char *path)
{
    char side[256];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
}

#endif
