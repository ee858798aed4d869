package org.jspin.nic.engine;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.jspin.error.MpiException;
import org.jspin.nic.Event;
import org.jspin.nic.ProbeListener;
import org.jspin.nic.match.MatchBits;
import org.jspin.nic.match.Matcher;

/**
 * Probes that found nothing and wait ({@code MPI_Probe}, {@code MPI_Mprobe}): answered in the
 * order they were made when a matching message arrives unexpected (a matched probe takes it, and
 * no later probe sees it), failed when the rank they wait on goes.
 */
final class WaitingProbes {
    private final List<Waiting> waiting = new ArrayList<>();

    /** A probe on {@code peer} (-1: any rank) waits for a message matching {@code match}/{@code ignore}. */
    void add(int peer, long match, long ignore, boolean take, ProbeListener listener) {
        waiting.add(new Waiting(peer, match, ignore, take, listener));
    }

    /**
     * Message {@code u} has just been added to {@code unexpected}: answers the waiting probes it
     * matches, in order, until one takes it from there.
     */
    void arrived(Unexpected u, Matcher<?, Unexpected> unexpected) {
        Iterator<Waiting> it = waiting.iterator();
        while (it.hasNext()) {
            Waiting p = it.next();
            if (MatchBits.matches(u.bits, p.match, p.ignore)) {
                it.remove();
                if (p.take) {
                    unexpected.take(p.match, p.ignore); // u: the first match, or an earlier probe had found it
                    p.listener.probed(event(u), u);
                    return;
                }
                p.listener.probed(event(u), null);
            }
        }
    }

    /** Fails the probes waiting on {@code peer}, and those on any rank if {@code anyToo}, with {@code e}. */
    void fail(int peer, boolean anyToo, MpiException e) {
        waiting.removeIf(p -> {
            if (p.peer == peer || (anyToo && p.peer < 0)) {
                p.listener.probed(new Event(Event.Kind.PROBE, p.match, 0, 0, e, false), null);
                return true;
            }
            return false;
        });
    }

    /** Fails every waiting probe with {@code e} (the NIC closes). */
    void failAll(MpiException e) {
        for (Waiting p : waiting) {
            p.listener.probed(new Event(Event.Kind.PROBE, p.match, 0, 0, e, false), null);
        }
        waiting.clear();
    }

    /** @return whether no probe waits */
    boolean isEmpty() {
        return waiting.isEmpty();
    }

    /** @return what a probe that found {@code u} is told */
    static Event event(Unexpected u) {
        return new Event(Event.Kind.PROBE, u.bits, u.length, 0, null, false);
    }

    private record Waiting(int peer, long match, long ignore, boolean take, ProbeListener listener) {
    }
}
