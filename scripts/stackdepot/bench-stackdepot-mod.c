// SPDX-License-Identifier: GPL-2.0
/*
 * Out-of-tree module for scripts/stackdepot/bench-stackdepot, built against
 * the kernel under test and loaded by its init.  At load it
 *
 * - saves @mix_stacks synthetic traces of @min_depth to @max_depth kernel
 *   text frames, @bpf_share percent of which carry one or two frames in a
 *   vmalloc area, where arm64's execmem places BPF JIT images and kprobe
 *   slots (bottom-up from VMALLOC_START); the same offsets on every boot
 *   (fixed seed);
 * - times stack_depot_save() of the mix's new traces, and of a stored trace,
 *   and stack_depot_fetch_into(), in ns per call (median of @rounds rounds).
 *
 * It prints "bench: NAME VALUE" lines and stays loaded.
 */
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pgtable.h>
#include <linux/prandom.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/stackdepot.h>
#include <linux/stacktrace.h>
#include <linux/vmalloc.h>

static unsigned int mix_stacks = 20000;
module_param(mix_stacks, uint, 0444);
static unsigned int bpf_share = 30;
module_param(bpf_share, uint, 0444);
static unsigned int min_depth = 12;
module_param(min_depth, uint, 0444);
static unsigned int max_depth = 28;
module_param(max_depth, uint, 0444);
static unsigned int iterations = 20000;
module_param(iterations, uint, 0444);
static unsigned int rounds = 9;
module_param(rounds, uint, 0444);

#define MAX_DEPTH	64
#define MAX_ROUNDS	15

static unsigned long text_base[8];

static void init_text_base(void)
{
	text_base[0] = (unsigned long)&kfree;
	text_base[1] = (unsigned long)&vfree;
	text_base[2] = (unsigned long)&schedule;
	text_base[3] = (unsigned long)&mutex_unlock;
	text_base[4] = (unsigned long)&stack_depot_save;
	text_base[5] = (unsigned long)&stack_trace_save;
	text_base[6] = (unsigned long)&ktime_get;
	text_base[7] = (unsigned long)&init_text_base;
}

static unsigned long text_frame(struct rnd_state *rnd)
{
	u32 r = prandom_u32_state(rnd);

	return text_base[r % ARRAY_SIZE(text_base)] + ((r >> 8) & 0x3fc);
}

/*
 * An address in the top 64 MiB of the vmalloc range: out of the compact
 * range on both arches, with or without KASLR, for the always-raw trace
 * that the timings compare against.
 */
static unsigned long vmalloc_frame(struct rnd_state *rnd)
{
	return VMALLOC_END - SZ_64M + (prandom_u32_state(rnd) & (SZ_64M - 4));
}

/*
 * A vmalloc area, allocated bottom-up from VMALLOC_START as arm64's execmem
 * allocates BPF JIT images and kprobe slots, for the mix's vmalloc frames.
 */
static void *jit_area;
#define JIT_AREA_SIZE	SZ_1M

static unsigned long jit_frame(struct rnd_state *rnd)
{
	return (unsigned long)jit_area + (prandom_u32_state(rnd) & (JIT_AREA_SIZE - 4));
}

/* The next trace of the mix; returns its depth and whether it has vmalloc frames. */
static unsigned int make_trace(struct rnd_state *rnd, unsigned long *entries, bool *bpf)
{
	unsigned int depth = min_depth + prandom_u32_state(rnd) % (max_depth - min_depth + 1);
	unsigned int i, nr_bpf;

	for (i = 0; i < depth; i++)
		entries[i] = text_frame(rnd);
	*bpf = prandom_u32_state(rnd) % 100 < bpf_share;
	if (*bpf) {
		nr_bpf = 1 + prandom_u32_state(rnd) % 2;
		for (i = 0; i < nr_bpf; i++)
			entries[1 + prandom_u32_state(rnd) % (depth - 1)] = jit_frame(rnd);
	}
	return depth;
}

/*
 * Save the mix, timing stack_depot_save() of traces it has not seen: hash,
 * miss, store.  The traces are made first, so that making them is not timed.
 */
static void run_mix(void)
{
	unsigned long *traces;
	unsigned int i, *depth, nr_bpf = 0, failed = 0;
	struct rnd_state rnd;
	u64 frames = 0, t;
	bool bpf;

	traces = vmalloc(array3_size(mix_stacks, MAX_DEPTH, sizeof(*traces)));
	depth = vmalloc(array_size(mix_stacks, sizeof(*depth)));
	if (!traces || !depth) {
		pr_info("bench: error: no memory for %u traces\n", mix_stacks);
		goto out;
	}
	prandom_seed_state(&rnd, 0x5eed);
	for (i = 0; i < mix_stacks; i++) {
		depth[i] = make_trace(&rnd, traces + i * MAX_DEPTH, &bpf);
		frames += depth[i];
		nr_bpf += bpf;
	}
	t = ktime_get_ns();
	for (i = 0; i < mix_stacks; i++) {
		if (!stack_depot_save(traces + i * MAX_DEPTH, depth[i], GFP_KERNEL))
			failed++;
	}
	t = ktime_get_ns() - t;
	pr_info("bench: mix_stacks %u\n", mix_stacks);
	pr_info("bench: mix_bpf_stacks %u\n", nr_bpf);
	pr_info("bench: mix_frames %llu\n", frames);
	pr_info("bench: mix_failed %u\n", failed);
	if (mix_stacks)
		pr_info("bench: ps_save_new %llu\n", t * 1000 / mix_stacks);
out:
	vfree(traces);
	vfree(depth);
}

static int cmp_u64(const void *a, const void *b)
{
	const u64 *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

static u64 median(u64 *v, unsigned int n)
{
	sort(v, n, sizeof(*v), cmp_u64, NULL);
	return v[n / 2];
}

enum bench_trace { TRACE_TEXT, TRACE_BPF, TRACE_RAW, NR_BENCH_TRACES };
static const char *const trace_names[NR_BENCH_TRACES] = { "text", "bpf", "raw" };

/*
 * A 28-frame trace of kernel text; with one vmalloc frame (a compact record
 * with an exception on arm64); with five (always a raw record, the baseline
 * in the same boot).
 */
static void bench_trace(unsigned long *entries, enum bench_trace kind)
{
	struct rnd_state rnd;
	unsigned int i;

	prandom_seed_state(&rnd, kind + 1);
	for (i = 0; i < 28; i++)
		entries[i] = text_frame(&rnd);
	if (kind == TRACE_BPF)
		entries[5] = vmalloc_frame(&rnd);
	for (i = 0; kind == TRACE_RAW && i < 5; i++)
		entries[3 + 5 * i] = vmalloc_frame(&rnd);
}

static u64 time_save(unsigned long *entries)
{
	u64 t = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < iterations; i++)
		stack_depot_save(entries, 28, GFP_KERNEL);
	return (ktime_get_ns() - t) * 1000 / iterations;
}

static u64 time_fetch(depot_stack_handle_t handle, unsigned long *out)
{
	u64 t = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < iterations; i++)
		stack_depot_fetch_into(handle, out, 28);
	return (ktime_get_ns() - t) * 1000 / iterations;
}

/*
 * stack_depot_save() of a stored trace and stack_depot_fetch_into(), for
 * each kind of trace, interleaved round by round so that drifts of the
 * emulator's speed hit every kind alike.
 */
static void time_ops(void)
{
	unsigned long entries[NR_BENCH_TRACES][28], out[28];
	u64 save[NR_BENCH_TRACES][MAX_ROUNDS], fetch[NR_BENCH_TRACES][MAX_ROUNDS];
	depot_stack_handle_t handle[NR_BENCH_TRACES];
	unsigned int r, k;

	for (k = 0; k < NR_BENCH_TRACES; k++) {
		bench_trace(entries[k], k);
		handle[k] = stack_depot_save(entries[k], 28, GFP_KERNEL);
		if (!handle[k]) {
			pr_info("bench: error: cannot save the %s trace\n", trace_names[k]);
			return;
		}
	}
	for (r = 0; r < rounds; r++) {
		for (k = 0; k < NR_BENCH_TRACES; k++) {
			save[k][r] = time_save(entries[k]);
			fetch[k][r] = time_fetch(handle[k], out);
			if (memcmp(entries[k], out, sizeof(out)))
				pr_info("bench: error: the %s trace came back different\n",
					trace_names[k]);
		}
	}
	/* in ps, so that the script can print ns with decimals */
	for (k = 0; k < NR_BENCH_TRACES; k++) {
		pr_info("bench: ps_save_hit_%s %llu\n", trace_names[k], median(save[k], rounds));
		pr_info("bench: ps_fetch_%s %llu\n", trace_names[k], median(fetch[k], rounds));
	}
}

static int __init stackdepot_bench_init(void)
{
	if (min_depth < 2 || max_depth > MAX_DEPTH || min_depth > max_depth ||
	    !rounds || rounds > MAX_ROUNDS || !iterations) {
		pr_err("bench: error: bad parameters\n");
		return -EINVAL;
	}
	init_text_base();
	jit_area = vmalloc(JIT_AREA_SIZE);
	if (!jit_area) {
		pr_err("bench: error: no memory for the JIT area\n");
		return -ENOMEM;
	}
	pr_info("bench: jit_area_from_kfree_mib %ld\n",
		((long)jit_area - (long)&kfree) / SZ_1M);
	run_mix();
	time_ops();
	return 0;
}
module_init(stackdepot_bench_init);

MODULE_DESCRIPTION("Stack depot benchmark for scripts/stackdepot/bench-stackdepot");
MODULE_LICENSE("GPL");
