/* replay_main.c — a plain main() for the fuzz targets: runs every file of a corpus once (CTest, any compiler). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"

/* Why not libFuzzer's own -runs=0: the corpus must replay in the normal and
 * the sanitizer GCC builds too, where there is no libFuzzer. This driver
 * calls the same LLVMFuzzerTestOneInput on each file: no exploration, just
 * every seed and every kept crash input, as a regression test. */

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return 1;
    }
    size_t cap = 1 << 16, len = 0, got;
    uint8_t *buf = malloc(cap);
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *bigger = realloc(buf, cap *= 2);
            if (!bigger)
                break;
            buf = bigger;
        }
    }
    fclose(f);
    if (!buf)
        return 1;
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    int files = 0, failures = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "no such corpus: %s\n", argv[i]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            failures += run_file(argv[i]);
            files++;
            continue;
        }
        struct dirent **entries;
        int n = scandir(argv[i], &entries, NULL, NULL);
        if (n < 0)
            return 1;
        char **names = malloc((size_t)n * sizeof *names);
        int count = 0;
        for (int j = 0; j < n; j++) {
            if (entries[j]->d_name[0] != '.') {
                size_t len = strlen(argv[i]) + strlen(entries[j]->d_name) + 2;
                names[count] = malloc(len);
                snprintf(names[count++], len, "%s/%s", argv[i], entries[j]->d_name);
            }
            free(entries[j]);
        }
        free(entries);
        qsort(names, (size_t)count, sizeof *names, compare_names);
        for (int j = 0; j < count; j++) {
            failures += run_file(names[j]);
            files++;
            free(names[j]);
        }
        free(names);
    }
    printf("%d inputs replayed, %d unreadable\n", files, failures);
    return files == 0 || failures ? 1 : 0;
}
