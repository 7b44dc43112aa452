// SPDX-License-Identifier: GPL-2.0
/*
 * Out-of-tree module for scripts/stackdepot/bench-stackdepot: while it is
 * loaded, a kretprobe on stack_depot_save_flags() notes the depth of every
 * trace whose handle it has not seen before.  At unload it prints
 * "bench: depth N COUNT" for each depth, then "bench: depth_traces N".
 * Traces saved before the load are not counted.
 */
#include <linux/atomic.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/stackdepot.h>

#define SEEN_SLOTS	(1 << 16)
#define MAX_DEPTH	64

static u32 seen[SEEN_SLOTS];
static atomic_t hist[MAX_DEPTH + 1];
static atomic_t overflow;

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

static int save_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	*(unsigned long *)ri->data = regs_get_kernel_argument(regs, 1);
	return 0;
}

static int save_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	u32 handle = regs_return_value(regs);
	unsigned long depth = *(unsigned long *)ri->data;

	if (handle && first_sighting(handle))
		atomic_inc(&hist[min(depth, MAX_DEPTH)]);
	return 0;
}

static struct kretprobe save_probe = {
	.kp.symbol_name	= "stack_depot_save_flags",
	.entry_handler	= save_entry,
	.handler	= save_return,
	.data_size	= sizeof(unsigned long),
	.maxactive	= 64,
};

static int __init depth_init(void)
{
	return register_kretprobe(&save_probe);
}

static void __exit depth_exit(void)
{
	unsigned int d, total = 0;

	unregister_kretprobe(&save_probe);
	for (d = 0; d <= MAX_DEPTH; d++) {
		if (!atomic_read(&hist[d]))
			continue;
		total += atomic_read(&hist[d]);
		pr_info("bench: depth %u %d\n", d, atomic_read(&hist[d]));
	}
	pr_info("bench: depth_traces %u\n", total);
	pr_info("bench: depth_missed %d\n", save_probe.nmissed + atomic_read(&overflow));
}

module_init(depth_init);
module_exit(depth_exit);
MODULE_DESCRIPTION("Frame-depth histogram of new stack depot traces");
MODULE_LICENSE("GPL");
