// SPDX-License-Identifier: GPL-2.0-only
/*
 * latency_fail_nth_test - injected allocation failures on the user-space path
 *
 * Holding a constraint from user space allocates at several places: the
 * VFS (the file name, the struct file), /dev/acceptable_latency (its
 * holder), the registry (the named entry), and /proc/latency_constraints
 * (its seq_file).  Every one of them may fail, and the promise is the same
 * for each: the caller gets ENOMEM, the registry is exactly as before, and
 * nothing leaks.
 *
 * failslab's fail-nth (Documentation/fault-injection/fault-injection.rst)
 * makes them fail in turn: for n = 1, 2, ... the n-th slab allocation of
 * this thread fails while it runs one sequence,
 *
 *	open("/dev/acceptable_latency", O_RDWR), write "150\n", read,
 *	open and read /proc/latency_constraints, close both
 *
 * Each step must succeed or fail with ENOMEM, a step that succeeds must
 * return what it returns without a fault, and after every attempt the
 * listing must be byte-identical to the one read before the sweep.  The
 * sweep ends with the first iteration in which no fault was injected
 * because the sequence made fewer than n allocations; that iteration must
 * succeed as a whole.  A fault that lands on an allocation made with
 * __GFP_NOWARN and a fallback (kmemleak's metadata for each object, in the
 * hardened run) is absorbed, and that iteration succeeds.  kmemleak, at the
 * end of the hardened run, then checks that nothing leaked.
 *
 * Needs CONFIG_FAILSLAB and CONFIG_FAULT_INJECTION_DEBUG_FS, and skips
 * without them.  Must run as root.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest.h"
#include "kmsg.h"

#define DEV		"/dev/acceptable_latency"
#define LISTING		"/proc/latency_constraints"
#define FAIL_NTH	"/proc/thread-self/fail-nth"
#define FAILSLAB	"/sys/kernel/debug/failslab"
#define LISTING_MAX	65536
/* Far more than one sequence allocates, even under kmemleak and KASAN. */
#define MAX_ITERATIONS	10000
/* Diagnostics printed for each kind of mismatch, at most. */
#define MAX_REPORTS	5

enum step { OPEN, WRITE, READ, LISTING_OPEN, LISTING_READ, CLOSE, NR_STEPS };

static const char *const step_name[NR_STEPS] = {
	[OPEN]		= "open " DEV,
	[WRITE]		= "write \"150\\n\"",
	[READ]		= "read " DEV,
	[LISTING_OPEN]	= "open " LISTING,
	[LISTING_READ]	= "read " LISTING,
	[CLOSE]		= "close " DEV,
};

/* One run of the sequence, filled in while fail-nth is armed. */
struct attempt {
	enum step failed;	/* NR_STEPS: every step succeeded */
	int err;		/* errno of the failed step */
	ssize_t ret;		/* its return value */
	char value[32];		/* what the read of DEV returned */
	char listing[LISTING_MAX];
	size_t listing_len;
	bool injected;		/* fail-nth read back 0 */
};

static struct attempt at;
static char before[LISTING_MAX];
static size_t before_len;

/* Read the whole of @fd into @buf; the byte count, or -1 and errno. */
static ssize_t read_all(int fd, char *buf, size_t size)
{
	size_t len = 0;

	while (len < size) {
		ssize_t r = read(fd, buf + len, size - len);

		if (r < 0)
			return -1;
		if (!r)
			return len;
		len += r;
	}
	errno = EFBIG;
	return -1;
}

static bool read_file(const char *path, char *buf, size_t size, size_t *len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read_all(fd, buf, size);

	if (fd >= 0)
		close(fd);
	if (n < 0)
		return false;
	*len = n;
	return true;
}

static bool write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	bool ok = fd >= 0 && write(fd, s, strlen(s)) == (ssize_t)strlen(s);

	if (fd >= 0)
		close(fd);
	return ok;
}

/*
 * Run the sequence with the @n-th allocation failing.  Nothing in here may
 * print or touch memory it has not touched before: the tty and the page
 * fault handler allocate too, and would take the fault.
 */
static void run_once(int nth, const char *n)
{
	enum step step = OPEN;
	int fd = -1, lfd = -1;
	char left[16];
	ssize_t r = -1;

	at.failed = NR_STEPS;
	at.err = 0;
	at.ret = 0;
	at.listing_len = 0;
	memset(at.value, 0, sizeof(at.value));

	if (n && pwrite(nth, n, strlen(n), 0) != (ssize_t)strlen(n))
		ksft_exit_fail_msg("cannot arm " FAIL_NTH ": %s\n",
				   strerror(errno));

	fd = open(DEV, O_RDWR);
	if (fd < 0)
		goto fail;
	step = WRITE;
	r = write(fd, "150\n", 4);
	if (r != 4)
		goto fail;
	step = READ;
	r = read(fd, at.value, sizeof(at.value) - 1);
	if (r <= 0)
		goto fail;
	step = LISTING_OPEN;
	lfd = open(LISTING, O_RDONLY);
	if (lfd < 0)
		goto fail;
	step = LISTING_READ;
	r = read_all(lfd, at.listing, sizeof(at.listing));
	if (r < 0)
		goto fail;
	at.listing_len = r;
	close(lfd);
	lfd = -1;
	step = CLOSE;
	r = close(fd);
	fd = -1;
	if (r)
		goto fail;
	goto out;

fail:
	at.failed = step;
	at.err = errno;
	at.ret = r;
out:
	if (lfd >= 0)
		close(lfd);
	if (fd >= 0)
		close(fd);
	/* Whether the fault was injected; then disarm it in any case. */
	if (n) {
		r = pread(nth, left, sizeof(left) - 1, 0);
		if (pwrite(nth, "0", 1, 0) != 1 || r <= 0)
			ksft_exit_fail_msg("cannot read or disarm " FAIL_NTH "\n");
		left[r] = '\0';
		at.injected = !atoi(left);
	}
}

/* The system value while the sequence holds 150 us. */
static int expected;

/* Did the steps that succeeded return what they return without a fault? */
static bool right_data(void)
{
	char want[16], *line, *next;
	int ours = 0, system = -1;

	snprintf(want, sizeof(want), "%d\n", expected);
	if (at.failed > READ && strcmp(at.value, want))
		return false;
	if (at.failed <= LISTING_READ)
		return true;
	if (at.listing_len >= sizeof(at.listing))
		return false;
	at.listing[at.listing_len] = '\0';
	/* Our holder, and only ours, at 150 us; the system value with it. */
	for (line = at.listing; *line; line = next) {
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		int usecs, pid;

		/* "user:<seq> usecs pid comm": ours by its pid. */
		if (!strncmp(line, "user:", 5) &&
		    sscanf(line, "%*s %d %d", &usecs, &pid) == 2 &&
		    pid == getpid()) {
			if (usecs != 150)
				return false;
			ours++;
		} else if (!strncmp(line, "# system ", 9)) {
			system = atoi(line + 9);
		}
	}
	return ours == 1 && system == expected;
}

/* failslab's settings we change, and their values before. */
static const char *const knob[] = { "ignore-gfp-wait", "verbose" };
static const char *const want[] = { "N", "0" };
static char saved[2][16];

static bool failslab_setup(void)
{
	char path[128];
	size_t len;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(knob); i++) {
		snprintf(path, sizeof(path), FAILSLAB "/%s", knob[i]);
		if (!read_file(path, saved[i], sizeof(saved[i]) - 1, &len))
			return false;
		saved[i][len] = '\0';
		saved[i][strcspn(saved[i], "\n")] = '\0';
		if (!write_file(path, want[i]))
			return false;
	}
	return true;
}

static void failslab_restore(void)
{
	char path[128];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(knob); i++) {
		snprintf(path, sizeof(path), FAILSLAB "/%s", knob[i]);
		if (saved[i][0] && !write_file(path, saved[i]))
			ksft_print_msg("cannot restore %s\n", path);
	}
}

/* What one sweep saw. */
struct sweep {
	unsigned int iterations;
	unsigned int injected;		/* iterations whose fault was injected */
	unsigned int absorbed;		/* injected, yet every step succeeded */
	unsigned int enomem[NR_STEPS];	/* ENOMEM returned by each step */
	unsigned int bad_errno;		/* a step failed otherwise */
	unsigned int bad_data;		/* a step succeeded with wrong data */
	unsigned int changed;		/* the listing differed afterwards */
	bool ended;			/* an iteration injected nothing */
	bool last_ok;			/* and it succeeded as a whole */
};

static void sweep(int nth, struct sweep *s)
{
	char n[16];

	while (!s->ended && s->iterations < MAX_ITERATIONS) {
		size_t len;

		snprintf(n, sizeof(n), "%u", ++s->iterations);
		run_once(nth, n);

		if (!at.injected) {
			/* Fewer allocations than n: nothing may fail. */
			s->ended = true;
			s->last_ok = at.failed == NR_STEPS;
			if (!s->last_ok)
				ksft_print_msg("n=%u, no fault injected: %s returned %zd, %s\n",
					       s->iterations, step_name[at.failed],
					       at.ret, strerror(at.err));
		} else {
			s->injected++;
			if (at.failed == NR_STEPS)
				s->absorbed++;
			else if (at.err == ENOMEM)
				s->enomem[at.failed]++;
			else if (s->bad_errno++ < MAX_REPORTS)
				ksft_print_msg("n=%u: %s returned %zd, %s, not ENOMEM\n",
					       s->iterations, step_name[at.failed],
					       at.ret, strerror(at.err));
		}
		if (!right_data() && s->bad_data++ < MAX_REPORTS)
			ksft_print_msg("n=%u: read \"%.*s\", or not listed alone at 150\n",
				       s->iterations,
				       (int)strcspn(at.value, "\n"), at.value);

		if (!read_file(LISTING, at.listing, sizeof(at.listing), &len) ||
		    len != before_len || memcmp(at.listing, before, len)) {
			if (s->changed++ < MAX_REPORTS)
				ksft_print_msg("n=%u (%s failed): the listing changed:\n%.*s",
					       s->iterations,
					       at.failed < NR_STEPS ?
					       step_name[at.failed] : "no step",
					       (int)len, at.listing);
		}
	}
}

enum { ERRNO, DATA, LISTING_SAME, ENDS, QUIET, NR_CASES };

static const char *const case_name[NR_CASES] = {
	[ERRNO]		= "each step succeeds or fails with ENOMEM",
	[DATA]		= "a step that succeeds returns what it returns without a fault",
	[LISTING_SAME]	= LISTING " is byte-identical after every attempt",
	[ENDS]		= "the first iteration without a fault succeeds whole",
	[QUIET]		= "the sweep logs nothing to the kernel log",
};

static void report(int c, bool pass)
{
	ksft_test_result(pass, "fail-nth sweep: %s\n", case_name[c]);
}

static void skip_all(const char *why)
{
	int i;

	for (i = 0; i < NR_CASES; i++)
		ksft_test_result_skip("fail-nth sweep: %s: %s\n", case_name[i], why);
	ksft_finished();
}

int main(void)
{
	struct sweep s = { 0 };
	const char *sys;
	int nth, logged, i;

	ksft_print_header();
	ksft_set_plan(NR_CASES);
	if (geteuid())
		ksft_exit_fail_msg("must run as root\n");

	if (access(FAIL_NTH, W_OK))
		skip_all("no " FAIL_NTH " (CONFIG_FAULT_INJECTION is not set)");
	if (access(FAILSLAB, F_OK))
		skip_all("no " FAILSLAB " (CONFIG_FAILSLAB, FAULT_INJECTION_DEBUG_FS)");
	if (!read_file(LISTING, before, sizeof(before) - 1, &before_len))
		ksft_exit_fail_msg("cannot read " LISTING "\n");
	before[before_len] = '\0';
	sys = strstr(before, "\n# system ");
	if (!sys)
		ksft_exit_fail_msg(LISTING " has no system line\n");
	expected = atoi(sys + 10);
	if (expected > 150)
		expected = 150;
	nth = open(FAIL_NTH, O_RDWR);
	if (nth < 0)
		ksft_exit_fail_msg("cannot open " FAIL_NTH "\n");

	/*
	 * One run without a fault: it must succeed, and it faults in every
	 * page the armed runs touch, so that they allocate only for the
	 * sequence itself.
	 */
	run_once(nth, NULL);
	if (at.failed != NR_STEPS || !right_data())
		ksft_exit_fail_msg("the sequence fails without a fault (%s: %s)\n",
				   step_name[at.failed < NR_STEPS ? at.failed : 0],
				   strerror(at.err));
	if (!failslab_setup()) {
		failslab_restore();
		ksft_exit_fail_msg("cannot configure " FAILSLAB "\n");
	}
	ksft_print_msg("failslab: %s=%s (was %s), %s=%s (was %s)\n",
		       knob[0], want[0], saved[0], knob[1], want[1], saved[1]);

	kmsg_start();
	sweep(nth, &s);
	logged = kmsg_new_records(MAX_REPORTS);
	failslab_restore();
	close(nth);

	ksft_print_msg("%u iterations, %u faults injected, %u of them absorbed without an error\n",
		       s.iterations, s.injected, s.absorbed);
	for (i = 0; i < NR_STEPS; i++)
		ksft_print_msg("ENOMEM from %s: %u\n", step_name[i], s.enomem[i]);

	report(ERRNO, !s.bad_errno && s.injected > s.absorbed);
	report(DATA, !s.bad_data);
	report(LISTING_SAME, !s.changed);
	report(ENDS, s.ended && s.last_ok);
	if (logged < 0)
		ksft_test_result_skip("fail-nth sweep: %s: no /dev/kmsg\n",
				      case_name[QUIET]);
	else
		report(QUIET, !logged);
	ksft_finished();
}
