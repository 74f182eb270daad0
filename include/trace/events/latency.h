/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Trace events of the latency-constraint registry (kernel/latency.c).
 *
 * One event per change of a holder, emitted under the registry lock so that
 * the events appear in the order the changes took effect:
 *
 *   latency_add     a holder appears (old_usecs 1000000)
 *   latency_update  a holder's value is set (old may equal new)
 *   latency_remove  a holder disappears (usecs 1000000)
 *
 * each with identifier, old_usecs, usecs, cpus and system.  @cpus is the
 * set of CPUs the holder's constraint applies to, "all" or a CPU list as
 * the listing gives it ("2-3").  @system is the system-wide constraint once the
 * change is made, that is what system_latency_constraint() returns from
 * then on.  A user-space holder of /dev/acceptable_latency is named
 * "user:<seq>".  A holder that is given a new CPU set is removed and added.
 *
 *   latency_wakeup  a holder of the system wakeup class appears, changes
 *                   or disappears: old_usecs or usecs 2147483647 (S32_MAX,
 *                   no constraint) where it held none, cpus "all", system
 *                   the system wakeup limit (wakeup_latency_constraint())
 *
 * And one event each time a change reaches the idle CPUs, after the lock
 * is dropped:
 *
 *   latency_idle_wake  old: the system value before the change (at the
 *                      call, for synchronize_acceptable_latency()), or the
 *                      wakeup limit for a change of that class; new: the
 *                      smaller of the system value and the wakeup limit
 *                      when the event fires (equal for a change of a
 *                      constraint for some CPUs only, unless another change
 *                      came meanwhile);
 *                      deep: CPUs interrupted because their idle state is
 *                      too deep for their new limit; shallow: CPUs woken
 *                      because their new limit allows a deeper state;
 *                      wait: whether the caller waited for the deep ones
 *                      to leave their state
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM latency

#if !defined(_TRACE_LATENCY_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_LATENCY_H

#include <linux/tracepoint.h>

/*
 * One class for the three: a holder's identifier, its value before and
 * after (INFINITE_LATENCY where it held none), its CPUs, the system value.
 * The CPUs print as the listing prints them, "all" or a CPU list: a width
 * of 0 bits prints no list.
 */
DECLARE_EVENT_CLASS(latency_holder,
		    TP_PROTO(const char *identifier, int old_usecs, int usecs,
			     const struct cpumask *cpus, int system),
		    TP_ARGS(identifier, old_usecs, usecs, cpus, system),
		    TP_STRUCT__entry(__string(identifier, identifier)
				     __field(int, old_usecs)
				     __field(int, usecs)
				     __field(bool, all)
				     __cpumask(cpus)
				     __field(int, system)),
		    TP_fast_assign(__assign_str(identifier);
				   __entry->old_usecs = old_usecs;
				   __entry->usecs = usecs;
				   __entry->all = !cpus;
				   __assign_cpumask(cpus, cpus ?: cpu_possible_mask);
				   __entry->system = system;),
		    TP_printk("identifier=%s old_usecs=%d usecs=%d cpus=%s%*pbl system=%d",
			      __get_str(identifier), __entry->old_usecs,
			      __entry->usecs, __entry->all ? "all" : "",
			      __entry->all ? 0 :
			      __get_dynamic_array_len(cpus) * BITS_PER_BYTE,
			      __get_dynamic_array(cpus), __entry->system)
);

DEFINE_EVENT(latency_holder, latency_add,
	     TP_PROTO(const char *identifier, int old_usecs, int usecs,
		      const struct cpumask *cpus, int system),
	     TP_ARGS(identifier, old_usecs, usecs, cpus, system));

DEFINE_EVENT(latency_holder, latency_update,
	     TP_PROTO(const char *identifier, int old_usecs, int usecs,
		      const struct cpumask *cpus, int system),
	     TP_ARGS(identifier, old_usecs, usecs, cpus, system));

DEFINE_EVENT(latency_holder, latency_remove,
	     TP_PROTO(const char *identifier, int old_usecs, int usecs,
		      const struct cpumask *cpus, int system),
	     TP_ARGS(identifier, old_usecs, usecs, cpus, system));

DEFINE_EVENT(latency_holder, latency_wakeup,
	     TP_PROTO(const char *identifier, int old_usecs, int usecs,
		      const struct cpumask *cpus, int system),
	     TP_ARGS(identifier, old_usecs, usecs, cpus, system));

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
