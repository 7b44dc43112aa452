// SPDX-License-Identifier: GPL-2.0
/*
 * Out-of-tree module for scripts/stackdepot/bench-stackdepot: while it is
 * loaded, a kretprobe on stack_depot_save_flags() notes the depth of every
 * trace whose handle it has not seen before.  At unload it prints
 * "bench: depth N COUNT" for each depth, then "bench: depth_traces N".
 * Traces saved before the load are not counted.
 *
 * With traces=N it also keeps, for the host model of bench-stackdepot, up
 * to N frames of the persistent records the depot stores while it is
 * loaded, as the depot stored them (read back through the handle), and
 * gives them in stackdepot_depth/traces in debugfs, one record a line:
 * "HANDLE NR FRAME...".  A record is new when its handle lies past the
 * one the depot gave a trace of our own, saved once the probe is in place:
 * persistent records are carved in order, pool after pool.  Reading the
 * file stops the keeping, so that the records the dump itself makes are
 * not in it.
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/random.h>
#include <linux/seq_file.h>
#include <linux/stackdepot.h>
#include <linux/vmalloc.h>

#define SEEN_SLOTS	(1 << 16)
#define MAX_DEPTH	64

static u32 seen[SEEN_SLOTS];
static atomic_t hist[MAX_DEPTH + 1];
static atomic_t overflow;

static unsigned int traces;
module_param(traces, uint, 0444);
MODULE_PARM_DESC(traces, "frames to keep of the new persistent records (0: none)");

struct kept_record {
	u32 handle;
	u32 nr;
	u32 first;		/* index of its first frame in kept_frames */
};

static struct kept_record *kept;
static unsigned long *kept_frames;
static atomic_t nr_kept, nr_kept_frames, kept_dropped;
static u32 mark;		/* the newest record once the probe is in */
static bool keeping = true;	/* until the dump */
static struct dentry *dir;

/* Pool, then offset: the order in which persistent records are carved. */
static u64 handle_order(u32 handle)
{
	union handle_parts parts = { .handle = handle };

	return (u64)parts.pool_index_plus_1 << 32 | parts.offset;
}

/* Whether @handle is new; records it.  Lock-free, for any context. */
static bool first_sighting(u32 handle)
{
	u32 i = (handle * 2654435761u) % SEEN_SLOTS, n, old;

	for (n = 0; n < SEEN_SLOTS; n++, i = (i + 1) % SEEN_SLOTS) {
		old = READ_ONCE(seen[i]);
		if (old == handle)
			return false;
		if (!old) {
			old = cmpxchg(&seen[i], 0, handle);
			if (!old)
				return true;
			if (old == handle)
				return false;
		}
	}
	atomic_inc(&overflow);
	return false;
}

/* The frames of @handle as the depot stores them. */
static unsigned int read_back(u32 handle, unsigned long *buf)
{
#ifdef HAVE_FETCH_INTO
	return stack_depot_fetch_into(handle, buf, MAX_DEPTH);
#else
	unsigned long *entries;
	unsigned int nr = stack_depot_fetch(handle, &entries);

	nr = min(nr, MAX_DEPTH);
	memcpy(buf, entries, nr * sizeof(*buf));
	return nr;
#endif
}

/* Keep a new persistent record; in any context, lock-free. */
static void keep(u32 handle)
{
	unsigned long buf[MAX_DEPTH];
	unsigned int nr = read_back(handle, buf);
	int i, first;

	if (!nr) {
		atomic_inc(&kept_dropped);
		return;
	}
	i = atomic_inc_return(&nr_kept) - 1;
	first = atomic_add_return(nr, &nr_kept_frames) - nr;
	if (i >= traces / 8 || first + nr > traces) {
		atomic_inc(&kept_dropped);
		return;
	}
	memcpy(&kept_frames[first], buf, nr * sizeof(*buf));
	kept[i].nr = nr;
	kept[i].first = first;
	/* Last: a record with a handle is complete. */
	smp_store_release(&kept[i].handle, handle);
}

struct save_args {
	unsigned long depth;
	unsigned long flags;
};

static int save_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct save_args *args = (struct save_args *)ri->data;

	args->depth = regs_get_kernel_argument(regs, 1);
	args->flags = regs_get_kernel_argument(regs, 3);
	return 0;
}

static int save_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	u32 handle = regs_return_value(regs);
	struct save_args *args = (struct save_args *)ri->data;
	u32 newest;

	if (!handle || !first_sighting(handle))
		return 0;
	atomic_inc(&hist[min(args->depth, MAX_DEPTH)]);
	if (!kept || !READ_ONCE(keeping) || (args->flags & STACK_DEPOT_FLAG_GET))
		return 0;
	newest = smp_load_acquire(&mark);
	if (newest && handle_order(handle) > handle_order(newest))
		keep(handle);
	return 0;
}

static struct kretprobe save_probe = {
	.kp.symbol_name	= "stack_depot_save_flags",
	.entry_handler	= save_entry,
	.handler	= save_return,
	.data_size	= sizeof(struct save_args),
	.maxactive	= 256,
};

static int traces_show(struct seq_file *m, void *v)
{
	int i, j, n;

	WRITE_ONCE(keeping, false);
	n = min_t(int, atomic_read(&nr_kept), traces / 8);
	for (i = 0; i < n; i++) {
		u32 handle = smp_load_acquire(&kept[i].handle);

		if (!handle)
			continue;
		seq_printf(m, "%08x %u", handle, kept[i].nr);
		for (j = 0; j < kept[i].nr; j++)
			seq_printf(m, " %lx", kept_frames[kept[i].first + j]);
		seq_putc(m, '\n');
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(traces);

/* A trace no code has: its record is the newest when it is saved. */
static u32 save_mark(void)
{
	unsigned long trace[4];
	int i;

	for (i = 0; i < ARRAY_SIZE(trace); i++)
		trace[i] = (unsigned long)&save_mark + get_random_u32_below(4096);
	return stack_depot_save(trace, ARRAY_SIZE(trace), GFP_KERNEL);
}

static int __init depth_init(void)
{
	u32 newest;
	int ret;

	if (traces && traces < MAX_DEPTH)
		return -EINVAL;
	if (traces) {
		kept = vzalloc(array_size(traces / 8, sizeof(*kept)));
		kept_frames = vmalloc(array_size(traces, sizeof(*kept_frames)));
		if (!kept || !kept_frames) {
			ret = -ENOMEM;
			goto free;
		}
	}
	ret = register_kretprobe(&save_probe);
	if (ret)
		goto free;
	if (traces) {
		/* Records carved before the mark are not kept, nor missed. */
		newest = save_mark();
		if (!newest) {
			unregister_kretprobe(&save_probe);
			ret = -ENOMEM;
			goto free;
		}
		smp_store_release(&mark, newest);
		dir = debugfs_create_dir("stackdepot_depth", NULL);
		debugfs_create_file("traces", 0400, dir, NULL, &traces_fops);
	}
	return 0;
free:
	vfree(kept);
	vfree(kept_frames);
	return ret;
}

static void __exit depth_exit(void)
{
	unsigned int d, total = 0;

	unregister_kretprobe(&save_probe);
	debugfs_remove(dir);
	vfree(kept);
	vfree(kept_frames);
	for (d = 0; d <= MAX_DEPTH; d++) {
		if (!atomic_read(&hist[d]))
			continue;
		total += atomic_read(&hist[d]);
		pr_info("bench: depth %u %d\n", d, atomic_read(&hist[d]));
	}
	pr_info("bench: depth_traces %u\n", total);
	pr_info("bench: depth_missed %d\n", save_probe.nmissed + atomic_read(&overflow));
	if (traces)
		pr_info("bench: traces_dropped %d\n", atomic_read(&kept_dropped));
}

module_init(depth_init);
module_exit(depth_exit);
MODULE_DESCRIPTION("Frame-depth histogram of new stack depot traces");
MODULE_LICENSE("GPL");
