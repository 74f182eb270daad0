/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Trace events of the latency-constraint registry (kernel/latency.c).
 *
 * One event per change of a holder, emitted under the registry lock so that
 * the events appear in the order the changes took effect:
 *
 *   latency_add     a holder appears:       identifier, usecs, system
 *   latency_update  a holder's value is set: identifier, old_usecs, usecs,
 *                                            system (old may equal new)
 *   latency_remove  a holder disappears:    identifier, old_usecs, system
 *
 * @system is the system-wide constraint once the change is made, that is
 * what system_latency_constraint() returns from then on.  A user-space
 * holder of /dev/acceptable_latency is named "user:<seq>".
 *
 * And one event each time a change of the system value reaches the idle
 * CPUs, after the lock is dropped:
 *
 *   latency_idle_wake  old, new: the system value before and after;
 *                      deep: CPUs interrupted because their idle state
 *                      is too deep for @new; shallow: CPUs woken because
 *                      @new allows a deeper state; wait: whether the
 *                      caller waited for the deep ones to leave their state
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM latency

#if !defined(_TRACE_LATENCY_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_LATENCY_H

#include <linux/tracepoint.h>

TRACE_EVENT(latency_add,
	    TP_PROTO(const char *identifier, int usecs, int system),
	    TP_ARGS(identifier, usecs, system),
	    TP_STRUCT__entry(__string(identifier, identifier)
			     __field(int, usecs)
			     __field(int, system)),
	    TP_fast_assign(__assign_str(identifier);
			   __entry->usecs = usecs;
			   __entry->system = system;),
	    TP_printk("identifier=%s usecs=%d system=%d",
		      __get_str(identifier), __entry->usecs, __entry->system)
);

TRACE_EVENT(latency_update,
	    TP_PROTO(const char *identifier, int old_usecs, int usecs,
		     int system),
	    TP_ARGS(identifier, old_usecs, usecs, system),
	    TP_STRUCT__entry(__string(identifier, identifier)
			     __field(int, old_usecs)
			     __field(int, usecs)
			     __field(int, system)),
	    TP_fast_assign(__assign_str(identifier);
			   __entry->old_usecs = old_usecs;
			   __entry->usecs = usecs;
			   __entry->system = system;),
	    TP_printk("identifier=%s old_usecs=%d usecs=%d system=%d",
		      __get_str(identifier), __entry->old_usecs,
		      __entry->usecs, __entry->system)
);

TRACE_EVENT(latency_remove,
	    TP_PROTO(const char *identifier, int old_usecs, int system),
	    TP_ARGS(identifier, old_usecs, system),
	    TP_STRUCT__entry(__string(identifier, identifier)
			     __field(int, old_usecs)
			     __field(int, system)),
	    TP_fast_assign(__assign_str(identifier);
			   __entry->old_usecs = old_usecs;
			   __entry->system = system;),
	    TP_printk("identifier=%s old_usecs=%d system=%d",
		      __get_str(identifier), __entry->old_usecs,
		      __entry->system)
);

TRACE_EVENT(latency_idle_wake,
	    TP_PROTO(int old, int new, unsigned int deep, unsigned int shallow,
		     bool wait),
	    TP_ARGS(old, new, deep, shallow, wait),
	    TP_STRUCT__entry(__field(int, old)
			     __field(int, new)
			     __field(unsigned int, deep)
			     __field(unsigned int, shallow)
			     __field(bool, wait)),
	    TP_fast_assign(__entry->old = old;
			   __entry->new = new;
			   __entry->deep = deep;
			   __entry->shallow = shallow;
			   __entry->wait = wait;),
	    TP_printk("old=%d new=%d deep=%u shallow=%u wait=%d",
		      __entry->old, __entry->new, __entry->deep,
		      __entry->shallow, __entry->wait)
);

#endif /* _TRACE_LATENCY_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
