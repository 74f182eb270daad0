# SPDX-License-Identifier: GPL-2.0-only
#
# The latency-constraint series on Linux 6.12: see README.
#
#   make demo    build the patched kernel, boot it in QEMU, show the subsystem
#   make test    build, boot, run every KUnit case and in-guest test, in
#                the x86_64 guest (acpi_idle) and in the arm64 guest
#                (cpuidle-psci, tickless; harness/arm64/, ARM64=0 skips it)
#   make test-hardened  the same tests on KASAN, lockdep, kmemleak, ...
#   make test-kcsan     the same tests on KCSAN (data races)
#   make test-rt        the same tests on PREEMPT_RT with lockdep's raw
#                       lock nesting and atomic-sleep checks
#   make test-coverage  the same tests, with gcov line and branch coverage
#                       of kernel/latency.c (harness/coverage-results.txt)
#   make build-matrix  tinyconfig, i386, arm64, arm (Tegra, coupled
#                      idle states), clang, sparse, !PROC_FS,
#                      !ACPI, CPU_IDLE=n, KUnit as modules: one line a row
#                      (harness/build-matrix-results.txt)
#   make mutants  apply each of harness/mutants/ alone, make test must fail
#                 (M="NAME ..." for some; harness/mutants-results.txt)
#   make bench   our registry against CPU latency QoS, with 2 and 4 vCPUs
#   make htmldocs  the power book with Documentation/latency.txt and the
#                  kernel-doc API, in build/htmldocs (Sphinx, no boot)
#   make series  the mailable git format-patch series, in build/series/out
#   make series-check  git am it, build every prefix, checkpatch --strict
#   make kernel  apply the series to build/linux-source-6.12 and build it
#   make apply   only lay the series over the base tree
#   make shell   boot the test kernel into an interactive busybox shell
#                (GUEST=arm64 make shell: the arm64 guest's)
#   make deps    install the Debian packages the rest needs
#   make clean   forget the kernel build (keeps the unpacked tree and ccache)
#   make distclean  remove build/ entirely

.PHONY: all demo test mutants test-hardened test-kcsan test-rt test-coverage build-matrix bench htmldocs kernel apply shell deps clean distclean

all: demo

demo:
	@./harness/run.sh demo

test:
	@./harness/run.sh test

mutants:
	@./harness/mutants.sh

test-hardened:
	@FLAVOUR=hardened ./harness/run.sh test

test-kcsan:
	@FLAVOUR=kcsan ./harness/run.sh test

test-rt:
	@FLAVOUR=rt ./harness/run.sh test

test-coverage:
	@FLAVOUR=coverage ./harness/run.sh test

bench:
	@./harness/bench.sh

build-matrix:
	@./harness/build-matrix.sh

htmldocs:
	@./harness/htmldocs.sh

kernel: deps
	@./harness/kernel.sh

apply: deps
	@./harness/apply.sh

shell: kernel
	@./harness/initramfs.sh
	@./harness/boot.sh shell

deps:
	@./harness/install-deps.sh

clean:
	rm -rf build/kbuild* build/initramfs* build/*.log*

distclean:
	rm -rf build

# make series        the mailable series in build/series/out/ (see README)
# make series-check  git am it, build every prefix, checkpatch every patch
.PHONY: series series-check

series:
	@./harness/series.sh

series-check: series
	@./harness/series-check.sh
