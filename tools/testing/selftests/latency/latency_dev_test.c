// SPDX-License-Identifier: GPL-2.0-only
/*
 * latency_dev_test - user-space interfaces of the latency-constraint registry
 *
 * Exercises /dev/acceptable_latency and /proc/latency_constraints as a user
 * program sees them (Documentation/latency.txt): a holder per open file,
 * release on close and on SIGKILL, permissions, many holders at once, and
 * bad input for every entry: a table of writes, each naming its result
 * (decimal text accepted, with a newline or a NUL after it; binary,
 * malformed, huge and unreadable values rejected without a change), short
 * reads, seeks and pread() of both files, and none of it may log a line.
 * Must run as root.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest.h"
#include "kmsg.h"

#define DEV		"/dev/acceptable_latency"
#define LISTING		"/proc/latency_constraints"
#define HEADER		"# identifier usecs pid comm"
#define INFINITE_LATENCY 1000000
#define MAX_HOLDERS	4096
#define MANY		200
#define NOBODY		65534
#define LISTING_MAX	65536

struct holder {
	char id[64];
	int usecs;
	int pid;		/* -1 for "-" */
	char comm[32];
};

struct listing {
	bool ok;		/* header and system line found, all lines parsed */
	int n;
	struct holder h[MAX_HOLDERS];
	int system;
	char setter[64];
};

static struct listing base, cur;
static char comm[32];

/* Parse /proc/latency_constraints into @l; l->ok says whether it made sense. */
static void read_listing(struct listing *l)
{
	char *line = NULL;
	size_t cap = 0;
	bool header = false;
	bool done = false;
	FILE *f;

	memset(l, 0, sizeof(*l));
	l->system = -1;
	f = fopen(LISTING, "r");
	if (!f)
		return;

	l->ok = true;
	while (getline(&line, &cap, f) > 0) {
		struct holder *h;
		char pid[16];
		int pos = 0;

		line[strcspn(line, "\n")] = '\0';
		if (!header) {
			header = !strcmp(line, HEADER);
			if (!header)
				l->ok = false;
			continue;
		}
		if (done) {			/* nothing after the system line */
			l->ok = false;
			continue;
		}
		if (!strncmp(line, "# system ", 9)) {
			if (sscanf(line + 9, "%d %63s", &l->system, l->setter) != 2)
				l->ok = false;
			done = true;
			continue;
		}
		if (l->n == MAX_HOLDERS) {
			l->ok = false;
			continue;
		}
		h = &l->h[l->n++];
		if (sscanf(line, "%63s %d %15s %n", h->id, &h->usecs, pid, &pos) != 3 ||
		    !pos) {
			l->ok = false;
			continue;
		}
		h->pid = strcmp(pid, "-") ? atoi(pid) : -1;
		snprintf(h->comm, sizeof(h->comm), "%s", line + pos);
	}
	if (!header || !done)
		l->ok = false;
	free(line);
	fclose(f);
}

static struct holder *find(struct listing *l, const char *id)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->h[i].id, id))
			return &l->h[i];
	return NULL;
}

/* A user-space holder: "user:<seq>", its seq a positive decimal. */
static bool user_holder(const struct holder *h)
{
	return !strncmp(h->id, "user:", 5) && atoll(h->id + 5) > 0 &&
	       strspn(h->id + 5, "0123456789") == strlen(h->id + 5);
}

static int count_pid(struct listing *l, int pid)
{
	int i, n = 0;

	for (i = 0; i < l->n; i++)
		if (user_holder(&l->h[i]) && l->h[i].pid == pid)
			n++;
	return n;
}

/* The system value expected while a holder of @usecs is held. */
static int expect(int usecs)
{
	return usecs < base.system ? usecs : base.system;
}

/* The system value as /dev/acceptable_latency reads it, -1 on error. */
static int dev_value(void)
{
	char buf[32];
	ssize_t n;
	int fd;

	fd = open(DEV, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 1 || buf[n - 1] != '\n')
		return -1;
	buf[n] = '\0';
	return atoi(buf);
}

/*
 * Open the device for writing and find the holder it created: the one
 * user-space holder with our pid that was not listed before.
 */
static int open_holder(char *id, size_t len)
{
	struct listing *before = malloc(sizeof(*before));
	int fd, i;

	if (!before)
		return -1;
	read_listing(before);
	fd = open(DEV, O_WRONLY);
	if (fd < 0) {
		free(before);
		return -1;
	}
	read_listing(&cur);
	id[0] = '\0';
	for (i = 0; i < cur.n; i++)
		if (user_holder(&cur.h[i]) && cur.h[i].pid == getpid() &&
		    !find(before, cur.h[i].id))
			snprintf(id, len, "%s", cur.h[i].id);
	free(before);
	return fd;
}

static bool wr(int fd, const void *buf, size_t len)
{
	return write(fd, buf, len) == (ssize_t)len;
}

static bool wr_str(int fd, const char *s)
{
	return wr(fd, s, strlen(s));
}

/* Is @id held at @usecs, with the system value and the device agreeing? */
static bool holds(const char *id, int usecs)
{
	struct holder *h;

	read_listing(&cur);
	h = find(&cur, id);
	if (!cur.ok || !h) {
		ksft_print_msg("%s not listed\n", id);
		return false;
	}
	if (h->usecs != usecs || cur.system != expect(usecs) ||
	    dev_value() != cur.system) {
		ksft_print_msg("%s: usecs %d (want %d), system %d (want %d), device %d\n",
			       id, h->usecs, usecs, cur.system, expect(usecs),
			       dev_value());
		return false;
	}
	return true;
}

/* Is @id listed with @usecs?  Refreshes cur. */
static bool listed(const char *id, int usecs)
{
	struct holder *h;

	read_listing(&cur);
	h = find(&cur, id);
	if (!cur.ok || !h || h->usecs != usecs) {
		ksft_print_msg("%s: usecs %d, want %d\n", id, h ? h->usecs : -1,
			       usecs);
		return false;
	}
	return true;
}

/* Is the registry back where it was when the test started? */
static bool at_base(void)
{
	int i;

	read_listing(&cur);
	if (!cur.ok || cur.n != base.n || cur.system != base.system ||
	    dev_value() != base.system)
		goto differ;
	for (i = 0; i < cur.n; i++)
		if (strcmp(cur.h[i].id, base.h[i].id) ||
		    cur.h[i].usecs != base.h[i].usecs)
			goto differ;
	return true;
differ:
	ksft_print_msg("registry differs from the start: %d holders, system %d (was %d, %d)\n",
		       cur.n, cur.system, base.n, base.system);
	return false;
}

static void result(bool pass, const char *desc)
{
	ksft_test_result(pass, "- %s\n", desc);
}

static void test_device_node(void)
{
	struct stat st;
	bool pass = !stat(DEV, &st) && S_ISCHR(st.st_mode) &&
		    (st.st_mode & 07777) == 0600 && st.st_uid == 0;

	if (!pass)
		ksft_print_msg(DEV ": missing or wrong mode/owner\n");
	result(pass, DEV " is a character device, mode 0600, owned by root");
}

static void test_listing_format(void)
{
	bool pass = base.ok && base.system == dev_value();
	int i;

	for (i = 1; pass && i < base.n; i++) {
		struct holder *a = &base.h[i - 1], *b = &base.h[i];

		if (a->usecs > b->usecs ||
		    (a->usecs == b->usecs && strcmp(a->id, b->id) >= 0))
			pass = false;
	}
	if (pass && base.n) {
		pass = base.system == base.h[0].usecs;
		if (base.system < INFINITE_LATENCY)
			pass = pass && !strcmp(base.setter, base.h[0].id);
	}
	if (pass && !base.n)
		pass = base.system == INFINITE_LATENCY &&
		       !strcmp(base.setter, "-");
	if (!pass)
		ksft_print_msg("listing: ok %d, %d holders, system %d by %s\n",
			       base.ok, base.n, base.system, base.setter);
	result(pass, LISTING ": header, holders sorted by usecs and identifier, system line");
}

static void test_read_only_open(void)
{
	int fd = open(DEV, O_RDONLY);
	bool pass = fd >= 0 && at_base() && !count_pid(&cur, getpid());

	if (fd >= 0)
		close(fd);
	result(pass, "an open for reading only creates no holder");
}

static void test_hold_release(void)
{
	char id[64];
	struct holder *h;
	bool pass;
	int fd;

	fd = open_holder(id, sizeof(id));
	h = find(&cur, id);
	pass = fd >= 0 && h && user_holder(h) && h->usecs == INFINITE_LATENCY &&
	       h->pid == getpid() && !strcmp(h->comm, comm) &&
	       cur.system == base.system;
	if (!pass)
		ksft_print_msg("holder '%s' pid %d comm '%s' usecs %d\n", id,
			       h ? h->pid : 0, h ? h->comm : "", h ? h->usecs : 0);
	result(pass, "an open for writing registers user:<seq> with no constraint");

	pass = fd >= 0 && wr_str(fd, "150\n") && holds(id, 150);
	if (pass && 150 < base.system)
		pass = !strcmp(cur.setter, id) && cur.h[0].usecs == 150;
	result(pass, "writing \"150\\n\" holds 150 us and names the holder as setter");

	pass = fd >= 0 && wr_str(fd, "300") && holds(id, 300);
	result(pass, "a later write \"300\" changes the same holder");

	if (fd >= 0)
		close(fd);
	pass = fd >= 0 && at_base() && !find(&cur, id);
	result(pass, "close releases the holder and restores the system value");
}

static void test_two_holders(void)
{
	char a[64], b[64];
	int fa, fb;
	bool pass;

	fa = open_holder(a, sizeof(a));
	fb = open_holder(b, sizeof(b));
	pass = fa >= 0 && fb >= 0 && strcmp(a, b) &&
	       wr_str(fa, "400\n") && wr_str(fb, "200\n") &&
	       listed(a, 400) && holds(b, 200);
	if (fb >= 0)
		close(fb);
	pass = pass && holds(a, 400) && !find(&cur, b);
	if (fa >= 0)
		close(fa);
	pass = pass && at_base();
	result(pass, "two holders: the lower sets the system value, each close releases its own");
}

/*
 * Bad input for every user-space entry.  Each write below goes to a file of
 * its own target and names the result Documentation/latency.txt promises
 * for it: @err, with the holder and the listing unchanged, or, when @err
 * is 0, success and @usecs held.  @len 0 means strlen(@buf); @buf NULL
 * means a page that cannot be read (PROT_NONE).
 */
enum target {
	HOLDER,		/* an open of DEV for writing, holding 321 us */
	READER,		/* an open of DEV for reading only */
	PROC,		/* LISTING, opened for writing by root */
};

static const char *const target_name[] = {
	[HOLDER]	= "",
	[READER]	= " to an O_RDONLY open of " DEV,
	[PROC]		= " to " LISTING,
};

struct write_case {
	const char *name;
	const void *buf;
	size_t len;
	int err;
	int usecs;
	enum target target;
};

#define HELD		321
#define KIB4		4096
#define MIB		(1024 * 1024)

static char digits_4k[KIB4], digits_1m[MIB];
static void *unreadable;		/* a PROT_NONE page */
static const int bin_175 = 175, bin_0, bin_inf = INFINITE_LATENCY;
static const int bin_ffffff = 0x00ffffff, bin_high = 0x01000096;
static const int bin_minus_one = -1, bin_minus_150 = -150, bin_int_min = INT_MIN;
static const int bin_two[2] = { 150, 150 };

static const struct write_case writes[] = {
	/* Accepted: decimal text. */
	{ "text and newline", "150\n", 0, 0, 150 },
	{ "text without newline", "150", 0, 0, 150 },
	{ "leading zeros, decimal not octal", "0000150\n", 0, 0, 150 },
	{ "zero", "0\n", 0, 0, 0 },
	{ "one digit", "7", 0, 0, 7 },
	{ "INFINITE_LATENCY", "1000000\n", 0, 0, INFINITE_LATENCY },
	{ "INFINITE_LATENCY + 1, clamped", "1000001\n", 0, 0, INFINITE_LATENCY },
	{ "INT_MAX, clamped", "2147483647\n", 0, 0, INFINITE_LATENCY },
	{ "16 bytes with newline, the longest", "000000000000150\n", 0, 0, 150 },
	{ "16 digits", "0000000000000150", 0, 0, 150 },
	{ "4 bytes whose 4th is not 0: text", "1234", 0, 0, 1234 },
	/* Accepted: a C string written with its NUL is still text. */
	{ "4 bytes \"150\\0\": text, not binary 3159345", "150", 4, 0, 150 },
	{ "4 bytes \"100\\0\": text, not binary 3158065", "100", 4, 0, 100 },
	{ "5 bytes \"150\\n\\0\"", "150\n", 5, 0, 150 },
	{ "a digit and a NUL", "1", 2, 0, 1 },
	/* Rejected: not a decimal number. */
	{ "empty", "", 0, EINVAL },
	{ "newline only", "\n", 0, EINVAL },
	{ "letters", "abc", 0, EINVAL },
	{ "sign", "-1", 0, EINVAL },
	{ "sign and newline", "-1\n", 0, EINVAL },
	{ "minus zero", "-0", 0, EINVAL },
	{ "plus sign", "+150", 0, EINVAL },
	{ "leading blank", " 12", 0, EINVAL },
	{ "trailing blank", "12 ", 0, EINVAL },
	{ "two numbers", "12 34", 0, EINVAL },
	{ "blank inside", "15 0\n", 0, EINVAL },
	{ "two newlines", "150\n\n", 0, EINVAL },
	{ "leading newline", "\n150", 0, EINVAL },
	{ "CR LF", "150\r\n", 0, EINVAL },
	{ "tab", "150\t", 0, EINVAL },
	{ "hex", "0x10", 0, EINVAL },
	{ "hex 150", "0x96", 0, EINVAL },
	{ "exponent", "1e3", 0, EINVAL },
	{ "decimal point", "1.5", 0, EINVAL },
	{ "Arabic-Indic digits 150", "\xd9\xa1\xd9\xa5\xd9\xa0", 0, EINVAL },
	/* Rejected: out of range or too long. */
	{ "INT_MAX + 1", "2147483648\n", 0, EINVAL },
	{ "2^32 + 150, 150 if it wrapped", "4294967446", 0, EINVAL },
	{ "17 digits, one too many", "00000000000000150", 0, EINVAL },
	{ "17 bytes with newline", "0000000000000150\n", 0, EINVAL },
	{ "4 KiB of digits", digits_4k, KIB4, EINVAL },
	{ "1 MiB of digits", digits_1m, MIB, EINVAL },
	/* Rejected: binary, of any size (binary writers use cpu_dma_latency). */
	{ "binary 175", &bin_175, 4, EINVAL },
	{ "binary 0", &bin_0, 4, EINVAL },
	{ "binary INFINITE_LATENCY", &bin_inf, 4, EINVAL },
	{ "binary 0x00ffffff", &bin_ffffff, 4, EINVAL },
	{ "binary 150 in 3 bytes", "\x96\0", 3, EINVAL },
	{ "binary 150 in 5 bytes", "\x96\0\0\0", 5, EINVAL },
	{ "two binary ints", bin_two, 8, EINVAL },
	{ "binary -1", &bin_minus_one, 4, EINVAL },
	{ "binary -150", &bin_minus_150, 4, EINVAL },
	{ "binary INT_MIN", &bin_int_min, 4, EINVAL },
	{ "binary, high byte set", &bin_high, 4, EINVAL },
	{ "4 bytes, text with a NUL inside", "15\0\n", 4, EINVAL },
	{ "two NULs", "150\0", 5, EINVAL },
	{ "NUL before the newline", "150\0\n", 5, EINVAL },
	/* Rejected: a buffer the kernel cannot read. */
	{ "unreadable buffer", NULL, 4, EFAULT },
	{ "unreadable buffer", NULL, 3, EFAULT },
	{ "unreadable, but too long before it is read", NULL, 17, EINVAL },
	/* The other entries take no write at all. */
	{ "a valid value", "150\n", 0, EBADF, 0, READER },
	{ "a valid value", "150\n", 0, EIO, 0, PROC },
	{ "a listing line", "user:1 5 1 init\n", 0, EIO, 0, PROC },
	{ "1 MiB", digits_1m, MIB, EIO, 0, PROC },
};

#define NR_WRITES ARRAY_SIZE(writes)

static const char *errno_name(int err)
{
	switch (err) {
	case EINVAL:	return "EINVAL";
	case EFAULT:	return "EFAULT";
	case EBADF:	return "EBADF";
	case EIO:	return "EIO";
	case EACCES:	return "EACCES";
	case ENOMEM:	return "ENOMEM";
	}
	return "another errno";
}

/* The input as C text when it is short text, else its length or bytes. */
static void show_input(const struct write_case *w, size_t len, char *out,
		       size_t size)
{
	const unsigned char *p = w->buf;
	bool text = true;
	size_t i, n = 0;

	if (!p) {
		snprintf(out, size, "%zu bytes from a PROT_NONE page", len);
		return;
	}
	for (i = 0; i < len; i++)
		if (!p[i] || p[i] >= 0x7f)
			text = false;
	if (len > 24) {
		snprintf(out, size, "%zu bytes", len);
	} else if (text) {
		n = snprintf(out, size, "\"");
		for (i = 0; i < len && n < size; i++) {
			if (p[i] == '\n')
				n += snprintf(out + n, size - n, "\\n");
			else if (p[i] == '\r')
				n += snprintf(out + n, size - n, "\\r");
			else if (p[i] == '\t')
				n += snprintf(out + n, size - n, "\\t");
			else
				n += snprintf(out + n, size - n, "%c", p[i]);
		}
		if (n < size)
			snprintf(out + n, size - n, "\"");
	} else {
		n = snprintf(out, size, "%zu bytes", len);
		for (i = 0; i < len && n < size; i++)
			n += snprintf(out + n, size - n, " %02x", p[i]);
	}
}

/* Our holder at @usecs, and nobody else's holder added or lost? */
static bool holds_alone(const char *id, int usecs)
{
	return holds(id, usecs) && cur.n == base.n + 1;
}

static void test_writes(void)
{
	char id[64], input[96], expected[64];
	int fd, rfd, pfd, fds[3];
	unsigned int i;

	memset(digits_4k, '1', sizeof(digits_4k));
	memset(digits_1m, '1', sizeof(digits_1m));
	fd = open_holder(id, sizeof(id));
	rfd = open(DEV, O_RDONLY);
	pfd = open(LISTING, O_WRONLY);
	if (fd < 0 || rfd < 0 || pfd < 0)
		ksft_print_msg("open: holder %d, reader %d, listing %d: %s\n",
			       fd, rfd, pfd, strerror(errno));
	fds[HOLDER] = fd;
	fds[READER] = rfd;
	fds[PROC] = pfd;

	for (i = 0; i < NR_WRITES; i++) {
		const struct write_case *w = &writes[i];
		size_t len = w->len ? w->len : strlen(w->buf);
		bool pass = fd >= 0 && wr_str(fd, "321\n");	/* HELD */
		ssize_t ret;
		int err;

		errno = 0;
		ret = fds[w->target] >= 0 ?
		      write(fds[w->target], w->buf ?: unreadable, len) : -1;
		err = errno;
		if (w->err) {
			pass = pass && ret == -1 && err == w->err &&
			       holds_alone(id, HELD);
			snprintf(expected, sizeof(expected), "%s, nothing changes",
				 errno_name(w->err));
		} else {
			pass = pass && ret == (ssize_t)len &&
			       holds_alone(id, w->usecs);
			snprintf(expected, sizeof(expected), "accepted, holds %d us",
				 w->usecs);
		}
		if (ret != (w->err ? -1 : (ssize_t)len) || (w->err && err != w->err))
			ksft_print_msg("write returned %zd, %s\n", ret,
				       ret < 0 ? errno_name(err) : "no error");
		show_input(w, len, input, sizeof(input));
		ksft_test_result(pass, "- write %s (%s)%s: %s\n", input, w->name,
				 target_name[w->target], expected);
	}
	for (i = 0; i < ARRAY_SIZE(fds); i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* One read(2) of the whole of @path: the reference for the short reads. */
static ssize_t read_once(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, size);

	if (n >= 0 && read(fd, buf + n, size - n) != 0)
		n = -1;			/* more than one read's worth */
	if (fd >= 0)
		close(fd);
	return n;
}

/*
 * Read @fd from its position to EOF in pieces of at most @piece bytes; the
 * byte count, or -1 on an error or when it does not fit in @size - 1 bytes.
 */
static ssize_t read_pieces(int fd, char *buf, size_t size, size_t piece)
{
	size_t len = 0;

	while (len < size - 1) {
		size_t want = size - 1 - len < piece ? size - 1 - len : piece;
		ssize_t r = read(fd, buf + len, want);

		if (r < 0)
			return -1;
		if (!r)
			return len;
		len += r;
	}
	return -1;
}

/*
 * Short reads, seeks and pread() on @path, whose whole content a single read
 * returns as @full, @n bytes.  Every way must give exactly a piece of it.
 */
static bool short_reads(const char *path, const char *full, ssize_t n)
{
	static const size_t pieces[] = { 1, 2, 7, 100 };
	char buf[LISTING_MAX];
	bool pass = n > 0;
	unsigned int i;
	int fd;

	fd = open(path, O_RDONLY);
	for (i = 0; pass && i < ARRAY_SIZE(pieces); i++) {
		ssize_t len;

		pass = lseek(fd, 0, SEEK_SET) == 0;
		len = read_pieces(fd, buf, sizeof(buf), pieces[i]);
		if (len != n || memcmp(buf, full, n)) {
			ksft_print_msg("%s: %zu-byte reads gave %zd bytes, want %zd\n",
				       path, pieces[i], len, n);
			pass = false;
		}
	}
	if (fd >= 0)
		close(fd);
	return pass;
}

static bool seeks(const char *path, const char *full, ssize_t n)
{
	char buf[LISTING_MAX];
	bool pass = n > 0;
	ssize_t off;
	int fd;

	fd = open(path, O_RDONLY);
	for (off = 0; pass && off <= n; off++) {
		pass = lseek(fd, off, SEEK_SET) == off &&
		       read_pieces(fd, buf, sizeof(buf), sizeof(buf)) == n - off &&
		       !memcmp(buf, full + off, n - off) &&
		       pread(fd, buf, sizeof(buf), off) == n - off &&
		       !memcmp(buf, full + off, n - off);
		if (pass && off < n)
			pass = lseek(fd, off, SEEK_SET) == off &&
			       read(fd, buf, 1) == 1 && buf[0] == full[off] &&
			       lseek(fd, 0, SEEK_CUR) == off + 1;
		if (!pass)
			ksft_print_msg("%s: offset %zd reads wrong\n", path, off);
	}
	if (fd >= 0)
		close(fd);
	return pass;
}

static bool seek_bounds(const char *path, ssize_t n)
{
	char buf[16];
	bool pass;
	int fd;

	fd = open(path, O_RDONLY);
	errno = 0;
	pass = fd >= 0 && lseek(fd, n + 100, SEEK_SET) == n + 100 &&
	       read(fd, buf, sizeof(buf)) == 0 &&
	       pread(fd, buf, sizeof(buf), n + 5) == 0 &&
	       lseek(fd, -1, SEEK_SET) == -1 && errno == EINVAL;
	if (!pass)
		ksft_print_msg("%s: seeks past the end or before 0: %s\n", path,
			       strerror(errno));
	if (fd >= 0)
		close(fd);
	return pass;
}

/* Reads of the device and of the listing. */
static void test_reads(void)
{
	char full[LISTING_MAX], buf[32];
	ssize_t n;
	bool pass;
	int fd;

	n = read_once(DEV, full, sizeof(full) - 1);
	if (n > 0)
		full[n] = '\0';
	pass = n > 1 && full[n - 1] == '\n' &&
	       strspn(full, "0123456789") == (size_t)n - 1 &&
	       atoi(full) == base.system;
	result(pass, "read of " DEV " returns the system value as decimal text and a newline");
	result(short_reads(DEV, full, n),
	       "reads of " DEV " in pieces of 1, 2, 7, 100 bytes give the text, then EOF");
	result(seeks(DEV, full, n),
	       "lseek SEEK_SET, SEEK_CUR and pread on " DEV " read from the offset");
	result(seek_bounds(DEV, n),
	       "read past the end of " DEV " is EOF; lseek to -1 is EINVAL");

	fd = open(DEV, O_RDONLY);
	errno = 0;
	pass = fd >= 0 && read(fd, buf, 0) == 0 && read(fd, unreadable, 4) == -1 &&
	       errno == EFAULT && read(fd, buf, sizeof(buf)) == n;
	if (fd >= 0)
		close(fd);
	result(pass, "read of " DEV ": 0 bytes gives 0, into a PROT_NONE page EFAULT; pos kept");

	n = read_once(LISTING, full, sizeof(full) - 1);
	if (n > 0)
		full[n] = '\0';
	pass = n > 0 && !strncmp(full, HEADER "\n", strlen(HEADER) + 1) &&
	       full[n - 1] == '\n' && memrchr(full, '\n', n - 1) &&
	       !strncmp((char *)memrchr(full, '\n', n - 1) + 1, "# system ", 9);
	result(pass && at_base(),
	       "one read of " LISTING " gives it whole: header to system line, then EOF");
	result(short_reads(LISTING, full, n),
	       "reads of " LISTING " in pieces of 1, 2, 7, 100 bytes give exactly one whole read");
	result(seeks(LISTING, full, n),
	       "lseek SEEK_SET, SEEK_CUR and pread on " LISTING " at every offset read the rest");
	result(seek_bounds(LISTING, n),
	       "read past the end of " LISTING " is EOF; lseek to -1 is EINVAL");

	fd = open(LISTING, O_RDONLY);
	errno = 0;
	pass = fd >= 0 && read(fd, unreadable, 4) == -1 && errno == EFAULT &&
	       read_pieces(fd, full, sizeof(full), sizeof(full)) == n;
	if (fd >= 0)
		close(fd);
	result(pass, "read of " LISTING " into a PROT_NONE page is EFAULT; the position stays");
}

static void test_inherited(void)
{
	char id[64];
	bool pass;
	pid_t pid;
	int fd, status;

	fd = open_holder(id, sizeof(id));
	pass = fd >= 0 && wr_str(fd, "250\n");
	pid = fork();
	if (!pid) {
		/* The child's write changes the opener's holder, then it exits. */
		_exit(wr_str(fd, "260\n") ? 0 : 1);
	}
	pass = pass && pid > 0 && waitpid(pid, &status, 0) == pid &&
	       WIFEXITED(status) && !WEXITSTATUS(status) && holds(id, 260) &&
	       find(&cur, id)->pid == getpid();
	if (fd >= 0)
		close(fd);
	pass = pass && at_base();
	result(pass, "a forked child shares the holder; it lasts until the last close");
}

static void test_sigkill(void)
{
	int ready[2], status = 0;
	char c;
	bool pass;
	pid_t pid;

	if (pipe(ready)) {
		result(false, "SIGKILL of a holding process releases its constraint");
		return;
	}
	pid = fork();
	if (!pid) {
		int fd = open(DEV, O_WRONLY);

		c = fd >= 0 && wr_str(fd, "120\n") ? 'y' : 'n';
		if (write(ready[1], &c, 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(ready[1]);
	pass = pid > 0 && read(ready[0], &c, 1) == 1 && c == 'y';
	close(ready[0]);
	read_listing(&cur);
	pass = pass && count_pid(&cur, pid) == 1;
	for (int i = 0; pass && i < cur.n; i++)
		if (user_holder(&cur.h[i]) && cur.h[i].pid == pid)
			pass = cur.h[i].usecs == 120 && cur.h[i].pid == pid &&
			       cur.system == expect(120);
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	pass = pass && WIFSIGNALED(status) && at_base();
	result(pass, "SIGKILL of a holding process releases its constraint");
}

/* Run @fn as user nobody in a child; true if it returned 0. */
static bool as_nobody(int (*fn)(void *), void *arg)
{
	int status;
	pid_t pid = fork();

	if (!pid) {
		if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
			_exit(100);
		_exit(fn(arg));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return false;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		ksft_print_msg("unprivileged child: status %#x\n", status);
	return WIFEXITED(status) && !WEXITSTATUS(status);
}

static int nobody_open(void *unused)
{
	int bad = 0;

	(void)unused;

	if (open(DEV, O_WRONLY) >= 0 || errno != EACCES)
		bad |= 1;
	if (open(DEV, O_RDWR) >= 0 || errno != EACCES)
		bad |= 2;
	return bad;
}

/*
 * Try to reach root's holder by reopening it through root's /proc fd link
 * or through our own (the child inherited the descriptor, but a reopen is
 * a new open of the 0600 node), or to write the listing.
 */
static int nobody_change(void *arg)
{
	const char *const *paths = arg;
	int bad = 0, fd, i;

	for (i = 0; i < 3; i++) {
		fd = open(paths[i], O_WRONLY);
		if (fd >= 0) {
			bad |= 1 << i;
			if (write(fd, "5\n", 2) == 2)
				bad |= 8 << i;
			close(fd);
		}
	}
	return bad;
}

static void test_unprivileged(void)
{
	char id[64], theirs[64], ours[64];
	const char *paths[3] = { theirs, ours, LISTING };
	bool pass;
	int fd;

	result(as_nobody(nobody_open, NULL) && at_base(),
	       "an unprivileged user cannot open the device for writing");

	fd = open_holder(id, sizeof(id));
	snprintf(theirs, sizeof(theirs), "/proc/%d/fd/%d", getpid(), fd);
	snprintf(ours, sizeof(ours), "/proc/self/fd/%d", fd);
	pass = fd >= 0 && wr_str(fd, "500\n") &&
	       as_nobody(nobody_change, paths) && holds(id, 500);
	if (fd >= 0)
		close(fd);
	pass = pass && at_base();
	result(pass, "an unprivileged user cannot change root's constraint");
}

static void test_many(void)
{
	char val[16];
	int fds[MANY], i, j;
	bool pass = true;

	for (i = 0; i < MANY; i++)
		fds[i] = -1;
	for (i = 0; i < MANY; i++) {
		fds[i] = open(DEV, O_WRONLY);
		if (fds[i] < 0) {
			ksft_perror("open");
			pass = false;
			break;
		}
		snprintf(val, sizeof(val), "%d\n", 1000 + i);
		if (!wr_str(fds[i], val))
			pass = false;
	}
	read_listing(&cur);
	pass = pass && cur.ok && count_pid(&cur, getpid()) == MANY &&
	       cur.system == expect(1000);
	/* Every identifier is different. */
	for (i = 0; pass && i < cur.n; i++)
		for (j = i + 1; j < cur.n; j++)
			if (!strcmp(cur.h[i].id, cur.h[j].id))
				pass = false;
	/* Release the odd ones first: the system value must not move. */
	for (i = 1; i < MANY; i += 2)
		if (fds[i] >= 0)
			close(fds[i]);
	read_listing(&cur);
	pass = pass && count_pid(&cur, getpid()) == (MANY + 1) / 2 &&
	       cur.system == expect(1000);
	for (i = 0; i < MANY; i += 2)
		if (fds[i] >= 0)
			close(fds[i]);
	pass = pass && at_base();
	result(pass, "200 holders at once, each with its own identifier, all released");
}

/*
 * MANY writers that never write, MANY readers of the device and MANY of the
 * listing, all open at once: the writers are listed with no constraint and
 * move nothing, the readers hold nothing, every listing reads whole.
 */
static void test_many_open(void)
{
	int w[MANY], r[MANY], l[MANY], i, n = 0;
	char *buf = malloc(LISTING_MAX);
	bool pass = !!buf;

	for (i = 0; i < MANY; i++) {
		w[i] = open(DEV, O_WRONLY);
		r[i] = open(DEV, O_RDONLY);
		l[i] = open(LISTING, O_RDONLY);
		if (w[i] < 0 || r[i] < 0 || l[i] < 0)
			pass = false;
	}
	read_listing(&cur);
	for (i = 0; i < cur.n; i++)
		if (cur.h[i].pid == getpid() && cur.h[i].usecs == INFINITE_LATENCY)
			n++;
	pass = pass && cur.ok && n == MANY && count_pid(&cur, getpid()) == MANY &&
	       cur.n == base.n + MANY && cur.system == base.system;
	for (i = 0; pass && i < MANY; i++) {
		ssize_t len = read_pieces(l[i], buf, LISTING_MAX, 7);

		pass = len > 0 && (size_t)len < LISTING_MAX &&
		       dev_value() == base.system;
		if (pass) {
			buf[len] = '\0';
			pass = !!strstr(buf, "\n# system ");
		}
	}
	for (i = 0; i < MANY; i++) {
		if (w[i] >= 0)
			close(w[i]);
		if (r[i] >= 0)
			close(r[i]);
		if (l[i] >= 0)
			close(l[i]);
	}
	free(buf);
	pass = pass && at_base();
	result(pass, "200 silent writers, 200 readers, 200 listings open at once change nothing");
}

static void test_concurrent(void)
{
	const int procs = 8, loops = 100;
	pid_t pids[8];
	bool pass = true;
	int i, status;

	for (i = 0; i < procs; i++) {
		pids[i] = fork();
		if (!pids[i]) {
			char buf[16];
			int n;

			for (n = 0; n < loops; n++) {
				int fd = open(DEV, O_RDWR);

				snprintf(buf, sizeof(buf), "%d\n", 600 + n);
				if (fd < 0 || !wr_str(fd, buf) ||
				    read(fd, buf, sizeof(buf)) <= 0)
					_exit(1);
				close(fd);
			}
			_exit(0);
		}
		if (pids[i] < 0)
			pass = false;
	}
	for (i = 0; i < procs; i++) {
		if (pids[i] <= 0)
			continue;
		if (waitpid(pids[i], &status, 0) != pids[i] ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			pass = false;
	}
	pass = pass && at_base();
	result(pass, "8 processes opening, writing and closing at once leave nothing behind");
}

int main(void)
{
	int logged;
	FILE *f;

	ksft_print_header();
	/* One line per result() below; test_writes() has NR_WRITES. */
	ksft_set_plan(3 + 4 + 1 + NR_WRITES + 10 + 1 + 1 + 1 + 1 + 2 + 1 + 1 + 1);

	f = fopen("/proc/self/comm", "r");
	if (!f || !fgets(comm, sizeof(comm), f))
		ksft_exit_fail_msg("cannot read /proc/self/comm\n");
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	if (geteuid())
		ksft_exit_fail_msg("must run as root\n");

	unreadable = mmap(NULL, KIB4, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);
	if (unreadable == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));

	read_listing(&base);
	ksft_print_msg("start: %d holders, system %d us\n", base.n, base.system);

	test_device_node();
	test_listing_format();
	if (access(DEV, F_OK) || access(LISTING, F_OK))
		ksft_exit_fail_msg("no " DEV " or " LISTING "\n");
	test_read_only_open();
	test_hold_release();		/* 4 */
	test_two_holders();

	/* Bad input for every entry: none of it may reach the kernel log. */
	kmsg_start();
	test_writes();			/* NR_WRITES */
	test_reads();			/* 10 */
	test_many();
	test_many_open();
	logged = kmsg_new_records(INT_MAX);
	if (logged < 0)
		ksft_test_result_skip("- the bad input above logs nothing: no /dev/kmsg\n");
	else
		result(!logged && at_base(),
		       "the bad input above (writes, reads, seeks, opens) logs nothing to the kernel log");

	test_inherited();
	test_sigkill();
	test_unprivileged();		/* 2 */
	test_concurrent();

	result(at_base(), "the registry ends as it started");
	ksft_finished();
}
