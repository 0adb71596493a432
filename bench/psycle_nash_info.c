/* psycle_nash_info.c — the psycle-nash table: positions, time to build, the root value and the exploitability. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>

#include "ai/psycle_nash.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(void)
{
    double t0 = now();
    size_t n = psycle_nash_prepare();
    double t1 = now();
    double v = psycle_nash_value(0, 0x1f, 0x1f, 10, 10, 0);
    printf("positions %zu, built in %.2f s; value of a cycle for seat A %.3e\n", n, t1 - t0, v);
    double br = psycle_nash_best_response_value(0, 0x1f, 0x1f, 10, 10, 0);
    printf("best response to psycle-nash gains %.3e (value for the responder %.3e vs equilibrium %.3e), %.2f s\n",
           br + v, br, -v, now() - t1);
    double x[6];
    for (int t = 1; t <= 5; t++) {
        psycle_nash_round(0, 0x1f & ~(1u << (t - 1)), 0x1f & ~(1u << (t - 1)), t, t, 10, 10, 0, x, NULL);
        printf("first round, target %d bonus +%d:", t, t);
        for (int c = 0; c < 6; c++)
            printf(" %d:%.3f", c, x[c]);
        printf("\n");
    }
    return 0;
}
