// SPDX-License-Identifier: GPL-2.0
/*
 * Audit runs: side B and the seeded order (audit.h).  The order is
 * kmod/lib/order.c's, which cbenchctl shares, so a client can check the
 * sides the dump reports and replay a run from its seed.
 */
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "args.h"
#include "audit.h"
#include "lib/order.h"
#include "run.h"

struct cbench_audit *cbench_audit_new(const struct cbench_audit_config *config, u32 samples)
{
	struct cbench_audit *audit;

	audit = kzalloc(sizeof(*audit), GFP_KERNEL);
	if (!audit)
		return NULL;
	audit->order = kmalloc_array(2, config->per_side, GFP_KERNEL);
	audit->sides = kvmalloc(samples, GFP_KERNEL);
	if (config->arena_bytes)
		audit->arena = vzalloc(config->arena_bytes);
	if (!audit->order || !audit->sides || (config->arena_bytes && !audit->arena)) {
		vfree(audit->arena);
		kvfree(audit->sides);
		kfree(audit->order);
		kfree(audit);
		return NULL;
	}
	audit->entry = config->entry;
	audit->setup = config->setup;
	audit->before_rep = config->before_rep;
	audit->after_rep = config->after_rep;
	audit->reps = config->reps;
	audit->ctx.arena = (u64)(unsigned long)audit->arena;
	audit->ctx.arena_bytes = config->arena_bytes;
	audit->ctx.param = (u64)config->param;
	cbench_args_set(&audit->args, &audit->ctx, config->args);
	audit->per_side = config->per_side;
	audit->state = cbench_order_seed(config->seed);
	audit->image = config->image;
	cbench_image_get(audit->image);
	return audit;
}

void cbench_audit_free(struct cbench_audit *audit)
{
	if (!audit)
		return;
	cbench_image_put(audit->image);
	vfree(audit->arena);
	kvfree(audit->sides);
	kfree(audit->order);
	kfree(audit);
}

u32 cbench_run_sides(struct cbench_run *run, struct cbench_pick *side)
{
	struct cbench_audit *audit = run->audit;

	side[0] = (struct cbench_pick){ .entry = run->config.entry, .setup = run->config.setup,
					.before_rep = run->config.before_rep,
					.after_rep = run->config.after_rep, .ctx = &run->ctx,
					.reps = run->config.reps_last };
	if (!audit)
		return 1;
	side[1] = (struct cbench_pick){ .entry = audit->entry, .setup = audit->setup,
					.before_rep = audit->before_rep, .after_rep = audit->after_rep,
					.ctx = &audit->ctx, .reps = audit->reps, .side = 1 };
	return 2;
}

void cbench_run_pick(struct cbench_run *run, u32 i, struct cbench_pick *pick)
{
	struct cbench_audit *audit = run->audit;
	u32 k;

	if (!audit) {
		*pick = (struct cbench_pick){ .entry = run->config.entry,
					      .before_rep = run->config.before_rep,
					      .after_rep = run->config.after_rep, .ctx = &run->ctx,
					      .reps = run->config.reps + i * run->config.reps_step };
		return;
	}
	k = i % (2 * audit->per_side);
	if (!k)
		cbench_order_round(audit->order, audit->per_side, &audit->state);
	audit->sides[i] = audit->order[k];
	if (audit->order[k])
		*pick = (struct cbench_pick){ .entry = audit->entry, .before_rep = audit->before_rep,
					      .after_rep = audit->after_rep, .ctx = &audit->ctx,
					      .reps = audit->reps, .side = 1 };
	else
		*pick = (struct cbench_pick){ .entry = run->config.entry,
					      .before_rep = run->config.before_rep,
					      .after_rep = run->config.after_rep, .ctx = &run->ctx,
					      .reps = run->config.reps };
}
