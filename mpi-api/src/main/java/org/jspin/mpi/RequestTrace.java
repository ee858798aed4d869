package org.jspin.mpi;

import org.jspin.mpi.trace.Tracer;

/**
 * What a traced rank's request carries to the wait that completes it: one reference in the
 * request, so an untraced request is no larger than it was.
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
}
