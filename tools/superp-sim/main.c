// SPDX-License-Identifier: GPL-2.0
/*
 * superp-sim: run the SUPERp engine simulation natively (fast iteration and
 * timing; the same code runs as the superp_engine_sim KUnit suite).
 *
 *   superp-sim [-n TRANS] [-l LOSS_PPM] [-d DUP_PPM] [-r REORDER_PPM]
 *              [-s SEED] [-u] [-x MAX_RTX] [-w WINDOW] [-t TRANS_WINDOW]
 *              [-B BARRIER_EVERY] [-C CANCEL_EVERY] [-b]
 *   superp-sim -M [-n TRANS] [-S SEEDS]
 *
 * Exits 0 when the run met its expectation: by default every transaction
 * completed exactly once with no error event and both nodes quiescent and
 * unbroken; with -b, the connection broke and every transaction failed.
 * -M runs the matrix of transaction windows 1, 4, 8 and 32, without and
 * with barriers (every 5th transaction), at 1%, 10% and 30% loss, with
 * SEEDS seeds each (default 3), one line per run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "superp_sim.h"

static bool sim_clean(const struct superp_sim_result *res)
{
	return res->completed + res->cancelled == res->submitted &&
	       res->failed == res->cancelled && !res->events &&
	       !res->broken[0] && !res->broken[1] &&
	       res->quiescent[0] && res->quiescent[1];
}

/* Windows x barriers x loss x seeds; every run must finish cleanly. */
static int sim_matrix(const struct superp_sim_cfg *base, unsigned int seeds)
{
	static const unsigned int twin[] = { 1, 4, 8, 32 };
	static const unsigned int loss[] = { 10000, 100000, 300000 };
	struct superp_sim_result res;
	struct superp_sim_cfg cfg;
	unsigned int w, b, l, seed, runs = 0, bad = 0;
	int ret;

	for (w = 0; w < 4; w++)
		for (b = 0; b < 2; b++)
			for (l = 0; l < 3; l++)
				for (seed = 1; seed <= seeds; seed++) {
					cfg = *base;
					cfg.params.tal_trans_window = twin[w];
					cfg.barrier_every = b ? 5 : 0;
					cfg.loss_ppm = loss[l];
					cfg.params.pdl_max_rtx = 8;
					cfg.seed = seed;
					ret = superp_sim_run(&cfg, &res);
					runs++;
					if (ret || !sim_clean(&res))
						bad++;
					printf("%s window %2u barriers %s loss %2u%% seed %u: %llu/%llu completed, simulated %.1f ms%s%s\n",
					       ret || !sim_clean(&res) ? "FAIL" : "ok  ",
					       twin[w], b ? "yes" : "no ",
					       loss[l] / 10000, seed,
					       (unsigned long long)res.completed,
					       (unsigned long long)res.submitted,
					       res.sim_ns / 1e6,
					       res.fail[0] ? ": " : "", res.fail);
				}
	printf("matrix: %u runs, %u failed\n", runs, bad);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct superp_sim_result res;
	struct superp_sim_cfg cfg;
	struct timespec t0, t1;
	bool expect_broken = false, matrix = false, ok;
	unsigned int seeds = 3;
	int opt, ret;

	superp_sim_default_cfg(&cfg);
	while ((opt = getopt(argc, argv, "n:l:d:r:s:ux:w:t:B:C:MS:b")) != -1) {
		switch (opt) {
		case 'C':
			cfg.cancel_every = strtoul(optarg, NULL, 0);
			break;
		case 't':
			cfg.params.tal_trans_window = strtoul(optarg, NULL, 0);
			break;
		case 'B':
			cfg.barrier_every = strtoul(optarg, NULL, 0);
			break;
		case 'M':
			matrix = true;
			break;
		case 'S':
			seeds = strtoul(optarg, NULL, 0);
			break;
		case 'b':
			expect_broken = true;
			break;
		case 'n':
			cfg.ntrans = strtoul(optarg, NULL, 0);
			break;
		case 'l':
			cfg.loss_ppm = strtoul(optarg, NULL, 0);
			break;
		case 'd':
			cfg.dup_ppm = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			cfg.reorder_ppm = strtoul(optarg, NULL, 0);
			break;
		case 's':
			cfg.seed = strtoull(optarg, NULL, 0);
			break;
		case 'u':
			cfg.ordered[0] = false;
			break;
		case 'x':
			cfg.params.pdl_max_rtx = strtoul(optarg, NULL, 0);
			break;
		case 'w':
			cfg.params.pdl_window_size = strtoul(optarg, NULL, 0);
			cfg.params.pdl_receive_win = cfg.params.pdl_window_size;
			cfg.params.tal_trans_window = cfg.params.pdl_window_size;
			break;
		default:
			fprintf(stderr, "usage: %s [-n trans] [-l loss_ppm] [-d dup_ppm] [-r reorder_ppm] [-s seed] [-u] [-x max_rtx] [-w window] [-t trans_window] [-B barrier_every] [-C cancel_every] [-b] | -M [-n trans] [-S seeds]\n",
				argv[0]);
			return 2;
		}
	}
	if (matrix)
		return sim_matrix(&cfg, seeds);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = superp_sim_run(&cfg, &res);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("loss %u ppm: %llu transactions (%llu ok, %llu failed, %llu of them cancelled)\n",
	       cfg.loss_ppm, (unsigned long long)res.submitted,
	       (unsigned long long)res.completed,
	       (unsigned long long)res.failed,
	       (unsigned long long)res.cancelled);
	printf("  packets %llu (data %llu, pure ACKs %llu, NACKs %llu), lost %llu, duplicated %llu\n",
	       (unsigned long long)res.packets,
	       (unsigned long long)res.data_pkts,
	       (unsigned long long)res.pure_acks,
	       (unsigned long long)res.nacks,
	       (unsigned long long)res.lost,
	       (unsigned long long)res.duplicated);
	printf("  retransmissions: timer %llu, fast %llu, proactive %llu, tail probes %llu; max in flight %llu\n",
	       (unsigned long long)res.rtx_timer,
	       (unsigned long long)res.rtx_fast,
	       (unsigned long long)res.rtx_proactive,
	       (unsigned long long)res.rtx_tail,
	       (unsigned long long)res.max_inflight_psn);
	printf("  simulated %.3f ms, wall %.3f s%s\n", res.sim_ns / 1e6,
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       res.broken[0] || res.broken[1] ? ", BROKEN" : "");
	if (res.fail[0])
		printf("  FAIL: %s\n", res.fail);

	if (expect_broken)
		ok = res.broken[0] && res.broken[1] && !res.completed &&
		     res.failed == res.submitted;
	else
		ok = sim_clean(&res);
	if (!ok)
		printf("  FAIL: outcome is not the expected %s\n",
		       expect_broken ? "break" : "clean completion");
	return ret || !ok ? 1 : 0;
}
