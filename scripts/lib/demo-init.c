// SPDX-License-Identifier: GPL-2.0
/*
 * init for the scripts/build demo guest: mount what the demo reads, load
 * the modules in /modules, make the kernel print backtraces, and, when the
 * command line says "demo.oops", an oops in a module, then reboot (qemu
 * runs with -no-reboot, so that ends the run), or power off when the
 * command line says "demo.poweroff" (UML, which would boot again).  Every step is framed by
 * "demo:" marker lines that scripts/build uses to cut the interesting part
 * out of the console log.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void say(const char *msg)
{
	int fd = open("/dev/kmsg", O_WRONLY);

	if (fd >= 0) {
		/* via printk, so it is ordered with the kernel's own output */
		dprintf(fd, "demo: %s\n", msg);
		close(fd);
	} else {
		printf("demo: %s\n", msg);
		fflush(stdout);
	}
}

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	int ret;

	if (fd < 0) {
		perror(path);
		return -1;
	}
	ret = write(fd, val, strlen(val));
	if (ret < 0)
		perror(path);
	close(fd);
	return ret < 0 ? -1 : 0;
}

static void cat(const char *path)
{
	char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, n, stdout);
	fflush(stdout);
	close(fd);
}

/* An oops kills the task that takes it: let a child take it. */
static void oops_in_child(const char *lkdtm_test)
{
	char msg[64];
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		write_file("/sys/kernel/debug/provoke-crash/DIRECT", lkdtm_test);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		perror("oops_in_child");
		return;
	}
	if (WIFSIGNALED(status))
		snprintf(msg, sizeof(msg), "%s: the child died of signal %d",
			 lkdtm_test, WTERMSIG(status));
	else
		snprintf(msg, sizeof(msg), "%s: the child survived", lkdtm_test);
	say(msg);
}

static int is_module(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 3 && !strcmp(d->d_name + n - 3, ".ko");
}

/* Load every module in /modules, in name order. */
static void load_modules(void)
{
	struct dirent **list;
	char path[512];
	int i, n, fd;

	n = scandir("/modules", &list, is_module, alphasort);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/modules/%s", list[i]->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0 || syscall(SYS_finit_module, fd, "", 0))
			perror(path);
		if (fd >= 0)
			close(fd);
		free(list[i]);
	}
	if (n > 0)
		free(list);
}

/* Whether a task named COMM (a kernel thread, say) is alive. */
static int task_alive(const char *comm)
{
	char path[300], buf[32];
	struct dirent *d;
	DIR *proc = opendir("/proc");
	int found = 0, fd;
	ssize_t n;

	while (proc && !found && (d = readdir(proc))) {
		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", d->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0 && buf[n - 1] == '\n') {
			buf[n - 1] = '\0';
			found = !strcmp(buf, comm);
		}
	}
	if (proc)
		closedir(proc);
	return found;
}

static int cmdline_has(const char *word)
{
	char buf[4096];
	ssize_t n;
	int fd = open("/proc/cmdline", O_RDONLY);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strstr(buf, word) != NULL;
}

int main(void)
{
	mkdir("/proc", 0755);
	mkdir("/sys", 0755);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);

	/*
	 * CONFIG_KALLSYMS_SELFTEST's thread starts once the system runs
	 * and checks every symbol: let it finish first, so that its lines
	 * do not run through the KUnit output of the modules.
	 */
	if (task_alive("kallsyms_test")) {
		int waited;

		say("begin kallsyms selftest (CONFIG_KALLSYMS_SELFTEST)");
		for (waited = 0; waited < 180 && task_alive("kallsyms_test"); waited++)
			sleep(1);
		say("end");
	}

	if (access("/modules", R_OK) == 0) {
		say("begin loading modules");
		load_modules();
		say("end");
	}

	say("begin WARN() backtrace (lkdtm WARNING)");
	write_file("/sys/kernel/debug/provoke-crash/DIRECT", "WARNING");
	say("end");

	say("begin backtrace of all CPUs (sysrq l)");
	write_file("/proc/sys/kernel/sysrq", "1");
	write_file("/proc/sysrq-trigger", "l");
	sleep(1);
	say("end");

	if (access("/sys/kernel/debug/stackdepot/stats", R_OK) == 0) {
		say("begin stack depot statistics");
		cat("/sys/kernel/debug/stackdepot/stats");
		say("end");
	}

	/* A KASAN report: lkdtm's read of a freed object, with its stacks. */
	if (cmdline_has("demo.kasan")) {
		say("begin KASAN report (lkdtm READ_AFTER_FREE)");
		write_file("/sys/kernel/debug/provoke-crash/DIRECT",
			   "READ_AFTER_FREE");
		say("end");
	}

	/* Last: the kernel is tainted after an oops. */
	if (cmdline_has("demo.oops")) {
		say("begin oops in a module (lkdtm ACCESS_NULL)");
		oops_in_child("ACCESS_NULL");
		say("end");
	}

	say("done");
	sync();
	/* scripts/stackdepot/gdb-stackdepot inspects the guest after the demo. */
	while (cmdline_has("demo.hold"))
		pause();
	/*
	 * The console prints the kernel log after the fact: give it time
	 * to print the demo's last lines before the reboot cuts it off.
	 */
	sleep(1);
	reboot(cmdline_has("demo.poweroff") ? RB_POWER_OFF : RB_AUTOBOOT);
	return 0;
}
