// SPDX-License-Identifier: GPL-2.0
/*
 * superp-sim: run the SUPERp engine simulation natively (fast iteration and
 * timing; the same code runs as the superp_engine_sim KUnit suite).
 *
 *   superp-sim [-n TRANS] [-l LOSS_PPM] [-d DUP_PPM] [-r REORDER_PPM]
 *              [-s SEED] [-u] [-x MAX_RTX] [-w WINDOW] [-t TRANS_WINDOW]
 *              [-B BARRIER_EVERY] [-C CANCEL_EVERY] [-L] [-b]
 *   superp-sim -M [-n TRANS] [-S SEEDS]
 *
 * -L: SUPERp-lite on both nodes (superp_sim_lite_cfg()): a link that keeps
 * order and duplicates nothing unless -d or -r say otherwise, and the
 * transaction timer; -l, -d and -r then break lite's promise.
 *
 * Exits 0 when the run met its expectation: by default every transaction
 * completed exactly once with no error event and both nodes quiescent and
 * unbroken; with -b, the connection broke and every transaction failed.
 * With -L, a run whose link lost, duplicated or reordered a packet may
 * instead end with both nodes broken and every transaction completed or
 * failed once, as SUPERp-lite documents (the simulator checks the rules:
 * how each failed, that nothing ran out of order or with a hole); -L -b
 * asks for that break, whatever completed before it.
 * -M runs the matrix of transaction windows 1, 4, 8 and 32, without and
 * with barriers (every 5th transaction), at 1%, 10% and 30% loss, then
 * SUPERp-lite's rows: windows 1, 8 and 32, without and with barriers,
 * lossless (clean) and at 1% loss (broken), with SEEDS seeds each
 * (default 3), one line per run; -L does not apply to it.
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

/*
 * The break -b asks for: every transaction failed (SUPERp: nothing gets
 * through), or, on SUPERp-lite, every one completed or failed once.
 */
static bool sim_broke(const struct superp_sim_cfg *cfg,
		      const struct superp_sim_result *res)
{
	if (!res->broken[0] || !res->broken[1])
		return false;
	if (cfg->lite)
		return res->completed + res->failed == res->submitted;
	return !res->completed && res->failed == res->submitted;
}

/* One run of the matrix, its line; true when it met the expectation. */
static bool sim_matrix_run(const struct superp_sim_cfg *cfg, bool broken)
{
	struct superp_sim_result res;
	bool ok;
	int ret;

	ret = superp_sim_run(cfg, &res);
	ok = !ret && (broken ? sim_broke(cfg, &res) : sim_clean(&res));
	printf("%s %swindow %2u barriers %s loss %2u%% seed %llu: %llu/%llu completed, simulated %.1f ms%s%s\n",
	       ok ? "ok  " : "FAIL", cfg->lite ? "lite " : "",
	       cfg->params.tal_trans_window,
	       cfg->barrier_every ? "yes" : "no ", cfg->loss_ppm / 10000,
	       (unsigned long long)cfg->seed,
	       (unsigned long long)res.completed,
	       (unsigned long long)res.submitted, res.sim_ns / 1e6,
	       res.fail[0] ? ": " : "", res.fail);
	return ok;
}

/*
 * Windows x barriers x loss x seeds: every SUPERp run must finish cleanly,
 * every lite run cleanly when lossless and broken at 1% loss.
 */
static int sim_matrix(const struct superp_sim_cfg *base, unsigned int seeds)
{
	static const unsigned int twin[] = { 1, 4, 8, 32 };
	static const unsigned int loss[] = { 10000, 100000, 300000 };
	static const unsigned int lite_twin[] = { 1, 8, 32 };
	static const unsigned int lite_loss[] = { 0, 10000 };
	struct superp_sim_cfg cfg;
	unsigned int w, b, l, seed, runs = 0, bad = 0;

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
					runs++;
					bad += !sim_matrix_run(&cfg, false);
				}
	for (w = 0; w < 3; w++)
		for (b = 0; b < 2; b++)
			for (l = 0; l < 2; l++)
				for (seed = 1; seed <= seeds; seed++) {
					cfg = *base;
					superp_sim_lite_cfg(&cfg);
					cfg.params.tal_trans_window = lite_twin[w];
					cfg.barrier_every = b ? 5 : 0;
					cfg.loss_ppm = lite_loss[l];
					cfg.seed = seed;
					runs++;
					bad += !sim_matrix_run(&cfg, lite_loss[l]);
				}
	printf("matrix: %u runs, %u failed\n", runs, bad);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct superp_sim_result res;
	struct superp_sim_cfg cfg;
	struct timespec t0, t1;
	bool expect_broken = false, matrix = false, lite = false, ok;
	long dup_ppm = -1, reorder_ppm = -1;
	unsigned int seeds = 3;
	int opt, ret;

	superp_sim_default_cfg(&cfg);
	while ((opt = getopt(argc, argv, "n:l:d:r:s:ux:w:t:B:C:MS:bL")) != -1) {
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
		case 'L':
			lite = true;
			break;
		case 'n':
			cfg.ntrans = strtoul(optarg, NULL, 0);
			break;
		case 'l':
			cfg.loss_ppm = strtoul(optarg, NULL, 0);
			break;
		case 'd':
			dup_ppm = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			reorder_ppm = strtoul(optarg, NULL, 0);
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
			fprintf(stderr, "usage: %s [-n trans] [-l loss_ppm] [-d dup_ppm] [-r reorder_ppm] [-s seed] [-u] [-x max_rtx] [-w window] [-t trans_window] [-B barrier_every] [-C cancel_every] [-L] [-b] | -M [-n trans] [-S seeds]\n",
				argv[0]);
			return 2;
		}
	}
	if (lite && !matrix)
		superp_sim_lite_cfg(&cfg);
	/* after lite's faithful link, which they break */
	if (dup_ppm >= 0)
		cfg.dup_ppm = dup_ppm;
	if (reorder_ppm >= 0)
		cfg.reorder_ppm = reorder_ppm;
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
	printf("  packets %llu (data %llu, pure ACKs %llu, NACKs %llu), lost %llu, duplicated %llu, reordered %llu\n",
	       (unsigned long long)res.packets,
	       (unsigned long long)res.data_pkts,
	       (unsigned long long)res.pure_acks,
	       (unsigned long long)res.nacks,
	       (unsigned long long)res.lost,
	       (unsigned long long)res.duplicated,
	       (unsigned long long)res.reordered);
	printf("  retransmissions: timer %llu, fast %llu, proactive %llu, tail probes %llu; max in flight %llu\n",
	       (unsigned long long)res.rtx_timer,
	       (unsigned long long)res.rtx_fast,
	       (unsigned long long)res.rtx_proactive,
	       (unsigned long long)res.rtx_tail,
	       (unsigned long long)res.max_inflight_psn);
	printf("  simulated %.3f ms, wall %.3f s%s\n", res.sim_ns / 1e6,
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       res.broken[0] || res.broken[1] ? ", BROKEN" : "");
	if (lite)
		printf("  lite: %u request gaps, %u transaction timeouts, %llu Transaction Errors lost\n",
		       res.lite_gaps, res.lite_timeouts,
		       (unsigned long long)res.lost_errors);
	if (res.fail[0])
		printf("  FAIL: %s\n", res.fail);

	if (expect_broken)
		ok = sim_broke(&cfg, &res);
	else
		ok = sim_clean(&res) ||
		     (lite && (res.lost || res.duplicated || res.reordered) &&
		      sim_broke(&cfg, &res));
	if (!ok)
		printf("  FAIL: outcome is not the expected %s\n",
		       expect_broken ? "break" :
		       lite ? "clean completion or lite's break" :
		       "clean completion");
	return ret || !ok ? 1 : 0;
}
