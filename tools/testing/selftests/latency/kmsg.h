/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the kernel logged while a test ran, for the tests that promise that
 * user space cannot make it log anything.  Only records of the kernel
 * facility count: user space may log through /dev/kmsg meanwhile.
 */

#ifndef _LATENCY_SELFTEST_KMSG_H
#define _LATENCY_SELFTEST_KMSG_H

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "kselftest.h"

static int kmsg_fd = -1;

/* Start counting from the end of the log as it is now. */
static void kmsg_start(void)
{
	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kmsg_fd >= 0)
		lseek(kmsg_fd, 0, SEEK_END);
}

/*
 * The kernel records logged since kmsg_start(), the first @max_shown of
 * them printed as diagnostics; -1 when /dev/kmsg could not be opened.
 */
static int kmsg_new_records(int max_shown)
{
	char rec[8192];
	int n = 0;

	if (kmsg_fd < 0)
		return -1;
	for (;;) {
		ssize_t len = read(kmsg_fd, rec, sizeof(rec) - 1);

		if (len < 0 && errno == EPIPE)
			continue;
		if (len <= 0)
			break;
		rec[len] = '\0';
		if (atoi(rec) < 8) {		/* facility 0: the kernel */
			if (n < max_shown)
				ksft_print_msg("kernel logged: %s", rec);
			n++;
		}
	}
	close(kmsg_fd);
	kmsg_fd = -1;
	return n;
}

#endif /* _LATENCY_SELFTEST_KMSG_H */
