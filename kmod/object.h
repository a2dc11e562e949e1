/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _CBENCH_OBJECT_H
#define _CBENCH_OBJECT_H

#include <linux/types.h>

struct sock;

/*
 * What the client registry (client.c) keeps of an image or a run: its id,
 * unique among live objects of its type, and the socket that owns it.
 */
struct cbench_object {
	u32 id;				/* never 0 */
	struct sock *owner;		/* held (sock_hold); NULL once deleted or released */
};

#endif /* _CBENCH_OBJECT_H */
