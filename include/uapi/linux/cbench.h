/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * cbench generic-netlink protocol, shared by cbench.ko and cbenchctl.
 *
 * Family name CBENCH_GENL_NAME, version CBENCH_GENL_VERSION.  Every request
 * is validated against its command's own strict policy: an attribute the
 * command does not take (below, each command lists all it takes), an
 * unknown attribute or a wrong length is refused with -EINVAL, a value
 * outside a range the policy states with -ERANGE, each pointing at the
 * attribute (NLMSGERR_ATTR_OFFS).  A missing required attribute is refused
 * with -EINVAL and its type in NLMSGERR_ATTR_MISS_TYPE.  Limits set by
 * module parameters are checked after the policy and refused with -E2BIG.
 *
 * Privilege: every command except CBENCH_CMD_INFO needs CAP_SYS_ADMIN in the
 * initial user namespace (GENL_ADMIN_PERM plus a check against the socket).
 * An unprivileged request is refused with -EPERM.  The family is not
 * netns-aware: it exists in the initial network namespace only.
 *
 * Errors: a refused request gets -errno in the netlink error message and,
 * where the module can say more than the errno, an extended-ack text
 * (NLMSGERR_ATTR_MSG) and the offending attribute (NLMSGERR_ATTR_OFFS).
 * Ask for them with the NETLINK_EXT_ACK socket option.
 *
 * Integers: NLA_U64 attributes are 64-bit aligned by padding attributes of
 * type 0 (CBENCH_A_UNSPEC, or the nest's *_UNSPEC); readers skip them.
 *
 * CBENCH_CMD_INFO (GET, unprivileged)
 *   request: no attributes
 *   reply:   one message, CBENCH_CMD_INFO, with
 *     CBENCH_A_INFO_VERSION          NLA_NUL_STRING  module version
 *     CBENCH_A_INFO_ABI              NLA_U32         CBENCH_ABI_VERSION it runs
 *     CBENCH_A_INFO_CPU_VENDOR       NLA_NUL_STRING  CPUID vendor string
 *     CBENCH_A_INFO_CPU_FAMILY       NLA_U32         display family
 *     CBENCH_A_INFO_CPU_MODEL        NLA_U32         display model
 *     CBENCH_A_INFO_CPU_STEPPING     NLA_U32
 *     CBENCH_A_INFO_CPU_HYPERVISOR   NLA_FLAG        CPUID.1:ECX[31] set: a VM
 *     CBENCH_A_INFO_TSC_KHZ          NLA_U64         kernel's tsc_khz; absent if 0
 *     CBENCH_A_INFO_TSC_FLAGS        NLA_U32         CBENCH_TSC_F_*
 *     CBENCH_A_INFO_PMU_VERSION      NLA_U32         0 = no counters enumerated
 *     CBENCH_A_INFO_PMU_GP_COUNTERS  NLA_U32         general counters per CPU
 *     CBENCH_A_INFO_PMU_GP_BITS      NLA_U32         their width in bits
 *     CBENCH_A_INFO_PMU_FIXED_COUNTERS NLA_U32       fixed counters per CPU
 *     CBENCH_A_INFO_PMU_FIXED_BITS   NLA_U32         their width in bits
 *     CBENCH_A_INFO_PMU_EVENTS       NLA_U32         CBENCH_COUNTER_F_* CPUID
 *                                                    says can be counted
 *     CBENCH_A_INFO_COUNTERS         NLA_U32         CBENCH_COUNTER_F_* perf
 *                                                    lent the module at load
 *     CBENCH_A_INFO_COUNTERS_CPU     NLA_U32         the CPU it asked on
 *     CBENCH_A_INFO_LIMITS           NLA_NESTED      CBENCH_A_LIMIT_*
 *     CBENCH_A_INFO_LIVE             NLA_NESTED      CBENCH_A_LIVE_*
 *
 *   The PMU attributes describe what CPUID enumerates on the CPU that loaded
 *   the module: Intel's leaf 0AH (PMU_VERSION is CPUID.0AH:EAX[7:0]), or on
 *   AMD PerfMonV2 (version 2), the core counter extension or, on bare metal,
 *   the legacy counters (version 1), 48 bits wide, no fixed counters.
 *   PMU_VERSION 0 means CPUID enumerates no counters; the other PMU
 *   attributes are then absent, never 0 (and PMU_FIXED_BITS is absent
 *   without fixed counters).  CBENCH_A_INFO_COUNTERS says which counters the
 *   module could actually reserve through perf when it was loaded.  On a
 *   machine without a PMU (most VMs) PMU_VERSION and COUNTERS are 0: the
 *   module measures with the TSC alone.
 *
 * CBENCH_CMD_PROBE_COUNTERS (privileged)
 *   request: CBENCH_A_PROBE_CPU      NLA_U32         an online CPU
 *   reply:   one message, CBENCH_CMD_PROBE_COUNTERS, with
 *     CBENCH_A_PROBE_CPU             NLA_U32         the CPU asked about
 *     CBENCH_A_PROBE_COUNTERS        NLA_U32         CBENCH_COUNTER_F_* perf
 *                                                    lends on it right now
 *   The module asks perf for a pinned per-CPU kernel counter for each event
 *   on that CPU, as a run would, and releases it at once.  Privileged since
 *   each probe reserves counters other perf users may be using; INFO reports
 *   the answer at load instead.  -EINVAL if the CPU is missing or offline.
 *
 *   As a dump (NLM_F_DUMP), with no attributes: one message as above for
 *   every online CPU, in CPU order.  What the generic-netlink core refuses
 *   (CAP_NET_ADMIN, the policy) comes back in an error message as usual;
 *   what the module refuses (CAP_SYS_ADMIN, attributes) in the dump's
 *   NLMSG_DONE, with its extended-ack text.
 *
 *
 * Running a benchmark
 * -------------------
 * A client uploads a benchmark image, maps it, starts runs on it, reads
 * their samples and deletes what it made.  Images and runs belong to the
 * netlink socket that created them: only that socket can use them, and
 * closing it frees them (a run in progress is cancelled first).  It is the
 * socket, not its port id: a new socket given the port id of a closed one
 * reaches none of the closed one's objects.  Objects are named by u32 ids
 * the module picks, never 0, images and runs each numbered on their own
 * (an image and a run may have the same id); an id is unique among the
 * objects of its type, and one freed is given again only after every other.
 *
 * An image is the benchmark's PT_LOAD segments laid out from offset 0 as
 * they map, with every R_X86_64_RELATIVE slot already holding its
 * image-relative target (cbenchctl's kimage does this and refuses anything
 * else).  The module adds the image's address to each slot, then makes the
 * text pages read-only and executable; no page is ever writable and
 * executable at once.
 *
 * CBENCH_CMD_IMAGE_NEW (privileged)
 *   request: CBENCH_A_IMAGE_BYTES   NLA_U64  1 .. LIMIT_IMAGE_BYTES
 *   reply:   CBENCH_CMD_IMAGE_NEW with CBENCH_A_IMAGE_ID (NLA_U32).
 *   -ENOSPC when the socket already holds CBENCH_IMAGES_PER_CLIENT images.
 *
 * CBENCH_CMD_IMAGE_CHUNK (privileged)
 *   request: CBENCH_A_IMAGE_ID      NLA_U32
 *            CBENCH_A_CHUNK_OFFSET  NLA_U64  must equal the bytes sent so far
 *            CBENCH_A_CHUNK_DATA    NLA_BINARY 1 .. CBENCH_CHUNK_MAX_BYTES
 *   reply:   ack only.  Chunks arrive in order; one out of order, past the
 *   image end, or after IMAGE_MAP is refused with -EINVAL and the image
 *   stays as it was (the client may resend the right chunk).
 *
 * CBENCH_CMD_IMAGE_MAP (privileged)
 *   request: CBENCH_A_IMAGE_ID      NLA_U32
 *            CBENCH_A_IMAGE_TEXT    NLA_BINARY  array of struct cbench_range:
 *                                   the executable ranges, page-aligned,
 *                                   sorted, disjoint; 1 .. CBENCH_TEXT_MAX
 *            CBENCH_A_IMAGE_RELOCS  NLA_BINARY  array of __u64 slot offsets,
 *                                   8-byte aligned, strictly increasing,
 *                                   outside text, targets inside the image;
 *                                   optional, at most CBENCH_RELOCS_MAX
 *            CBENCH_A_IMAGE_CRC32   NLA_U32  CRC-32 (IEEE 802.3, as zlib's
 *                                   crc32()) of the image's bytes as the
 *                                   client built them, before relocation;
 *                                   optional (cbenchctl always sends it)
 *   reply:   ack only.  Needs every byte uploaded; an image maps once.
 *   -EBADMSG when the bytes received do not give CBENCH_A_IMAGE_CRC32 (a
 *   byte changed on the way, or a chunk's data that is not what the client
 *   built, at the right offset): the image never maps
 *   then; delete it and upload again.
 *
 * CBENCH_CMD_IMAGE_DEL (privileged)
 *   request: CBENCH_A_IMAGE_ID      NLA_U32
 *   reply:   ack only; -EBUSY while a run of the image exists (delete the
 *   runs first).  If deleted runs are still stopping, the image is freed
 *   when the last of them has stopped (INFO's live images count it till then).
 *
 * CBENCH_CMD_RUN_START (privileged)
 *   request: CBENCH_A_IMAGE_ID      NLA_U32  a mapped image
 *            CBENCH_A_RUN_ENTRY     NLA_U64  offset of run(): in text, endbr64
 *            CBENCH_A_RUN_SETUP     NLA_U64  offset of setup(); optional
 *            CBENCH_A_RUN_REPS      NLA_U64  reps of the first sample, 1 .. 2^48
 *            CBENCH_A_RUN_REPS_STEP NLA_U64  sample i does REPS + i * REPS_STEP
 *                                   reps (a sweep, for tuning); optional,
 *                                   0; the last sample's, REPS +
 *                                   (SAMPLES - 1) * REPS_STEP, at most 2^48
 *                                   (else -ERANGE)
 *            CBENCH_A_RUN_SAMPLES   NLA_U32  1 .. LIMIT_SAMPLES
 *            CBENCH_A_RUN_CPU       NLA_U32  an online CPU
 *            CBENCH_A_RUN_ARENA_BYTES NLA_U64 0 .. LIMIT_ARENA_BYTES
 *            CBENCH_A_RUN_PARAM     NLA_S64  ctx->param; optional, 0
 *            CBENCH_A_RUN_ARGS      NLA_NESTED the parameter set ctx->args
 *                                   points to (cbench.h, ABI 3): 1 ..
 *                                   CBENCH_ARGS_MAX nests, in key order, of
 *                                   type CBENCH_A_ARG, each holding
 *              CBENCH_A_ARG_KEY     NLA_NUL_STRING the key, 1 .. 63 bytes
 *              CBENCH_A_ARG_INT     NLA_S64  the value (a string's index)
 *              CBENCH_A_ARG_STR     NLA_NUL_STRING a string value, 1 .. 31
 *                                   bytes; optional (an integer key)
 *                                   (another nest type or a missing KEY or
 *                                   INT: -EINVAL); optional, no args
 *            CBENCH_A_RUN_BEFORE_REP NLA_U64 offset of a per-rep hook called
 *                                   before every timed call of run(); in
 *                                   text, endbr64; optional
 *            CBENCH_A_RUN_AFTER_REP NLA_U64  the same, called after it; optional
 *                                   With either hook every call is of one
 *                                   rep: REPS must be 1 and REPS_STEP 0
 *                                   (else -EINVAL).
 *            CBENCH_A_RUN_BUDGET_NS NLA_U64  IRQ-off budget per sample,
 *                                   1000 .. LIMIT_IRQOFF_NS; optional, the
 *                                   module's default
 *            CBENCH_A_RUN_TP_RECORDS NLA_U32 loop timing points: records
 *                                   each sample's call may leave, 1 ..;
 *                                   SAMPLES * TP_RECORDS at most
 *                                   LIMIT_TP_RECORDS (else -E2BIG);
 *                                   optional, none
 *            CBENCH_A_RUN_TP_EVERY  NLA_U64  record every TP_EVERY-th timing
 *                                   point, 1 .. CBENCH_TP_EVERY_MAX;
 *                                   optional, 1; only with TP_RECORDS
 *                                   (else -EINVAL)
 *            CBENCH_A_RUN_QUIET     NLA_U32  enum cbench_quiet; optional,
 *                                   the module's quiet_mode parameter
 *            CBENCH_A_RUN_WATCHER   NLA_U32  the CPU whose timer watches the
 *                                   calls (another, online one; else
 *                                   -EINVAL); optional, the next CPU up
 *                                   from RUN_CPU that is free
 *   reply:   CBENCH_CMD_RUN_START with CBENCH_A_RUN_ID (NLA_U32).
 *   Each run in progress has a CPU of its own to watch it: a CPU that
 *   measures or watches for a run in progress is refused as RUN_CPU
 *   (-EBUSY), and so is a run for which no CPU is free to watch (the one
 *   asked for measures or watches, or, unasked, every other does), unless
 *   the module was loaded with unwatched_runs=1 and no CPU is free.
 *   The run proceeds in a kernel thread bound to the CPU: setup() with
 *   interrupts on; timed calls with interrupts on, of an empty call (the
 *   cost of timing one), then of one rep and sixteen times more at each
 *   step up to the last sample's reps (the most of any sample), to learn
 *   the duration (the run ends as CBENCH_RUN_TOO_LONG before interrupts
 *   are ever disabled for it if the next step would plainly outlast the
 *   budget, or if the least of up to three calls of all the reps is
 *   longer than it); a calibration of an empty call; then the samples.  A
 *   sample over the budget is flagged CBENCH_SAMPLE_F_OVER_BUDGET; three in a
 *   row end the run as TOO_LONG.  A per-rep hook runs before (after) every
 *   call of run(), the probe's and each sample's, outside the sample:
 *   interrupts on, preemption off, like setup().  A hook that returns
 *   non-zero ends the run as FAILED with its value as the error (-EINVAL
 *   if positive); one whose call takes over CBENCH_HOOK_MAX_NS, as FAILED
 *   with -ETIME.  CBENCH_A_RUN_FAILED_IN then says which.
 *   With TP_RECORDS the module allocates, zeroed, TP_RECORDS records for
 *   each sample and, before every call of run() (the probe's included, which
 *   record into the first sample's records), sets the context's timing-point
 *   state (struct cbench_tp_state of cbench.h): buf at the sample's
 *   records, capacity TP_RECORDS, next 0, every and countdown TP_EVERY.  It
 *   is zero again for setup() and the hooks, and without TP_RECORDS, so
 *   cbench_tpoint() then records nothing.  After the call it reads back
 *   only ctx->tp.next, the points the call took, as a count (TP_TAKEN) and
 *   clamped to TP_RECORDS for the records it sends: what the benchmark
 *   wrote into the other fields, or wherever buf then pointed, is never
 *   read.
 *   -ENOSPC when the socket already has CBENCH_RUNS_PER_CLIENT runs or the
 *   module LIMIT_RUNS runs in progress; -EBUSY when another run (of any
 *   client) is in progress on that CPU; -ENXIO if the CPU went offline.
 *   Every call of benchmark code (setup(), the hooks, run()) is watched
 *   from another CPU: one that has not returned after LIMIT_CALL_MS is
 *   ended by an NMI that resumes the CPU where the module called it; the
 *   run fails (RUN_RECOVERED) and the image is refused for further runs
 *   (-EINVAL, "did not return").  A call that raises an exception the
 *   kernel would otherwise die of (int3 in either encoding, #GP, #DE, #UD
 *   and the other traps that reach the die notifiers, a single step of a
 *   trap flag it set, a page fault: LIMIT_FAULT_NET says how) is ended
 *   where it faulted in the same way: the run fails (RUN_RECOVERED,
 *   RUN_TRAP) and the image is refused ("raised an exception").  Every
 *   call runs on a stack of LIMIT_STACK_BYTES the module provides, with
 *   unmapped pages below it (with LIMIT_STACK_RESERVE_BYTES, aligned to
 *   its size: a ud2 executed while %rsp's bits below LIMIT_STACK_BYTES say
 *   too little is left is how an image's stack checks end a call, as any
 *   #UD); and it must leave RFLAGS' IF, TF, DF, AC, NT
 *   and IOPL as it found them: the module puts them back after each call,
 *   and a call that changed one fails the run with -EPERM
 *   (RUN_FLAGS_CHANGED).  With one CPU online no other can watch:
 *   -EOPNOTSUPP unless LIMIT_UNWATCHED (module parameter unwatched_runs).
 *
 * CBENCH_CMD_RUN_GET (privileged)
 *   request: CBENCH_A_RUN_ID        NLA_U32
 *   reply:   CBENCH_CMD_RUN_GET with
 *     CBENCH_A_RUN_ID            NLA_U32
 *     CBENCH_A_RUN_STATE         NLA_U32  enum cbench_run_state
 *     CBENCH_A_RUN_ERROR         NLA_S32  setup()'s value or -errno; FAILED only
 *     CBENCH_A_RUN_FAILED_IN     NLA_U32  enum cbench_run_stage; FAILED only
 *     CBENCH_A_RUN_RECOVERED     NLA_FLAG a call of the benchmark did not return
 *                                   within LIMIT_CALL_MS, or raised an
 *                                   exception: the module ended it and the CPU
 *                                   was recovered (FAILED, in the stage of that
 *                                   call, with -ETIMEDOUT or, with RUN_TRAP,
 *                                   -EFAULT)
 *     CBENCH_A_RUN_RECOVERED_SIDE NLA_U32 with RECOVERED, of an audit run:
 *                                   the side whose call was ended, 0 A or
 *                                   1 B (setup(), a hook or run()); its
 *                                   RUN_TRAP_OFFSET is in the image whose
 *                                   code faulted
 *     CBENCH_A_RUN_TRAP          NLA_U32  with RECOVERED: the x86 vector of the
 *                                   exception the call raised (0 #DE, 3 #BP,
 *                                   6 #UD, 13 #GP, ...)
 *     CBENCH_A_RUN_TRAP_OFFSET   NLA_U64  with RUN_TRAP: the faulting
 *                                   instruction's offset in its image (for
 *                                   a single step, the instruction after
 *                                   the one stepped)
 *     CBENCH_A_RUN_TRAP_FROM_CALLER NLA_FLAG with RUN_TRAP: the fault was an
 *                                   instruction fetch outside the image, and
 *                                   TRAP_OFFSET is that of the return address
 *                                   at the top of the stack: the call or jump
 *                                   out of it was just before
 *     CBENCH_A_RUN_FAULT_ADDR    NLA_U64  with RUN_TRAP 14 (#PF): the address
 *                                   accessed (CR2)
 *     CBENCH_A_RUN_FAULT_ERROR   NLA_U32  with RUN_TRAP 14: the page fault's
 *                                   error code (bit 1 write, bit 4 fetch)
 *     CBENCH_A_RUN_OOPSED        NLA_FLAG with RUN_TRAP: the kernel printed an
 *                                   oops before the module ended the call
 *                                   (see enum cbench_fault_net); it is
 *                                   tainted (D) from then on
 *     CBENCH_A_RUN_FLAGS_CHANGED NLA_U32  FAILED with -EPERM: the RFLAGS bits
 *                                   a call left changed (0x100 TF, 0x200 IF,
 *                                   0x400 DF, 0x3000 IOPL, 0x4000 NT,
 *                                   0x40000 AC); its samples are refused
 *     CBENCH_A_RUN_STACK_USED    NLA_U64  the most stack any call of the run
 *                                   used so far, in bytes (of LIMIT_STACK_BYTES)
 *     CBENCH_A_RUN_SAMPLES_DONE  NLA_U32  samples recorded so far
 *     CBENCH_A_RUN_DISTURBED     NLA_U32  of those, how many carry flags
 *     CBENCH_A_RUN_COUNTERS      NLA_U32  CBENCH_COUNTER_F_* measured
 *     CBENCH_A_RUN_OVERHEAD      NLA_BINARY struct cbench_ksample: the least
 *                                   cost of an empty call, per field; absent
 *                                   until calibrated
 *     CBENCH_A_RUN_QUIET         NLA_U32  enum cbench_quiet the run measures in
 *     CBENCH_A_RUN_PROBE_TSC     NLA_U64  TSC ticks of the least interrupts-on call
 *     CBENCH_A_RUN_WATCHER       NLA_U32  the CPU reserved to watch the run's
 *                                   calls (none other measures on it or
 *                                   watches another run); absent where none
 *                                   was free (unwatched_runs=1).  Should it
 *                                   go offline before the run's thread
 *                                   starts, or none was free, any other
 *                                   online CPU's timer watches, if any
 *   A client polls this until the state is no longer RUNNING.  The module
 *   sends nothing unasked: a notification could arrive in the middle of the
 *   client's next request and be taken for its reply.
 *
 * CBENCH_CMD_RUN_CANCEL (privileged)
 *   request: CBENCH_A_RUN_ID        NLA_U32
 *   reply:   ack at once; the thread ends the run before its next call of
 *   the benchmark, and RUN_GET then reports CBENCH_RUN_CANCELLED (poll it).
 *   Samples already taken stay readable.  A run that has ended is left alone.
 *   We never wait for the thread in a request: a call already under way (a
 *   long setup(), say) would hold up every generic-netlink user.
 *
 * CBENCH_CMD_RUN_DEL (privileged)
 *   request: CBENCH_A_RUN_ID        NLA_U32
 *   reply:   ack at once; the run is gone for the client.  Its thread is
 *   cancelled and stopped in the background; until it has ended it still
 *   counts against LIMIT_RUNS, and until it is freed, in INFO's live runs.
 *
 * CBENCH_CMD_SAMPLES (privileged, dump)
 *   request: NLM_F_DUMP with CBENCH_A_RUN_ID (NLA_U32)
 *   reply:   messages CBENCH_CMD_SAMPLES, each with
 *     CBENCH_A_RUN_ID            NLA_U32
 *     CBENCH_A_SAMPLES_FIRST     NLA_U32  index of the first sample
 *     CBENCH_A_SAMPLES           NLA_BINARY array of struct cbench_ksample
 *   covering the samples recorded when each message was built, in order; the
 *   dump resumes where the last message ended.  The dump holds the run until
 *   it ends.  What the module refuses (CAP_SYS_ADMIN, a missing run id, a
 *   run that is not this socket's: -ENOENT) comes back in NLMSG_DONE with
 *   its extended-ack text.  A run deleted while its dump is under way ends
 *   the dump with -ENOENT in NLMSG_DONE, unless every sample it recorded
 *   had been sent: a dump that ends with 0 has sent them all.
 *
 * CBENCH_CMD_AUDIT_START (privileged)
 *   An audit run (Lau et al.): two benchmarks, side A and side B, each with
 *   its own entry, reps, arena and parameter, in one image or in two of
 *   the socket's images, measured alternately in a seeded random order in
 *   one kernel thread, so that whatever drifts falls on both alike.
 *   request: CBENCH_A_RUN_CPU       NLA_U32  an online CPU
 *            CBENCH_A_RUN_BUDGET_NS NLA_U64  as for RUN_START; optional
 *            CBENCH_A_RUN_QUIET     NLA_U32  as for RUN_START; optional
 *            CBENCH_A_RUN_WATCHER   NLA_U32  as for RUN_START; optional
 *            CBENCH_A_AUDIT_SEED    NLA_U64  the order's seed; optional, 0
 *            CBENCH_A_AUDIT_PER_SIDE NLA_U32 samples of each side per round,
 *                                   1 .. CBENCH_AUDIT_PER_SIDE_MAX
 *            CBENCH_A_AUDIT_ROUNDS  NLA_U32  rounds, at least 1; the run takes
 *                                   ROUNDS * 2 * PER_SIDE samples, at most
 *                                   LIMIT_SAMPLES (else -E2BIG)
 *            CBENCH_A_AUDIT_SIDES   NLA_NESTED exactly CBENCH_AUDIT_SIDES
 *                                   nests, A then B, of types 1 and 2 (the
 *                                   module ignores the types) and with
 *                                   NLA_F_NESTED set, as on SIDES itself
 *                                   (else -EINVAL), each holding
 *              CBENCH_A_SIDE_IMAGE_ID    NLA_U32  a mapped image of this socket
 *              CBENCH_A_SIDE_ENTRY       NLA_U64  offset of run(), as RUN_ENTRY
 *              CBENCH_A_SIDE_SETUP       NLA_U64  offset of setup(); optional
 *              CBENCH_A_SIDE_REPS        NLA_U64  reps of each of its samples,
 *                                        1 .. 2^48
 *              CBENCH_A_SIDE_ARENA_BYTES NLA_U64  its own arena,
 *                                        0 .. LIMIT_ARENA_BYTES; optional
 *              CBENCH_A_SIDE_PARAM       NLA_S64  its ctx->param; optional, 0
 *              CBENCH_A_SIDE_ARGS        NLA_NESTED its ctx->args, as RUN_ARGS
 *              CBENCH_A_SIDE_BEFORE_REP  NLA_U64  per-rep hooks, as RUN_BEFORE_REP
 *              CBENCH_A_SIDE_AFTER_REP   NLA_U64  and RUN_AFTER_REP; optional;
 *                                        with either, the side's REPS is 1
 *   reply:   CBENCH_CMD_AUDIT_START with CBENCH_A_RUN_ID (NLA_U32): a run,
 *   read, cancelled and deleted as any other (RUN_GET, SAMPLES, RUN_CANCEL,
 *   RUN_DEL), and counted against the same limits as RUN_START's.
 *   The order: a state starts as the seed (1 if the seed is 0); each round
 *   lays out PER_SIDE zeros (A) then PER_SIDE ones (B) and shuffles them
 *   with Fisher-Yates, for i from 2 * PER_SIDE - 1 down to 1 swapping
 *   element i with element j = xorshift64*(state) % (i + 1), where
 *   xorshift64* does state ^= state >> 12; state ^= state << 25;
 *   state ^= state >> 27 and returns state * 0x2545F4914F6CDD1D (mod 2^64).
 *   The state carries over from round to round, so a client that asks for
 *   the next rounds with the state it has reached continues the sequence.
 *   The thread calls A's setup() then B's, each on its own arena; probes
 *   the budget as RUN_START does, for A at its reps and then for B at its;
 *   calibrates; then takes the samples in that order.  A missing or
 *   extra side, a side whose image is not this socket's or not mapped, an
 *   entry outside text, or counts past the limits are refused as for
 *   RUN_START, with the offending attribute (inside its side's nest) and
 *   an extended-ack text; a side missing a required attribute names its
 *   type and its nest (NLMSGERR_ATTR_MISS_TYPE, NLMSGERR_ATTR_MISS_NEST),
 *   a side shorter than an attribute header is -ERANGE.  Nothing is
 *   created then.  RUN_GET's CBENCH_A_RUN_PROBE_TSC is the longer side's.
 *
 *   The SAMPLES dump of an audit run adds, to each message,
 *     CBENCH_A_SAMPLES_SIDES     NLA_BINARY __u8 per sample of
 *                                CBENCH_A_SAMPLES: 0 for A, 1 for B
 * CBENCH_CMD_TPOINTS (privileged, dump)
 *   request: NLM_F_DUMP with CBENCH_A_RUN_ID (NLA_U32) of a run started
 *            with CBENCH_A_RUN_TP_RECORDS (else -EINVAL)
 *   reply:   messages CBENCH_CMD_TPOINTS, each with
 *     CBENCH_A_RUN_ID            NLA_U32
 *     CBENCH_A_TP_SAMPLE         NLA_U32  the sample, from 0
 *     CBENCH_A_TP_TAKEN          NLA_U64  timing points its call recorded
 *                                   (ctx->tp.next as the call left it; more
 *                                   than TP_RECORDS: the rest were dropped,
 *                                   or the benchmark wrote its own count)
 *     CBENCH_A_TP_FIRST          NLA_U32  index of the message's first record
 *     CBENCH_A_TP_RECORDS        NLA_BINARY array of struct cbench_tp_krecord;
 *                                   absent when the sample has none
 *   For every sample recorded when each message was built, in order, its
 *   min(TP_TAKEN, TP_RECORDS) records, in order, in as many messages as
 *   they need (a sample without records gets one message without
 *   TP_RECORDS).  Resumes, holds the run, and ends as the SAMPLES dump
 *   does: a run deleted while its dump is under way ends it with -ENOENT in
 *   NLMSG_DONE unless everything recorded had been sent.
 *
 * Samples hold deltas: the TSC and each counter masked to its width, end
 * minus start, around one call of run(ctx, reps).  Counters the module does
 * not measure read 0 in a sample and are absent from CBENCH_A_RUN_COUNTERS;
 * never read them.  A sample with any CBENCH_SAMPLE_F_* flag set was
 * disturbed and must be discarded.
 */
#ifndef _UAPI_LINUX_CBENCH_H
#define _UAPI_LINUX_CBENCH_H

#define CBENCH_GENL_NAME "cbench"
#define CBENCH_GENL_VERSION 1

#include <linux/types.h>

enum cbench_cmd {
	CBENCH_CMD_UNSPEC,
	CBENCH_CMD_INFO,
	CBENCH_CMD_PROBE_COUNTERS,
	CBENCH_CMD_IMAGE_NEW,
	CBENCH_CMD_IMAGE_CHUNK,
	CBENCH_CMD_IMAGE_MAP,
	CBENCH_CMD_IMAGE_DEL,
	CBENCH_CMD_RUN_START,
	CBENCH_CMD_RUN_GET,
	CBENCH_CMD_RUN_CANCEL,
	CBENCH_CMD_RUN_DEL,
	CBENCH_CMD_SAMPLES,
	CBENCH_CMD_AUDIT_START,
	CBENCH_CMD_TPOINTS,
	__CBENCH_CMD_MAX
};
#define CBENCH_CMD_MAX (__CBENCH_CMD_MAX - 1)

/* TSC properties, as the kernel sees them. */
enum cbench_tsc_flag {
	CBENCH_TSC_F_CONSTANT = 1U << 0,	/* X86_FEATURE_CONSTANT_TSC */
	CBENCH_TSC_F_NONSTOP = 1U << 1,		/* X86_FEATURE_NONSTOP_TSC */
	CBENCH_TSC_F_RELIABLE = 1U << 2,	/* X86_FEATURE_TSC_RELIABLE */
	__CBENCH_TSC_F_ALL = (1U << 3) - 1
};

/* Counters, by what they count. */
enum cbench_counter_flag {
	CBENCH_COUNTER_F_INSTRUCTIONS = 1U << 0,	/* instructions retired */
	CBENCH_COUNTER_F_CYCLES = 1U << 1,		/* core cycles */
	CBENCH_COUNTER_F_REF_CYCLES = 1U << 2,		/* reference cycles */
	__CBENCH_COUNTER_F_ALL = (1U << 3) - 1
};

enum cbench_attr {
	CBENCH_A_UNSPEC,
	CBENCH_A_INFO_VERSION,
	CBENCH_A_INFO_ABI,
	CBENCH_A_INFO_CPU_VENDOR,
	CBENCH_A_INFO_CPU_FAMILY,
	CBENCH_A_INFO_CPU_MODEL,
	CBENCH_A_INFO_CPU_STEPPING,
	CBENCH_A_INFO_TSC_KHZ,
	CBENCH_A_INFO_TSC_FLAGS,
	CBENCH_A_INFO_PMU_VERSION,
	CBENCH_A_INFO_PMU_GP_COUNTERS,
	CBENCH_A_INFO_PMU_GP_BITS,
	CBENCH_A_INFO_PMU_FIXED_COUNTERS,
	CBENCH_A_INFO_PMU_FIXED_BITS,
	CBENCH_A_INFO_COUNTERS,
	CBENCH_A_INFO_LIMITS,
	CBENCH_A_INFO_LIVE,
	CBENCH_A_INFO_CPU_HYPERVISOR,
	CBENCH_A_INFO_PMU_EVENTS,
	CBENCH_A_INFO_COUNTERS_CPU,
	CBENCH_A_PROBE_CPU,
	CBENCH_A_PROBE_COUNTERS,
	CBENCH_A_IMAGE_ID,
	CBENCH_A_IMAGE_BYTES,
	CBENCH_A_CHUNK_OFFSET,
	CBENCH_A_CHUNK_DATA,
	CBENCH_A_IMAGE_TEXT,
	CBENCH_A_IMAGE_RELOCS,
	CBENCH_A_RUN_ID,
	CBENCH_A_RUN_ENTRY,
	CBENCH_A_RUN_SETUP,
	CBENCH_A_RUN_REPS,
	CBENCH_A_RUN_SAMPLES,
	CBENCH_A_RUN_CPU,
	CBENCH_A_RUN_ARENA_BYTES,
	CBENCH_A_RUN_PARAM,
	CBENCH_A_RUN_BUDGET_NS,
	CBENCH_A_RUN_STATE,
	CBENCH_A_RUN_ERROR,
	CBENCH_A_RUN_SAMPLES_DONE,
	CBENCH_A_RUN_DISTURBED,
	CBENCH_A_RUN_COUNTERS,
	CBENCH_A_RUN_OVERHEAD,
	CBENCH_A_RUN_PROBE_TSC,
	CBENCH_A_SAMPLES_FIRST,
	CBENCH_A_SAMPLES,
	CBENCH_A_RUN_REPS_STEP,
	CBENCH_A_RUN_BEFORE_REP,
	CBENCH_A_RUN_AFTER_REP,
	CBENCH_A_RUN_FAILED_IN,
	CBENCH_A_AUDIT_SEED,
	CBENCH_A_AUDIT_PER_SIDE,
	CBENCH_A_AUDIT_ROUNDS,
	CBENCH_A_AUDIT_SIDES,
	CBENCH_A_SAMPLES_SIDES,
	CBENCH_A_RUN_TP_RECORDS,
	CBENCH_A_RUN_TP_EVERY,
	CBENCH_A_TP_SAMPLE,
	CBENCH_A_TP_TAKEN,
	CBENCH_A_TP_FIRST,
	CBENCH_A_TP_RECORDS,
	CBENCH_A_RUN_RECOVERED,
	CBENCH_A_RUN_ARGS,
	CBENCH_A_RUN_QUIET,
	CBENCH_A_IMAGE_CRC32,
	CBENCH_A_RUN_TRAP,
	CBENCH_A_RUN_TRAP_OFFSET,
	CBENCH_A_RUN_TRAP_FROM_CALLER,
	CBENCH_A_RUN_FAULT_ADDR,
	CBENCH_A_RUN_FAULT_ERROR,
	CBENCH_A_RUN_OOPSED,
	CBENCH_A_RUN_FLAGS_CHANGED,
	CBENCH_A_RUN_STACK_USED,
	CBENCH_A_RUN_WATCHER,
	CBENCH_A_RUN_RECOVERED_SIDE,
	__CBENCH_A_LAST
};

/*
 * How the measured region of a sample is kept quiet (CBENCH_A_RUN_QUIET).
 * CLI: interrupts off.  LVT: interrupts on, the local APIC's LVT entries
 * (timer, thermal, performance counter, LINT0, LINT1, error) masked and the
 * TSC deadline disarmed, as nanoBench does; every entry is restored after
 * the region, and a timer that came due meanwhile fires then.  Interrupts
 * from elsewhere (IPIs, devices) still arrive: a sample one reached is
 * flagged CBENCH_SAMPLE_F_IRQ.
 */
enum cbench_quiet {
	CBENCH_QUIET_CLI,
	CBENCH_QUIET_LVT,
	__CBENCH_QUIET_LAST
};
#define CBENCH_QUIET_MAX (__CBENCH_QUIET_LAST - 1)

/*
 * How a page fault in benchmark code is ended (CBENCH_A_LIMIT_FAULT_NET).
 * OOPS: the kernel prints an oops first, and the module ends the call from
 * the die notifier; the kernel carries on, tainted (D).  QUIET: the module
 * ends it from the kernel's page_fault_kernel tracepoint before anything is
 * printed, but for an instruction fetch at a user address (a call through
 * a null pointer), which the kernel oopses on whatever the module does.
 */
enum cbench_fault_net {
	CBENCH_FAULT_NET_OOPS,
	CBENCH_FAULT_NET_QUIET,
};
#define CBENCH_A_MAX (__CBENCH_A_LAST - 1)

/* Inside CBENCH_A_INFO_LIMITS: the module's limits, from its parameters. */
enum cbench_limit_attr {
	CBENCH_A_LIMIT_UNSPEC,
	CBENCH_A_LIMIT_IMAGE_BYTES,	/* NLA_U64: largest benchmark image */
	CBENCH_A_LIMIT_ARENA_BYTES,	/* NLA_U64: largest arena */
	CBENCH_A_LIMIT_SAMPLES,		/* NLA_U32: most samples per run */
	CBENCH_A_LIMIT_IRQOFF_NS,	/* NLA_U64: IRQ-off budget per sample */
	CBENCH_A_LIMIT_RUNS,		/* NLA_U32: most concurrent runs */
	CBENCH_A_LIMIT_TP_RECORDS,	/* NLA_U64: most timing-point records
					 * one run holds, all samples together */
	CBENCH_A_LIMIT_CALL_MS,		/* NLA_U32: longest call of benchmark code
					 * before the watchdog ends it */
	CBENCH_A_LIMIT_UNWATCHED,	/* NLA_U32: 1 if runs are taken where no
					 * other CPU can watch (one online CPU) */
	CBENCH_A_LIMIT_QUIET,		/* NLA_U32: enum cbench_quiet of a run that
					 * does not say (module parameter quiet_mode);
					 * absent from a module without LVT mode */
	CBENCH_A_LIMIT_IMAGE_CRC32,	/* NLA_U32: 1, IMAGE_MAP takes
					 * CBENCH_A_IMAGE_CRC32; absent from a module
					 * that does not (send it none: it refuses
					 * attributes it does not know) */
	CBENCH_A_LIMIT_STACK_BYTES,	/* NLA_U64: the stack benchmark code runs
					 * on in ring 0 (module parameter
					 * call_stack_bytes); absent from a module
					 * that calls it on its thread's stack */
	CBENCH_A_LIMIT_FAULT_NET,	/* NLA_U32: enum cbench_fault_net; absent
					 * from a module without one */
	CBENCH_A_LIMIT_STACK_RESERVE_BYTES, /* NLA_U64: what the kernel may need of
					 * the benchmark stack at any point to take
					 * an exception or interrupt there (its
					 * THREAD_SIZE); present only where that
					 * stack is a power of two in size, aligned
					 * to it, so that code can tell from %rsp
					 * alone how much of it is left */
	__CBENCH_A_LIMIT_LAST
};
#define CBENCH_A_LIMIT_MAX (__CBENCH_A_LIMIT_LAST - 1)

/* Inside CBENCH_A_INFO_LIVE: objects clients hold right now. */
enum cbench_live_attr {
	CBENCH_A_LIVE_UNSPEC,
	CBENCH_A_LIVE_IMAGES,		/* NLA_U32 */
	CBENCH_A_LIVE_RUNS,		/* NLA_U32 */
	__CBENCH_A_LIVE_LAST
};
#define CBENCH_A_LIVE_MAX (__CBENCH_A_LIVE_LAST - 1)

/* Inside each nest of CBENCH_A_AUDIT_SIDES: one side of an audit run. */
enum cbench_side_attr {
	CBENCH_A_SIDE_UNSPEC,
	CBENCH_A_SIDE_IMAGE_ID,		/* NLA_U32 */
	CBENCH_A_SIDE_ENTRY,		/* NLA_U64 */
	CBENCH_A_SIDE_SETUP,		/* NLA_U64 */
	CBENCH_A_SIDE_REPS,		/* NLA_U64 */
	CBENCH_A_SIDE_ARENA_BYTES,	/* NLA_U64 */
	CBENCH_A_SIDE_PARAM,		/* NLA_S64 */
	CBENCH_A_SIDE_BEFORE_REP,	/* NLA_U64 */
	CBENCH_A_SIDE_AFTER_REP,	/* NLA_U64 */
	CBENCH_A_SIDE_ARGS,		/* NLA_NESTED, as CBENCH_A_RUN_ARGS */
	__CBENCH_A_SIDE_LAST
};
#define CBENCH_A_SIDE_MAX (__CBENCH_A_SIDE_LAST - 1)

/* Inside CBENCH_A_RUN_ARGS and CBENCH_A_SIDE_ARGS: nests of one type. */
enum cbench_args_attr {
	CBENCH_A_ARGS_UNSPEC,
	CBENCH_A_ARG,			/* NLA_NESTED: CBENCH_A_ARG_* */
	__CBENCH_A_ARGS_LAST
};

/* Inside each CBENCH_A_ARG: one key's value. */
enum cbench_arg_attr {
	CBENCH_A_ARG_UNSPEC,
	CBENCH_A_ARG_KEY,		/* NLA_NUL_STRING */
	CBENCH_A_ARG_INT,		/* NLA_S64 */
	CBENCH_A_ARG_STR,		/* NLA_NUL_STRING */
	__CBENCH_A_ARG_LAST
};
#define CBENCH_A_ARG_MAX (__CBENCH_A_ARG_LAST - 1)

/* Most CBENCH_A_ARG in one RUN_ARGS or SIDE_ARGS (cbench.h's CBENCH_KEYS_MAX). */
#define CBENCH_ARGS_MAX 8

/* Largest CBENCH_A_CHUNK_DATA, in bytes (a netlink attribute holds < 64 KiB). */
#define CBENCH_CHUNK_MAX_BYTES 32768
/* Most executable ranges in CBENCH_A_IMAGE_TEXT. */
#define CBENCH_TEXT_MAX 64
/* Most slots in CBENCH_A_IMAGE_RELOCS (64 KiB of __u64, less the header). */
#define CBENCH_RELOCS_MAX 8000
/* Most images and runs one socket may hold at once. */
#define CBENCH_IMAGES_PER_CLIENT 16
#define CBENCH_RUNS_PER_CLIENT 16
/* Largest CBENCH_A_RUN_REPS. */
#define CBENCH_REPS_MAX (1ULL << 48)
/* Least CBENCH_A_RUN_BUDGET_NS. */
#define CBENCH_BUDGET_MIN_NS 1000
/* Sides of an audit run (CBENCH_A_AUDIT_SIDES): A and B. */
#define CBENCH_AUDIT_SIDES 2
/* Largest CBENCH_A_AUDIT_PER_SIDE: a round's order is 2 * this many bytes. */
#define CBENCH_AUDIT_PER_SIDE_MAX 4096
/* Largest CBENCH_A_RUN_TP_EVERY. */
#define CBENCH_TP_EVERY_MAX (1ULL << 32)

/* A range of image offsets, [start, start + bytes). */
struct cbench_range {
	__u64 start;
	__u64 bytes;
};

/* Counter slots in struct cbench_ksample, by index. */
enum cbench_counter {
	CBENCH_COUNTER_INSTRUCTIONS,
	CBENCH_COUNTER_CYCLES,
	CBENCH_COUNTER_REF_CYCLES,
	CBENCH_COUNTERS
};

/* Why a sample must be discarded. */
enum cbench_sample_flag {
	CBENCH_SAMPLE_F_NMI = 1U << 0,		/* an NMI arrived during it */
	CBENCH_SAMPLE_F_SMI = 1U << 1,		/* an SMI arrived (Intel only) */
	CBENCH_SAMPLE_F_CPU = 1U << 2,		/* not on the run's CPU */
	CBENCH_SAMPLE_F_UNSCHEDULED = 1U << 3,	/* a counter was not counting */
	CBENCH_SAMPLE_F_OVER_BUDGET = 1U << 4,	/* longer than the IRQ-off budget */
	CBENCH_SAMPLE_F_IRQ = 1U << 5,		/* an interrupt arrived (LVT mode) */
	__CBENCH_SAMPLE_F_ALL = (1U << 6) - 1
};

/*
 * One measured call of run(ctx, reps), as the module takes it (cbenchctl's
 * own struct cbench_sample is what a backend hands the pipeline).
 */
struct cbench_ksample {
	__u64 tsc;			/* TSC ticks */
	__u64 counters[CBENCH_COUNTERS];	/* by enum cbench_counter */
	__u32 flags;			/* CBENCH_SAMPLE_F_* */
	__u32 cpu;			/* where it ran */
};

/*
 * One loop timing point, as cbench.h's struct cbench_tp_record: the TSC
 * and the benchmark's iteration count when it was taken.
 */
struct cbench_tp_krecord {
	__u64 tsc;
	__u64 count;
};

/* Where a FAILED run failed (CBENCH_A_RUN_FAILED_IN). */
enum cbench_run_stage {
	CBENCH_STAGE_SETUP = 1,		/* setup() returned non-zero */
	CBENCH_STAGE_BEFORE_REP,	/* before_rep() returned non-zero, or overran */
	CBENCH_STAGE_AFTER_REP,		/* after_rep() returned non-zero, or overran */
	CBENCH_STAGE_RUN,		/* run() (a probe's call or a sample's) */
};

/* Longest call of a per-rep hook, in ns; a longer one fails the run. */
#define CBENCH_HOOK_MAX_NS 50000000ULL

enum cbench_run_state {
	CBENCH_RUN_RUNNING,
	CBENCH_RUN_DONE,	/* every sample taken */
	CBENCH_RUN_CANCELLED,	/* by RUN_CANCEL, RUN_DEL, the socket closing or rmmod */
	CBENCH_RUN_TOO_LONG,	/* one call outlasts the IRQ-off budget */
	CBENCH_RUN_FAILED,	/* see CBENCH_A_RUN_ERROR */
};

#endif /* _UAPI_LINUX_CBENCH_H */
