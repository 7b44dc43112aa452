// SPDX-License-Identifier: GPL-2.0
/*
 * Answer addresses with a peer series' own line table decoder, for
 * scripts/lineinfo/compare-peer.
 *
 * Built against the peer tree's include/linux/mod_lineinfo.h (Sasha
 * Levin's v7 interface: lineinfo_search() over a struct lineinfo_table)
 * and linked with the table that the peer's scripts/gen_lineinfo wrote
 * for a vmlinux, assembled for the host.  Nothing of the peer is copied
 * here: its header and its table come from the peer tree at build time.
 *
 * peer-lookup lookup < "ADDR SYMSTART TEXT" lines
 *	prints "FILE:LINE", or "??:0" where the decoder gives no line, as
 *	the kernel's kallsyms_lookup_lineinfo() would answer ADDR inside
 *	the symbol that starts at SYMSTART (all hex; TEXT is _text).
 * peer-lookup bench < the same lines
 *	the median time of a lookup over 201 passes of 5,000 of the
 *	addresses, by the peer's decoder and by a binary search over flat
 *	arrays of the same rows, decoded once from the peer's table; and
 *	how many of the addresses the two answer differently (none, or the
 *	flat arrays are not the same rows).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include PEER_HEADER

extern const u32 lineinfo_num_entries, lineinfo_num_blocks;
extern const u32 lineinfo_num_files, lineinfo_data_size;
extern const u32 lineinfo_filenames_size;
extern const u32 lineinfo_block_addrs[], lineinfo_block_offsets[];
extern const u32 lineinfo_file_offsets[];
extern const u8 lineinfo_data[];
extern const char lineinfo_filenames[];

struct query {
	unsigned long long addr, sym, text;
};

static struct lineinfo_table table(void)
{
	struct lineinfo_table t = {
		.blk_addrs = lineinfo_block_addrs,
		.blk_offsets = lineinfo_block_offsets,
		.data = lineinfo_data,
		.data_size = lineinfo_data_size,
		.file_offsets = lineinfo_file_offsets,
		.filenames = lineinfo_filenames,
		.num_entries = lineinfo_num_entries,
		.num_blocks = lineinfo_num_blocks,
		.num_files = lineinfo_num_files,
		.filenames_size = lineinfo_filenames_size,
	};
	return t;
}

/* The offsets that kallsyms_lookup_lineinfo() hands to lineinfo_search() */
static bool peer_lookup(const struct lineinfo_table *t, const struct query *q,
			const char **file, unsigned int *line)
{
	unsigned long long off, min = 0;

	if (q->addr < q->text || q->addr - q->text > 0xffffffffULL)
		return false;
	off = q->addr - q->text;
	if (q->sym > q->text && q->sym - q->text <= off)
		min = q->sym - q->text;
	return lineinfo_search(t, off, min, file, line);
}

/* Every row of the peer's table, decoded in order, as flat arrays. */
struct flat {
	u32 *addr, *line;
	u16 *file;
	u32 n;
};

static void decode_all(const struct lineinfo_table *t, struct flat *f)
{
	u32 b, i, pos, end, left;

	f->addr = malloc(t->num_entries * sizeof(*f->addr));
	f->line = malloc(t->num_entries * sizeof(*f->line));
	f->file = malloc(t->num_entries * sizeof(*f->file));
	if (!f->addr || !f->line || !f->file) {
		perror("peer-lookup");
		exit(2);
	}
	f->n = 0;
	for (b = 0; b < t->num_blocks; b++) {
		u32 addr = t->blk_addrs[b], file, line;

		pos = t->blk_offsets[b];
		end = b + 1 < t->num_blocks ? t->blk_offsets[b + 1] : t->data_size;
		left = t->num_entries - f->n;
		file = lineinfo_read_uleb128(t->data, &pos, end);
		line = lineinfo_read_uleb128(t->data, &pos, end);
		for (i = 0; i < LINEINFO_BLOCK_ENTRIES && i < left; i++) {
			if (i) {
				addr += lineinfo_read_uleb128(t->data, &pos, end);
				file += lineinfo_read_sleb128(t->data, &pos, end);
				line += lineinfo_read_sleb128(t->data, &pos, end);
			}
			f->addr[f->n] = addr;
			f->file[f->n] = file;
			f->line[f->n] = line;
			f->n++;
		}
	}
}

static bool flat_lookup(const struct flat *f, u32 off, u32 *file, u32 *line)
{
	u32 lo = 0, hi = f->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (f->addr[mid] <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return false;
	*file = f->file[lo - 1];
	*line = f->line[lo - 1];
	return true;
}

static struct query *read_queries(size_t *n)
{
	struct query *q = NULL;
	size_t cap = 0;

	*n = 0;
	for (;;) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 65536;
			q = realloc(q, cap * sizeof(*q));
			if (!q) {
				perror("peer-lookup");
				exit(2);
			}
		}
		if (scanf("%llx %llx %llx", &q[*n].addr, &q[*n].sym,
			  &q[*n].text) != 3)
			return q;
		(*n)++;
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

#define PASSES	201
#define EACH	5000

static void bench(const struct lineinfo_table *t, const struct query *q,
		  size_t n)
{
	static double peer[PASSES], flat[PASSES];
	volatile unsigned int sink = 0;
	struct flat f;
	size_t p, i, k, mismatch = 0;

	decode_all(t, &f);
	/* The flat arrays must answer as the peer's decoder does. */
	for (i = 0; i < n; i++) {
		const char *file;
		unsigned int line;
		u32 ffile, fline;
		bool a = lineinfo_search(t, q[i].addr - q[i].text, 0, &file, &line);
		bool b = flat_lookup(&f, q[i].addr - q[i].text, &ffile, &fline);

		if (a != b || (a && (line != fline || ffile >= t->num_files ||
				     file != t->filenames + t->file_offsets[ffile])))
			mismatch++;
	}
	for (p = 0; p < PASSES; p++) {
		size_t start = (p * 7919 * EACH) % n;
		double t0, t1, t2;

		t0 = now();
		for (i = 0; i < EACH; i++) {
			const char *file;
			unsigned int line;

			k = (start + i) % n;
			if (peer_lookup(t, &q[k], &file, &line))
				sink += line;
		}
		t1 = now();
		for (i = 0; i < EACH; i++) {
			u32 file, line;

			k = (start + i) % n;
			if (flat_lookup(&f, q[k].addr - q[k].text, &file, &line))
				sink += line;
		}
		t2 = now();
		peer[p] = (t1 - t0) / EACH * 1e9;
		flat[p] = (t2 - t1) / EACH * 1e9;
	}
	qsort(peer, PASSES, sizeof(*peer), cmp_double);
	qsort(flat, PASSES, sizeof(*flat), cmp_double);
	printf("rows %u flat %.0f peer %.0f differ %zu\n", f.n,
	       flat[PASSES / 2], peer[PASSES / 2], mismatch);
	if (sink == 1)
		printf("(%u)\n", sink);
}

int main(int argc, char **argv)
{
	struct lineinfo_table t = table();
	struct query *q;
	size_t n, i;

	if (argc != 2 || (strcmp(argv[1], "lookup") && strcmp(argv[1], "bench"))) {
		fprintf(stderr, "usage: peer-lookup lookup|bench < queries\n");
		return 2;
	}
	q = read_queries(&n);
	if (!n) {
		fprintf(stderr, "peer-lookup: no queries\n");
		return 2;
	}
	if (!strcmp(argv[1], "bench")) {
		bench(&t, q, n);
		return 0;
	}
	for (i = 0; i < n; i++) {
		const char *file;
		unsigned int line;

		if (peer_lookup(&t, &q[i], &file, &line))
			printf("%s:%u\n", file, line);
		else
			printf("??:0\n");
	}
	return 0;
}
