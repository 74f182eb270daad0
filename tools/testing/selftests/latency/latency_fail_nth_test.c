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
 * A kselftest_harness.h fixture: its setup checks what the sweep needs,
 * reads the listing before, runs the sequence once without a fault and
 * configures failslab; its teardown puts failslab back.  Each test runs the
 * whole sweep and asserts one of the promises above, and reports only the
 * attempts that break that one.
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

#include "kselftest_harness.h"
#include "kmsg.h"

#define DEV		"/dev/acceptable_latency"
#define LISTING		"/proc/latency_constraints"
#define FAIL_NTH	"/proc/thread-self/fail-nth"
#define FAILSLAB	"/sys/kernel/debug/failslab"
#define LISTING_MAX	65536
/* Far more than one sequence allocates, even under kmemleak and KASAN. */
#define MAX_ITERATIONS	10000
/* Diagnostics printed for the promise a test asserts, at most. */
#define MAX_REPORTS	5
/*
 * Seconds for one test, its sweep under KASAN in an emulated guest: the
 * five fit in the 300 s that latency/settings gives the whole program.
 */
#define SWEEP_TIMEOUT	60

enum step { OPEN, WRITE, READ, LISTING_OPEN, LISTING_READ, CLOSE, NR_STEPS };

static const char *const step_name[NR_STEPS] = {
	[OPEN]		= "open " DEV,
	[WRITE]		= "write \"150\\n\"",
	[READ]		= "read " DEV,
	[LISTING_OPEN]	= "open " LISTING,
	[LISTING_READ]	= "read " LISTING,
	[CLOSE]		= "close " DEV,
};

/* The promise a test asserts, and whose breaches the sweep reports. */
enum promise { ERRNO, DATA, LISTING_SAME, ENDS, QUIET };

/*
 * One run of the sequence, filled in while fail-nth is armed.  A static:
 * the run without a fault touches what the armed runs write.
 */
static struct attempt {
	enum step failed;	/* NR_STEPS: every step succeeded */
	int err;		/* errno of the failed step */
	ssize_t ret;		/* its return value */
	char value[32];		/* what the read of DEV returned */
	char listing[LISTING_MAX];
	size_t listing_len;
	bool injected;		/* fail-nth read back 0 */
} at;

/* failslab's settings we change, the values we give them, and before. */
static const char *const knob[] = { "ignore-gfp-wait", "verbose" };
static const char *const knob_value[] = { "N", "0" };
static char saved[ARRAY_SIZE(knob)][16];

/* What every attempt is compared with, taken before the sweep. */
struct baseline {
	int expected;			/* the system value while 150 us is held */
	char listing[LISTING_MAX];
	size_t listing_len;
};

FIXTURE(fail_nth) {
	int nth;			/* FAIL_NTH, open O_RDWR */
	struct baseline before;
};

/* What one sweep saw. */
struct sweep {
	enum promise report;		/* whose breaches to log */
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

/* @len bytes of a listing, one diagnostic a line. */
static void log_listing(struct __test_metadata *_metadata, const char *buf,
			size_t len)
{
	const char *end = buf + len;

	while (buf < end) {
		const char *nl = memchr(buf, '\n', end - buf);
		int n = nl ? nl - buf : end - buf;

		TH_LOG("  %.*s", n, buf);
		buf += n + 1;
	}
}

/*
 * Run the sequence with the @n-th allocation failing, or with none when @n
 * is NULL.  Nothing in here may print or touch memory it has not touched
 * before while fail-nth is armed: the tty and the page fault handler
 * allocate too, and would take the fault.
 */
static void run_once(struct __test_metadata *_metadata, int nth,
		     const char *n)
{
	enum step step = OPEN;
	int fd = -1, lfd = -1;
	char left[16];
	ssize_t r = -1;

	at.failed = NR_STEPS;
	at.err = 0;
	at.ret = 0;
	at.listing_len = 0;
	at.injected = false;
	memset(at.value, 0, sizeof(at.value));

	if (n) {
		ASSERT_EQ((ssize_t)strlen(n), pwrite(nth, n, strlen(n), 0))
			TH_LOG("cannot arm %s: %s", FAIL_NTH, strerror(errno));
	}

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
	if (!n)
		return;
	/* Whether the fault was injected; then disarm it in any case. */
	r = pread(nth, left, sizeof(left) - 1, 0);
	ASSERT_EQ(1, pwrite(nth, "0", 1, 0))
		TH_LOG("cannot disarm %s: %s", FAIL_NTH, strerror(errno));
	ASSERT_LT(0, r) TH_LOG("cannot read %s back", FAIL_NTH);
	left[r] = '\0';
	at.injected = !atoi(left);
}

/*
 * Did the steps that succeeded return what they return without a fault?
 * @expected: the system value while the sequence holds 150 us.
 */
static bool right_data(int expected)
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
		int usecs, pid;

		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		/* "user:<token> usecs cpus pid comm": ours by its pid. */
		if (!strncmp(line, "user:", 5) &&
		    sscanf(line, "%*s %d %*s %d", &usecs, &pid) == 2 &&
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
		if (!write_file(path, knob_value[i]))
			return false;
	}
	return true;
}

static void failslab_restore(struct __test_metadata *_metadata)
{
	char path[128];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(knob); i++) {
		snprintf(path, sizeof(path), FAILSLAB "/%s", knob[i]);
		if (saved[i][0] && !write_file(path, saved[i]))
			TH_LOG("cannot restore %s to %s", path, saved[i]);
	}
}

/* Whether to log the @nr-th breach of @p (from 0) in this sweep. */
static bool tell(const struct sweep *s, enum promise p, unsigned int nr)
{
	return s->report == p && nr < MAX_REPORTS;
}

/* Run the sequence with n = 1, 2, ... failing, on @nth (FAIL_NTH). */
static void sweep(struct __test_metadata *_metadata, int nth,
		  const struct baseline *before, struct sweep *s)
{
	char n[16];

	while (!s->ended && s->iterations < MAX_ITERATIONS) {
		size_t len;

		snprintf(n, sizeof(n), "%u", ++s->iterations);
		run_once(_metadata, nth, n);

		if (!at.injected) {
			/* Fewer allocations than n: nothing may fail. */
			s->ended = true;
			s->last_ok = at.failed == NR_STEPS;
			if (!s->last_ok && tell(s, ENDS, 0))
				TH_LOG("n=%u, no fault injected: %s returned %zd, %s",
				       s->iterations, step_name[at.failed],
				       at.ret, strerror(at.err));
		} else {
			s->injected++;
			if (at.failed == NR_STEPS)
				s->absorbed++;
			else if (at.err == ENOMEM)
				s->enomem[at.failed]++;
			else if (tell(s, ERRNO, s->bad_errno++))
				TH_LOG("n=%u: %s returned %zd, %s, not ENOMEM",
				       s->iterations, step_name[at.failed],
				       at.ret, strerror(at.err));
		}
		if (!right_data(before->expected) &&
		    tell(s, DATA, s->bad_data++))
			TH_LOG("n=%u: read \"%.*s\", or not listed alone at 150",
			       s->iterations,
			       (int)strcspn(at.value, "\n"), at.value);

		if (!read_file(LISTING, at.listing, sizeof(at.listing), &len))
			len = 0;
		else if (len == before->listing_len &&
			 !memcmp(at.listing, before->listing, len))
			continue;
		if (tell(s, LISTING_SAME, s->changed++)) {
			TH_LOG("n=%u (%s failed): the listing changed to:",
			       s->iterations, at.failed < NR_STEPS ?
			       step_name[at.failed] : "no step");
			log_listing(_metadata, at.listing, len);
		}
	}
	TH_LOG("%u iterations, %u faults injected, %u of them absorbed without an error",
	       s->iterations, s->injected, s->absorbed);
}

FIXTURE_SETUP(fail_nth)
{
	struct baseline *before = &self->before;
	const char *sys;
	bool configured;

	ASSERT_EQ(0, geteuid()) TH_LOG("must run as root");
	if (access(FAIL_NTH, W_OK))
		SKIP(return, "no %s (CONFIG_FAULT_INJECTION is not set)",
		     FAIL_NTH);
	if (access(FAILSLAB, F_OK))
		SKIP(return, "no %s (CONFIG_FAILSLAB, FAULT_INJECTION_DEBUG_FS)",
		     FAILSLAB);
	ASSERT_TRUE(read_file(LISTING, before->listing,
			      sizeof(before->listing) - 1,
			      &before->listing_len))
		TH_LOG("cannot read %s: %s", LISTING, strerror(errno));
	before->listing[before->listing_len] = '\0';
	sys = strstr(before->listing, "\n# system ");
	ASSERT_NE(NULL, sys) TH_LOG("%s has no system line", LISTING);
	before->expected = atoi(sys + 10);
	if (before->expected > 150)
		before->expected = 150;
	self->nth = open(FAIL_NTH, O_RDWR);
	ASSERT_LE(0, self->nth)
		TH_LOG("cannot open %s: %s", FAIL_NTH, strerror(errno));

	/*
	 * One run without a fault: it must succeed, and it faults in every
	 * page the armed runs touch, so that they allocate only for the
	 * sequence itself.
	 */
	run_once(_metadata, self->nth, NULL);
	ASSERT_EQ(NR_STEPS, at.failed)
		TH_LOG("the sequence fails without a fault: %s: %s",
		       step_name[at.failed], strerror(at.err));
	ASSERT_TRUE(right_data(before->expected))
		TH_LOG("the sequence reads \"%.*s\" without a fault, or is not listed alone at 150",
		       (int)strcspn(at.value, "\n"), at.value);

	/*
	 * Last: the teardown, which puts failslab back, runs only after a
	 * setup that completed.
	 */
	configured = failslab_setup();
	if (!configured)
		failslab_restore(_metadata);
	ASSERT_TRUE(configured) TH_LOG("cannot configure %s", FAILSLAB);
	TH_LOG("failslab: %s=%s (was %s), %s=%s (was %s)",
	       knob[0], knob_value[0], saved[0],
	       knob[1], knob_value[1], saved[1]);
}

FIXTURE_TEARDOWN(fail_nth)
{
	failslab_restore(_metadata);
	close(self->nth);
}

TEST_F_TIMEOUT(fail_nth, each_step_succeeds_or_fails_with_enomem,
	       SWEEP_TIMEOUT)
{
	struct sweep s = { .report = ERRNO };
	int i;

	sweep(_metadata, self->nth, &self->before, &s);
	for (i = 0; i < NR_STEPS; i++)
		TH_LOG("ENOMEM from %s: %u", step_name[i], s.enomem[i]);
	EXPECT_EQ(0, s.bad_errno);
	/* Not vacuous: some fault reached a step. */
	EXPECT_LT(s.absorbed, s.injected)
		TH_LOG("no injected fault made a step fail");
}

TEST_F_TIMEOUT(fail_nth, succeeding_step_returns_the_unfaulted_data,
	       SWEEP_TIMEOUT)
{
	struct sweep s = { .report = DATA };

	sweep(_metadata, self->nth, &self->before, &s);
	EXPECT_EQ(0, s.bad_data);
}

TEST_F_TIMEOUT(fail_nth, listing_is_byte_identical_after_every_attempt,
	       SWEEP_TIMEOUT)
{
	struct sweep s = { .report = LISTING_SAME };

	sweep(_metadata, self->nth, &self->before, &s);
	EXPECT_EQ(0, s.changed) {
		TH_LOG("the listing before the sweep:");
		log_listing(_metadata, self->before.listing,
			    self->before.listing_len);
	}
}

TEST_F_TIMEOUT(fail_nth, first_iteration_without_a_fault_succeeds_whole,
	       SWEEP_TIMEOUT)
{
	struct sweep s = { .report = ENDS };

	sweep(_metadata, self->nth, &self->before, &s);
	EXPECT_TRUE(s.ended)
		TH_LOG("a fault was injected in all %d iterations", MAX_ITERATIONS);
	EXPECT_TRUE(s.last_ok);
}

TEST_F_TIMEOUT(fail_nth, sweep_logs_nothing_to_the_kernel_log, SWEEP_TIMEOUT)
{
	struct sweep s = { .report = QUIET };
	int logged;

	kmsg_start();
	sweep(_metadata, self->nth, &self->before, &s);
	logged = kmsg_new_records(MAX_REPORTS);
	if (logged < 0)
		SKIP(return, "no /dev/kmsg");
	EXPECT_EQ(0, logged);
}

TEST_HARNESS_MAIN
