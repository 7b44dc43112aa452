// SPDX-License-Identifier: GPL-2.0
/*
 * init for scripts/stackdepot/bench-stackdepot: run a fixed workload that
 * makes a KASAN kernel save stack traces (tmpfs files, fork/exec, loopback
 * TCP and UDP, JITed BPF programs, reading /proc and /sys, loading and
 * unloading the kernel test suites listed in /modules.order) with
 * /stackdepot_depth.ko loaded to count the depth of the new traces, print
 * the stack depot statistics, load /stackdepot_bench.ko (absent from the
 * base kernel's initramfs) with the "stackdepot_bench.*" parameters of the
 * kernel command line, print the statistics again and reboot.  Every result line starts with "bench: ".
 *
 * When the initramfs has /bin/stress-ng (bench-stackdepot --stress-ng),
 * the workload ends with it: one stressor after another from its kernel-
 * facing classes.  When the depth module keeps the new records
 * ("stackdepot_depth.traces=N" on the command line), they are printed,
 * one "bench: trace" line each, before it is unloaded.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define STATS	"/sys/kernel/debug/stackdepot/stats"
#define MODULE	"/stackdepot_bench.ko"
#define DEPTH	"/stackdepot_depth.ko"
#define SUITES	"/modules.order"
#define STRESS_NG	"/bin/stress-ng"
#define TRACES	"/sys/kernel/debug/stackdepot_depth/traces"
#define BPF_PROGS	64
#define BPF_PAD_MAX	15	/* padding instructions, to vary the JITed length */
#define PORT	5017

static void fail(const char *what)
{
	printf("bench: error: %s: %s\n", what, strerror(errno));
	fflush(stdout);
	sync();
	reboot(RB_AUTOBOOT);
	exit(1);
}

static void print_stats(const char *phase)
{
	char line[256];
	FILE *f = fopen(STATS, "r");

	if (!f)
		fail(STATS);
	while (fgets(line, sizeof(line), f))
		printf("bench: stats %s %s", phase, line);
	fclose(f);
	fflush(stdout);
}

/* Create, write, read back, rename and remove files in a tmpfs. */
static void fs_workload(void)
{
	static char buf[16384];
	char path[64], path2[64];
	int i, fd;

	memset(buf, 'x', sizeof(buf));
	if (mkdir("/tmp/bench", 0755))
		fail("mkdir /tmp/bench");
	for (i = 0; i < 200; i++) {
		snprintf(path, sizeof(path), "/tmp/bench/f%d", i);
		snprintf(path2, sizeof(path2), "/tmp/bench/g%d", i);
		fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
		if (fd < 0)
			fail(path);
		if (write(fd, buf, sizeof(buf)) != sizeof(buf))
			fail("write");
		if (lseek(fd, 0, SEEK_SET) || read(fd, buf, sizeof(buf)) != sizeof(buf))
			fail("read");
		close(fd);
		if (rename(path, path2) || symlink(path2, path))
			fail("rename/symlink");
	}
	for (i = 0; i < 200; i++) {
		snprintf(path, sizeof(path), "/tmp/bench/f%d", i);
		snprintf(path2, sizeof(path2), "/tmp/bench/g%d", i);
		if (unlink(path) || unlink(path2))
			fail("unlink");
	}
	if (rmdir("/tmp/bench"))
		fail("rmdir");
}

/* Fork and exec this program again, which exits at once. */
static void fork_exec_workload(void)
{
	char *const argv[] = { "/init", "child", NULL };
	int i, status;
	pid_t pid;

	for (i = 0; i < 100; i++) {
		pid = fork();
		if (pid < 0)
			fail("fork");
		if (pid == 0) {
			execv("/init", argv);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			fail("child");
	}
}

static void loopback_up(void)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0)
		fail("socket");
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr))
		fail("SIOCGIFFLAGS lo");
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr))
		fail("SIOCSIFFLAGS lo");
	close(fd);
}

/* Send 1 MiB over each of 8 TCP connections and 200 UDP datagrams on lo. */
static void net_workload(void)
{
	struct sockaddr_in addr = {
		.sin_family = AF_INET,
		.sin_port = htons(PORT),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	static char buf[4096];
	int srv, udp, conn, i, j, status, one = 1;
	ssize_t n;
	pid_t pid;

	loopback_up();
	srv = socket(AF_INET, SOCK_STREAM, 0);
	if (srv < 0 || setsockopt(srv, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(srv, (struct sockaddr *)&addr, sizeof(addr)) || listen(srv, 8))
		fail("tcp listen");
	for (i = 0; i < 8; i++) {
		pid = fork();
		if (pid < 0)
			fail("fork");
		if (pid == 0) {
			conn = socket(AF_INET, SOCK_STREAM, 0);
			if (conn < 0 || connect(conn, (struct sockaddr *)&addr, sizeof(addr)))
				_exit(1);
			for (j = 0; j < 256; j++)
				if (write(conn, buf, sizeof(buf)) != sizeof(buf))
					_exit(1);
			_exit(0);
		}
		conn = accept(srv, NULL, NULL);
		if (conn < 0)
			fail("accept");
		while ((n = read(conn, buf, sizeof(buf))) > 0)
			;
		close(conn);
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			fail("tcp client");
	}
	close(srv);

	udp = socket(AF_INET, SOCK_DGRAM, 0);
	if (udp < 0 || bind(udp, (struct sockaddr *)&addr, sizeof(addr)))
		fail("udp bind");
	for (i = 0; i < 200; i++) {
		if (sendto(udp, buf, 512, 0, (struct sockaddr *)&addr, sizeof(addr)) != 512 ||
		    recv(udp, buf, sizeof(buf), 0) != 512)
			fail("udp");
	}
	close(udp);
}

/*
 * Load BPF_PROGS socket classifiers, each JITed to its own address, and run
 * each once: bpf_skb_change_tail() grows the packet, so the head is
 * reallocated with a JITed frame in the allocation's trace.
 */
static void bpf_workload(void)
{
	static char packet[64];
	struct bpf_insn prog[BPF_PAD_MAX + 5];
	union bpf_attr attr;
	int i, n, fd;

	for (i = 0; i < BPF_PROGS; i++) {
		n = 0;
		/* A different length for each, to vary the return address. */
		while (n < i % (BPF_PAD_MAX + 1))
			prog[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K,
						       .dst_reg = BPF_REG_4, .imm = n };
		prog[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K,
					       .dst_reg = BPF_REG_2, .imm = 1024 + 64 * i };
		prog[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K,
					       .dst_reg = BPF_REG_3, .imm = 0 };
		prog[n++] = (struct bpf_insn){ .code = BPF_JMP | BPF_CALL,
					       .imm = BPF_FUNC_skb_change_tail };
		prog[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K,
					       .dst_reg = BPF_REG_0, .imm = 0 };
		prog[n++] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };

		memset(&attr, 0, sizeof(attr));
		attr.prog_type = BPF_PROG_TYPE_SCHED_CLS;
		attr.insns = (unsigned long)prog;
		attr.insn_cnt = n;
		attr.license = (unsigned long)"GPL";
		fd = syscall(SYS_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
		if (fd < 0)
			fail("BPF_PROG_LOAD");

		memset(&attr, 0, sizeof(attr));
		attr.test.prog_fd = fd;
		attr.test.data_in = (unsigned long)packet;
		attr.test.data_size_in = sizeof(packet);
		attr.test.repeat = 1;
		if (syscall(SYS_bpf, BPF_PROG_TEST_RUN, &attr, sizeof(attr)))
			fail("BPF_PROG_TEST_RUN");
		close(fd);
	}
}

/* Read the first 4 KiB of every file under @dir, following no symlink. */
static void read_tree(const char *dir)
{
	static char buf[4096];
	char path[512];
	struct dirent *e;
	DIR *d = opendir(dir);
	int fd;

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		/* debugfs has files with side effects; kmsg and kcore are not files. */
		if (!strcmp(path, "/sys/kernel/debug") || !strcmp(path, "/proc/kmsg") ||
		    !strcmp(path, "/proc/kcore"))
			continue;
		/* Of the processes, only this one: the kernel threads' are alike. */
		if (!strcmp(dir, "/proc") && e->d_name[0] >= '0' && e->d_name[0] <= '9' &&
		    strcmp(e->d_name, "1"))
			continue;
		if (e->d_type == DT_DIR) {
			read_tree(path);
		} else if (e->d_type == DT_REG) {
			fd = open(path, O_RDONLY | O_NONBLOCK);
			if (fd < 0)
				continue;
			if (read(fd, buf, sizeof(buf)) < 0)
				errno = 0;
			close(fd);
		}
	}
	closedir(d);
}

/*
 * Debian's stress-ng, one instance of each stressor of the classes that
 * exercise the kernel, each for a second, one after another; the few that
 * would reboot, offline memory or CPUs, need hardware or fill memory on
 * purpose are left out.  Its exit status is printed, not checked: some
 * stressors fail where the guest lacks what they need.  opcode is left out
 * too: the random instructions it runs oops the guest's kernel (a user-mode
 * page fault, tainted D) on base and series alike.
 */
static void stress_ng_workload(void)
{
	char *const argv[] = {
		STRESS_NG, "--seq", "1", "--timeout", "1",
		"--class", "os,filesystem,network,io,vm,memory,scheduler,pipe,interrupt",
		"--exclude", "reboot,watchdog,dev,kvm,swap,memhotplug,numa,pci,efivar,"
			     "cpu-online,softlockup,bigheap,brk,stack,stackmmap,mmaphuge,"
			     "rlimit,oom-pipe,vm-addr,memrate,memthrash,physpage,"
			     "smi,x86syscall,tsc,rawdev,sysinval,klog,opcode",
		"--vm-bytes", "32M", "--temp-path", "/tmp", "--oomable", "--quiet", NULL
	};
	char *const envp[] = { "LD_LIBRARY_PATH=/lib", "PATH=/bin", "HOME=/tmp", NULL };
	int status;
	pid_t pid;

	if (access(STRESS_NG, X_OK))
		return;
	mkdir("/dev", 0755);
	if (mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) && errno != EBUSY)
		fail("mount /dev");
	mkdir("/dev/shm", 01777);
	if (mount("tmpfs", "/dev/shm", "tmpfs", 0, NULL))
		fail("mount /dev/shm");
	mkdir("/dev/pts", 0755);
	if (mount("devpts", "/dev/pts", "devpts", 0, "ptmxmode=0666"))
		fail("mount /dev/pts");
	if (access("/dev/ptmx", F_OK) && symlink("pts/ptmx", "/dev/ptmx"))
		fail("/dev/ptmx");
	pid = fork();
	if (pid < 0)
		fail("fork");
	if (pid == 0) {
		if (chdir("/tmp"))
			_exit(126);
		execve(STRESS_NG, argv, envp);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		fail("waitpid stress-ng");
	printf("bench: stress_ng_status %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	fflush(stdout);
}

/* Write @val to the file @path (a sysctl); keep what it held in @old. */
static void set_sysctl(const char *path, const char *val, char *old, size_t size)
{
	int fd = open(path, O_RDWR);
	ssize_t n;

	if (fd < 0)
		fail(path);
	if (old) {
		n = read(fd, old, size - 1);
		old[n > 0 ? n : 0] = '\0';
	}
	/* At offset 0: a sysctl ignores a write past it. */
	if (pwrite(fd, val, strlen(val), 0) < 0)
		fail(path);
	close(fd);
}

/*
 * The depth module's records, if it kept any: "bench: trace HANDLE NR
 * FRAME...".  The kernel's console messages are kept off the console
 * meanwhile (they stay in the log buffer): one printed in the middle of a
 * line would cut a record in two.
 */
static void print_traces(void)
{
	static char line[64 * 17 + 64];
	char level[64];
	FILE *f = fopen(TRACES, "r");
	long n = 0;

	if (!f)
		return;
	set_sysctl("/proc/sys/kernel/printk", "1", level, sizeof(level));
	while (fgets(line, sizeof(line), f)) {
		printf("bench: trace %s", line);
		n++;
	}
	fclose(f);
	fflush(stdout);
	set_sysctl("/proc/sys/kernel/printk", level, NULL, 0);
	printf("bench: traces_printed %ld\n", n);
	fflush(stdout);
}

/* The runtime _text, arm64's anchor, for the host model. */
static void print_anchor(void)
{
	char line[256];
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		fail("/proc/kallsyms");
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, " T _text\n")) {
			printf("bench: text %.*s\n", (int)strcspn(line, " "), line);
			break;
		}
	}
	fclose(f);
}

static void load(const char *path, const char *params)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		fail(path);
	if (syscall(SYS_finit_module, fd, params, 0))
		fail(path);
	close(fd);
}

/* "/lib/foo-bar.ko" -> "foo_bar", the name delete_module() takes. */
static void module_name(const char *path, char *name, size_t size)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t i;

	for (i = 0; i + 1 < size && base[i] && strcmp(base + i, ".ko"); i++)
		name[i] = base[i] == '-' ? '_' : base[i];
	name[i] = '\0';
}

static void unload(const char *path)
{
	char name[256];

	module_name(path, name, sizeof(name));
	if (syscall(SYS_delete_module, name, O_NONBLOCK))
		fail(name);
}

/*
 * Load the test suite modules of /modules.order, dependencies first, each
 * of which runs its suites as it loads, then unload them all.
 */
static void suites_workload(void)
{
	static char names[256][128];
	FILE *f = fopen(SUITES, "r");
	int n = 0, i;

	if (!f)
		fail(SUITES);
	while (n < 256 && fgets(names[n], sizeof(names[n]), f)) {
		names[n][strcspn(names[n], "\n")] = '\0';
		if (names[n][0])
			load(names[n++], "");
	}
	fclose(f);
	printf("bench: suite_modules %d\n", n);
	fflush(stdout);
	for (i = n - 1; i >= 0; i--)
		unload(names[i]);
}

/* The "PREFIX.NAME=VALUE" words of /proc/cmdline, prefix cut. */
static void module_params(const char *prefix, char *params, size_t size)
{
	size_t len = strlen(prefix);
	char buf[4096], *word, *save;
	ssize_t n;
	int fd = open("/proc/cmdline", O_RDONLY);

	params[0] = '\0';
	if (fd < 0)
		fail("/proc/cmdline");
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	for (word = strtok_r(buf, " \n", &save); word; word = strtok_r(NULL, " \n", &save)) {
		if (strncmp(word, prefix, len) || word[len] != '.')
			continue;
		strncat(params, word + len + 1, size - strlen(params) - 2);
		strcat(params, " ");
	}
}

static void load_module(void)
{
	char params[1024];

	if (access(MODULE, F_OK)) {
		printf("bench: no %s: the base kernel, no mix\n", MODULE);
		return;
	}
	module_params("stackdepot_bench", params, sizeof(params));
	printf("bench: loading %s %s\n", MODULE, params);
	fflush(stdout);
	load(MODULE, params);
}

int main(int argc, char **argv)
{
	char params[1024];

	if (argc > 1 && !strcmp(argv[1], "child"))
		return 0;

	mkdir("/proc", 0755);
	mkdir("/sys", 0755);
	mkdir("/tmp", 01777);
	if (mount("proc", "/proc", "proc", 0, NULL) ||
	    mount("sysfs", "/sys", "sysfs", 0, NULL) ||
	    mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL) ||
	    mount("tmpfs", "/tmp", "tmpfs", 0, NULL))
		fail("mount");

	printf("bench: begin\n");
	print_anchor();
	print_stats("boot");
	module_params("stackdepot_depth", params, sizeof(params));
	load(DEPTH, params);
	fs_workload();
	fork_exec_workload();
	net_workload();
	bpf_workload();
	read_tree("/proc");
	read_tree("/sys");
	suites_workload();
	stress_ng_workload();
	print_traces();
	unload(DEPTH);
	print_stats("workload");
	load_module();
	if (!access(MODULE, F_OK))
		print_stats("mix");
	printf("bench: done\n");
	fflush(stdout);
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
