/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gate_keys.h: the order gate_sort.c sorts by. */
#ifndef GATE_KEYS_H
#define GATE_KEYS_H

int compare_keys(const void* a, const void* b);

#endif
