// SPDX-License-Identifier: GPL-2.0
/* perf_event_open sampling of this thread; see sampler.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <asm/perf_regs.h>

#include "machine/clock.h"
#include "worker/sampler.h"

/* Data pages of the ring buffer (a power of two): 256 KiB holds 16384
 * samples, seconds of them at our rates, and we drain every few ms. */
#define RING_PAGES 64
/* With stacks a sample is kilobytes: a few MiB hold the hundreds of one
 * call; less where perf_event_mlock_kb will not map that much. */
#define RING_PAGES_STACKS 512
#define RING_PAGES_STACKS_LEAST 32
/* A record's size is 16 bits. */
#define RECORD_MAX 65536
/* The registers of struct cbench_sampler_rec, in the order of their bits. */
#define REGS_MASK (((1ULL << (PERF_REG_X86_IP + 1)) - 1) | \
		   (((1ULL << (PERF_REG_X86_R15 + 1)) - 1) & ~((1ULL << PERF_REG_X86_R8) - 1)))
/* How long we count cycles against the clock to turn ns into cycles. */
#define CYCLES_CALIBRATE_NS 10000000LL

static long perf_open(uint32_t type, uint64_t config, uint64_t period, bool exclude_kernel, uint32_t stack)
{
	struct perf_event_attr attr = {
		.type = type,
		.size = sizeof(attr),
		.config = config,
		.sample_period = period,
		.sample_type = period ? PERF_SAMPLE_IP : 0,
		.disabled = 1,
		.exclude_kernel = exclude_kernel,
		.exclude_hv = 1,
	};

	if (period && stack) {
		attr.sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		attr.sample_regs_user = REGS_MASK;
		attr.sample_stack_user = stack;
	}
	return syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static bool refused(int err)
{
	return err == EACCES || err == EPERM;
}

static int read_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int v = -9;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -9;
		fclose(f);
	}
	return v;
}

/*
 * Core cycles per ns, from a cycles counter run against the clock for
 * 10 ms: the sampling period is given in time, and cycles count at a clock
 * we do not know.  0 if the counter will not say.
 */
static double cycles_per_ns(bool exclude_kernel)
{
	long fd = perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, exclude_kernel, 0);
	uint64_t count = 0;
	int64_t start;

	if (fd < 0)
		return 0;
	ioctl((int)fd, PERF_EVENT_IOC_ENABLE, 0);
	start = cbench_now_ns();
	while (cbench_now_ns() - start < CYCLES_CALIBRATE_NS)
		;
	ioctl((int)fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read((int)fd, &count, sizeof(count)) != (ssize_t)sizeof(count))
		count = 0;
	close((int)fd);
	return (double)count / (double)(cbench_now_ns() - start);
}

/* Opens type/config sampling every period units, with the kernel's samples
 * if perf_event_paranoid lets us, else without.  Returns fd or -errno. */
static long open_either(struct cbench_sampler *s, uint32_t type, uint64_t config, uint64_t period)
{
	long fd = perf_open(type, config, period, false, s->stack_bytes);

	s->kernel_excluded = false;
	if (fd < 0 && refused(errno)) {
		fd = perf_open(type, config, period, true, s->stack_bytes);
		s->kernel_excluded = true;
	}
	return fd < 0 ? -errno : fd;
}

/* Maps the ring buffer: the largest that perf lets us lock, with stacks. */
static int map_ring(struct cbench_sampler *s, char *err, size_t errlen)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t pages = s->stack_bytes ? RING_PAGES_STACKS : RING_PAGES;
	void *map;

	for (;;) {
		s->map_bytes = (size_t)page * (1 + pages);
		map = mmap(NULL, s->map_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
		if (map != MAP_FAILED)
			break;
		if (errno != EPERM || !s->stack_bytes || pages <= RING_PAGES_STACKS_LEAST) {
			snprintf(err, errlen, "unable to map perf's ring buffer of %zu bytes: %s%s", s->map_bytes,
				 strerror(errno), errno == EPERM ? " (perf_event_mlock_kb limits it)" : "");
			return -errno;
		}
		pages /= 2;
	}
	s->page = map;
	return 0;
}

int cbench_sampler_open(struct cbench_sampler *s, uint64_t period_ns, uint32_t stack_bytes, char *err,
			size_t errlen)
{
	double cpn;
	long fd;
	int ret;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->stack_bytes = stack_bytes > CBENCH_SAMPLER_STACK_MAX ? CBENCH_SAMPLER_STACK_MAX : stack_bytes & ~7U;
	if (s->stack_bytes) {
		s->rec = malloc(RECORD_MAX);
		if (!s->rec) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
	}
	s->paranoid = read_paranoid();
	/* Cycles where the PMU is exposed: the sample then lands where the
	 * cycles went, which is what a profile of time means. */
	fd = open_either(s, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 1ULL << 40);
	if (fd >= 0) {
		close((int)fd);
		cpn = cycles_per_ns(s->kernel_excluded);
		fd = cpn > 0 ? open_either(s, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
					   (uint64_t)(cpn * (double)period_ns) + 1) : -ENOENT;
		if (fd >= 0) {
			strcpy(s->event, "cycles");
			strcpy(s->period_unit, "cycles");
			s->units_per_ns = cpn;
		}
	}
	if (fd < 0) {
		/* No PMU (every VM here): a hrtimer interrupts us every
		 * period of task clock, wherever we are. */
		s->hw_error = (int)fd;
		fd = open_either(s, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, period_ns);
		strcpy(s->event, "cpu-clock");
		strcpy(s->period_unit, "ns");
		s->units_per_ns = 1;
	}
	if (fd < 0) {
		if (refused((int)-fd))
			snprintf(err, errlen, "perf_event_paranoid is %d, and it refuses to let this user sample "
				 "(perf_event_open: %s): run as root, or allow it with "
				 "'sysctl kernel.perf_event_paranoid=2' (1 to sample the kernel too)",
				 s->paranoid, strerror((int)-fd));
		else
			snprintf(err, errlen, "perf_event_open cannot sample %s here: %s", s->event,
				 strerror((int)-fd));
		free(s->rec);
		s->rec = NULL;
		return (int)fd;
	}
	s->fd = (int)fd;
	ret = map_ring(s, err, errlen);
	if (ret)
		cbench_sampler_close(s);
	return ret;
}

void cbench_sampler_close(struct cbench_sampler *s)
{
	if (s->page)
		munmap(s->page, s->map_bytes);
	if (s->fd >= 0)
		close(s->fd);
	free(s->rec);
	s->rec = NULL;
	s->page = NULL;
	s->fd = -1;
}

int cbench_sampler_enable(struct cbench_sampler *s)
{
	return ioctl(s->fd, PERF_EVENT_IOC_ENABLE, 0) ? -errno : 0;
}

int cbench_sampler_disable(struct cbench_sampler *s)
{
	return ioctl(s->fd, PERF_EVENT_IOC_DISABLE, 0) ? -errno : 0;
}

int cbench_sampler_period(struct cbench_sampler *s, uint64_t period_ns)
{
	uint64_t period = (uint64_t)((double)period_ns * s->units_per_ns);

	period = period ? period : 1;
	return ioctl(s->fd, PERF_EVENT_IOC_PERIOD, &period) ? -errno : 0;
}

/* Copies len bytes at offset from the ring's data, which may wrap. */
static void ring_copy(const struct cbench_sampler *s, uint64_t offset, void *to, size_t len)
{
	const unsigned char *data = (const unsigned char *)s->page + s->page->data_offset;
	uint64_t size = s->page->data_size;
	size_t first;

	offset %= size;
	first = len < size - offset ? len : (size_t)(size - offset);
	memcpy(to, data + offset, first);
	memcpy((unsigned char *)to + first, data, len - first);
}

/*
 * A sample record's fields after its header: the IP, and with stacks
 * (PERF_SAMPLE_REGS_USER, PERF_SAMPLE_STACK_USER) the registers' ABI, the
 * registers, the stack copy's size, the copy, and the part of it that is
 * valid.  A record that does not parse keeps only its IP.
 */
static void parse_sample(const struct cbench_sampler *s, const unsigned char *body, size_t len,
			 struct cbench_sampler_rec *rec)
{
	size_t at = 8;
	uint64_t abi, size, dyn;

	memcpy(&rec->ip, body, sizeof(rec->ip));
	if (!s->stack_bytes || len < at + 8)
		return;
	memcpy(&abi, body + at, 8);
	at += 8;
	if (abi != PERF_SAMPLE_REGS_ABI_NONE) {
		if (len < at + 8 * CBENCH_SAMPLER_NREGS)
			return;
		memcpy(rec->regs, body + at, sizeof(rec->regs));
		at += sizeof(rec->regs);
	}
	if (len < at + 8)
		return;
	memcpy(&size, body + at, 8);
	at += 8;
	if (!size || size > len - at || len - at - size < 8)
		return;
	memcpy(&dyn, body + at + size, 8);
	rec->stack = body + at;
	rec->stack_size = dyn < size ? dyn : size;
	rec->have_regs = abi != PERF_SAMPLE_REGS_ABI_NONE;
}

uint64_t cbench_sampler_drain(struct cbench_sampler *s,
			      void (*fn)(void *arg, const struct cbench_sampler_rec *rec), void *arg)
{
	/* The documented protocol (linux/perf_event.h): read data_head, then
	 * the records, then publish data_tail, with barriers between. */
	uint64_t head = __atomic_load_n(&s->page->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = s->page->data_tail, samples = 0;

	while (tail + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header h;
		uint64_t small[3] = { 0 };
		unsigned char *body = s->rec ? s->rec : (unsigned char *)small;
		size_t len, cap = s->rec ? RECORD_MAX : sizeof(small);
		struct cbench_sampler_rec rec = { 0 };

		ring_copy(s, tail, &h, sizeof(h));
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		len = h.size - sizeof(h) < cap ? h.size - sizeof(h) : cap;
		ring_copy(s, tail + sizeof(h), body, len);
		switch (h.type) {
		case PERF_RECORD_SAMPLE:
			if (len < 8)
				break;
			parse_sample(s, body, len, &rec);
			rec.kernel = (h.misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
			fn(arg, &rec);
			samples++;
			break;
		case PERF_RECORD_LOST:
			if (len >= 16) {
				uint64_t lost[2];

				memcpy(lost, body, sizeof(lost));
				s->lost += lost[1];
			}
			break;
		case PERF_RECORD_THROTTLE:
			s->throttled++;
			break;
		default:
			break;
		}
		tail += h.size;
	}
	__atomic_store_n(&s->page->data_tail, tail, __ATOMIC_RELEASE);
	return samples;
}
