package org.jspin.mpi;

import org.jspin.mpi.trace.Tracer;

/**
 * What a traced rank's request carries to the wait that completes it (one reference in the
 * request, so an untraced request is no larger than it was), and how waits and tests record the
 * completions they see.
 *
 * @param tracer     the rank's tracer
 * @param label      the operation's label in its trace
 * @param worldRanks for a receive, the world rank of each rank of its communicator; null for a send
 */
record RequestTrace(Tracer tracer, long label, int[] worldRanks) {
    /** Records the completion {@code s} of this operation in the wait {@code tracer} is in. */
    void completed(Status s) {
        if (worldRanks == null) {
            tracer.completedSend(label);
        } else if (!s.cancelled()) {
            int from = s.source() >= 0 && s.source() < worldRanks.length ? worldRanks[s.source()] : -1;
            tracer.completedReceive(label, s.byteCount(), from, s.tag());
        }
    }

    /** Records the completions of {@code requests} that {@code which} selects (null: all) as one wait. */
    static void waited(Tracer t, Request[] requests, int[] which) {
        if (which == null) {
            for (Request r : requests) {
                r.traceCompletion(t);
            }
        } else {
            for (int i : which) {
                requests[i].traceCompletion(t);
            }
        }
        t.leaveWait();
    }

    /**
     * Records a test that found the requests {@code which} selects (null: all) complete as a wait on
     * them, unless each of them was recorded already (a polling loop that sees them again writes nothing).
     */
    static void tested(Tracer t, Request[] requests, int[] which) {
        int n = which == null ? requests.length : which.length;
        for (int k = 0; k < n; k++) {
            if (requests[which == null ? k : which[k]].tracer() == t) {
                t.enterWait();
                waited(t, requests, which);
                return;
            }
        }
    }
}
