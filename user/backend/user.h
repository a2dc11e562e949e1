/* SPDX-License-Identifier: GPL-2.0 */
/* The user backend (backend_user.c): the benchmark timed in the worker. */
#ifndef _CBENCH_BACKEND_USER_H
#define _CBENCH_BACKEND_USER_H

#include "backend/types.h"

extern const struct cbench_backend_ops cbench_backend_user;

#endif /* _CBENCH_BACKEND_USER_H */
