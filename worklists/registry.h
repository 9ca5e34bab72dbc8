/*
 * registry.h - the one list of schedulers. Adding a scheduler = its file (ending with
 * ORDO_SCHEDULER_DEFINE(id, ...)) + one X(id) line here; the enum, the --wl names, --wl help,
 * the conformance suite and the sweeps all follow from this list.
 */
#ifndef ORDO_WL_REGISTRY_H
#define ORDO_WL_REGISTRY_H

#define ORDO_SCHEDULER_LIST(X) \
	X(strict)              \
	X(fifo)                \
	X(obim)                \
	X(pmod)                \
	X(smq)                 \
	X(smq_sl)              \
	X(mq)                  \
	X(mq_opt)              \
	X(reld)                \
	X(spraylist)           \
	X(wasp)                \
	X(mbq)

#endif
